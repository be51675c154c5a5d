import { describe, expect, it } from 'vitest';
import { getMechanism, listMechanisms } from '../../src/mechanisms/registry.js';
import { BUILT_IN_FACTS } from '../../src/mechanisms/catalog.js';
import { flipBits } from '../../src/mechanisms/flips.js';
import type { CodeSet } from '../../src/lsh/codes.js';
import type { TrialHashing } from '../../src/lsh/hyperplanes.js';
import type { MechanismContext } from '../../src/mechanisms/types.js';
import type { UserVectors } from '../../src/data/types.js';
import { drawHyperplanes, projectAll } from '../../src/lsh/hyperplanes.js';
import { emptyCodes, getBit, packSigns } from '../../src/lsh/codes.js';
import { makeRng } from '../../src/random/rng.js';
import { flipProbability } from '../../src/privacy/index.js';
import { UserError } from '../../src/util/errors.js';
import { transitionRates } from '../lsh/stats.js';
import { binomialSe, Z } from '../lsh/stats.js';
import { clusteredVectors } from '../lsh/synthetic.js';
import { bitsOf } from '../../src/lsh/releases.js';

const PRIVACY = { d: 0.1, delta: 0.01 };

function hashingFor(vectors: UserVectors, kappa: number, seed: string): TrialHashing {
  const planes = drawHyperplanes(makeRng(seed), kappa, vectors.n);
  const projections = projectAll(vectors, planes, kappa);
  return { kappa, n: vectors.n, planes, projections, codes: packSigns(projections, vectors.rowPtr.length - 1, kappa) };
}

function ctxFor(vectors: UserVectors, hashing: TrialHashing, seed: string, options: Record<string, unknown> = {}): MechanismContext {
  return { vectors, hashing, rng: makeRng(seed), options };
}

function expectRate(rate: number, p: number, trials: number): void {
  expect(Math.abs(rate - p)).toBeLessThan(Z * binomialSe(p, trials));
}

/** Unused high bits of every last word are 0. */
function highBitsClear(set: CodeSet): boolean {
  const used = set.bits - 32 * (set.words - 1);
  if (used === 32) return true;
  for (let i = set.words - 1; i < set.codes.length; i += set.words) if (set.codes[i] >>> used !== 0) return false;
  return true;
}

describe('registry', () => {
  it('lists the built-in mechanisms and names the known ones on a typo', () => {
    expect(listMechanisms().map((m) => m.name)).toEqual(['exact', 'lsh', 'lshrr', 'laplsh', 'rappor', 'rappor-vector', 'vmf', 'purkayastha', 'jl-gaussian', 'minhash-bucket', 'minhash-noisy']);
    expect(getMechanism('lshrr').usesXi).toBe(true);
    expect(() => getMechanism('lshr')).toThrow(UserError);
    expect(() => getMechanism('lshr')).toThrow('unknown mechanism "lshr" (known: exact, lsh, lshrr, laplsh, rappor, rappor-vector, vmf, purkayastha, jl-gaussian, minhash-bucket, minhash-noisy)');
    expect(getMechanism('exact').kind).toBe('exact');
    expect(getMechanism('lsh').usesXi).toBe(false);
  });

  it('rejects unknown and malformed options in one line', () => {
    const v = clusteredVectors({ users: 10, n: 20, clusters: 2 });
    const h = hashingFor(v, 8, 'opt');
    const lap = getMechanism('laplsh');
    expect(() => bitsOf(lap.encode!(ctxFor(v, h, 'x', { sampler: 'fast' }), lap.epsilon(1, 8, PRIVACY)))).toThrow(/laplsh: option sampler must be one of projected, direct/);
    const rap = getMechanism('rappor');
    expect(() => bitsOf(rap.encode!(ctxFor(v, h, 'x', { hashes: 0 }), rap.epsilon(1, 8, PRIVACY)))).toThrow(UserError);
    expect(() => bitsOf(rap.encode!(ctxFor(v, h, 'x', { bloom: 3 }), rap.epsilon(1, 8, PRIVACY)))).toThrow(/unknown option "bloom"/);
  });
});

