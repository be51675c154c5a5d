/**
 * Utility retained at matched attack success: the share of clean LSH's gain over random
 * neighbours that an entry keeps at ξ*, (u_rand − u*)/(u_rand − u_lsh). Not clamped: a release
 * better than clean LSH (jl-gaussian's reals) exceeds 1. Shown only where clean LSH is told from
 * random: u_rand − u_lsh above 3 of its standard errors.
 */

export interface Retained {
  /** NaN where not shown */
  value: number;
  se: number;
  /** why it is not shown ('' when shown) */
  why: string;
}

export const NO_RANDOM_BASELINE = 'n/a (no random baseline in this folder)';
export const LSH_LIKE_RANDOM = 'n/a (clean LSH ≈ random)';

/** (u_rand − u)/(u_rand − u_lsh); NaN without u_rand or with u infinite (no crossing). */
export function retained(uRand: number | null, u: number, uLsh: number): number {
  if (uRand === null || !Number.isFinite(u)) return Number.NaN;
  return (uRand - u) / (uRand - uLsh);
}

/** Whether retained is shown for a cell: u_rand known, and u_rand − u_lsh above 3 bootstrap SEs of u_lsh. */
export function retainedShown(uRand: number | null, uLsh: number | null, uLshBoot: readonly number[]): { ok: boolean; why: string } {
  if (uRand === null || uLsh === null) return { ok: false, why: NO_RANDOM_BASELINE };
  if (uLshBoot.length < 2) return { ok: false, why: 'n/a (fewer than 2 trials: clean LSH not told from random)' };
  const mean = uLshBoot.reduce((a, b) => a + b, 0) / uLshBoot.length;
  const se = Math.sqrt(uLshBoot.reduce((a, b) => a + (b - mean) ** 2, 0) / (uLshBoot.length - 1));
  return uRand - uLsh > 3 * se ? { ok: true, why: '' } : { ok: false, why: LSH_LIKE_RANDOM };
}
