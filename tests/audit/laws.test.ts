import { describe, expect, it } from 'vitest';
import { dkwPValue, hammingLawOfAngle, ksDistance, ksPowerLowerBound, scoreLaw } from '../../src/audit/laws.js';
import { blackBoxPower } from '../../src/audit/power.js';
import { epsilonLowerBound } from '../../src/audit/epsilonBound.js';
import { exactInflation } from '../../src/audit/inflation.js';
import { exactTail, scoreTail } from '../../src/privacy/exactLoss.js';
import { flipProbability } from '../../src/privacy/rr.js';
import { vmfCosineSource } from '../../src/random/directional.js';
import { getMechanism } from '../../src/mechanisms/registry.js';
import { makeRng } from '../../src/random/rng.js';

/** Bin(n, p) draw by n coin flips (independent of the code under test). */
function binomialDraw(rng: () => number, n: number, p: number): number {
  let k = 0;
  for (let i = 0; i < n; i++) if (rng() < p) k++;
  return k;
}

describe('exact laws', () => {
  it("LSHRR's score law sums to 1 and its upper tails are exactTail's scoreTail", () => {
    const q = flipProbability(0.7);
    const law = scoreLaw(20, 0.1, q);
    expect(law.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    for (let s = -20; s <= 20; s++) {
      let tail = 0;
      for (let t = s; t <= 20; t++) tail += law[t + 20];
      expect(tail, `s ${s}`).toBeCloseTo(scoreTail(20, 0.1, 0.7, s), 12);
    }
  });

  it("VMF's Hamming law: the mixture of Bin(κ, θ/π) matches a Monte Carlo of Wood's sampler (each cell within 4 SE)", () => {
    const n = 5;
    const c = 6;
    const kappa = 12;
    const vmf = getMechanism('vmf');
    const law = hammingLawOfAngle(kappa, (t) => vmf.angleLogDensity!(t, n, c));
    expect(law.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    const rng = makeRng('vmf-law');
    const cosine = vmfCosineSource(rng, n, c);
    const N = 40000;
    const counts = new Float64Array(kappa + 1);
    for (let i = 0; i < N; i++) counts[binomialDraw(rng, kappa, Math.acos(cosine()) / Math.PI)]++;
    for (let h = 0; h <= kappa; h++) {
      const se = Math.sqrt((law[h] * (1 - law[h])) / N);
      expect(Math.abs(counts[h] / N - law[h]), `h ${h}`).toBeLessThanOrEqual(4 * se + 1e-9);
    }
  });
});

describe('the KS test with the DKW–Massart p-value', () => {
  it('the distance of samples from their own law is small; the p-value is 2·exp(−2nD²) capped at 1', () => {
    const law = scoreLaw(10, 0.2, 0.3);
    const rng = makeRng('ks');
    const samples = Array.from({ length: 4000 }, () => {
      const d = binomialDraw(rng, 10, 0.2);
      return d - 2 * binomialDraw(rng, d, 0.3);
    });
    const D = ksDistance(samples, law, 10);
    expect(D).toBeLessThan(Math.sqrt(Math.log(2 / 0.001) / (2 * 4000)));
    expect(dkwPValue(0.05, 1000)).toBeCloseTo(2 * Math.exp(-5), 15);
    expect(dkwPValue(0, 1000)).toBe(1);
  });

  it('its power bound is a lower bound: simulated rejection rates against a shifted law are at least it (3 SE)', () => {
    const claimed = scoreLaw(10, 0.2, 0.3);
    const actual = scoreLaw(10, 0.2, 0.24);
    const n = 400;
    const level = 0.01;
    const bound = ksPowerLowerBound(claimed, actual, n, level);
    expect(bound).toBeGreaterThan(0.2);
    const rng = makeRng('ks-power');
    let rejected = 0;
    const reps = 300;
    for (let r = 0; r < reps; r++) {
      const samples = Array.from({ length: n }, () => {
        const d = binomialDraw(rng, 10, 0.2);
        return d - 2 * binomialDraw(rng, d, 0.24);
      });
      if (dkwPValue(ksDistance(samples, claimed, 10), n) <= level) rejected++;
    }
    expect(rejected / reps).toBeGreaterThanOrEqual(bound - 3 * Math.sqrt((bound * (1 - bound)) / reps));
  });
});

describe("the black-box test's power", () => {
  it('equals a Monte Carlo of binomial counts through epsilonLowerBound (4 SE)', () => {
    const rng = makeRng('bb-power');
    for (const [tpr, fpr, xi] of [
      [0.5, 0.02, 2],
      [0.3, 0.005, 3],
    ]) {
      const M = 800;
      const alpha = 0.005;
      const power = blackBoxPower(tpr, fpr, M, 0, xi, alpha);
      const reps = 1500;
      let hits = 0;
      for (let r = 0; r < reps; r++) {
        const c = { truePositives: binomialDraw(rng, M, tpr), positives: M, falsePositives: binomialDraw(rng, M, fpr), negatives: M };
        if (epsilonLowerBound(c, 0, alpha) > xi) hits++;
      }
      const se = Math.sqrt(Math.max(power * (1 - power), 1e-4) / reps);
      expect(Math.abs(hits / reps - power), `tpr ${tpr} fpr ${fpr}`).toBeLessThanOrEqual(4 * se);
    }
  });
});

describe('detectable inflation (exact)', () => {
  it('is the jump of the exact tail across δ, independent of M; null when no ε reaches δ', () => {
    const f = exactInflation(20, 0.1, 0.8, 5, 0.01)!;
    expect(exactTail(20, 0.1, f * 0.8, 5)).toBeGreaterThan(0.01);
    expect(exactTail(20, 0.1, (f / 1.0001) * 0.8, 5)).toBeLessThanOrEqual(0.01);
    // (1 − 0.001)^5 >= 0.99: Pr[D >= 1] < δ, nothing to detect
    expect(exactInflation(5, 0.001, 0.8, 5, 0.01)).toBeNull();
  });
});
