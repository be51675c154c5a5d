/**
 * jl-gaussian (src/mechanisms/jl/): what its EpsilonInfo carries (the noise's precision) and what
 * it releases, against the accounting and plain computations of W·x/‖x‖.
 */
import { describe, expect, it } from 'vitest';
import { getMechanism } from '../../src/mechanisms/registry.js';
import { jlGaussianSigma, spectralNorm } from '../../src/privacy/gaussian.js';
import { releaseKnn, type RealSet } from '../../src/lsh/releases.js';
import { makeRng } from '../../src/random/rng.js';
import { UserError } from '../../src/util/errors.js';
import { hashingFor } from '../helpers/mechanisms.js';
import { clusteredVectors, vectorsFromDense } from '../lsh/synthetic.js';

const PRIVACY = { d: 0.1, delta: 0.01 };
const jl = getMechanism('jl-gaussian');

/** W·x/‖x‖ of every user, computed plainly from the planes and the dense rows. */
function noiseless(rows: number[][], planes: Float64Array, kappa: number): Float64Array {
  const n = rows[0]!.length;
  const out = new Float64Array(rows.length * kappa);
  rows.forEach((x, i) => {
    const norm = Math.hypot(...x);
    for (let j = 0; j < kappa; j++) {
      let s = 0;
      for (let c = 0; c < n; c++) s += planes[j * n + c]! * x[c]!;
      out[i * kappa + j] = s / Math.sqrt(kappa) / norm;
    }
  });
  return out;
}

const encode = (vectors: ReturnType<typeof vectorsFromDense>, hashing: ReturnType<typeof hashingFor>, epsilon: number, options: Record<string, unknown> = {}, seed = 'noise') =>
  jl.encode!({ vectors, hashing, rng: makeRng(seed), options }, { epsilon, ldpEpsilon: null, fallback: false }) as RealSet;

describe('jl-gaussian: its accounting', () => {
  it('carries 1/σ of the expected guarantee as its epsilon, the guarantee as its accountant, σ = ∞ at ξ = 0', () => {
    const e = jl.epsilon(5, 20, PRIVACY);
    expect(e.epsilon).toBe(1 / jlGaussianSigma(5, 20, PRIVACY));
    expect(e.accountant).toBe('expected');
    expect(e.ldpEpsilon).toBeGreaterThan(5);
    expect(jl.epsilon(0, 20, PRIVACY).epsilon).toBe(0);
    // every-w: σ in units of σ_max(W); the LDP equivalent does not depend on W
    const w = jl.epsilon(5, 20, PRIVACY, { guarantee: 'every-w' });
    expect(w.accountant).toBe('every-w');
    expect(1 / w.epsilon!).toBeCloseTo((2 * Math.sin(0.05 * Math.PI)) / (Math.sqrt(2.3263478740408408 ** 2 + 10) - 2.3263478740408408), 6);
    expect(jl.epsilon(5, 20, PRIVACY, { guarantee: 'ldp' }).ldpEpsilon).toBe(5);
    expect(() => jl.epsilon(5, 20, PRIVACY, { guarantee: 'every' })).toThrow(/guarantee must be one of expected, every-w, ldp, got "every" \(did you mean "every-w"\?\)/);
  });

  it('states its own budget row: σ, or σ per σ_max(W), with the LDP equivalent and its δ', () => {
    expect(jl.budgetRow!(5, 20, PRIVACY)).toEqual({
      parameter: 'sigma',
      value: jlGaussianSigma(5, 20, PRIVACY),
      epsilon_ldp: jl.epsilon(5, 20, PRIVACY).ldpEpsilon,
      ldp_delta: 0.01,
      accountant: 'expected',
      fallback: null,
      over: 'the public hash functions and the noise',
    });
    const w = jl.budgetRow!(5, 20, PRIVACY, { guarantee: 'every-w' });
    expect(w.parameter).toBe('sigma_per_sigma_max');
    expect(w.value).toBeCloseTo(1 / jl.epsilon(5, 20, PRIVACY, { guarantee: 'every-w' }).epsilon!, 12);
  });
});

