/**
 * The per-trial values of a results folder, as the statistics read them (claims, compare): one
 * value per (data set, n, kappa, k, mechanism label, xi, trial). Reading them from the store is
 * `readTrialValues` in src/machinery/readFolder.ts.
 */

/** Where a number sits in the grid: the key columns of utility.csv and of the per-trial values. */
export interface ResultCoordinates {
  dataset: string;
  n: number;
  /** hash length κ; null for mechanisms without hash bits (exact) */
  kappa: number | null;
  k: number;
  /** the config entry's label (default: its base mechanism's name) */
  mechanism: string;
  /** the base mechanism (registry name, or the plugin's name) */
  base: string;
  /** the accountant that turned xi into epsilon (lshrr: paper, exact, theorem, naive); null where none */
  accountant: string | null;
  /** total extended-DP budget ξ; null for mechanisms without a budget (exact, lsh) */
  xi: number | null;
}

export interface TrialValue extends ResultCoordinates {
  /** 0-based trial index (exact rows: 0) */
  trial: number;
  loss: number;
  recall: number;
}

/** The true 1-NN angular distance of one query user. */
export interface NnDistance {
  dataset: string;
  n: number;
  user: string;
  distance: number;
}
