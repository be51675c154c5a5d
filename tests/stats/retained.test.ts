import { describe, expect, it } from 'vitest';
import { RETAINED_NA, retained, retainedOrNull, retainedShown } from '../../src/stats/retained.js';

describe('retained', () => {
  it('is (u_rand − u*) / (u_rand − u_lsh): 1 at clean LSH, 0 at random, unclamped beyond', () => {
    expect(retained(0.1, 0.3, 0.1)).toBe(1);
    expect(retained(0.3, 0.3, 0.1)).toBe(0);
    expect(retained(0.25, 0.3, 0.1)).toBeCloseTo(0.25, 15);
    // better than clean LSH (jl-gaussian can be): over 100%, not clamped; worse than random: negative
    expect(retained(0.05, 0.3, 0.1)).toBeCloseTo(1.25, 15);
    expect(retained(0.4, 0.3, 0.1)).toBeCloseTo(-0.5, 15);
  });

  it('is printed only where u_rand − u_lsh exceeds 3 SE', () => {
    expect(retainedShown(0.3, 0.1, 0.05)).toBe(true); // gap 0.2 > 0.15
    expect(retainedShown(0.3, 0.1, 0.07)).toBe(false); // gap 0.2 < 0.21
    expect(retainedShown(0.3, 0.1, Number.NaN)).toBe(false); // one trial: no SE
    expect(retainedOrNull(0.2, 0.3, 0.1, 0.01)).toBeCloseTo(0.5, 15);
    expect(retainedOrNull(0.2, 0.3, 0.1, 0.1)).toBeNull();
    expect(RETAINED_NA).toBe('n/a (clean LSH ≈ random)');
  });
});
