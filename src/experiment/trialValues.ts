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

/**
 * Where a recommendation number sits: the key columns of recommend.csv, of its per-trial values and
 * of the claims' series. The baselines `exact` (k set, κ and ξ null) and `pop` (k, κ and ξ null).
 */
export interface RecommendCoordinates {
  dataset: string;
  n: number;
  kappa: number | null;
  /** null for `pop` (no neighbours) */
  k: number | null;
  /** the entry's label; `exact` and `pop` for the baselines */
  mechanism: string;
  base: string;
  accountant: string | null;
  xi: number | null;
  /** the list length N */
  top: number;
}

/**
 * One per-trial recommendation value (config `recommend`, docs/RECOMMEND.md): the means over the
 * trial's queries of HR@N, NDCG@N and item recall@N for one (data set, n, κ, k, mechanism, ξ, N).
 * The baselines have trial 0 only.
 */
export interface RecommendTrialValue extends RecommendCoordinates {
  trial: number;
  hr: number;
  ndcg: number;
  itemRecall: number;
  /** query users the means are over */
  queries: number;
}

/** Where a linkage-attack number sits: the key columns of attack.csv and of its per-trial values. */
export interface AttackCoordinates {
  dataset: string;
  n: number;
  kappa: number;
  mechanism: string;
  base: string;
  accountant: string | null;
  /** null for mechanisms without a budget (lsh: the no-noise ceiling) */
  xi: number | null;
  /** the fraction of each target's non-zero entries the adversary knows */
  known: number;
}

/**
 * One per-trial linkage-attack value (config `attack`, docs/ATTACKS.md): the means over the
 * trial's targets of reid@1 and reid@10 for one (data set, n, κ, mechanism, ξ, known).
 */
export interface AttackTrialValue extends AttackCoordinates {
  trial: number;
  reid1: number;
  reid10: number;
  /** released codes ranked (N: the kept users at this n) */
  users: number;
  /** target users the means are over */
  targets: number;
}

/**
 * Where an attribute-inference number sits: the key columns of infer.csv and of its per-trial
 * values. The baselines: mechanism `prior` (kappa null) and `null` (per κ), with base, accountant
 * and xi null.
 */
export interface InferCoordinates {
  dataset: string;
  n: number;
  kappa: number | null;
  mechanism: string;
  base: string | null;
  accountant: string | null;
  xi: number | null;
  /** the share of the kept users in the auxiliary group */
  aux: number;
}

/**
 * One per-trial attribute-inference value (config `infer`, docs/ATTACKS.md): the means over the
 * trial's targets of auc and prec10 for one (data set, n, κ, mechanism, ξ, aux).
 */
export interface InferTrialValue extends InferCoordinates {
  trial: number;
  auc: number;
  prec10: number;
  /** the auxiliary users that vote (config infer.k) */
  k: number;
  /** targets the means are over (those whose item set is neither empty nor every item) */
  targets: number;
}
