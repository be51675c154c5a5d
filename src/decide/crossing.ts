/**
 * The crossing of one entry's attack success with a target T over its ξ grid (issue 51, docs/ATTACKS.md
 * "Utility at matched attack success"): the mean success per ξ made non-decreasing by
 * pool-adjacent-violators (equal weights), the largest ξ whose pooled success is at most T, and the
 * point between it and the next ξ where the pooled success line reaches T, in log ξ. Pure: numbers in,
 * numbers out.
 */

/** `none`: even the smallest ξ exceeds T; `all`: every ξ of the grid meets T (more utility lies beyond); `interior`: T is crossed inside the grid. */
export type CrossingFlag = 'none' | 'all' | 'interior';

export interface Crossing {
  flag: CrossingFlag;
  /** the bracket's lower index i and the share f ∈ [0, 1) of the way to i + 1 (all: i = J, f = 0); none: −1 and 0 */
  i: number;
  f: number;
  /** ξ* (none: NaN) */
  xi: number;
}

/**
 * Pool-adjacent-violators with equal weights: the non-decreasing sequence closest to `p` in least
 * squares (each block of pooled values replaced by its mean).
 */
export function pava(p: ArrayLike<number>): number[] {
  const out = new Float64Array(p.length);
  pavaInto(p, out, new Float64Array(p.length), new Int32Array(p.length));
  return [...out];
}

/**
 * `pava` into `out` without allocating (the bootstrap runs it some hundred thousand times): `means`
 * and `sizes` are scratch of p's length.
 */
export function pavaInto(p: ArrayLike<number>, out: Float64Array, means: Float64Array, sizes: Int32Array): void {
  let blocks = 0;
  for (let j = 0; j < p.length; j++) {
    means[blocks] = p[j];
    sizes[blocks] = 1;
    blocks++;
    // merge backwards while the last two blocks violate the order
    while (blocks > 1 && means[blocks - 2] > means[blocks - 1]) {
      const a = blocks - 2;
      means[a] = (means[a] * sizes[a] + means[a + 1] * sizes[a + 1]) / (sizes[a] + sizes[a + 1]);
      sizes[a] += sizes[a + 1];
      blocks--;
    }
  }
  let j = 0;
  for (let b = 0; b < blocks; b++) for (let c = 0; c < sizes[b]; c++) out[j++] = means[b];
}

/** ξ at the share f between ξ_i and ξ_{i+1}: in log ξ, or f·ξ_{i+1} when ξ_i = 0 (log 0 is −∞). */
export function xiAt(xis: readonly number[], i: number, f: number): number {
  if (f === 0) return xis[i];
  const lo = xis[i];
  const hi = xis[i + 1];
  return lo === 0 ? f * hi : Math.exp(Math.log(lo) + f * (Math.log(hi) - Math.log(lo)));
}

/** The value of a per-ξ sequence at the bracket (i, f): linear in f. */
export const valueAt = (ys: ArrayLike<number>, i: number, f: number): number => (f === 0 ? ys[i] : ys[i] + f * (ys[i + 1] - ys[i]));

/**
 * The crossing of the mean successes `p` (one per ξ of `xis`, increasing ξ) with T. `pooled`
 * true: `p` is already non-decreasing (the caller pooled it).
 */
export function crossingOf(xis: readonly number[], p: ArrayLike<number>, target: number, pooled = false): Crossing {
  if (xis.length === 0 || xis.length !== p.length) throw new RangeError(`crossingOf: ${xis.length} ξ values for ${p.length} successes`);
  const q = pooled ? p : pava(p);
  if (q[0] > target) return { flag: 'none', i: -1, f: 0, xi: Number.NaN };
  const last = q.length - 1;
  if (q[last] <= target) return { flag: 'all', i: last, f: 0, xi: xis[last] };
  // q is non-decreasing: the indices meeting T are a prefix
  let i = 0;
  while (q[i + 1] <= target) i++;
  const f = (target - q[i]) / (q[i + 1] - q[i]);
  return { flag: 'interior', i, f, xi: xiAt(xis, i, f) };
}

/** Of several targets' crossings on the same grid, the binding one: none if any is none, else the smallest ξ*. */
export function bindingCrossing(crossings: readonly Crossing[]): { crossing: Crossing; index: number } {
  let best = 0;
  for (let t = 0; t < crossings.length; t++) {
    const c = crossings[t];
    if (c.flag === 'none') return { crossing: c, index: t };
    const b = crossings[best];
    if (c.i < b.i || (c.i === b.i && c.f < b.f)) best = t;
  }
  return { crossing: crossings[best], index: best };
}
