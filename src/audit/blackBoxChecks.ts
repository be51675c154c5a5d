/**
 * The black-box row (claim.ts `black-box`: LapLSH, RAPPOR, plugins without a known law) and the
 * ceiling of a pair whose clean release is its LSH codes (verdicts.ts has the rules).
 */
import { tailLimit } from '../privacy/exactLoss.js';
import { epsilonLowerBound } from './epsilonBound.js';
import { ratesAtLikelyThreshold } from './power.js';
import type { AuditResult } from './types.js';
import type { BlackBoxFlagged, FlaggedAt, Pilots, SampledRow } from './rowTypes.js';

/**
 * The ceiling of a pair whose clean release is its LSH codes: the ε_lb of the clean release at its
 * expected counts (every positive with a differing bit, Pr[D >= 1], and no negative past threshold 1).
 */
export function lshPairCeiling(kappa: number, p: number, samples: number, delta: number, level: number): number {
  return epsilonLowerBound({ truePositives: Math.round(samples * tailLimit(kappa, p)), positives: samples, falsePositives: 0, negatives: samples }, delta, level);
}

/** LapLSH, RAPPOR, plugins without a known law: the black-box test alone (its ceiling from the
 *  clean release simulated through the same encode). */
export function blackBoxChecks(row: SampledRow, r: AuditResult, pilots: Pilots, bb: BlackBoxFlagged): FlaggedAt {
  const M = r.samples;
  const clean = pilots.at(Infinity);
  const rates = ratesAtLikelyThreshold(clean.pos, clean.neg, Math.max(1, Math.floor(M / 2)), row.claim!.delta);
  // the pair's ceiling: ε_lb of the clean release at its expected counts
  r.epsilon_ceiling = epsilonLowerBound({ truePositives: Math.round(M * rates.tpr), positives: M, falsePositives: Math.round(M * rates.fpr), negatives: M }, row.claim!.delta, r.level!);
  return (pilot, samples, estimate) => ({ flagged: bb(pilot, samples, estimate), by: 'black-box' });
}
