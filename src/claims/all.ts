/**
 * Every claim, in report order: each evaluation's claims from the file of their own (utility.ts,
 * attack.ts, recommend.ts), all written to the one contract of family.ts and evaluated by the one
 * loop of evaluate.ts.
 */
import { ATTACK_CLAIMS } from './attack.js';
import type { ClaimDefinition } from './family.js';
import { RECOMMEND_CLAIMS } from './recommend.js';
import { UTILITY_CLAIMS } from './utility.js';

export const CLAIMS: readonly ClaimDefinition[] = [...UTILITY_CLAIMS, ...ATTACK_CLAIMS, ...RECOMMEND_CLAIMS];