describe('jl-gaussian: its release', () => {
  const rng = makeRng('jl-rows');
  const rows = Array.from({ length: 40 }, () => Array.from({ length: 12 }, () => rng() - 0.3));
  const vectors = vectorsFromDense(rows);
  const kappa = 6;
  const hashing = hashingFor(vectors, kappa, 'jl-planes');

  it('without noise (ε = ∞, the clean release) is W·x/‖x‖, whatever the scale of x', () => {
    const clean = encode(vectors, hashing, Infinity);
    expect(clean.kind).toBe('reals');
    expect(clean.dims).toBe(kappa);
    const want = noiseless(rows, hashing.planes, kappa);
    for (let i = 0; i < want.length; i++) expect(clean.values[i]).toBeCloseTo(want[i]!, 12);
    const scaled = vectorsFromDense(rows.map((r) => r.map((v) => 3 * v)));
    const again = encode(scaled, hashingFor(scaled, kappa, 'jl-planes'), Infinity);
    for (let i = 0; i < want.length; i++) expect(again.values[i]).toBeCloseTo(want[i]!, 12);
  });

  it('at a vanishing σ gives the neighbours of W·x; at ξ = 0 (σ = ∞) the noise alone, whatever the input', () => {
    const v = clusteredVectors({ users: 300, n: 30, clusters: 6, seed: 'jl-knn' });
    const h = hashingFor(v, 16, 'jl-knn-planes');
    const queries = Int32Array.from({ length: 50 }, (_, i) => i);
    expect(releaseKnn(encode(v, h, 1e9), queries, 5, 7)).toEqual(releaseKnn(encode(v, h, Infinity), queries, 5, 7));
    const other = hashingFor(vectorsFromDense(rows.map((r) => r.map((x) => -x))), kappa, 'jl-planes');
    expect(encode(vectors, hashing, 0).values).toEqual(encode(vectorsFromDense(rows.map((r) => r.map((x) => -x))), other, 0).values);
  });

  it('adds N(0, σ²) around W·x/‖x‖: σ = 1/ε (expected), σ_max(W)/ε (every-w); mean and variance within 4 SE', () => {
    const many = vectorsFromDense(Array.from({ length: 4000 }, () => rows[0]!));
    const h = hashingFor(many, kappa, 'jl-planes');
    const signal = noiseless([rows[0]!], h.planes, kappa);
    const sigmaMax = spectralNorm(h.planes, kappa, 12);
    for (const [options, sigma] of [
      [{}, 0.5],
      [{ guarantee: 'every-w' }, sigmaMax / 2],
    ] as const) {
      const out = encode(many, h, 2, options, `moments-${sigma}`);
      for (let j = 0; j < kappa; j++) {
        const e = Array.from({ length: 4000 }, (_, i) => out.values[i * kappa + j]! - signal[j]!);
        const mean = e.reduce((a, b) => a + b, 0) / e.length;
        const variance = e.reduce((a, b) => a + b * b, 0) / e.length;
        expect(Math.abs(mean)).toBeLessThan((4 * sigma) / Math.sqrt(4000));
        // Var of the sample variance of normals: 2σ⁴/m
        expect(Math.abs(variance - sigma * sigma)).toBeLessThan(4 * sigma * sigma * Math.sqrt(2 / 4000));
      }
    }
  });

  it('refuses data without projections (the Jaccard family) and unknown options', () => {
    const noProjections = { ...hashing, projections: new Float64Array(0) };
    expect(() => encode(vectors, noProjections, 1)).toThrow(UserError);
    expect(() => encode(vectors, hashing, 1, { sampler: 'direct' })).toThrow(/unknown option "sampler"/);
  });
});
