/**
 * Binomial proportions: Clopper–Pearson intervals and exact one-sided binomial tests. Beta
 * quantiles and the binomial CDF come from @stdlib (no hand-written special functions).
 */
import { betaQuantile, binomialCdf } from '../vendor/stdlib.js';

/** Two-sided (1 − alpha) Clopper–Pearson interval for k successes in n trials. */
export function clopperPearson(k: number, n: number, alpha = 0.05): [number, number] {
  if (!(n >= 1) || k < 0 || k > n) throw new RangeError(`clopperPearson: need 0 <= k <= n, n >= 1 (k=${k}, n=${n})`);
  const lo = k === 0 ? 0 : betaQuantile(alpha / 2, k, n - k + 1);
  const hi = k === n ? 1 : betaQuantile(1 - alpha / 2, k + 1, n - k);
  return [lo, hi];
}

/** Pr[X >= k] for X ~ Bin(n, p): the p-value of k successes against H0 "rate <= p". */
export function binomialUpperP(k: number, n: number, p: number): number {
  if (k <= 0) return 1;
  return Math.max(0, 1 - binomialCdf(k - 1, n, p));
}

/** Pr[X <= k] for X ~ Bin(n, p): the p-value of k successes against H0 "rate >= p". */
export function binomialLowerP(k: number, n: number, p: number): number {
  if (k >= n) return 1;
  return Math.min(1, binomialCdf(k, n, p));
}
