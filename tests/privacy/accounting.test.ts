import { describe, expect, it } from 'vitest';
import {
  angularFromEuclidean,
  budgetRows,
  deltaAlpha,
  euclideanFromAngular,
  flipProbability,
  keepProbability,
  klBernoulli,
  laplshEpsilon,
  lshrrEpsilon,
  solveAlpha,
  worstCaseXi,
  xiAlpha,
  xiGeneral,
} from '../../src/privacy/index.js';
import { makeRng } from '../../src/random/rng.js';
import { fillNormal } from '../../src/random/samplers.js';
import { UserError } from '../../src/util/errors.js';

/** KL straight from its definition (plain logs), as an independent reference. */
const klNaive = (a: number, b: number) => (a === 0 ? 0 : a * Math.log(a / b)) + (a === 1 ? 0 : (1 - a) * Math.log((1 - a) / (1 - b)));

/** P[Z >= t] for Z ~ Binomial(k, p), by summing the pmf (recursion from P[Z = 0]). */
function binomialUpperTail(k: number, p: number, t: number): number {
  let pmf = (1 - p) ** k;
  let tail = 0;
  for (let z = 0; z <= k; z++) {
    if (z >= t) tail += pmf;
    pmf *= ((k - z) / (z + 1)) * (p / (1 - p));
  }
  return tail;
}

describe('paper and protocol numbers', () => {
  it('reproduces the appendix table (LDP budget kappa·eps, 24 values after rounding)', () => {
    const paper: Record<number, number[][]> = {
      0.05: [
        [3, 4, 6],
        [14, 20, 30],
        [28, 40, 60],
        [55, 79, 120],
      ],
      0.1: [
        [2, 3, 4],
        [10, 14, 20],
        [21, 28, 40],
        [42, 57, 80],
      ],
    };
    const xi = [1, 5, 10, 20];
    const kappa = [10, 20, 50];
    const rows = budgetRows({ accountants: ['paper'], d: [0.05, 0.1], kappa, xi, delta: 0.01 });
    expect(rows).toHaveLength(24);
    let r = 0;
    for (const d of [0.05, 0.1]) {
      xi.forEach((x, i) => {
        kappa.forEach((k, j) => {
          const row = rows[r++]!;
          expect([row.d, row.xi, row.kappa, row.delta]).toEqual([d, x, k, 0.01]);
          expect(Math.round(row.epsilon_ldp!), `d=${d} xi=${x} kappa=${k}`).toBe(paper[d]![i]![j]);
          expect(row.fallback).toBe(false);
          expect(row.epsilon_ldp!).toBeCloseTo(k * row.epsilon_bit!, 12);
          // the row's own numbers satisfy xi = eps·kappa·(d + alpha)
          expect(xiAlpha(row.epsilon_bit!, k, d, row.alpha!)).toBeCloseTo(x, 12);
        });
      });
    }
  });

  it('matches the golden values of protocol §5 to 1e-9', () => {
    const eps = Math.log(0.79 / 0.21);
    const alpha = solveAlpha(128, 0.05, 0.01)!;
    expect(Math.abs(alpha - 0.0681733821601)).toBeLessThan(1e-9);
    expect(Math.abs(xiAlpha(eps, 128, 0.05, alpha) - 20.0410774234)).toBeLessThan(1e-9);
    expect(Math.abs(xiAlpha(eps, 128, 0.01, solveAlpha(128, 0.01, 0.01)!) - 7.9216946797)).toBeLessThan(1e-9);
    // and lshrrEpsilon inverts it
    const info = lshrrEpsilon(20.0410774234, 128, { d: 0.05, delta: 0.01 });
    expect(Math.abs(info.epsilon! - eps)).toBeLessThan(1e-10);
    expect(flipProbability(info.epsilon!)).toBeCloseTo(0.21, 10);
  });

  it('flips each bit with probability ≈ 0.27 for kappa 20, xi 5, d 0.05 (paper Sect. 6.3)', () => {
    const info = lshrrEpsilon(5, 20, { d: 0.05, delta: 0.01 });
    expect(Math.abs(flipProbability(info.epsilon!) - 0.27)).toBeLessThan(0.005);
  });
});

