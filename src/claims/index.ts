/**
 * The paper's claims tested on a run (issue 12): `evaluateClaims` (pure, from per-trial values),
 * `writeClaims` (a results folder → claims.json and tables/claims.md) and the renderers.
 */
export { evaluateClaims, DEFAULT_ALPHA } from './evaluate.js';
export { writeClaims, readClaimsInput, claimsInputOf, claimsConfigOf, parseAlpha, type WriteClaimsOptions, type WrittenClaims } from './write.js';
export { claimsJson, claimsMarkdown, verdictCounts, claimShare, verdictWithShare } from './format.js';
export { CLAIMS } from './all.js';
export type { ClaimDefinition, ClaimEvaluation, DatasetContext, Outcome } from './family.js';
export { RECOMMEND_CLAIMS } from './recommend.js';
export { CLAIM_IDS, RECOMMEND_CLAIM_IDS, VERDICTS, type ClaimId, type ClaimResult, type ClaimsConfig, type ClaimsInput, type ClaimsOptions, type Population, type Verdict } from './types.js';
