/**
 * The statistics of the release-law tests (src/audit/lawRows.ts): confidence bounds on a noise scale
 * from the χ² law of a sum of squares (Gaussian) or of absolute values (Laplace: 2Σ|e|/s ~ χ²_{2n}),
 * the Kolmogorov–Smirnov distance of standardized residuals from a continuous law, Pearson's
 * χ² test of uniform counts, and the exact power of a two-sided binomial rate test. The χ² and
 * normal functions are @stdlib's.
 */
import { binomialUpperP } from '../stats/binomial.js';
import { binomialCdf, chisquareCdf, chisquareQuantile, normalCdf } from '../vendor/stdlib.js';

/** Pr[χ²_df <= x]. */
export function chi2Cdf(x: number, df: number): number {
  return chisquareCdf(x, df);
}

/** The p-quantile of χ²_df. */
export function chi2Quantile(p: number, df: number): number {
  return chisquareQuantile(p, df);
}

/** The standard normal CDF. */
export function standardNormalCdf(x: number): number {
  return normalCdf(x, 0, 1);
}

/** The standard Laplace CDF (density e^{−|x|}/2). */
export function standardLaplaceCdf(x: number): number {
  return x < 0 ? Math.exp(x) / 2 : 1 - Math.exp(-x) / 2;
}

/**
 * The one-sided (1 − level) upper confidence bound of a scale ratio ρ from `stat` ~ ρ^power·χ²_df
 * (Gaussian residuals standardized by the declared σ: stat = Σ r², power 2, df = n; Laplace:
 * stat = 2Σ|e|, power 1, df = 2n): (stat/χ²_df(level))^{1/power}.
 */
export function scaleUpperBound(stat: number, df: number, level: number, power: 1 | 2): number {
  const q = chi2Quantile(level, df);
  return power === 2 ? Math.sqrt(stat / q) : stat / q;
}

/** The two-sided χ² p-value of `stat` ~ χ²_df: 2·min(F, 1 − F). */
export function chi2TwoSidedP(stat: number, df: number): number {
  const f = chi2Cdf(stat, df);
  return Math.min(1, 2 * Math.min(f, 1 - f));
}

/** sup |F_n − F| of samples against a continuous CDF (the samples are sorted in place). */
export function ksContinuous(samples: Float64Array, cdf: (x: number) => number): number {
  samples.sort();
  const n = samples.length;
  let sup = 0;
  for (let i = 0; i < n; i++) {
    const f = cdf(samples[i]);
    sup = Math.max(sup, f - i / n, (i + 1) / n - f);
  }
  return sup;
}

/**
 * Pearson's χ² statistic of counts against expected counts, its degrees of freedom (cells with a
 * positive expectation, less `constraints`) and its upper-tail p-value (1 without a degree of freedom).
 */
export function pearson(observed: ArrayLike<number>, expected: ArrayLike<number>, constraints = 1): { stat: number; df: number; p: number } {
  let stat = 0;
  let cells = 0;
  for (let i = 0; i < observed.length; i++) {
    if (!(expected[i] > 0)) continue;
    cells++;
    stat += (observed[i] - expected[i]) ** 2 / expected[i];
  }
  const df = cells - constraints;
  return { stat, df, p: df >= 1 ? 1 - chi2Cdf(stat, df) : 1 };
}

/**
 * Pr[a two-sided binomial test rejects] when n trials succeed at rate q: it rejects when
 * Pr[X >= k; high] <= level/2 or Pr[X <= k; low] <= level/2 (X ~ Bin(n, ·); either bound may be
 * absent: null). The exact binomial probability of the two rejection regions (n rounded).
 */
export function twoRegionPower(n: number, q: number, low: number | null, high: number | null, level: number): number {
  const trials = Math.round(n);
  if (!(trials >= 1)) return 0;
  let power = 0;
  if (high !== null) {
    // the smallest k with Pr[X >= k; high] <= level/2
    let lo = 0;
    let hi = trials + 1;
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (binomialUpperP(mid, trials, high) <= level / 2) hi = mid;
      else lo = mid;
    }
    if (hi <= trials) power += binomialUpperP(hi, trials, q);
  }
  if (low !== null) {
    // the largest k with Pr[X <= k; low] <= level/2
    let lo = -1;
    let hi = trials;
    while (hi - lo > 1) {
      const mid = Math.floor((lo + hi) / 2);
      if (binomialCdf(mid, trials, low) <= level / 2) lo = mid;
      else hi = mid;
    }
    if (lo >= 0) power += binomialCdf(lo, trials, q);
  }
  return Math.min(1, power);
}
