/**
 * The tests behind the claims: one-sided t-tests on per-trial values (paired when both sides share
 * the trial's hyperplanes, Welch otherwise) and the two one-sided tests (TOST) of equivalence
 * (Holm's correction is holm.ts). The t distribution is @stdlib's (no hand-written special functions).
 *
 * Convention: a test compares side `a` with side `b` through the difference a − b; `pBelow` is the
 * one-sided p-value for "a is below b" (H1: mean difference < 0), `pAbove` for "a is above b".
 */
import { tCdf } from '../vendor/stdlib.js';

export type TestKind = 'paired' | 'welch' | 'one-sample';

export interface TTest {
  kind: TestKind;
  /** mean of a − b (paired: mean of the differences) */
  diff: number;
  /** standard error of `diff` (0 when there is no variance) */
  se: number;
  /** degrees of freedom (Welch: Welch–Satterthwaite) */
  df: number;
  /** t statistic, diff / se (0 when se is 0) */
  t: number;
  /** H1: mean(a − b) < 0 */
  pBelow: number;
  /** H1: mean(a − b) > 0 */
  pAbove: number;
  /**
   * No variance to judge the difference by (every trial gave the same difference): the p-values
   * are the t test's limit as the standard error goes to 0 (see `fromStatistic`).
   */
  zeroVariance: boolean;
}

function mean(xs: readonly number[]): number {
  let s = 0;
  for (const x of xs) s += x;
  return s / xs.length;
}

/** Unbiased sample variance (n − 1 in the denominator). */
function variance(xs: readonly number[], m = mean(xs)): number {
  let s = 0;
  for (const x of xs) s += (x - m) * (x - m);
  return s / (xs.length - 1);
}

/**
 * Relative size below which a standard error counts as zero: differences that are identical up to
 * floating-point rounding (e.g. the same loss summed in another order) must not become "infinitely
 * significant".
 */
const ZERO_SE = 1e-12;

/**
 * The t test's limit without variance, one rule for every test: every trial beyond the compared
 * value (diff > 0 for "above", < 0 for "below") gives p = 0 that way; at it or short of it, p = 1.
 * A difference within floating-point rounding of 0 is 0 (both p = 1).
 */
function zeroVarianceLimit(kind: TestKind, diff: number, df: number, tolerance: number): TTest {
  const d = Math.abs(diff) > tolerance ? diff : 0;
  return { kind, diff, se: 0, df, t: d === 0 ? 0 : d * Infinity, pBelow: d < 0 ? 0 : 1, pAbove: d > 0 ? 0 : 1, zeroVariance: true };
}

function fromStatistic(kind: TestKind, diff: number, se: number, df: number, scale: number): TTest {
  const tolerance = ZERO_SE * Math.max(1, scale);
  if (!(se > tolerance) || !Number.isFinite(df) || df <= 0) return zeroVarianceLimit(kind, diff, df, tolerance);
  const t = diff / se;
  // each tail from its own side of the CDF, so a tiny p-value keeps its precision
  return { kind, diff, se, df, t, pBelow: tCdf(t, df), pAbove: tCdf(-t, df), zeroVariance: false };
}

/** Paired t-test on a[i] − b[i] (same trial on both sides); needs at least 2 pairs. */
export function pairedTTest(a: readonly number[], b: readonly number[]): TTest {
  if (a.length !== b.length) throw new Error(`pairedTTest: ${a.length} values against ${b.length}`);
  if (a.length < 2) throw new Error('pairedTTest: needs at least 2 pairs');
  const d = a.map((x, i) => x - b[i]);
  const m = mean(d);
  const se = Math.sqrt(variance(d, m) / d.length);
  return fromStatistic('paired', m, se, d.length - 1, Math.max(...a.map(Math.abs), ...b.map(Math.abs)));
}

/**
 * One-sample t-test of mean(a) − mu (a level known without error, e.g. the chance level 10/N of
 * a ranking attack); needs at least 2 values.
 */
export function oneSampleTTest(a: readonly number[], mu: number): TTest {
  if (a.length < 2) throw new Error('oneSampleTTest: needs at least 2 values');
  const m = mean(a);
  const se = Math.sqrt(variance(a, m) / a.length);
  return fromStatistic('one-sample', m - mu, se, a.length - 1, Math.max(Math.abs(mu), ...a.map(Math.abs)));
}

/** Welch's unequal-variance t-test of mean(a) − mean(b); needs at least 2 values per side. */
export function welchTTest(a: readonly number[], b: readonly number[]): TTest {
  if (a.length < 2 || b.length < 2) throw new Error('welchTTest: needs at least 2 values per side');
  const ma = mean(a);
  const mb = mean(b);
  const va = variance(a, ma) / a.length;
  const vb = variance(b, mb) / b.length;
  const se = Math.sqrt(va + vb);
  // Welch–Satterthwaite; when one side has no variance the other side's n − 1 remains
  const df = (va + vb) ** 2 / ((va > 0 ? (va * va) / (a.length - 1) : 0) + (vb > 0 ? (vb * vb) / (b.length - 1) : 0));
  return fromStatistic('welch', ma - mb, se, df, Math.max(...a.map(Math.abs), ...b.map(Math.abs)));
}

export interface Tost {
  /** p-value of equivalence (|mean(a − b)| < margin): the larger of the two one-sided p-values */
  pEquivalent: number;
  /** p-value of non-equivalence (|mean(a − b)| > margin), the smaller one-sided p times 2 (Bonferroni over the two sides) */
  pBeyond: number;
  test: TTest;
}

/**
 * Two one-sided tests of equivalence within ±margin, on the statistic of `test` (paired or Welch):
 * equivalence needs both H1: diff > −margin and H1: diff < margin; the p-value is the larger one.
 * Zero variance takes the t test's limit, as every test here: a difference strictly inside the
 * margin is equivalent (p = 0), one strictly beyond it is beyond (p = 0), each other way p = 1.
 */
export function tost(test: TTest, margin: number): Tost {
  if (!(margin > 0)) throw new Error(`tost: margin must be > 0, got ${margin}`);
  if (test.zeroVariance) {
    // the difference as the test judged it: within rounding of 0 it is 0 (t = 0)
    const d = test.t === 0 ? 0 : Math.abs(test.diff);
    return { pEquivalent: d < margin ? 0 : 1, pBeyond: d > margin ? 0 : 1, test };
  }
  const above = (test.diff + margin) / test.se; // H1: diff > −margin
  const below = (test.diff - margin) / test.se; // H1: diff < margin
  const pAboveLow = tCdf(-above, test.df);
  const pBelowHigh = tCdf(below, test.df);
  // non-equivalence: diff > margin (upper tail at `below`) or diff < −margin (lower tail at `above`)
  const pOverHigh = tCdf(-below, test.df);
  const pUnderLow = tCdf(above, test.df);
  return {
    pEquivalent: Math.max(pAboveLow, pBelowHigh),
    pBeyond: Math.min(1, 2 * Math.min(pOverHigh, pUnderLow)),
    test,
  };
}
