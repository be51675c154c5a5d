/** The audit's plan, rows and outcome (src/audit/run.ts runs it; docs/OUTPUTS.md documents the rows). */
import type { EpsilonInfo } from '../privacy/types.js';
import type { Mechanism } from '../mechanisms/types.js';
import type { MetricName } from '../lsh/families/index.js';
import type { AuditPair } from './pairs.js';
import type { UserVectors } from '../data/types.js';

/** A candidate pair of a row: its pair, the vectors hashed (restricted to the support or not). */
export interface Candidate {
  key: string;
  pair: AuditPair;
  vectors: UserVectors;
}

/** One point of an empirical or exact CDF of the privacy loss. */
export interface LossCdfPoint {
  /** the series: `empirical` or `exact` */
  source: string;
  /** what the panel shows, e.g. `lshrr-exact κ=20 ξ=5` */
  panel: string;
  loss: number;
  cdf: number;
}

/** A mechanism entry of the audit (a config entry: label, registry name, options). */
export interface AuditEntry {
  label: string;
  /** registry name */
  name: string;
  options: Record<string, unknown>;
  /** tests only: replaces the mechanism's accounting (e.g. a deliberately inflated ε) */
  epsilonOf?: (xi: number, kappa: number) => EpsilonInfo;
  /** tests only: replaces the registry's mechanism object (e.g. a sampler with a wrong concentration) */
  mechanism?: Mechanism;
}

export interface AuditPlan {
  seed: number | string;
  d: number;
  delta: number;
  kappa: readonly number[];
  xi: readonly number[];
  /** dimension of the synthetic pairs of the mechanisms that noise the vector (the config's first n) */
  n: number;
  entries: readonly AuditEntry[];
  /** estimation samples per row (the pair and threshold search uses another samples/2 per candidate) */
  samples: number;
  /** real pairs (already found), audited for LSHRR's tail at their own distances */
  realPairs: readonly AuditPair[];
  /** the config's metric (default angular): its LSH family hashes, its disagreement gives p */
  metric?: MetricName;
  /** tests only: skip the detectable-inflation search (its simulations), leaving the field null */
  skipInflation?: boolean;
  /** tests only: the m of the Bonferroni correction (default: the rows of this plan that claim a
   *  budget), to run one row of a larger config alone at that config's level */
  familySize?: number;
}

/**
 * - `violated`: a test rejected the claim at the row's level (α/m, Bonferroni over the m rows that
 *   claim a budget), or LSHRR's exact tail at its realized per-bit ε exceeds δ (no sampling);
 * - `no-violation-found`: no test rejected; `detectable_inflation` says what they could have found;
 * - `not-testable`: only the black-box test applies and ξ is at or above its ceiling at M samples;
 * - `not-applicable`: the mechanism claims no budget (vanilla LSH).
 */
export type Verdict = 'violated' | 'no-violation-found' | 'not-testable' | 'not-applicable';

export const VERDICTS: readonly Verdict[] = ['violated', 'no-violation-found', 'not-testable', 'not-applicable'];

/** The tests a row can run (its `tests`). */
export type AuditTest = 'exact-tail' | 'score-law' | 'angle-law' | 'black-box' | 'accounting-consistency';

/** One row of audit.json's `results`. */
export interface AuditResult {
  mechanism: string;
  base: string;
  accountant: string | null;
  kappa: number;
  xi: number;
  d: number;
  /** the δ the mechanism claims (LSHRR: the config's; the others that claim ξ: 0; LSH: null) */
  delta: number | null;
  verdict: Verdict;
  /** the tests this row ran */
  tests: AuditTest[];
  /** why the verdict (the test that rejected, or what limits the row) */
  reason: string;
  /** the pair the black-box test kept (the candidate with the largest ε_lb on the selection half) */
  pair: string | null;
  /** candidates the pair search tried */
  pairs_tried: number;
  /** LSHRR: empirical Pr[L > ξ] on the pair (informative; the exact check decides) */
  tail: number | null;
  tail_ci: [number, number] | null;
  /** LSHRR: Pr[L > ξ] of the exact law at d and the realized per-bit ε */
  exact_tail: number | null;
  epsilon_bit: number | null;
  /** LSHRR: the per-bit ε the flips realize (src/privacy/rr.ts) */
  epsilon_realized: number | null;
  /** black-box lower bound on ε, at `confidence` (null: not tested) */
  epsilon_lb: number | null;
  /** 1 − the level of the black-box test of this row (one-sided Clopper–Pearson ends, union bound) */
  confidence: number | null;
  /** the largest ε_lb M samples can show on this row's test (every positive, no negative) */
  epsilon_ceiling: number | null;
  /** not-testable rows: the smallest M whose ceiling exceeds ξ */
  samples_needed: number | null;
  epsilon_lb_threshold: number | null;
  tpr: number | null;
  fpr: number | null;
  samples: number;
  /** the row's level: α/m, split evenly over its sampling tests */
  level: number | null;
  /** p-value of the black-box test (ε_lb > ξ) */
  p_black_box: number | null;
  /** KS distance of the sampled law from the exact one (LSHRR: score; VMF, Purkayastha: Hamming to the clean code) */
  law_ks: number | null;
  /** its DKW–Massart p-value */
  p_law: number | null;
  /** smallest factor on the claimed ε (LSHRR: on the per-bit ε; directional: on the concentration)
   *  flagged with probability >= 0.8 at this M and level; null when none up to 1000 is */
  detectable_inflation: number | null;
  /** how it was found: `exact` (LSHRR's exact tail), `analytic` (KS power bound), `simulation` */
  detectable_inflation_method: 'exact' | 'analytic' | 'simulation' | null;
  /** vmf, purkayastha: c·distance at the pair, which the accounting makes ξ (an accounting-consistency
   *  check: it recomputes the accounting formula and cannot see a sampler fault) */
  loss_sup: number | null;
}

/** One row of audit.json's `real_pairs`: LSHRR's tail on real pairs near d. */
export interface RealPairResult {
  mechanism: string;
  accountant: string | null;
  kappa: number;
  xi: number;
  d: number;
  delta: number;
  source: string;
  /** distinct pairs by vector content */
  pairs: number;
  distance_min: number;
  distance_max: number;
  samples: number;
  tail: number;
  tail_ci: [number, number];
  /** the exact tail averaged over the pairs' own distances (each pair has the same samples) */
  exact_tail: number;
}

export interface AuditOutcome {
  results: AuditResult[];
  real_pairs: RealPairResult[];
  cdf: LossCdfPoint[];
  cdfXi: Record<string, number>;
}
