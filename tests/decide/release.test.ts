/** One release's bounds against their closed forms. */
import { describe, expect, it } from 'vitest';
import { releaseBounds } from '../../src/decide/release.js';
import { tCdf } from '../../src/vendor/stdlib.js';

describe('releaseBounds', () => {
  it('normal: mean + t_{0.9, m−1}·sd·√(1 + 1/m); distribution-free: the max, coverage m/(m + 1)', () => {
    const b = releaseBounds([1, 2, 3, 4])!;
    // mean 2.5, sd √(5/3); t_{0.9, 3} = 1.637744 (tables); the bound's t is the t quantile: tCdf of it is 0.9
    const t = (b.normal - 2.5) / (Math.sqrt(5 / 3) * Math.sqrt(1 + 1 / 4));
    expect(t).toBeCloseTo(1.637744, 5);
    expect(tCdf(t, 3)).toBeCloseTo(0.9, 12);
    expect(b.max).toBe(4);
    expect(b.maxCoverage).toBeCloseTo(0.8, 15);
  });

  it('ten trials: t_{0.9, 9} = 1.383029; no spread, no width; fewer than 2 values give nothing', () => {
    const xs = [0.01, 0.012, 0.009, 0.011, 0.01, 0.013, 0.008, 0.01, 0.011, 0.01];
    const mean = xs.reduce((a, b) => a + b, 0) / 10;
    const sd = Math.sqrt(xs.reduce((a, b) => a + (b - mean) ** 2, 0) / 9);
    expect(releaseBounds(xs)!.normal).toBeCloseTo(mean + 1.383029 * sd * Math.sqrt(1.1), 8);
    expect(releaseBounds([0.02, 0.02])).toEqual({ normal: 0.02, max: 0.02, maxCoverage: 2 / 3 });
    expect(releaseBounds([0.02])).toBeNull();
  });
});