describe('bitwise randomized response', () => {
  it('flips 0→1 and 1→0 with the same probability p, on every code path (geometric, per-bit, fair coin)', () => {
    const users = 2000;
    const bits = 37; // two words, the second partly used
    const clean = emptyCodes(users, bits);
    const rng = makeRng('pattern');
    for (let i = 0; i < users; i++) for (let j = 0; j < bits; j++) if (rng() < 0.5) clean.codes[i * 2 + (j >>> 5)] |= 1 << (j & 31);
    for (const p of [0.01, 0.1, 0.3, 0.5]) {
      const noisy = { ...clean, codes: clean.codes.slice() };
      flipBits(noisy, p, makeRng(`flip-${p}`));
      const r = transitionRates(clean, noisy);
      expectRate(r.up, p, r.zeros);
      expectRate(r.down, p, r.ones);
      expect(highBitsClear(noisy)).toBe(true);
    }
  });

  it('flips bits independently (pairs of neighbouring bits both flip with probability p²)', () => {
    const users = 4000;
    const bits = 20;
    for (const p of [0.05, 0.3]) {
      const set = emptyCodes(users, bits);
      flipBits(set, p, makeRng(`pairs-${p}`));
      let both = 0;
      for (let i = 0; i < users; i++) for (let j = 0; j + 1 < bits; j++) both += getBit(set, i, j) & getBit(set, i, j + 1);
      const pairs = users * (bits - 1);
      // overlapping pairs share a bit: Cov = p³ − p⁴, so Var(sum) = pairs·p²(1−p²)·(1 + 2p/(1+p)) (up to edges)
      const inflation = Math.sqrt(1 + (2 * p) / (1 + p));
      expect(Math.abs(both / pairs - p * p)).toBeLessThan(Z * inflation * binomialSe(p * p, pairs));
    }
  });
});

describe('lshrr', () => {
  const vectors = clusteredVectors({ users: 3000, n: 40, clusters: 6 });
  const kappa = 20;
  const hashing = hashingFor(vectors, kappa, 'lshrr-planes');
  const lshrr = getMechanism('lshrr');

  it('flips every clean LSH bit in both directions with probability flipProbability(eps)', () => {
    for (const xi of [2, 10]) {
      const info = lshrr.epsilon(xi, kappa, PRIVACY);
      const noisy = bitsOf(lshrr.encode!(ctxFor(vectors, hashing, `rr-${xi}`), info));
      const r = transitionRates(hashing.codes!, noisy);
      const p = flipProbability(info.epsilon!);
      expectRate(r.up, p, r.zeros);
      expectRate(r.down, p, r.ones);
    }
  });

  it('at xi = 0 releases fair coins whatever the input', () => {
    const info = lshrr.epsilon(0, kappa, PRIVACY);
    expect(info.epsilon).toBe(0);
    const noisy = bitsOf(lshrr.encode!(ctxFor(vectors, hashing, 'rr-0'), info));
    const r = transitionRates(hashing.codes!, noisy);
    // P(out = 1 | in = 0) = P(out = 1 | in = 1) = 1/2: the output does not depend on the input
    expectRate(r.up, 0.5, r.zeros);
    expectRate(1 - r.down, 0.5, r.ones);
    expect(highBitsClear(noisy)).toBe(true);
  });

  it('tends to LSH as xi grows (identical codes at xi = 1e4) and never alters the shared clean codes', () => {
    const before = hashing.codes!.codes.slice();
    const noisy = bitsOf(lshrr.encode!(ctxFor(vectors, hashing, 'rr-big'), lshrr.epsilon(1e4, kappa, PRIVACY)));
    expect(noisy.codes).toEqual(hashing.codes!.codes);
    bitsOf(lshrr.encode!(ctxFor(vectors, hashing, 'rr-1'), lshrr.epsilon(1, kappa, PRIVACY)));
    expect(hashing.codes!.codes).toEqual(before);
  });
});

describe('the catalog of built-in mechanisms', () => {
  it('holds exactly the registry built-ins, in its order, with every fact of each mechanism object', () => {
    const ms = listMechanisms();
    expect(BUILT_IN_FACTS.map((f) => f.name)).toEqual(ms.map((m) => m.name));
    for (const m of ms) {
      const { epsilon: _e, encode: _c, angleLogDensity: _a, budgetRow: _b, positionDisagreement: _p, releaseLaw: _l, ...plain } = m;
      expect(BUILT_IN_FACTS.find((f) => f.name === m.name)).toEqual(plain);
    }
  });
});
