/**
 * What the claims are evaluated from (a results folder's per-trial values, its grid and its 1-NN
 * distances) and what they produce: one `ClaimResult` per (claim, data set), the JSON shape of
 * `lshdp claims --json` and claims.json.
 */
import type { AttackTrialValue, NnDistance, RecommendTrialValue, TrialValue } from '../experiment/trialValues.js';
import type { DecideSettings } from '../experiment/config/decide.js';

export type Verdict = 'supported' | 'mixed' | 'contradicted' | 'inconclusive' | 'not-tested';

export const VERDICTS: readonly Verdict[] = ['supported', 'mixed', 'contradicted', 'inconclusive', 'not-tested'];

/** The ids of the claims, in the order they are reported: the paper's (Sect. 6 and the appendix), then lshdp's own (the linkage attack's last). */
export const CLAIM_IDS = [
  'nn-share',
  'lshrr-beats-laplsh',
  'laplsh-beats-lshrr-small-n',
  'lsh-degrades-with-shorter-codes',
  'longer-codes-win-at-high-xi',
  'lshrr-converges-to-lsh',
  'lshrr-beats-random-at-xi-2',
  'rappor-inapplicable',
  'flip-probability-example',
  'ldp-equivalent',
  'exact-accountant-gain',
  'lshrr-beats-directional',
  'lshrr-beats-jl-gaussian',
  'lshrr-beats-minhash-bucket',
  'minhash-bucket-2-matches-lshrr',
] as const;

/**
 * lshdp's claims on the linkage attack (config `attack`, docs/ATTACKS.md), reported after the
 * paper's, and only for a folder that has attack values.
 */
export const ATTACK_CLAIM_IDS = ['clean-lsh-reidentifies', 'reid-rises-with-xi', 'lshrr-frontier-dominates-laplsh'] as const;

/**
 * lshdp's claims on attribute inference (config `infer`, docs/ATTACKS.md), reported after the
 * linkage attack's, and only for a folder that has inference values.
 */
export const INFER_CLAIM_IDS = ['clean-lsh-leaks-items', 'inference-rises-with-xi'] as const;

/**
 * lshdp's claims on recommendations (config `recommend`, docs/RECOMMEND.md), reported after the
 * others, and only for a folder that has recommendation values.
 */
export const RECOMMEND_CLAIM_IDS = ['recommend-lshrr-beats-laplsh', 'recommend-converges-to-lsh', 'recommend-beats-pop'] as const;

/**
 * lshdp's claims on recommendations traded against the linkage attack (the NDCG twins of the
 * attack's claims), reported last, and only for a folder that has both kinds of values.
 */
export const RECOMMEND_ATTACK_CLAIM_IDS = ['recommend-lshrr-frontier-dominates-laplsh'] as const;

/**
 * lshdp's own claims at matched attack success (issue 51, docs/RESULTS.md): the twins of the
 * equal-ξ comparisons, each entry read at the ξ* where its attack success meets a target of the
 * config's decide: block (reid@1 of the linkage attack; the auc advantage of attribute inference),
 * reported last, and only for a folder with that attack's values.
 */
export const MATCHED_CLAIM_IDS = [
  'lshrr-beats-laplsh-at-matched-reid',
  'lshrr-beats-directional-at-matched-reid',
  'lshrr-beats-jl-gaussian-at-matched-reid',
  'lshrr-beats-minhash-bucket-at-matched-reid',
  'lshrr-beats-laplsh-at-matched-auc',
  'lshrr-beats-directional-at-matched-auc',
  'lshrr-beats-jl-gaussian-at-matched-auc',
  'lshrr-beats-minhash-bucket-at-matched-auc',
] as const;

export type ClaimId =
  | (typeof CLAIM_IDS)[number]
  | (typeof ATTACK_CLAIM_IDS)[number]
  | (typeof INFER_CLAIM_IDS)[number]
  | (typeof RECOMMEND_CLAIM_IDS)[number]
  | (typeof RECOMMEND_ATTACK_CLAIM_IDS)[number]
  | (typeof MATCHED_CLAIM_IDS)[number];

/** One claim on one data set; field names are the JSON output's. */
export interface ClaimResult {
  id: ClaimId;
  dataset: string;
  verdict: Verdict;
  statement: string;
  /** grid cells (one-sided tests, or exact comparisons) the claim covers on this data set */
  cells_tested: number;
  /** cells significant for the claim after Holm's correction (equivalence claims: shown equivalent) */
  cells_for: number;
  /** cells significant against the claim after Holm's correction */
  cells_against: number;
  /** the statistic in words: what was compared, the strongest cells, zero-variance cells, or what is missing */
  detail: string;
}

/** The parts of a run's configuration the claims need (see `claimsConfigOf`). */
export interface ClaimsConfig {
  /** data set names in config order (the report order) */
  datasets: string[];
  dims: number[];
  kappa: number[];
  k: number[];
  xi: number[];
  /** angular distance at which the budgets are stated (and Fig. 1's threshold) */
  d: number;
  delta: number;
  trials: number;
  /** run-wide `queries` (0: every user is a query) */
  queries?: number;
  /** data set → metric; missing means angular (the paper's experiments) */
  metric?: Record<string, string>;
  /** entry label → the entry's options (bucket MinHash's `buckets`…); missing: each unit's defaults */
  options?: Record<string, Record<string, unknown>>;
  /** the decide: block's effective targets and where they are read (null or missing: no block, the matched claims are not applicable) */
  decide?: DecideSettings | null;
}

/** Number of users of a (data set, n) after loading, to tell whether every user was a query. */
export interface Population {
  dataset: string;
  n: number;
  users: number;
}

export interface ClaimsInput {
  config: ClaimsConfig;
  values: TrialValue[];
  nn: NnDistance[];
  /** users per (data set, n); with `config.queries` it decides whether the 1-NN shares are exact */
  population?: Population[];
  /** per-trial linkage-attack values (config `attack`; docs/ATTACKS.md) */
  attack?: AttackTrialValue[];
  /** per-trial recommendation values (config `recommend`; docs/RECOMMEND.md) */
  recommend?: RecommendTrialValue[];
  /**
   * the lists above (values and every evaluation's) before `onTheGrid` took out the values at an
   * entry's own ξ (a mechanism entry's `xi:`): only the matched claims read them (missing: no value
   * was off privacy.xi, the lists above are all)
   */
  entryXi?: Record<string, unknown>;
  /** any other evaluation's per-trial values, under its name (src/evaluations/catalog.ts) */
  [evaluation: string]: unknown;
}

export interface ClaimsOptions {
  /** family-wise error level of each claim (default 0.05) */
  alpha?: number;
}
