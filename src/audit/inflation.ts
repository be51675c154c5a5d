/**
 * `detectable_inflation`: the smallest factor on a row's claimed ε that the row flags with
 * probability >= POWER_TARGET at its M and level. Three ways, one per kind of test:
 * - exact (LSHRR): the exact tail at f·ε_bit exceeds δ — a deterministic check, independent of M;
 * - analytic (a law test): a lower bound on the KS test's power (laws.ts) at f times the claimed
 *   concentration, bisected on f;
 * - simulation (black-box only): the score laws at f·ε estimated from M fresh samples, then the
 *   black-box test's exact power at those rates (power.ts), on a grid of factors.
 * Factors up to MAX_FACTOR are searched; beyond, null.
 */
import { exactTail, tailLimit } from '../privacy/exactLoss.js';
import { ksPowerLowerBound } from './laws.js';
import { POWER_TARGET } from './defaults.js';

export const MAX_FACTOR = 1000;

/** The factors the simulation tries (ascending). */
export const SIMULATION_FACTORS: readonly number[] = [1.1, 1.25, 1.5, 2, 3, 5, 10, 30, 100, MAX_FACTOR];

/** Geometric bisection for the smallest f in [lo, MAX_FACTOR] with flagged(f), assumed monotone. */
function smallestFactor(flagged: (f: number) => boolean, lo: number, steps: number): number | null {
  if (!flagged(MAX_FACTOR)) return null;
  if (flagged(lo)) return lo;
  let a = lo;
  let b = MAX_FACTOR;
  for (let i = 0; i < steps; i++) {
    const mid = Math.sqrt(a * b);
    if (flagged(mid)) b = mid;
    else a = mid;
  }
  return b;
}

/** Six significant digits, rounded up (the factor found is flagged; a rounded-down one may not be). */
function roundUp(f: number | null): number | null {
  if (f === null) return null;
  const scale = 10 ** (5 - Math.floor(Math.log10(f)));
  return Math.ceil(f * scale) / scale;
}

/** LSHRR: the smallest f whose exact tail at f·epsBit exceeds δ (below 1: the claim already fails). */
export function exactInflation(kappa: number, p: number, epsBit: number, xi: number, delta: number): number | null {
  if (!(epsBit > 0) || epsBit === Infinity || !(tailLimit(kappa, p) > delta)) return null;
  return roundUp(smallestFactor((f) => exactTail(kappa, p, f * epsBit, xi) > delta, 1e-3, 60));
}

/** A law test: the smallest f at which the KS power bound against the law at f reaches the target. */
export function lawInflation(claimed: ArrayLike<number>, lawAt: (factor: number) => ArrayLike<number>, samples: number, level: number): number | null {
  return roundUp(smallestFactor((f) => ksPowerLowerBound(claimed, lawAt(f), samples, level) >= POWER_TARGET, 1, 24));
}

/** Black-box only: the smallest factor of SIMULATION_FACTORS whose simulated power reaches the target. */
export function simulatedInflation(powerAt: (factor: number) => number): number | null {
  const grid = SIMULATION_FACTORS;
  if (!(powerAt(grid[grid.length - 1]) >= POWER_TARGET)) return null;
  let lo = -1; // not flagged (or below the grid)
  let hi = grid.length - 1; // flagged
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (powerAt(grid[mid]) >= POWER_TARGET) hi = mid;
    else lo = mid;
  }
  return grid[hi];
}
