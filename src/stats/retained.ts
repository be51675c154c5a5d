/**
 * Utility retained at a released ξ: the share of clean LSH's utility gain over random neighbours
 * that a mechanism keeps, (u_rand − u*) / (u_rand − u_lsh), where u_rand is the exact expected loss
 * of k random neighbours (src/experiment/randomLoss.ts), u_lsh clean LSH's mean loss at the same
 * (n, κ, k) and u* the mechanism's loss. Defined here once; every table, figure and claim calls it.
 * Not clamped: a mechanism can beat clean LSH (jl-gaussian: over 100%) or random (below 0%).
 */

/** What is printed where the rule below does not let retained be printed. */
export const RETAINED_NA = 'n/a (clean LSH ≈ random)';

/** (u_rand − u*) / (u_rand − u_lsh); a ratio (1 = all of clean LSH's gain), unclamped. */
export function retained(uStar: number, uRand: number, uLsh: number): number {
  return (uRand - uStar) / (uRand - uLsh);
}

/**
 * Whether retained may be printed: u_rand − u_lsh exceeds 3 of its standard errors. u_rand is
 * exact for the run's queries (no trial-to-trial variation), so the SE of the gap is clean LSH's
 * SE over trials, `seLsh`. A SE that is not a finite number (fewer than two trials) never passes.
 */
export function retainedShown(uRand: number, uLsh: number, seLsh: number): boolean {
  return Number.isFinite(seLsh) && seLsh >= 0 && uRand - uLsh > 3 * seLsh;
}

/** retained where retainedShown holds, else null (print RETAINED_NA). */
export function retainedOrNull(uStar: number, uRand: number, uLsh: number, seLsh: number): number | null {
  return retainedShown(uRand, uLsh, seLsh) ? retained(uStar, uRand, uLsh) : null;
}
