/**
 * The one resampling every uncertainty of a matched table comes from: a seeded bootstrap of the
 * trials, drawn once per cell as multiplicities (how often each trial is in the resample) and
 * applied to every entry of the cell alike, so that the pairing of trials between entries holds.
 */
import { makeRng } from '../random/rng.js';

/** Bootstrap resamples per cell (issue 51: B ≥ 2,000). */
export const BOOTSTRAP_B = 2000;

/** B resamples of m trials: each a Float64Array of m multiplicities summing to m. */
export function bootstrapWeights(m: number, b: number, seed: string): Float64Array[] {
  const rng = makeRng(seed);
  const out: Float64Array[] = [];
  for (let r = 0; r < b; r++) {
    const w = new Float64Array(m);
    for (let t = 0; t < m; t++) w[Math.min(m - 1, Math.floor(rng() * m))]++;
    out.push(w);
  }
  return out;
}

/** The weighted mean of `xs` under multiplicities `w` (null: every trial once). */
export function weightedMean(xs: readonly number[], w: Float64Array | null): number {
  let s = 0;
  if (w === null) {
    for (let t = 0; t < xs.length; t++) s += xs[t];
    return s / xs.length;
  }
  let n = 0;
  for (let t = 0; t < xs.length; t++) {
    s += w[t] * xs[t];
    n += w[t];
  }
  return s / n;
}

/** weightedMean of xs[at … at + m − 1], term for term in the same order: the same bits. */
export function weightedMeanAt(xs: Float64Array, at: number, m: number, w: Float64Array | null): number {
  let s = 0;
  if (w === null) {
    for (let t = 0; t < m; t++) s += xs[at + t];
    return s / m;
  }
  let n = 0;
  for (let t = 0; t < m; t++) {
    s += w[t] * xs[at + t];
    n += w[t];
  }
  return s / n;
}

/** The sample standard deviation of the finite values (NaN for fewer than 2). */
export function sdOf(xs: readonly number[]): number {
  const f = xs.filter(Number.isFinite);
  if (f.length < 2) return Number.NaN;
  const mean = f.reduce((a, b) => a + b, 0) / f.length;
  return Math.sqrt(f.reduce((a, b) => a + (b - mean) ** 2, 0) / (f.length - 1));
}

/**
 * The q-quantile by nearest rank (the ⌈qB⌉-th smallest): defined when values are ±Infinity (a
 * crossing beyond the grid), which then open the interval on that side.
 */
export function quantileOf(sorted: ArrayLike<number>, q: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}
