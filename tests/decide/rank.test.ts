/**
 * The ranking's test (src/decide/rank.ts): a paired one-sided t test on m − 1 degrees of freedom
 * whose standard error is the resamples' SD of the paired Δ times √(m/(m − 1)), doubled; checked
 * against printed t quantiles (t_{0.975, 9} = 2.2621571628, t_{0.95, 4} = 2.1318467813), with the
 * resamples without a crossing left out, no spread, and the flags' rules. Its level on simulated
 * cells of one law is in tests/decide/choose.long.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { rankEntries, worseP } from '../../src/decide/rank.js';

/** B resamples of two entries (best at index 0): x's u* is the best's plus Δ_r = ±a alternately, so the SD of Δ is a·√(B/(B − 1)). */
function boot(b: number, a: number, shift = 0): Float64Array[] {
  return Array.from({ length: b }, (_, r) => Float64Array.from([0.1, 0.1 + shift + (r % 2 ? a : -a)]));
}

describe('worseP', () => {
  const B = 2000;
  const a = 0.001;
  const sd = a * Math.sqrt(B / (B - 1));
  it('is 2·P(T_{m−1} ≥ Δ/SE) with SE = sd·√(m/(m − 1)): at the 97.5% and 95% t quantiles, 0.05 and 0.10', () => {
    const se10 = sd * Math.sqrt(10 / 9);
    expect(worseP(2.2621571628 * se10, boot(B, a), 1, 0, 10, 0.1)).toBeCloseTo(0.05, 8);
    const se5 = sd * Math.sqrt(5 / 4);
    expect(worseP(2.1318467813 * se5, boot(B, a), 1, 0, 5, 0.1)).toBeCloseTo(0.1, 8);
    // the other side of the best: p capped at 1
    expect(worseP(-0.01, boot(B, a), 1, 0, 10, 0.1)).toBe(1);
  });

  it('leaves out resamples where either entry has no crossing (+Infinity), and needs 2 of them', () => {
    const rows = boot(B, a);
    const withNone = [...rows, Float64Array.from([0.1, Number.POSITIVE_INFINITY]), Float64Array.from([Number.POSITIVE_INFINITY, 0.1])];
    expect(worseP(0.002, withNone, 1, 0, 10, 0.1)).toBe(worseP(0.002, rows, 1, 0, 10, 0.1));
    expect(worseP(0.002, [rows[0], Float64Array.from([0.1, Number.POSITIVE_INFINITY])], 1, 0, 10, 0.1)).toBe(1);
  });

  it('no spread: 0 when worse by the same amount in every resample, 1 when not worse', () => {
    expect(worseP(0.003, boot(100, 0, 0.003), 1, 0, 10, 0.1)).toBe(0);
    expect(worseP(0, boot(100, 0), 1, 0, 10, 0.1)).toBe(1);
  });
});

describe('rankEntries', () => {
  const B = 2000;
  const a = 0.001;
  const se = a * Math.sqrt(B / (B - 1)) * Math.sqrt(10 / 9);
  const rows = () => boot(B, a).map((r) => Float64Array.from([r[0], r[1], r[1]]));
  it('worse beyond the t quantile, tied below it; Holm over the other entries; an all entry never worse; none unranked', () => {
    // two others at t = 3 (p ≈ 0.0150): Holm's smallest × 2 = 0.030 < 0.05, the other × 1: both worse
    const at = (t: number, flag: 'interior' | 'all' = 'interior') => ({ flag, loss: 0.1 + t * se });
    const both = rankEntries([at(0), at(3), at(3)], rows(), 0.05, 10);
    expect(both.map((r) => r.kind)).toEqual(['best', 'worse', 'worse']);
    // the Holm-adjusted p: 2 × (2 × P(T_9 ≥ 3)), P(T_9 ≥ 3) = 0.00748 (printed tables)
    expect(both[1].p).toBeCloseTo(4 * 0.00748, 4);
    expect(both[2].p).toBe(both[1].p);
    // at t = 2 (p ≈ 0.0766): tied
    const tied = rankEntries([at(0), at(2), { flag: 'none', loss: Number.POSITIVE_INFINITY }], rows(), 0.05, 10);
    expect(tied.map((r) => r.kind)).toEqual(['tied', 'tied', 'unranked']);
    expect(tied[0].tiedWith).toEqual([1]);
    // the same numbers with the worse entry flagged all: its u* is an upper bound, never worse
    expect(rankEntries([at(0), at(3, 'all'), at(3)], rows(), 0.05, 10).map((r) => r.kind)).toEqual(['tied', 'tied', 'worse']);
    // no resamples (m < 2): untested
    expect(rankEntries([at(0), at(3)], [], 0.05, 1).map((r) => r.kind)).toEqual(['untested', 'untested']);
  });
});
