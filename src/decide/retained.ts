/**
 * Retained in the matched tables: src/stats/retained.ts's rule (defined there once), with what a
 * table prints where it cannot be shown: a folder whose exact cells hold no u_rand, fewer than two
 * trials (no SE), or clean LSH not told from random (u_rand − u_lsh within 3 SEs of clean LSH's
 * loss over trials).
 */
import { RETAINED_NA, retained, retainedShown as shownByRule } from '../stats/retained.js';

export interface Retained {
  /** NaN where not shown */
  value: number;
  se: number;
  /** why it is not shown ('' when shown) */
  why: string;
}

export const NO_RANDOM_BASELINE = 'n/a (no random baseline in this folder)';
export const LSH_LIKE_RANDOM = RETAINED_NA;
export const FEW_TRIALS = 'n/a (m < 2)';

/** retained at u (NaN without u_rand, or with u infinite: no crossing in that resample). */
export function retainedAt(uRand: number | null, u: number, uLsh: number): number {
  if (uRand === null || !Number.isFinite(u)) return Number.NaN;
  return retained(u, uRand, uLsh);
}

/** Whether a cell's retained is shown: u_rand known, and the rule of src/stats/retained.ts on clean LSH's per-trial losses. */
export function retainedShown(uRand: number | null, lshLoss: readonly number[] | null): { ok: boolean; why: string } {
  if (uRand === null) return { ok: false, why: NO_RANDOM_BASELINE };
  if (lshLoss === null) return { ok: false, why: 'n/a (no clean lsh entry)' };
  const m = lshLoss.length;
  // with one trial there is no SE to tell clean LSH from random by (not that it is like random)
  if (m < 2) return { ok: false, why: FEW_TRIALS };
  const mean = lshLoss.reduce((a, b) => a + b, 0) / m;
  const se = Math.sqrt(lshLoss.reduce((a, b) => a + (b - mean) ** 2, 0) / (m - 1) / m);
  return shownByRule(uRand, mean, se) ? { ok: true, why: '' } : { ok: false, why: LSH_LIKE_RANDOM };
}
