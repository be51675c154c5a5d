/**
 * The per-trial values of one data set, grouped into series (one per grid cell and mechanism
 * entry: n, κ, k, label, ξ → loss per trial; recommendations likewise per N → NDCG@N), and the
 * comparison of two series as one cell of a claim's family.
 */
import type { RecommendCoordinates, RecommendTrialValue, ResultCoordinates, TrialValue } from '../experiment/trialValues.js';
import { pairedTTest, welchTTest, tost, type TTest } from '../stats/tTests.js';
import type { CellTest } from './rule.js';
import { findMechanism, hasRole } from '../mechanisms/registry.js';
import type { MechanismRole } from '../mechanisms/types.js';
import { DEFAULT_ACCOUNTANT } from '../privacy/accountantNames.js';
import type { ClaimsConfig } from './types.js';

/** The per-trial values of one (data set, n, κ, k, mechanism label, ξ). */
export interface Series extends ResultCoordinates {
  /** trial index → utility loss */
  byTrial: Map<number, number>;
}

// (a run's claims group tens of thousands of values: a joined key, not JSON, per value; the
// separator cannot occur in a name, and null and a number print apart)
function seriesKey(v: TrialValue): string {
  return `${v.dataset}\u0000${v.n}\u0000${v.kappa}\u0000${v.k}\u0000${v.mechanism}\u0000${v.xi}`;
}

/** Group per-trial values into series, in first-seen order. */
export function groupSeries(values: readonly TrialValue[]): Series[] {
  const map = new Map<string, Series>();
  let last: Series | undefined;
  for (const v of values) {
    // a series' trials usually come one after another: the key only when the series changes
    if (last && last.n === v.n && last.kappa === v.kappa && last.k === v.k && last.xi === v.xi && last.mechanism === v.mechanism && last.dataset === v.dataset) {
      last.byTrial.set(v.trial, v.loss);
      continue;
    }
    const key = seriesKey(v);
    let s = map.get(key);
    if (!s) {
      s = { dataset: v.dataset, n: v.n, kappa: v.kappa, k: v.k, mechanism: v.mechanism, base: v.base, accountant: v.accountant, xi: v.xi, byTrial: new Map() };
      map.set(key, s);
    }
    s.byTrial.set(v.trial, v.loss);
    last = s;
  }
  return [...map.values()];
}

/** The per-trial NDCG of one (data set, n, κ, k, mechanism label, ξ, N). */
export interface RecommendSeries extends RecommendCoordinates {
  /** trial index → NDCG@N (the mean over the trial's queries) */
  byTrial: Map<number, number>;
}

/**
 * Per-trial values grouped into series of one number per trial, in first-seen order: `key` joins
 * what makes two values one series (its coordinates), `fields` are the series' own fields (the
 * coordinates and what it carries beside them), taken from its first value, `value` its measure.
 */
export function seriesOf<V extends { trial: number }, F extends object>(
  values: readonly V[],
  key: (v: V) => string,
  fields: (v: V) => F,
  value: (v: V) => number,
): (F & { byTrial: Map<number, number> })[] {
  const map = new Map<string, F & { byTrial: Map<number, number> }>();
  for (const v of values) {
    const k = key(v);
    let s = map.get(k);
    if (!s) {
      s = { ...fields(v), byTrial: new Map<number, number>() };
      map.set(k, s);
    }
    s.byTrial.set(v.trial, value(v));
  }
  return [...map.values()];
}

/** Group per-trial recommendation values into series, in first-seen order (NDCG only: the claims' measure). */
export function groupRecommendSeries(values: readonly RecommendTrialValue[]): RecommendSeries[] {
  return seriesOf(
    values,
    (v) => `${v.dataset}\u0000${v.n}\u0000${v.kappa}\u0000${v.k}\u0000${v.mechanism}\u0000${v.xi}\u0000${v.top}`,
    (v) => ({ dataset: v.dataset, n: v.n, kappa: v.kappa, k: v.k, mechanism: v.mechanism, base: v.base, accountant: v.accountant, xi: v.xi, top: v.top }),
    (v) => v.ndcg,
  );
}

// ------------------------------------------------------------------ which entries a claim means

// a claim picks its series by the role their mechanism declares (Mechanism.roles), never by name
// (anything with a base mechanism: a utility series, an attack series, a per-trial value)
const playing =
  (role: MechanismRole) =>
  (s: Pick<Series, 'base'>): boolean =>
    hasRole(s.base, role);

/** Whether a series' mechanism plays `role` (for the claims in files of their own). */
export const playingRole = playing;

/**
 * An option of a series' config entry (`ClaimsConfig.options`, by label), else the default its
 * mechanism's unit declares (optionSchema), else undefined: how a claim reads e.g. bucket
 * MinHash's b without naming the mechanism.
 */
