/**
 * ξ → ε for a mechanism on an LSH family: the one place that translates between the config's
 * distance d (in the family's metric: angular, or Jaccard) and what a mechanism's accounting takes.
 * Trials, the audit and `lshdp encode` all call it.
 */
import type { EpsilonInfo, PrivacyParams } from './types.js';

/** What this module needs of a mechanism (src/mechanisms/types.ts `Mechanism` has it). */
export interface BudgetedMechanism {
  readonly budgetDistance?: 'disagreement' | 'family';
  epsilon(xi: number, kappa: number, privacy: PrivacyParams, options?: Record<string, unknown>): EpsilonInfo;
}

/**
 * What xi means for `mechanism` on a family, with d in the family's metric. Built-in mechanisms
 * and the accountants take the per-bit disagreement probability as their `d` (for the angular
 * family the two are equal, so angular results are unchanged); a plugin gets the distance itself
 * (and the family's `disagreement` function through its own input).
 */
export function epsilonOnFamily(mechanism: BudgetedMechanism, disagreement: (d: number) => number, xi: number, kappa: number, privacy: PrivacyParams, options?: Record<string, unknown>): EpsilonInfo {
  if (mechanism.budgetDistance === 'family') return mechanism.epsilon(xi, kappa, privacy, options);
  return mechanism.epsilon(xi, kappa, { d: disagreement(privacy.d), delta: privacy.delta }, options);
}
