/**
 * The black-box lower bound on ε of a distinguishing test (Jagielski et al. 2020):
 * ε_lb = ln((TPR_low − δ) / FPR_high), with Clopper–Pearson bounds on the two rates
 * (src/stats/binomial.ts), the threshold that maximizes it, and its p-value against a claimed ξ.
 */
import { clopperPearson } from '../stats/binomial.js';

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
