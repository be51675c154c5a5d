import { describe, expect, it } from 'vitest';
import { getMechanism } from '../../src/mechanisms/registry.js';
import { directDraws, laplaceNoise, laplaceRadius, planeFactor, projectedDraws } from '../../src/mechanisms/laplsh/mechanism.js';
import type { CodeSet } from '../../src/lsh/codes.js';
import type { TrialHashing } from '../../src/lsh/hyperplanes.js';
import type { UserVectors } from '../../src/data/types.js';
import { drawHyperplanes } from '../../src/lsh/hyperplanes.js';
import { getBit } from '../../src/lsh/codes.js';
import { makeRng } from '../../src/random/rng.js';
import { hashingFor, replicated } from '../helpers/mechanisms.js';
import { binomialSe, chiSquareCritical, homogeneity, Z } from '../lsh/stats.js';
import { clusteredVectors } from '../lsh/synthetic.js';
import { bitsOf } from '../../src/lsh/releases.js';

const PRIVACY = { d: 0.1, delta: 0.01 };
const laplsh = getMechanism('laplsh');

function encodeWith(sampler: string, vectors: UserVectors, hashing: TrialHashing, eps: number, seed: string): CodeSet {
  return bitsOf(laplsh.encode!({ vectors, hashing, rng: makeRng(seed), options: { sampler } }, { epsilon: eps, ldpEpsilon: 2 * eps, fallback: false }));
}

describe('laplsh noise', () => {
  it('has radius Gamma(n, 1/eps): mean n/eps and variance n/eps², and |z| = R', () => {
    const reps = 20_000;
    for (const [n, eps] of [
      [50, 5],
      [3, 0.7],
    ]) {
      const rng = makeRng(`radius-${n}`);
      const radius = laplaceRadius(rng, n, eps);
      const z = new Float64Array(n);
      let s = 0;
      let s2 = 0;
      let maxGap = 0;
      for (let r = 0; r < reps; r++) {
        const R = laplaceNoise(rng, n, radius, z);
        const norm = Math.hypot(...z);
        maxGap = Math.max(maxGap, Math.abs(norm - R) / R);
        s += norm;
        s2 += norm * norm;
      }
      const mean = s / reps;
      const variance = s2 / reps - mean * mean;
      const theta = 1 / eps;
      const trueVar = n * theta * theta;
      expect(maxGap).toBeLessThan(1e-12);
      expect(Math.abs(mean - n * theta)).toBeLessThan(Z * Math.sqrt(trueVar / reps));
      // Var of the sample variance ≈ (μ4 − σ⁴)/reps with μ4 = 3n(n+2)θ⁴ for Gamma(n, θ)
      const mu4 = 3 * n * (n + 2) * theta ** 4;
      expect(Math.abs(variance - trueVar)).toBeLessThan(Z * Math.sqrt((mu4 - trueVar * trueVar) / reps));
    }
  });

  it('factors the planes: L Lᵀ = W Wᵀ with L lower triangular, positive diagonal', () => {
    const kappa = 6;
    const n = 40;
    const W = drawHyperplanes(makeRng('svd'), kappa, n);
    const M = planeFactor(W, kappa, n);
    for (let a = 0; a < kappa; a++) {
      for (let b = 0; b < kappa; b++) {
        let ww = 0;
        for (let c = 0; c < n; c++) ww += W[a * n + c] * W[b * n + c];
        let mm = 0;
        for (let t = 0; t < kappa; t++) mm += M[a * kappa + t] * M[b * kappa + t];
        expect(Math.abs(ww - mm)).toBeLessThan(1e-9 * n);
        if (b > a) expect(M[a * kappa + b]).toBe(0);
      }
      expect(M[a * kappa + a]).toBeGreaterThan(0);
    }
  });
});

describe('laplsh draws shared by the xi of a trial', () => {
  // What a trial draws once: radius ~ Gamma(n, 1) (mean n, variance n) and dir = W u, u uniform
  // on the sphere, so E[dir] = 0 and E[dir dirᵀ] = W Wᵀ / n (E[u uᵀ] = I/n); each checked against
  // its closed form within Z standard errors estimated from the same sample.
  const users = 20_000;
  const n = 60;
  const kappa = 5;
  const vectors = replicated([Array.from({ length: n }, (_, c) => (c === 0 ? 1 : 0))], users);
  const hashing = hashingFor(vectors, kappa, 'shared-draws');
  const W = hashing.planes;
  for (const [name, draw] of [
    ['direct', directDraws],
    ['projected', projectedDraws],
  ] as const) {
    it(`${name}: radius Gamma(n, 1), dir with mean 0 and second moments W Wᵀ / n`, () => {
      const { dir, radius } = draw(makeRng(`shared-${name}`), hashing, users);
      let s = 0;
      let s2 = 0;
      for (let i = 0; i < users; i++) {
        s += radius[i];
        s2 += radius[i] * radius[i];
      }
      const mean = s / users;
      const variance = s2 / users - mean * mean;
      expect(Math.abs(mean - n)).toBeLessThan(Z * Math.sqrt(n / users));
      expect(Math.abs(variance - n)).toBeLessThan(Z * Math.sqrt((3 * n * (n + 2) - n * n) / users));
      for (let a = 0; a < kappa; a++) {
        let m = 0;
        let m2 = 0;
        for (let i = 0; i < users; i++) {
          m += dir[i * kappa + a];
          m2 += dir[i * kappa + a] ** 2;
        }
        expect(Math.abs(m / users)).toBeLessThan(Z * Math.sqrt((m2 / users - (m / users) ** 2) / users));
        for (let b = 0; b <= a; b++) {
          let ww = 0;
          for (let c = 0; c < n; c++) ww += W[a * n + c] * W[b * n + c];
          let p = 0;
          let p2 = 0;
          for (let i = 0; i < users; i++) {
            const v = dir[i * kappa + a] * dir[i * kappa + b];
            p += v;
            p2 += v * v;
          }
          const pm = p / users;
          expect(Math.abs(pm - ww / n)).toBeLessThan(Z * Math.sqrt((p2 / users - pm * pm) / users));
        }
      }
    });
  }
});

