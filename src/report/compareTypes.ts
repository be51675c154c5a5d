/**
 * The row type of `lshdp compare` (compare.ts), in a module of its own so that the matched view
 * (compareMatched.ts), which compare.ts calls, builds the same rows without an import circle.
 */
import type { CompareMetric } from './compareMetrics.js';

/**
 * `same`: identical mean and se; `within`: |z| ≤ threshold; `flagged`: |z| > threshold, or a
 * difference without a standard error, or a changed setting (base, accountant, ε, queries…);
 * `only_a` / `only_b`: the row is in one run only.
 */
export type CompareStatus = 'same' | 'within' | 'flagged' | 'only_a' | 'only_b';

/**
 * One compared (row, metric), named in the result files' vocabulary (a_ / b_ for the two runs).
 * `top` (recommend.csv's N) and `known` (attack.csv's known share) only on those files' rows.
 */
export interface CompareRow {
  dataset: string;
  n: number;
  kappa: number | null;
  /** null where the row has no k: recommend.csv's pop, every attack.csv row */
  k: number | null;
  mechanism: string;
  xi: number | null;
  metric: CompareMetric;
  a_mean: number | null;
  a_se: number | null;
  b_mean: number | null;
  b_se: number | null;
  /** b_mean − a_mean */
  diff: number | null;
  /** diff / √(a_se² + b_se²); null when that is 0 or unknown */
  z: number | null;
  status: CompareStatus;
  /** why a row is flagged without a z beyond the threshold */
  note: string;
  /** recommend.csv's list length N */
  top?: number;
  /** attack.csv's known share of the target's entries */
  known?: number;
  /** the settings that differ between the two rows (then the row is flagged, explained by them); not an output column */
  changes?: SettingChange[];
  /** any other evaluation's axis beyond k */
  [axis: string]: unknown;
}

/** A setting whose value differs between the two rows of a pair (queries 583 → 56). */
export interface SettingChange {
  setting: string;
  from: unknown;
  to: unknown;
}

/** `queries 583 → 56` */
export const changeText = (c: SettingChange): string => `${c.setting} ${String(c.from ?? '–')} → ${String(c.to ?? '–')}`;
