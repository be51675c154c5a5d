/**
 * What a trial cell is asked and what it answers (src/experiment/trial.ts runTrialCell): plain
 * data, posted to the thread that runs the cell and back. What each evaluation asks of a result
 * and what it gives back are its own (src/evaluations/measure.ts), keyed by its name.
 */
import type { MetricName } from '../lsh/families/index.js';
import type { PluginRef } from '../mechanisms/plugin.js';
import type { EpsilonInfo, PrivacyParams } from '../privacy/types.js';

/** One result a trial cell is asked for: a mechanism identity and xi, its k-NN's k values and what each evaluation asks of it. */
export interface TrialResultSpec {
  /** the result's key in the store (src/experiment/grid.ts resultId) */
  id: string;
  /** the base mechanism (registry name) */
  base: string;
  options: Record<string, unknown>;
  /** null for mechanisms without a budget (lsh) */
  xi: number | null;
  /** the k values of the result's Hamming k-NN (every k a prefix of one answer); empty: no k-NN (its evaluations read only the codes) */
  ks: number[];
  /** what each evaluation asks of this result, by evaluation name (its `asked`, src/evaluations/measure.ts); an evaluation not named is not asked */
  asks: Record<string, unknown>;
}

/** One trial cell (dataset, n, kappa, trial) and the results it must compute. */
export interface TrialCellSpec {
  dataset: string;
  n: number;
  kappa: number;
  trial: number;
  results: TrialResultSpec[];
  privacy: PrivacyParams;
  runSeed: number | string;
  /** the LSH family (default angular); privacy.d is a distance in its metric */
  metric?: MetricName;
  /** plugin modules the results use: the thread running the cell registers them first (src/machinery/trialThread.ts) */
  plugins?: PluginRef[];
}

/** One result of a trial cell: what its xi meant and, per evaluation asked of it (by name), its per-trial value as its store keeps it. */
export interface TrialResult {
  id: string;
  eps: EpsilonInfo;
  values: Record<string, unknown>;
}

/** Per-trial means over the queries for one (mechanism, k): the exact rows. */
export interface CellRow {
  mechanism: string;
  kappa: number | null;
  xi: number | null;
  k: number;
  epsilon: number | null;
  ldpEpsilon: number | null;
  fallback: boolean | null;
  loss: number;
  recall: number;
}
