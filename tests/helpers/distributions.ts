/** Checks of samplers against exact laws: standard-error bounds, Kolmogorov–Smirnov, quadrature of a density. */
import { expect } from 'vitest';

/** |observed − expected| within Z standard errors (a false alarm has probability ~1e-6). */
export const Z = 5;
export const within = (observed: number, expected: number, se: number, what: string) =>
  expect(Math.abs(observed - expected), `${what}: observed ${observed}, expected ${expected} ± ${Z}×${se}`).toBeLessThanOrEqual(Z * se);

/** KS critical value at level 1e-3. */
export const ksCritical = (n: number) => Math.sqrt(-Math.log(5e-4) / 2) / Math.sqrt(n);

/**
 * The exact law of an angle φ on [0, π] with log-density `logg` (up to a constant), by the
 * trapezoid rule on a fine grid: its CDF (interpolated), mean and variance of any f(φ).
 */
export function quadrature(logg: (phi: number) => number, points = 50_001) {
  const step = Math.PI / (points - 1);
  const phi = Float64Array.from({ length: points }, (_, i) => i * step);
  const lg = phi.map(logg);
  let top = Number.NEGATIVE_INFINITY;
  for (const v of lg) if (Number.isFinite(v) && v > top) top = v;
  const g = lg.map((v) => (Number.isFinite(v) ? Math.exp(v - top) : 0));
  const cdf = new Float64Array(points);
  for (let i = 1; i < points; i++) cdf[i] = cdf[i - 1]! + ((g[i - 1]! + g[i]!) / 2) * step;
  const total = cdf[points - 1]!;
  for (let i = 0; i < points; i++) cdf[i] = cdf[i]! / total;
  const expect_ = (f: (p: number) => number) => {
    let s = 0;
    for (let i = 1; i < points; i++) s += ((f(phi[i - 1]!) * g[i - 1]! + f(phi[i]!) * g[i]!) / 2) * step;
    return s / total;
  };
  const cdfAt = (p: number) => {
    if (p <= 0) return 0;
    if (p >= Math.PI) return 1;
    const x = p / step;
    const i = Math.floor(x);
    return cdf[i]! + (x - i) * (cdf[i + 1]! - cdf[i]!);
  };
  return { cdfAt, expect: expect_ };
}

export function ks(sample: Float64Array, cdf: (v: number) => number): number {
  const s = Float64Array.from(sample).sort();
  let d = 0;
  for (let i = 0; i < s.length; i++) {
    const f = cdf(s[i]!);
    d = Math.max(d, f - i / s.length, (i + 1) / s.length - f);
  }
  return d;
}
