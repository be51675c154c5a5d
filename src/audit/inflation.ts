/**
 * `detectable_inflation`: the smallest factor on a release's own ε that the row flags with
 * probability >= POWER_TARGET at its M and level. The release is simulated at each factor tried
 * through its own `encode` (verdicts.ts), so a sampler that does something else than it declares is
 * inflated from what it does; the row's power there comes from the simulated behaviour (exact for
 * the flip-rate and black-box tests, a lower bound for the one-sided KS test). Factors from 1 to
 * MAX_FACTOR are searched; beyond, null.
 */
export const MAX_FACTOR = 1000;

/** The factors tried for black-box-only rows (ascending): their power, a step function of the
 *  threshold the selection picks, is read on a grid rather than bisected. */
export const SIMULATION_FACTORS: readonly number[] = [1.1, 1.25, 1.5, 2, 3, 5, 10, 30, 100, 300, MAX_FACTOR];

/** Six significant digits, rounded up (the factor found is flagged; a rounded-down one may not be). */
function roundUp(f: number | null): number | null {
  if (f === null) return null;
  const scale = 10 ** (5 - Math.floor(Math.log10(f)));
  return Math.ceil(f * scale) / scale;
}

/** Geometric bisection for the smallest f in [1, MAX_FACTOR] with flagged(f), assumed monotone. */
export function smallestFactor(flagged: (f: number) => boolean, steps = 12): number | null {
  if (!flagged(MAX_FACTOR)) return null;
  if (flagged(1)) return 1;
  let a = 1;
  let b = MAX_FACTOR;
  for (let i = 0; i < steps; i++) {
    const mid = Math.sqrt(a * b);
    if (flagged(mid)) b = mid;
    else a = mid;
  }
  return roundUp(b);
}

/** The smallest factor of SIMULATION_FACTORS that is flagged (binary search, assumed monotone). */
export function smallestGridFactor(flagged: (f: number) => boolean): number | null {
  const grid = SIMULATION_FACTORS;
  if (!flagged(grid[grid.length - 1])) return null;
  let lo = -1; // not flagged (or below the grid)
  let hi = grid.length - 1; // flagged
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (flagged(grid[mid])) hi = mid;
    else lo = mid;
  }
  return grid[hi];
}

/**
 * The smallest factor the prediction flags, checked by simulation: the first of it, ×1.02, ×1.02²,
 * … (ten steps) whose simulated release is flagged; else the full search by simulation.
 */
export function predictedFactor(flagged: (f: number) => boolean, predict: (f: number) => boolean): number | null {
  if (flagged(1)) return 1;
  const guess = smallestFactor(predict, 16);
  if (guess !== null) {
    for (let i = 0, f = guess; i <= 10 && f <= MAX_FACTOR; i++, f = Number((f * 1.02).toPrecision(6))) if (flagged(f)) return f;
  }
  return smallestFactor(flagged);
}

/** The smallest M (within 1%) above `from` at which `flagged` holds, searched up to 10¹²;
 *  Infinity when not even then. */
export function samplesNeeded(flagged: (m: number) => boolean, from: number): number {
  let lo = from;
  let hi = 2 * from;
  while (!flagged(hi)) {
    lo = hi;
    hi *= 2;
    if (hi > 1e12) return Infinity;
  }
  while (hi - lo > Math.max(1, hi / 100)) {
    const mid = Math.floor((lo + hi) / 2);
    if (flagged(mid)) hi = mid;
    else lo = mid;
  }
  return hi;
}
