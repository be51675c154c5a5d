import { describe, expect, it } from 'vitest';
import { holm } from '../../src/stats/holm.js';

describe('Holm–Bonferroni', () => {
  it('adjusts a textbook example by hand: sorted p·(m − i), made monotone', () => {
    // sorted: 0.005·4 = 0.02, 0.01·3 = 0.03, 0.03·2 = 0.06, 0.04·1 = 0.04 → 0.02, 0.03, 0.06, 0.06
    const h = holm([0.01, 0.04, 0.03, 0.005], 0.05);
    h.adjusted.forEach((p, i) => {
      expect(p).toBeCloseTo([0.03, 0.06, 0.06, 0.02][i], 12);
    });
    expect(h.rejected).toEqual([true, false, false, true]);
  });

  it('steps down: rejects more than Bonferroni when the smaller p-values pass', () => {
    // Bonferroni (0.05/3 = 0.0167) rejects only the first; Holm compares 0.01 ≤ .05/3, 0.02 ≤ .05/2, 0.04 ≤ .05
    expect(holm([0.01, 0.02, 0.04], 0.05).rejected).toEqual([true, true, true]);
  });

  it('stops at the first failure: a later p below α is not rejected', () => {
    // 0.001 ≤ .05/3 passes, 0.03 > .05/2 fails, so 0.04 (≤ 0.05 alone) is kept
    expect(holm([0.04, 0.001, 0.03], 0.05).rejected).toEqual([false, true, false]);
  });

  it('caps adjusted p-values at 1 and handles an empty family', () => {
    expect(holm([0.9, 0.8], 0.05).adjusted).toEqual([1, 1]);
    expect(holm([], 0.05)).toEqual({ adjusted: [], rejected: [] });
  });
});

describe('Holm', () => {
  it('adjusts step-down and keeps monotonicity (hand example)', () => {
    // sorted 0.01, 0.02, 0.03, 0.5 with m = 4: 0.04, 0.06, 0.06 (monotone), 0.5
    expect(holm([0.03, 0.01, 0.5, 0.02], 0.05).adjusted.map((x) => Number(x.toFixed(10)))).toEqual([0.06, 0.04, 0.5, 0.06]);
    expect(holm([0.9, 0.8], 0.05).adjusted).toEqual([1, 1]);
    expect(holm([0.04, 0.01], 0.05).adjusted).toEqual([0.04, 0.02]);
    expect(holm([], 0.05).adjusted).toEqual([]);
  });
});
