/**
 * The synthetic generator's draws: users' activity, inverse-CDF draws of items, distinct choices
 * by weight (src/data/synthRatings.ts, synthCheckins.ts).
 */
import type { Rng } from '../random/rng.js';
import { UserError } from '../util/errors.js';

/** Lognormal activity with a minimum, scaled to exactly `total`, each at most `cap`. */
export function activity(rng: Rng, normal: () => number, users: number, total: number, min: number, cap: number, sigma: number): Int32Array {
  const w = new Float64Array(users);
  let sw = 0;
  for (let u = 0; u < users; u++) sw += w[u] = Math.exp(sigma * normal());
  const counts = new Int32Array(users);
  const extra = total - users * min;
  let sum = 0;
  for (let u = 0; u < users; u++) {
    counts[u] = Math.min(cap, min + Math.floor((extra * w[u]!) / sw));
    sum += counts[u]!;
  }
  // hand out the remainder (rounding and capping) one by one, from a random start, to users under the cap
  let deficit = total - sum;
  let u = Math.floor(rng() * users);
  let stuck = 0;
  while (deficit > 0) {
    if (counts[u]! < cap) {
      counts[u]!++;
      deficit--;
      stuck = 0;
    } else if (++stuck > users) throw new UserError(`synthetic: cannot place ${total} ratings with at most ${cap} per user`);
    u = (u + 1) % users;
  }
  return counts;
}

/** Cumulative weights (for inverse-CDF draws by binary search). */
export function cumulative(w: Float64Array): Float64Array {
  const c = new Float64Array(w.length);
  let s = 0;
  for (let i = 0; i < w.length; i++) c[i] = s += w[i]!;
  return c;
}

export function drawCdf(cdf: Float64Array, offset: number, len: number, x: number): number {
  // smallest i with cdf[offset + i] > x * total
  const target = x * cdf[offset + len - 1]!;
  let lo = 0;
  let hi = len - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (cdf[offset + mid]! > target) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** The k-th smallest (0-based) value of `a` (Hoare quickselect, reorders `a`; O(length) expected). */
export function kthSmallest(a: Float64Array, k: number): number {
  let lo = 0;
  let hi = a.length - 1;
  while (lo < hi) {
    const pivot = a[(lo + hi) >>> 1]!;
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) {
        const t = a[i]!;
        a[i] = a[j]!;
        a[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return a[k]!;
  }
  return a[k]!;
}

/**
 * Choose `k` distinct items for one user from the group's weights: rejection while it is cheap,
 * then (heavy users) exact weighted sampling without replacement by exponential keys over the rest.
 */
export function chooseDistinct(rng: Rng, cdf: Float64Array, weights: Float64Array, offset: number, items: number, k: number, stamp: Int32Array, mark: number, out: Int32Array): void {
  let got = 0;
  let tries = 0;
  const budget = 4 * k + 64;
  while (got < k && tries < budget) {
    tries++;
    const i = drawCdf(cdf, offset, items, rng());
    if (stamp[i] === mark) continue;
    stamp[i] = mark;
    out[got++] = i;
  }
  if (got < k) {
    // Exp(w) keys, smallest win: the k-got smallest keys among the items not yet taken.
    const keys = new Float64Array(items);
    for (let i = 0; i < items; i++) keys[i] = stamp[i] === mark ? Infinity : -Math.log(1 - rng()) / weights[offset + i]!;
    const need = k - got;
    const threshold = kthSmallest(Float64Array.from(keys), need - 1);
    for (let i = 0; i < items && got < k; i++) {
      if (keys[i]! <= threshold) {
        stamp[i] = mark;
        out[got++] = i;
      }
    }
  }
}
