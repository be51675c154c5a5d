/**
 * What the black-box test (src/audit/epsilonBound.ts) can show at M samples: its exact power
 * against given true rates (the estimation counts are independent binomials, so the chance
 * that ε_lb exceeds ξ is a finite sum over the false-positive count).
 */
import { epsilonLowerBound } from './epsilonBound.js';
import { betaQuantile, binomialCdf } from '../vendor/stdlib.js';

/** The one-sided Clopper–Pearson ends epsilonLowerBound uses, memoized per (M, alpha) (sparse: the
 *  sample sizes `samples_needed` tries reach 10⁶). */
const ends = new Map<string, { low: Map<number, number>; high: Map<number, number> }>();
function endsFor(samples: number, alpha: number): { low: Map<number, number>; high: Map<number, number> } {
  const key = `${samples}:${alpha}`;
  let e = ends.get(key);
  if (!e) {
    if (ends.size > 64) ends.clear();
    e = { low: new Map(), high: new Map() };
    ends.set(key, e);
  }
  return e;
}
function lowEnd(e: { low: Map<number, number> }, k: number, n: number, alpha: number): number {
  let v = e.low.get(k);
  if (v === undefined) {
    v = k === 0 ? 0 : betaQuantile(alpha / 2, k, n - k + 1);
    e.low.set(k, v);
  }
  return v;
}
function highEnd(e: { high: Map<number, number> }, k: number, n: number, alpha: number): number {
  let v = e.high.get(k);
  if (v === undefined) {
    v = k === n ? 1 : betaQuantile(1 - alpha / 2, k + 1, n - k);
    e.high.set(k, v);
  }
  return v;
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

/** The normal quantile of 0.9: both counts at their 10% worst quantiles hold together with
 *  probability 0.9² = 0.81 >= POWER_TARGET. */
const Z90 = 1.2815515655446004;

/**
 * Whether the black-box test at M samples flags true rates (tpr, fpr) with probability about 0.8 or
 * more, without the exact sum (for M beyond 10⁶, where `samples_needed` extrapolates): ε_lb at the
 * counts' worse 10% quantiles (normal approximation) exceeds xi.
 */
export function blackBoxFlagsApprox(tpr: number, fpr: number, samples: number, delta: number, xi: number, alpha: number): boolean {
  const tp = Math.max(0, Math.min(samples, Math.floor(samples * tpr - Z90 * Math.sqrt(samples * tpr * (1 - tpr)))));
  const fp = Math.max(0, Math.min(samples, Math.ceil(samples * fpr + Z90 * Math.sqrt(samples * fpr * (1 - fpr)))));
  return epsilonLowerBound({ truePositives: tp, positives: samples, falsePositives: fp, negatives: samples }, delta, alpha) > xi;
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

/** `count` draws from a pmf (index i), as counts per index (inverse CDF, one uniform per draw). */
function multinomialCounts(pmf: ArrayLike<number>, count: number, rng: () => number): Float64Array {
  const cdf = new Float64Array(pmf.length);
  let cum = 0;
  for (let i = 0; i < pmf.length; i++) cdf[i] = cum += pmf[i];
  const out = new Float64Array(pmf.length);
  for (let j = 0; j < count; j++) {
    const u = rng() * cum;
    let lo = 0;
    let hi = pmf.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cdf[mid] > u) hi = mid;
      else lo = mid + 1;
    }
    out[lo]++;
  }
  return out;
}

/** Replicates of the selection that blackBoxPowerWithSelection averages over. */
export const SELECTION_REPLICATES = 48;

/**
 * The black-box test's power at M samples, as the audit would run it on a release whose score laws
 * a pilot of `pilot` samples estimated (pmfs `pos`, `neg`), averaged over `replicates` draws (with
 * `rng`) of what the pilot does not know:
 * - the selection: M/2 selection samples drawn from the pilot's pmfs for each of `contenders`
 *   candidate pairs (the row's, taken equal in law to the kept one), and the threshold with the
 *   largest ε_lb on any of them (chooseThreshold's rule, at its level 0.05) — a threshold the real
 *   selection might pick badly, or overfit across candidates, costs power the best threshold hides;
 * - the true rates at that threshold: drawn from their posteriors given the pilot's counts (Jeffreys,
 *   Beta(k + ½, N − k + ½)) — a tail the pilot never reached is not a rate of exactly 0.
 */
export function blackBoxPowerWithSelection(
  pos: ArrayLike<number>,
  neg: ArrayLike<number>,
  pilot: number,
  samples: number,
  delta: number,
  xi: number,
  level: number,
  rng: () => number,
  contenders = 1,
  replicates = SELECTION_REPLICATES,
): number {
  const selection = Math.max(1, Math.floor(samples / 2));
  // the pilot's counts at each threshold (index i: "score index >= i")
  const tpAt = new Float64Array(pos.length);
  const fpAt = new Float64Array(pos.length);
  let tp = 0;
  let fp = 0;
  for (let i = pos.length - 1; i >= 0; i--) {
    tp += pos[i];
    fp += neg[i];
    tpAt[i] = Math.min(pilot, Math.round(pilot * tp));
    fpAt[i] = Math.min(pilot, Math.round(pilot * fp));
  }
  const posterior = (k: number) => betaQuantile(rng(), k + 0.5, pilot - k + 0.5);
  let total = 0;
  for (let b = 0; b < replicates; b++) {
    let best = pos.length - 1;
    let bestEps = -1;
    for (let c = 0; c < contenders; c++) {
      const p = multinomialCounts(pos, selection, rng);
      const n = multinomialCounts(neg, selection, rng);
      // candidates in ascending order, ties keep the smallest (chooseThreshold)
      const eps = new Float64Array(pos.length).fill(-1);
      let ctp = 0;
      let cfp = 0;
      for (let i = pos.length - 1; i >= 0; i--) {
        ctp += p[i];
        cfp += n[i];
        if (p[i] === 0 && n[i] === 0) continue;
        eps[i] = epsilonLowerBound({ truePositives: ctp, positives: selection, falsePositives: cfp, negatives: selection }, delta);
      }
      for (let i = 0; i < pos.length; i++) {
        if (eps[i] > bestEps) {
          bestEps = eps[i];
          best = i;
        }
      }
    }
    total += blackBoxPower(posterior(tpAt[best]), posterior(fpAt[best]), samples, delta, xi, level);
  }
  return total / replicates;
}
