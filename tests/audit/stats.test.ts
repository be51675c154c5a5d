import { describe, expect, it } from 'vitest';
import { binomialLowerP, binomialUpperP, chooseThreshold, clopperPearson, countsAt, epsilonLbPValue, epsilonLowerBound, holmAdjust } from '../../src/audit/stats.js';

/** Pr[X >= k], X ~ Bin(n, p), by plain summation of the pmf (independent of @stdlib). */
function upperTail(k: number, n: number, p: number): number {
  let pmf = (1 - p) ** n;
  let s = 0;
  for (let x = 0; x <= n; x++) {
    if (x >= k) s += pmf;
    pmf *= ((n - x) / (x + 1)) * (p / (1 - p));
  }
  return s;
}
const lowerTail = (k: number, n: number, p: number) => 1 - upperTail(k + 1, n, p);

describe('Clopper–Pearson bounds against exact binomial tails', () => {
  it('the lower bound L has Pr[Bin(n, L) >= k] = alpha/2, the upper U has Pr[Bin(n, U) <= k] = alpha/2', () => {
    for (const [k, n] of [
      [1, 10],
      [3, 20],
      [50, 5000],
      [0, 100],
      [100, 100],
      [17, 40],
      [250, 5000],
    ]) {
      for (const alpha of [0.05, 0.01]) {
        const [lo, hi] = clopperPearson(k, n, alpha);
        if (k === 0) expect(lo).toBe(0);
        else expect(upperTail(k, n, lo), `k=${k} n=${n}`).toBeCloseTo(alpha / 2, 9);
        if (k === n) expect(hi).toBe(1);
        else expect(lowerTail(k, n, hi), `k=${k} n=${n}`).toBeCloseTo(alpha / 2, 9);
        expect(lo).toBeLessThanOrEqual(k / n);
        expect(hi).toBeGreaterThanOrEqual(k / n);
      }
    }
  });

  it('one-sided binomial p-values are the exact tails', () => {
    expect(binomialUpperP(12, 1000, 0.01)).toBeCloseTo(upperTail(12, 1000, 0.01), 12);
    expect(binomialLowerP(12, 1000, 0.02)).toBeCloseTo(lowerTail(12, 1000, 0.02), 12);
    expect(binomialUpperP(0, 10, 0.5)).toBe(1);
  });
});

describe('Holm', () => {
  it('adjusts step-down and keeps monotonicity (hand example)', () => {
    // sorted 0.01, 0.02, 0.03, 0.5 with m = 4: 0.04, 0.06, 0.06 (monotone), 0.5
    expect(holmAdjust([0.03, 0.01, 0.5, 0.02]).map((x) => Number(x.toFixed(10)))).toEqual([0.06, 0.04, 0.5, 0.06]);
    expect(holmAdjust([0.9, 0.8])).toEqual([1, 1]);
    expect(holmAdjust([0.04, 0.01])).toEqual([0.04, 0.02]);
    expect(holmAdjust([])).toEqual([]);
  });
});

describe('black-box epsilon lower bound', () => {
  it('is ln((TPR_low − delta) / FPR_high) and 0 without evidence', () => {
    const c = { truePositives: 900, positives: 1000, falsePositives: 10, negatives: 1000 };
    const want = Math.log((clopperPearson(900, 1000)[0] - 0.01) / clopperPearson(10, 1000)[1]);
    expect(epsilonLowerBound(c, 0.01)).toBeCloseTo(want, 12);
    expect(epsilonLowerBound({ truePositives: 5, positives: 1000, falsePositives: 5, negatives: 1000 }, 0.01)).toBe(0);
  });

  it('its p-value is the smallest alpha at which eps_lb exceeds xi', () => {
    const c = { truePositives: 900, positives: 1000, falsePositives: 10, negatives: 1000 };
    const xi = 3;
    const p = epsilonLbPValue(c, 0, xi);
    expect(p).toBeGreaterThan(0);
    expect(p).toBeLessThan(0.05);
    expect(epsilonLowerBound(c, 0, p * 1.01)).toBeGreaterThan(xi);
    expect(epsilonLowerBound(c, 0, p * 0.99)).toBeLessThanOrEqual(xi);
    expect(epsilonLbPValue(c, 0, 10)).toBe(1);
  });

  it('chooses the threshold maximizing eps_lb on the selection samples', () => {
    const pos = [3, 3, 3, 3, 2, 2, 1, 0];
    const neg = [0, 0, 0, 1, 1, 0, -1, 2];
    const t = chooseThreshold(pos, neg, 0);
    const best = Math.max(...[-1, 0, 1, 2, 3].map((x) => epsilonLowerBound(countsAt(pos, neg, x), 0)));
    expect(epsilonLowerBound(countsAt(pos, neg, t), 0)).toBe(best);
  });
});