describe('laplsh samplers', () => {
  // Two input vectors, 6000 noisy copies of each; kappa = 4 bits, so the whole law of a code is a
  // 16-cell distribution: compare direct and projected by a two-sample chi-square per input, and
  // per-bit rates and pairwise bit agreement by z-scores. eps = n puts the noise radius (mean
  // n/eps = 1) at the scale of the unit signal, where the bits are neither fixed nor fair coins.
  for (const n of [50, 500]) {
    it(`direct and projected give the same code distribution (n = ${n})`, () => {
      const copies = 6000;
      const kappa = 4;
      const rng = makeRng(`inputs-${n}`);
      const rows = [0, 1].map(() => Array.from({ length: n }, () => (rng() < 0.1 ? rng() * 2 - 1 : 0)));
      rows.forEach((r, i) => {
        r[i] = 1;
      });
      const vectors = replicated(rows, copies);
      const hashing = hashingFor(vectors, kappa, `samplers-${n}`);
      const eps = n;
      const codes = ['direct', 'projected'].map((s) => encodeWith(s, vectors, hashing, eps, `noise-${s}-${n}`));
      for (let input = 0; input < 2; input++) {
        const hist = codes.map((set) => {
          const h = new Float64Array(16);
          for (let c = 0; c < copies; c++) h[set.codes[input * copies + c]]++;
          return h;
        });
        const { stat, df } = homogeneity(hist[0], hist[1]);
        expect(df).toBeGreaterThanOrEqual(3); // noisy enough to spread over codes
        expect(stat).toBeLessThan(chiSquareCritical(df));
        // per-bit rates and pairwise agreement (difference of two independent proportions)
        const rate = (_set: CodeSet, f: (u: number) => number) => {
          let s = 0;
          for (let c = 0; c < copies; c++) s += f(input * copies + c);
          return s / copies;
        };
        for (let j = 0; j < kappa; j++) {
          const r = codes.map((set) => rate(set, (u) => getBit(set, u, j)));
          const p = (r[0] + r[1]) / 2;
          expect(Math.abs(r[0] - r[1])).toBeLessThanOrEqual(Z * Math.SQRT2 * binomialSe(p, copies));
          for (let j2 = j + 1; j2 < kappa; j2++) {
            const a = codes.map((set) => rate(set, (u) => (getBit(set, u, j) === getBit(set, u, j2) ? 1 : 0)));
            const pa = (a[0] + a[1]) / 2;
            expect(Math.abs(a[0] - a[1])).toBeLessThanOrEqual(Z * Math.SQRT2 * binomialSe(pa, copies));
          }
        }
      }
    });
  }

  it('is uniform at xi = 0, clean LSH at eps = ∞, and moves towards LSH as eps grows', () => {
    const vectors = clusteredVectors({ users: 2000, n: 30, clusters: 4 });
    const kappa = 10;
    const hashing = hashingFor(vectors, kappa, 'lap-limits');
    const info0 = laplsh.epsilon(0, kappa, PRIVACY);
    expect(info0.epsilon).toBe(0);
    const fair = bitsOf(laplsh.encode!({ vectors, hashing, rng: makeRng('l0'), options: {} }, info0));
    let ones = 0;
    for (let i = 0; i < 2000; i++) for (let j = 0; j < kappa; j++) ones += getBit(fair, i, j);
    expect(Math.abs(ones / 20_000 - 0.5)).toBeLessThan(Z * binomialSe(0.5, 20_000));
    expect(encodeWith('projected', vectors, hashing, Infinity, 'inf').codes).toEqual(hashing.codes!.codes);
    // disagreement with the clean code falls as eps grows
    const disagreement = (eps: number) => {
      const set = encodeWith('projected', vectors, hashing, eps, `grow-${eps}`);
      let d = 0;
      for (let i = 0; i < set.codes.length; i++) d += set.codes[i] !== hashing.codes!.codes[i] ? 1 : 0;
      return d / set.codes.length;
    };
    const seq = [3, 30, 300, 3000].map(disagreement);
    for (let t = 1; t < seq.length; t++) expect(seq[t]).toBeLessThan(seq[t - 1]);
  });

  it('falls back to the direct sampler when n <= kappa', () => {
    const vectors = clusteredVectors({ users: 50, n: 8, clusters: 2, profileSize: 3 });
    const hashing = hashingFor(vectors, 10, 'small-n');
    const a = encodeWith('projected', vectors, hashing, 2, 'same');
    const b = encodeWith('direct', vectors, hashing, 2, 'same');
    expect(a.codes).toEqual(b.codes);
  });
});
