/**
 * The sum of a query's distances to every other user (the exact k-NN passes accumulate it for
 * u_rand, src/experiment/randomLoss.ts), the same double whatever order the distances come in:
 * the tiles meet the users sharing an item tile by tile, the inverted index in posting order,
 * and both add the users sharing none as one count. A plain sum of doubles depends on that
 * order; this one does not, so every path (and a brute-force loop) gives identical bits.
 *
 * Each distance d in [0, 1] is cut at 2^-26 and 2^-52 into two integers (hi ≤ 2^26, lo < 2^26),
 * both exact; their sums stay exact integers below 2^53 for up to 2^27 users. The value rounds
 * once at the end. The cut drops what lies below 2^-52 of each term: at most 2^-52 per distance,
 * less than a double's own rounding of a sum of distances near 0.5.
 */
const SCALE = 2 ** 26;
const UNSCALE = 2 ** -26;

export class DistanceSum {
  private hi = 0;
  private lo = 0;

  /** Adds one distance in [0, 1]. */
  add(d: number): void {
    const s = d * SCALE;
    const a = Math.floor(s);
    this.hi += a;
    this.lo += Math.round((s - a) * SCALE);
  }

  /** Adds `count` times the distance d (in [0, 1]): the users sharing no item (d 0.5 or 1, whose low
   *  part is 0; for another d, exact while its low part times count stays below 2^53). */
  addTimes(d: number, count: number): this {
    const s = d * SCALE;
    const a = Math.floor(s);
    this.hi += a * count;
    this.lo += Math.round((s - a) * SCALE) * count;
    return this;
  }

  /** Back to 0; returns this sum. */
  reset(): this {
    this.hi = 0;
    this.lo = 0;
    return this;
  }

  /** The sum: (hi + lo 2^-26) 2^-26, rounded once. */
  value(): number {
    return (this.hi + this.lo * UNSCALE) * UNSCALE;
  }
}