describe('fallback to the pure LDP bound', () => {
  it('has no alpha exactly when d^kappa >= delta', () => {
    expect(solveAlpha(2, 0.1, 0.01)).toBeNull(); // d^kappa = delta
    expect(solveAlpha(1, 0.05, 0.01)).toBeNull();
    expect(solveAlpha(1, 0.5, 0.3)).toBeNull();
    expect(solveAlpha(3, 0.1, 0.01)).not.toBeNull();
    expect(solveAlpha(1, 0.005, 0.01)).not.toBeNull();
    for (const kappa of [1, 2, 5, 20])
      for (const d of [0.02, 0.1, 0.3])
        for (const delta of [0.001, 0.05]) {
          if (Math.abs(kappa * Math.log(d) - Math.log(delta)) < 1e-9) continue; // boundary checked above
          expect(solveAlpha(kappa, d, delta) === null, `kappa=${kappa} d=${d} delta=${delta}`).toBe(d ** kappa >= delta);
        }
  });
  it('uses xi = kappa·eps and flags it', () => {
    const info = lshrrEpsilon(6, 2, { d: 0.1, delta: 0.01 });
    expect(info).toEqual({ epsilon: 3, ldpEpsilon: 6, fallback: true });
    expect(worstCaseXi(info.epsilon!, 2)).toBe(6);
    const [row] = budgetRows({ accountants: ['paper'], d: [0.1], kappa: [1], xi: [4], delta: 0.01 });
    expect(row).toEqual({
      accountant: 'paper',
      d: 0.1,
      delta: 0.01,
      kappa: 1,
      xi: 4,
      alpha: null,
      epsilon_bit: 4,
      flip: flipProbability(4),
      epsilon_ldp: 4,
      fallback: true,
      unbounded: false,
      delta_hockey: null,
    });
  });
  it('xi = 0 means eps = 0 (uniform bits)', () => {
    expect(lshrrEpsilon(0, 20, { d: 0.1, delta: 0.01 })).toEqual({ epsilon: 0, ldpEpsilon: 0, fallback: false });
    expect(flipProbability(0)).toBe(0.5);
    expect(laplshEpsilon(0, { d: 0.1, delta: 0.01 }).epsilon).toBe(0);
  });
  it('rejects bad parameters with one-line UserErrors', () => {
    expect(() => lshrrEpsilon(-1, 20, { d: 0.1, delta: 0.01 })).toThrow(UserError);
    expect(() => lshrrEpsilon(1, 2.5, { d: 0.1, delta: 0.01 })).toThrow(/kappa/);
    expect(() => solveAlpha(10, 0, 0.01)).toThrow(/d must be in/);
    expect(() => solveAlpha(10, 0.1, 1)).toThrow(/delta must be in/);
  });
});

