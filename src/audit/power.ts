/**
 * What the black-box test (src/audit/epsilonBound.ts) can show at M samples: its exact power
 * against given true rates (the estimation counts are independent binomials, so the chance
 * that ε_lb exceeds ξ is a finite sum over the false-positive count).
 */
import betaQuantile from '@stdlib/stats-base-dists-beta-quantile';
import binomialCdf from '@stdlib/stats-base-dists-binomial-cdf';
import { epsilonLowerBound } from './epsilonBound.js';

/** The one-sided Clopper–Pearson ends epsilonLowerBound uses, memoized per (M, alpha). */
const ends = new Map<string, { low: Float64Array; high: Float64Array }>();
function endsFor(samples: number, alpha: number): { low: Float64Array; high: Float64Array } {
  const key = `${samples}:${alpha}`;
  let e = ends.get(key);
  if (!e) {
    e = { low: new Float64Array(samples + 1).fill(NaN), high: new Float64Array(samples + 1).fill(NaN) };
    ends.set(key, e);
  }
  return e;
}
function lowEnd(e: { low: Float64Array }, k: number, n: number, alpha: number): number {
  if (Number.isNaN(e.low[k])) e.low[k] = k === 0 ? 0 : betaQuantile(alpha / 2, k, n - k + 1);
  return e.low[k];
}
function highEnd(e: { high: Float64Array }, k: number, n: number, alpha: number): number {
  if (Number.isNaN(e.high[k])) e.high[k] = k === n ? 1 : betaQuantile(1 - alpha / 2, k + 1, n - k);
  return e.high[k];
}

/**
 * Pr[ε_lb > xi] when the M positives hit with probability tpr and the M negatives with fpr, at
 * level alpha: Σ_k Pr[FP = k]·Pr[TP >= the fewest true positives that show xi at k].
 */
export function blackBoxPower(tpr: number, fpr: number, samples: number, delta: number, xi: number, alpha: number): number {
  const e = endsFor(samples, alpha);
  const sd = Math.sqrt(samples * fpr * (1 - fpr));
  const kLo = Math.max(0, Math.floor(samples * fpr - 9 * sd - 1));
  const kHi = Math.min(samples, Math.ceil(samples * fpr + 9 * sd + 1));
  let power = 0;
  for (let k = kLo; k <= kHi; k++) {
    const pk = binomialCdf(k, samples, fpr) - (k > 0 ? binomialCdf(k - 1, samples, fpr) : 0);
    if (pk <= 0) continue;
    const need = delta + Math.exp(xi) * highEnd(e, k, samples, alpha);
    if (!(lowEnd(e, samples, samples, alpha) > need)) break; // larger k need more still
    let lo = 0;
    let hi = samples; // lowEnd(hi) > need
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (lowEnd(e, mid, samples, alpha) > need) hi = mid;
      else lo = mid;
    }
    const tpAtLeast = hi === 0 ? 1 : 1 - binomialCdf(hi - 1, samples, tpr);
    power += pk * Math.max(0, tpAtLeast);
  }
  return Math.min(1, power);
}

/**
 * The threshold t the selection half tends to choose from score laws (pmf index i is score
 * i − offset): the one maximizing ε_lb at the selection size with the expected counts; then the
 * rates at t.
 */
export function ratesAtLikelyThreshold(pos: ArrayLike<number>, neg: ArrayLike<number>, selection: number, delta: number): { tpr: number; fpr: number } {
  let best = { tpr: 0, fpr: 0 };
  let bestEps = -1;
  let tp = 0;
  let fp = 0;
  for (let i = pos.length - 1; i >= 0; i--) {
    tp += pos[i];
    fp += neg[i];
    if (pos[i] === 0 && neg[i] === 0) continue;
    const counts = { truePositives: Math.round(selection * Math.min(1, tp)), positives: selection, falsePositives: Math.round(selection * Math.min(1, fp)), negatives: selection };
    const eps = epsilonLowerBound(counts, delta);
    if (eps > bestEps) {
      bestEps = eps;
      best = { tpr: Math.min(1, tp), fpr: Math.min(1, fp) };
    }
  }
  return best;
}
