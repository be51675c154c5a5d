/**
 * Nearest-rank quantiles without sorting: the figure of retained against T takes two quantiles of
 * B = 2,000 resamples at some thousands of (cell, entry, T), where a sort each is most of its time.
 * The same values as `quantileOf` of the sorted array (src/decide/resample.ts).
 */

/** Rearranges `a` so that a[k] is its k-th smallest, smaller ones before it and larger after (Hoare's selection). */
function selectInPlace(a: Float64Array, k: number, from: number, to: number): void {
  let lo = from;
  let hi = to;
  while (hi > lo) {
    // the median of three as pivot: sorted or constant runs stay linear
    const mid = (lo + hi) >>> 1;
    const pivot = Math.max(Math.min(a[lo], a[mid]), Math.min(Math.max(a[lo], a[mid]), a[hi]));
    let i = lo;
    let j = hi;
    while (i <= j) {
      while (a[i] < pivot) i++;
      while (a[j] > pivot) j--;
      if (i <= j) {
        const t = a[i];
        a[i] = a[j];
        a[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else return;
  }
}

/**
 * The q-quantiles of `values` by nearest rank (the ⌈qB⌉-th smallest), ±Infinity allowed, NaN
 * not; `values` is reordered. Empty: NaN.
 */
export function selectQuantiles(values: Float64Array, qs: readonly number[]): number[] {
  const n = values.length;
  if (n === 0) return qs.map(() => Number.NaN);
  const ranks = qs.map((q) => Math.min(n - 1, Math.max(0, Math.ceil(q * n) - 1)));
  // largest rank first: the smaller ones then lie in the part left of it
  const order = ranks.map((_, i) => i).sort((x, y) => ranks[y] - ranks[x]);
  const out = new Array<number>(qs.length);
  let end = n - 1;
  for (const i of order) {
    selectInPlace(values, ranks[i], 0, end);
    out[i] = values[ranks[i]];
    end = ranks[i];
  }
  return out;
}
