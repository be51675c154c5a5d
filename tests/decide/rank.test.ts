/**
 * The ranking's pair test (src/decide/rank.ts), against printed t-table values: with resampled
 * differences whose SE × √(m/(m − 1)) is 1, an observed difference of t_{0.975, m−1} has a
 * two-sided p of 0.05 (t_{0.975, 9} = 2.262157, t_{0.975, 4} = 2.776445).
 */
import { describe, expect, it } from 'vitest';
import { pairedP, resampledPairedT } from '../../src/decide/rank.js';

/** two resampled differences ±a whose spread gives an SE of 1 at m trials: sd = a√2 = √((m − 1)/m) */
const unitSe = (m: number) => {
  const a = Math.sqrt((m - 1) / m / 2);
  return [
    [a, 0],
    [-a, 0],
  ];
};

describe('pairedP', () => {
  it('gives the two-sided p of the t distribution on m − 1 df (t tables), in either order', () => {
    expect(pairedP(unitSe(10), 0, 1, 2.262157, 10)).toBeCloseTo(0.05, 5);
    expect(pairedP(unitSe(10), 0, 1, -2.262157, 10)).toBeCloseTo(0.05, 5);
    expect(pairedP(unitSe(5), 0, 1, 2.776445, 5)).toBeCloseTo(0.05, 5);
    expect(pairedP(unitSe(10), 0, 1, 0, 10)).toBe(1);
  });

  it('takes the limit without spread and gives 1 with fewer than 2 resamples', () => {
    const flat = [
      [0.2, 0.1],
      [0.2, 0.1],
    ];
    expect(pairedP(flat, 0, 1, 0.1, 10)).toBe(0);
    expect(pairedP(flat, 0, 1, 0, 10)).toBe(1);
    expect(pairedP([[0.2, 0.1]], 0, 1, 0.1, 10)).toBe(1);
    expect(resampledPairedT([0.1], 0.1, 10, 0.2)).toBeNull();
    expect(resampledPairedT([0.1, 0.1], -0.1, 10, 0.2)).toEqual({ pBelow: 0, pAbove: 1, zeroVariance: true });
  });

  it('one tail each way: pBelow + pAbove = 1', () => {
    const t = resampledPairedT(
      unitSe(10).map((r) => r[0]),
      1.383029,
      10,
      1,
    )!;
    // t_{0.9, 9} = 1.383029
    expect(t.pAbove).toBeCloseTo(0.1, 5);
    expect(t.pBelow + t.pAbove).toBeCloseTo(1, 12);
  });
});