describe('KL and the alpha root', () => {
  it('satisfies the KL identities and the definition', () => {
    for (const d of [0.001, 0.05, 0.1, 0.5, 0.9]) {
      expect(klBernoulli(d, d)).toBe(0);
      expect(klBernoulli(1, d)).toBeCloseTo(Math.log(1 / d), 14);
      expect(klBernoulli(0, d)).toBeCloseTo(Math.log(1 / (1 - d)), 14);
      for (const a of [0.01, 0.2, 0.55, 0.99]) {
        expect(Math.abs(klBernoulli(a, d) - klNaive(a, d))).toBeLessThan(1e-13 * Math.max(1, klNaive(a, d)));
        expect(klBernoulli(a, d)).toBeGreaterThanOrEqual(0);
      }
    }
  });
  it('KL(d + alpha || d) is strictly increasing in alpha on (0, 1 - d)', () => {
    for (const d of [0.01, 0.05, 0.1, 0.3]) {
      let prev = 0;
      for (let i = 1; i < 1000; i++) {
        const v = klBernoulli(d + (i / 1000) * (1 - d), d);
        expect(v).toBeGreaterThan(prev);
        prev = v;
      }
      expect(prev).toBeLessThan(Math.log(1 / d));
    }
  });
  it('the root solves kappa·KL(d + alpha || d) = ln(1/delta) to 1e-12 relative', () => {
    for (const kappa of [3, 10, 20, 50, 128, 1000])
      for (const d of [0.01, 0.05, 0.1, 0.3])
        for (const delta of [1e-6, 0.01, 0.2]) {
          const alpha = solveAlpha(kappa, d, delta);
          if (alpha === null) continue;
          expect(alpha).toBeGreaterThan(0);
          expect(alpha).toBeLessThan(1 - d);
          const target = Math.log(1 / delta);
          expect(Math.abs(kappa * klNaive(d + alpha, d) - target)).toBeLessThan(1e-12 * target);
          expect(Math.abs(deltaAlpha(kappa, d, alpha) - delta)).toBeLessThan(1e-11 * delta);
        }
  });
  it('the general theorem is the tighter bound at alpha = sqrt(-ln delta / (2 kappa)), where delta_alpha <= delta', () => {
    for (const kappa of [10, 50, 200])
      for (const d of [0.05, 0.1]) {
        const delta = 0.01;
        const a = Math.sqrt(-Math.log(delta) / (2 * kappa));
        expect(xiGeneral(1.3, kappa, d, delta)).toBeCloseTo(xiAlpha(1.3, kappa, d, a), 10);
        expect(deltaAlpha(kappa, d, a)).toBeLessThanOrEqual(delta); // Pinsker: KL >= 2 alpha²
        // so the tighter alpha is smaller and its xi no larger
        expect(solveAlpha(kappa, d, delta)!).toBeLessThanOrEqual(a);
      }
  });
});

describe('Chernoff–Hoeffding (the basis of delta_alpha)', () => {
  it('exact binomial tails are below delta_alpha', () => {
    for (const kappa of [10, 20, 50, 128])
      for (const d of [0.05, 0.1, 0.3])
        for (const alpha of [0.013, 0.07, 0.21]) {
          if (d + alpha >= 1) continue;
          const tail = binomialUpperTail(kappa, d, kappa * (d + alpha));
          expect(tail, `kappa=${kappa} d=${d} alpha=${alpha}`).toBeLessThanOrEqual(deltaAlpha(kappa, d, alpha) * (1 + 1e-12));
        }
  });
  it('Monte Carlo Binomial tails agree with the exact tail and respect the bound', () => {
    const rng = makeRng('chernoff');
    const kappa = 20;
    const d = 0.1;
    const alpha = solveAlpha(kappa, d, 0.05)!;
    const N = 100_000;
    let hits = 0;
    for (let t = 0; t < N; t++) {
      let z = 0;
      for (let j = 0; j < kappa; j++) if (rng() < d) z++;
      if (z >= kappa * (d + alpha)) hits++;
    }
    const exact = binomialUpperTail(kappa, d, kappa * (d + alpha));
    const se = Math.sqrt((exact * (1 - exact)) / N);
    expect(Math.abs(hits / N - exact)).toBeLessThanOrEqual(5 * se);
    expect(hits / N).toBeLessThanOrEqual(deltaAlpha(kappa, d, alpha) + 5 * se);
  });
});