export function optionOf(config: Pick<ClaimsConfig, 'options'>, s: Pick<Series, 'base' | 'mechanism'>, key: string): unknown {
  return config.options?.[s.mechanism]?.[key] ?? findMechanism(s.base)?.optionSchema?.[key]?.default;
}

/** LSH then per-bit randomized response, whichever the accountant */
export const isLshrr = playing('bitwise-rr');
/** ... with the paper's accountant (an entry without an accountant is the default's, the paper's) */
export const isLshrrPaper = (s: Pick<Series, 'base' | 'accountant'>): boolean => isLshrr(s) && (s.accountant ?? DEFAULT_ACCOUNTANT) === 'paper';
export const isLshrrExact = (s: Pick<Series, 'base' | 'accountant'>): boolean => isLshrr(s) && s.accountant === 'exact';
export const isLaplsh = playing('laplace-vector');
export const isLsh = playing('clean-lsh');
export const isRapporVector = playing('bloom-whole-vector');
export const isVmf = playing('directional-euclidean');
export const isPurkayastha = playing('directional-angular');
export const isGaussianProjection = playing('gaussian-projection');
/** ... at the default guarantee (an entry without one is the default's: claims compare there only) */
export const isGaussianExpected = (s: Pick<Series, 'base' | 'accountant'>): boolean => isGaussianProjection(s) && (s.accountant ?? 'expected') === 'expected';

/** Sorted distinct values. */
export function distinct<T extends number>(xs: Iterable<T | null>): T[] {
  return [...new Set([...xs].filter((x): x is T => x !== null))].sort((a, b) => a - b);
}

/** "n=100 κ=20 k=5 ξ=2" (κ and ξ can be left out). */
export function where(s: Series, opts: { xi?: boolean; kappa?: boolean } = {}): string {
  const parts = [`n=${s.n}`];
  if (opts.kappa !== false && s.kappa !== null) parts.push(`κ=${s.kappa}`);
  parts.push(`k=${s.k}`);
  if (opts.xi !== false && s.xi !== null) parts.push(`ξ=${s.xi}`);
  return parts.join(' ');
}

// ------------------------------------------------------------------ comparing two series

export interface Samples {
  a: number[];
  b: number[];
}

/** The trials both series have, as aligned arrays (paired tests). */
export function pairedSamples(a: Map<number, number>, b: Map<number, number>): Samples {
  const trials = [...a.keys()].filter((t) => b.has(t)).sort((x, y) => x - y);
  return { a: trials.map((t) => a.get(t)!), b: trials.map((t) => b.get(t)!) };
}

/** Every trial of each series (Welch tests). */
export function allSamples(a: Map<number, number>, b: Map<number, number>): Samples {
  const sorted = (m: Map<number, number>) => [...m.entries()].sort((x, y) => x[0] - y[0]).map((e) => e[1]);
  return { a: sorted(a), b: sorted(b) };
}

/** The t-test of a − b, or null when there are too few trials (paired: 2 pairs; Welch: 2 per side). */
export function tTest(s: Samples, paired: boolean): TTest | null {
  if (paired) return s.a.length >= 2 ? pairedTTest(s.a, s.b) : null;
  return s.a.length >= 2 && s.b.length >= 2 ? welchTTest(s.a, s.b) : null;
}

/**
 * One cell of a directional claim: "a is below b" (`claim: 'below'`) or "a is above b".
 * Null when the cell has too few trials to test.
 */
export function directionalCell(where: string, s: Samples, paired: boolean, claim: 'below' | 'above', part?: string): CellTest | null {
  const t = tTest(s, paired);
  if (!t) return null;
  return {
    where,
    kind: t.kind,
    pFor: claim === 'below' ? t.pBelow : t.pAbove,
    pAgainst: claim === 'below' ? t.pAbove : t.pBelow,
    zeroVariance: t.zeroVariance,
    diff: t.diff,
    part,
  };
}

/** One cell of an equivalence claim: |mean(a − b)| < margin by TOST; against: beyond the margin. */
export function equivalenceCell(where: string, s: Samples, paired: boolean, margin: number): CellTest | null {
  const t = tTest(s, paired);
  if (!t) return null;
  const e = tost(t, margin);
  return { where, kind: t.kind, pFor: e.pEquivalent, pAgainst: e.pBeyond, zeroVariance: t.zeroVariance, diff: t.diff };
}

/** Arithmetic mean of a series' trial values. */
export function seriesMean(s: Series): number {
  let sum = 0;
  for (const v of s.byTrial.values()) sum += v;
  return sum / s.byTrial.size;
}
