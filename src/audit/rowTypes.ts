/**
 * What the checks of a sampled row (verdicts.ts) share: the row, the audit's context, what the tests
 * found, and how a row's tests judge a release simulated at some factor (pilots.ts).
 */
import type { Mechanism } from '../mechanisms/types.js';
import type { EpsilonInfo } from '../privacy/types.js';
import type { Rng } from '../random/rng.js';
import type { RowClaim } from './claim.js';
import type { Hasher } from './sampling.js';
import type { AuditEntry, AuditPlan, AuditResult, Candidate, LawDirection } from './types.js';
import type { LawSamples } from './lawSampling.js';

/** A row after sampling: the kept candidate, its threshold and the estimation statistics. */
export interface SampledRow {
  entry: AuditEntry;
  mechanism: Mechanism;
  kappa: number;
  xi: number;
  eps: EpsilonInfo;
  /** what the row tests (null: no budget claimed) */
  claim: RowClaim | null;
  rng: Rng;
  options: Record<string, unknown>;
  candidates: Candidate[];
  chosen: number;
  threshold: number;
  /** per estimation sample: S of the output of x and of x', H of each, D (sampling.ts) */
  pos: Float64Array;
  neg: Float64Array;
  ham: Float64Array;
  hamNeg: Float64Array;
  differing: Float64Array;
  /** release-law rows: what the samples released around their clean release (lawRows.ts) */
  law?: LawSamples;
}

export interface Context {
  plan: AuditPlan;
  /** the level of one row: α/m */
  rowLevel: number;
  p: (distance: number) => number;
  hasher: Hasher;
}

/** What a row's tests found: privacy violations (one-sided) and departures from the declared law. */
export interface Findings {
  violations: string[];
  mismatches: { direction: LawDirection; text: string }[];
}

/** What the row's tests would make of a release simulated at some factor (a pilot): whether they
 *  flag it with probability >= POWER_TARGET at M samples, and by which test. */
export type FlaggedAt = (pilot: Pilot, samples: number, estimate?: boolean) => { flagged: boolean; by: NonNullable<AuditResult['detectable_by']> };

/** How a row's tests judge simulated releases; `predict` (optional) guesses from the release
 *  simulated at ×1 whether ×f would be flagged, to find where to simulate (the factor printed is
 *  always one whose simulated release is flagged). */
export interface Judge {
  flaggedAt: FlaggedAt;
  predict?: (factor: number, samples: number) => boolean;
}

/** What a pilot keeps of its samples. */
export interface Pilot {
  samples: number;
  /** pmfs of S for the outputs of x and x' (index s + offset) */
  pos: Float64Array;
  neg: Float64Array;
  /** flips on the differing bits (both outputs), and on all bits */
  flipsDiff: number;
  bitsDiff: number;
  flipsAll: number;
  bitsAll: number;
  /** mean and standard deviation of H (the output of x against its clean code) */
  hamMean: number;
  hamSd: number;
}

export interface Pilots {
  at(factor: number): Pilot;
}

/** Whether the black-box test flags a pilot's release with probability >= POWER_TARGET at M
 *  samples. `detectable_inflation` takes the pilot's rates against the row and the threshold as the
 *  selection would choose it (power.ts blackBoxPowerWithSelection); `samples_needed`, an estimate
 *  far beyond the pilot's resolution, the rates at the likely threshold as they are (the exact
 *  power up to 10⁶ samples, a normal approximation beyond). */
export type BlackBoxFlagged = (pilot: Pilot, samples: number, estimate?: boolean) => boolean;
