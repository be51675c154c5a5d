import { describe, expect, it } from 'vitest';
import { binomialLowerP, binomialUpperP, clopperPearson } from '../../src/stats/binomial.js';

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
