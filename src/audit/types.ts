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
 * - `violated`: a one-sided test found more privacy loss than the row claims, at the row's level
 *   (α/m, Bonferroni over the m rows that claim a budget), or LSHRR's exact tail at its declared
 *   per-bit ε exceeds δ (the accounting, no sampling);
 * - `law-mismatch`: nothing shows more loss than claimed, but the release departs from the law its
 *   declared parameters give (`law_direction`: safer, riskier but within the claim, or crossing):
 *   a bug in the mechanism, not a broken claim;
 * - `no-violation-found`: no test rejected; `detectable_inflation` says what they could have found;
 * - `not-testable`: no inflation up to ×100 of the release is flagged with probability >= 0.8 at
 *   this M (`samples_needed` says what M would do);
 * - `not-applicable`: the mechanism claims no budget (vanilla LSH).
 */
export type Verdict = 'violated' | 'law-mismatch' | 'no-violation-found' | 'not-testable' | 'not-applicable';

export const VERDICTS: readonly Verdict[] = ['violated', 'law-mismatch', 'no-violation-found', 'not-testable', 'not-applicable'];

/** The tests a row can run (its `tests`). */
export type AuditTest =
  | 'exact-tail'
  | 'flip-rate'
  | 'score-law'
  | 'concentration'
  | 'angle-law'
  | 'black-box'
  | 'accounting-consistency'
  // releases that are not bits, tested on their declared law (src/audit/lawRows.ts)
  | 'declared-tail'
  | 'gaussian-scale'
  | 'gaussian-law'
  | 'keep-rate'
  | 'rr-law'
  | 'laplace-scale'
  | 'laplace-law';

/** The one-sided test of a release-law row that decides (and `detectable_by` names). */
export type LawScaleTest = 'gaussian-scale' | 'keep-rate' | 'laplace-scale';

/** How a release departs from its declared law: it leaks less (`safer`), more but within the claim
 *  (`riskier`), or neither uniformly (`crossing`). */
export type LawDirection = 'safer' | 'riskier' | 'crossing';

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
  /** LSHRR: empirical Pr[L > ξ] on the pair (informative) */
  tail: number | null;
  tail_ci: [number, number] | null;
  /** LSHRR: Pr[L > ξ] of the exact law at d and the declared per-bit ε as LSHRR's flips implement it
   *  (a deterministic check of the accounting) */
  exact_tail: number | null;
  /** LSHRR: the per-bit ε the accountant hands out */
  epsilon_bit: number | null;
  /** what the black-box test compares ε_lb with: `xi` (ξ at d) or `ldp` (a plugin's ε_LDP, any pair) */
  claim: 'xi' | 'ldp' | null;
  /** that value (ξ, or the ε_LDP) */
  claimed: number | null;
  /** the released parameter the row estimates: `epsilon_bit` (LSHRR), `concentration` (VMF, Purkayastha),
   *  `precision` (a Gaussian release: the mechanism's own ε, e.g. jl-gaussian's 1/σ or σ_max(W)/σ) or
   *  `epsilon_position` (b-ary randomized response, Laplace noise: ε′ per position) */
  parameter: 'epsilon_bit' | 'concentration' | 'precision' | 'epsilon_position' | null;
  /** its estimate from the samples (LSHRR: |ln((1 − q̂)/q̂)| of the flip rate on the bits where the pair's
   *  clean codes differ; directional: the concentration whose law has the sampled mean Hamming distance) */
  realized: number | null;
  /** its one-sided lower confidence bound at the row's level */
  realized_lb: number | null;
  /** the largest value the claim allows (LSHRR: max{ε : exact tail <= δ}; directional: ξ / distance) */
  allowed: number | null;
  /** p-value of "realized > allowed" */
  p_release: number | null;
  /** release-law rows: the claim's Pr[L > ξ] (ldp claims: 1 when κ·ε′ > ξ, else 0) at `realized_lb`,
   *  the release's parameter at its confidence bound (above δ exactly when the row is violated by its
   *  release test) */
  realized_tail: number | null;
  /** LSHRR: the flip rate on the differing bits, and how many such bits were seen (both outputs) */
  flip_rate: number | null;
  flip_bits: number | null;
  /** black-box lower bound on ε, at `confidence` (null: not tested) */
  epsilon_lb: number | null;
  /** 1 − the level of the black-box test of this row (one-sided Clopper–Pearson ends, union bound) */
  confidence: number | null;
  /** the largest ε_lb M samples can show on this row's test (every positive, no negative) */
  epsilon_ceiling: number | null;
  /** not-testable rows: the smallest M at which ×100 on the release would be flagged with probability
   *  >= 0.8 (always a number; Infinity when no M would) */
  samples_needed: number | null;
  /** true when samples_needed lies beyond 10⁶ and was extrapolated */
  samples_needed_extrapolated: boolean | null;
  epsilon_lb_threshold: number | null;
  tpr: number | null;
  fpr: number | null;
  samples: number;
  /** the row's level: α/m, split evenly over its sampling tests */
  level: number | null;
  /** p-value of the black-box test (ε_lb > ξ) */
  p_black_box: number | null;
  /** KS distance of the sampled law from the declared one (LSHRR: score; VMF, Purkayastha: Hamming to the clean code;
   *  Gaussian and Laplace releases: the standardized residuals against their law's shape) */
  law_ks: number | null;
  /** its DKW–Massart p-value (two-sided); release-law rows: the Bonferroni-combined p-value of their law tests */
  p_law: number | null;
  /** law-mismatch rows: how the release departs from its declared law */
  law_direction: LawDirection | null;
  /** smallest factor on the release's own ε (through its encode) flagged with probability >= 0.8 at
   *  this M and level, found by simulating the release at the factor; null when none up to 1000 is */
  detectable_inflation: number | null;
  /** the test whose power reaches the target there: `flip-rate`, `concentration`, `black-box`, or a
   *  release-law row's `gaussian-scale`, `keep-rate`, `laplace-scale` */
  detectable_by: 'flip-rate' | 'concentration' | 'black-box' | LawScaleTest | null;
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