describe('empirical privacy of LSHRR', () => {
  it("P[eps·Hamming(H(x), H(x')) > xi_alpha] <= delta_alpha for hyperplane LSH at angular distance d", () => {
    const n = 6;
    const kappa = 20;
    const d = 0.1;
    const delta = 0.05;
    const eps = 0.8;
    const alpha = solveAlpha(kappa, d, delta)!;
    const xi = xiAlpha(eps, kappa, d, alpha);
    // x = e1, x' at angle π d in the (e1, e2) plane
    const x = new Float64Array(n);
    x[0] = 1;
    const y = new Float64Array(n);
    y[0] = Math.cos(Math.PI * d);
    y[1] = Math.sin(Math.PI * d);
    const rng = makeRng('privacy-loss');
    const planes = new Float64Array(kappa * n);
    const N = 20_000;
    let exceed = 0;
    let differing = 0;
    for (let t = 0; t < N; t++) {
      fillNormal(rng, planes);
      let hamming = 0;
      for (let j = 0; j < kappa; j++) {
        let px = 0;
        let py = 0;
        for (let i = 0; i < n; i++) {
          px += planes[j * n + i]! * x[i]!;
          py += planes[j * n + i]! * y[i]!;
        }
        if (px >= 0 !== py >= 0) hamming++;
      }
      differing += hamming;
      if (eps * hamming > xi) exceed++;
    }
    // LSH property: a bit differs with probability d (Binomial variance per bit d(1-d))
    expect(Math.abs(differing / (N * kappa) - d)).toBeLessThanOrEqual(5 * Math.sqrt((d * (1 - d)) / (N * kappa)));
    const bound = deltaAlpha(kappa, d, alpha);
    expect(Math.abs(bound - delta)).toBeLessThan(1e-12);
    expect(exceed / N).toBeLessThanOrEqual(bound + 5 * Math.sqrt((bound * (1 - bound)) / N));
  });
});

describe('randomized response and distances', () => {
  it('keep and flip probabilities are complementary, symmetric and never overflow', () => {
    for (const eps of [0, 1e-8, 0.5, 1, 5, 30, 700, 1000, Infinity]) {
      const keep = keepProbability(eps);
      const flip = flipProbability(eps);
      expect(keep + flip).toBeCloseTo(1, 15);
      expect(Number.isNaN(keep) || Number.isNaN(flip)).toBe(false);
      if (eps < 700) expect(Math.abs(keep / flip / Math.exp(eps) - 1)).toBeLessThan(1e-12); // odds e^eps
    }
    expect(flipProbability(1)).toBeCloseTo(1 / (1 + Math.E), 15);
    expect(flipProbability(50) / Math.exp(-50)).toBeCloseTo(1, 12); // full relative accuracy
    expect(keepProbability(Infinity)).toBe(1);
    expect(flipProbability(Infinity)).toBe(0);
    expect(flipProbability(-2)).toBeCloseTo(keepProbability(2), 15);
  });
  it('angular <-> Euclidean: the cosine formula, round trip, d = 0.5 -> sqrt(2)', () => {
    expect(euclideanFromAngular(0.5)).toBeCloseTo(Math.SQRT2, 15);
    expect(euclideanFromAngular(0)).toBe(0);
    expect(euclideanFromAngular(1)).toBeCloseTo(2, 15);
    for (let d = 0; d <= 1; d += 0.0625) {
      expect(euclideanFromAngular(d)).toBeCloseTo(Math.sqrt(2 - 2 * Math.cos(Math.PI * d)), 14);
      expect(angularFromEuclidean(euclideanFromAngular(d))).toBeCloseTo(d, 14);
    }
  });
  it('LapLSH: eps = xi / d_euc(d), LDP equivalent 2·eps', () => {
    const info = laplshEpsilon(10, { d: 0.5, delta: 0.01 });
    expect(info.epsilon).toBeCloseTo(10 / Math.SQRT2, 13);
    expect(info.ldpEpsilon).toBeCloseTo(20 / Math.SQRT2, 13);
    expect(info.fallback).toBe(false);
    const small = laplshEpsilon(1, { d: 0.1, delta: 0.01 });
    expect(small.epsilon).toBeCloseTo(1 / Math.sqrt(2 - 2 * Math.cos(Math.PI * 0.1)), 12);
  });
});
