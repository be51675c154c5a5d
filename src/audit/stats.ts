/**
 * The audit's statistics: Clopper–Pearson intervals for binomial proportions, exact one-sided
 * binomial tests, Holm's step-down adjustment, and the black-box lower bound on ε of a
 * distinguishing test (Jagielski et al. 2020): ε_lb = ln((TPR_low − δ) / FPR_high).
 * Beta quantiles and the binomial CDF come from @stdlib (no hand-written special functions).
 */
import betaQuantile from '@stdlib/stats-base-dists-beta-quantile';
import binomialCdf from '@stdlib/stats-base-dists-binomial-cdf';

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

/**
 * Holm's step-down adjusted p-values (same order as the input): reject H_i at family level alpha
 * iff adjusted_i <= alpha. Controls the family-wise error rate under any dependence.
 */
export function holmAdjust(pValues: readonly number[]): number[] {
  const m = pValues.length;
  const order = pValues.map((p, i) => [p, i] as const).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const adjusted = new Array<number>(m);
  let running = 0;
  order.forEach(([p, i], rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * p));
    adjusted[i] = running;
  });
  return adjusted;
}

/** Counts of a distinguishing test at one threshold: "x" when the statistic is >= t. */
export interface RateCounts {
  truePositives: number;
  positives: number;
  falsePositives: number;
  negatives: number;
}

/**
 * ε_lb = ln((TPR_low − δ) / FPR_high) with (1 − alpha) Clopper–Pearson bounds on each rate (the
 * pair holds with probability >= 1 − alpha by the union bound over two alpha/2 two-sided
 * intervals' relevant ends). 0 when the numerator is not positive (no evidence).
 * FPR_high is never 0 (the upper bound of 0 successes is positive), so ε_lb stays finite.
 */
export function epsilonLowerBound(c: RateCounts, delta: number, alpha = 0.05): number {
  const tprLow = clopperPearson(c.truePositives, c.positives, alpha)[0];
  const fprHigh = clopperPearson(c.falsePositives, c.negatives, alpha)[1];
  const num = tprLow - delta;
  if (!(num > 0)) return 0;
  return Math.max(0, Math.log(num / fprHigh));
}

/** The counts at threshold t of integer-or-real scores (statistic >= t decides "x"). */
export function countsAt(pos: ArrayLike<number>, neg: ArrayLike<number>, t: number): RateCounts {
  let tp = 0;
  let fp = 0;
  for (let i = 0; i < pos.length; i++) if (pos[i] >= t) tp++;
  for (let i = 0; i < neg.length; i++) if (neg[i] >= t) fp++;
  return { truePositives: tp, positives: pos.length, falsePositives: fp, negatives: neg.length };
}

/**
 * The threshold maximizing ε_lb on the selection samples (candidates: every distinct score, in
 * ascending order; ties keep the smallest threshold). Must be applied to separate samples.
 */
export function chooseThreshold(pos: ArrayLike<number>, neg: ArrayLike<number>, delta: number, alpha = 0.05): number {
  const candidates = [...new Set([...Array.from(pos), ...Array.from(neg)])].sort((a, b) => a - b);
  let best = candidates[candidates.length - 1] ?? 0;
  let bestEps = -1;
  for (const t of candidates) {
    const e = epsilonLowerBound(countsAt(pos, neg, t), delta, alpha);
    if (e > bestEps) {
      bestEps = e;
      best = t;
    }
  }
  return best;
}

/**
 * The p-value of "the delivered ε exceeds xi" from the black-box test: the smallest alpha at which
 * ε_lb(alpha) > xi (ε_lb grows as alpha grows, the intervals narrowing), found by bisection on
 * log alpha; 1 when even alpha = 1/2 does not show it.
 */
export function epsilonLbPValue(c: RateCounts, delta: number, xi: number): number {
  if (!(epsilonLowerBound(c, delta, 0.5) > xi)) return 1;
  let lo = -700; // ln alpha
  let hi = Math.log(0.5);
  if (epsilonLowerBound(c, delta, Math.exp(lo)) > xi) return Math.exp(lo);
  for (let i = 0; i < 60; i++) {
    const mid = (lo + hi) / 2;
    if (epsilonLowerBound(c, delta, Math.exp(mid)) > xi) hi = mid;
    else lo = mid;
  }
  return Math.exp(hi);
}
