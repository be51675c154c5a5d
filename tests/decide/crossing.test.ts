/**
 * The crossing by hand, through every branch: none, all, interior in log ξ, ξ_0 = 0 (linear from
 * 0), and a pool of pool-adjacent-violators; each expected value computed here from the formula
 * of issue 51, not read off the code.
 */
import { describe, expect, it } from 'vitest';
import { bindingCrossing, crossingOf, pava, valueAt, xiAt } from '../../src/decide/crossing.js';

describe('pava (equal weights)', () => {
  it('leaves a non-decreasing sequence alone and pools violators into their mean', () => {
    expect(pava([1, 2, 2, 5])).toEqual([1, 2, 2, 5]);
    expect(pava([3, 1, 2])).toEqual([2, 2, 2]);
    expect(pava([1, 3, 2, 4])).toEqual([1, 2.5, 2.5, 4]);
    // a pool that grows backwards: (4, 1) → 2.5, then (3, 2.5, 2.5) → 8/3
    const p = pava([0, 3, 4, 1]);
    expect(p[0]).toBe(0);
    for (const x of p.slice(1)) expect(x).toBeCloseTo(8 / 3, 14);
  });
});

describe('crossingOf', () => {
  const xis = [0, 1, 5];
  it('none: the smallest ξ already exceeds T', () => {
    const c = crossingOf(xis, [0.05, 0.1, 0.2], 0.01);
    expect(c.flag).toBe('none');
    expect(Number.isNaN(c.xi)).toBe(true);
  });

  it('all: every ξ meets T, ξ* is the largest', () => {
    expect(crossingOf(xis, [0.001, 0.002, 0.005], 0.01)).toEqual({ flag: 'all', i: 2, f: 0, xi: 5 });
    // T exactly at the top still meets it
    expect(crossingOf(xis, [0.001, 0.002, 0.01], 0.01).flag).toBe('all');
  });

  it('interior: log-linear between ξ_i > 0 and ξ_{i+1}', () => {
    // f = (0.01 − 0.006)/(0.03 − 0.006) = 1/6; ξ* = exp(ln 2 + (ln 8 − ln 2)/6) = 2·4^(1/6) = 2^(4/3)
    const c = crossingOf([0, 2, 8], [0.002, 0.006, 0.03], 0.01);
    expect(c.flag).toBe('interior');
    expect(c.i).toBe(1);
    expect(c.f).toBeCloseTo(1 / 6, 14);
    expect(c.xi).toBeCloseTo(2 ** (4 / 3), 12);
    // u* linear in f
    expect(valueAt([0.3, 0.2, 0.1], c.i, c.f)).toBeCloseTo(0.2 - 0.1 / 6, 14);
  });

  it('ξ_0 = 0: linear from 0 (log 0 is −∞), ξ* = f·ξ_1', () => {
    // f = (0.007 − 0.002)/(0.012 − 0.002) = 0.5 → ξ* = 2
    const c = crossingOf([0, 4], [0.002, 0.012], 0.007);
    expect([c.flag, c.i]).toEqual(['interior', 0]);
    expect(c.xi).toBeCloseTo(2, 14);
    expect(xiAt([0, 4], 0, 0.25)).toBe(1);
  });

  it('a PAVA pool: the fall from ξ 1 to ξ 2 is pooled before the crossing', () => {
    // pooled: 0.002, 0.008, 0.008, 0.03; T 0.009 → i = 2 (the largest index at most T), f = 0.001/0.022
    const c = crossingOf([0, 1, 2, 4], [0.002, 0.01, 0.006, 0.03], 0.009);
    expect(c.i).toBe(2);
    expect(c.f).toBeCloseTo(1 / 22, 14);
    expect(c.xi).toBeCloseTo(2 ** (23 / 22), 12);
    // unpooled, the crossing would sit between ξ 0 and 1
    expect(crossingOf([0, 1, 2, 4], [0.002, 0.01, 0.006, 0.03], 0.009, true).i).toBe(0);
  });

  it('two targets: the smaller crossing binds; none binds over anything', () => {
    const a = crossingOf([0, 2, 8], [0.002, 0.006, 0.03], 0.01);
    const b = crossingOf([0, 2, 8], [0.001, 0.003, 0.004], 0.01);
    expect(bindingCrossing([b, a])).toEqual({ crossing: a, index: 1 });
    const none = crossingOf([0, 2, 8], [0.02, 0.03, 0.04], 0.01);
    expect(bindingCrossing([a, none]).crossing.flag).toBe('none');
  });
});
