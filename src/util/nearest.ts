/**
 * The grid value nearest a target, the smaller of two at equal distance (undefined for none):
 * how the attack's claims and figures read "known = 0.5" and "k = 10" on a grid without them.
 */
export function nearest(values: Iterable<number>, target: number): number | undefined {
  let best: number | undefined;
  for (const v of values) {
    const closer = best === undefined || Math.abs(v - target) < Math.abs(best - target);
    if (closer || (Math.abs(v - target) === Math.abs(best! - target) && v < best!)) best = v;
  }
  return best;
}
