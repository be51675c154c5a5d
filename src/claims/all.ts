/**
 * Every claim, in report order: each evaluation's claims from the file of their own (utility.ts,
 * attack.ts, infer.ts, recommend.ts, matched.ts), all written to the one contract of family.ts and evaluated by the one
 * loop of evaluate.ts.
 */
import { ATTACK_CLAIMS, recommendFrontierDominatesLaplsh } from './attack.js';
import type { ClaimDefinition } from './family.js';
import { INFER_CLAIMS } from './infer.js';
import { MATCHED_CLAIMS } from './matched.js';
import { RECOMMEND_CLAIMS } from './recommend.js';
import { UTILITY_CLAIMS } from './utility.js';

export const CLAIMS: readonly ClaimDefinition[] = [...UTILITY_CLAIMS, ...ATTACK_CLAIMS, ...INFER_CLAIMS, ...RECOMMEND_CLAIMS, recommendFrontierDominatesLaplsh, ...MATCHED_CLAIMS];

let listed: readonly ClaimDefinition[] = CLAIMS;

/** Every claim evaluated now: the built-ins, then those registered in process. */
export function claimDefinitions(): readonly ClaimDefinition[] {
  return listed;
}

/**
 * Adds a claim after the built-ins (the claim of an evaluation registered in process, as a test
 * does: src/evaluations/index.ts registerEvaluation); returns a function that takes it out again.
 */
export function registerClaim(claim: ClaimDefinition): () => void {
  if (listed.some((c) => c.id === claim.id)) throw new RangeError(`a claim with id "${claim.id}" is listed already`);
  listed = [...listed, claim];
  return () => {
    listed = listed.filter((c) => c !== claim);
  };
}
