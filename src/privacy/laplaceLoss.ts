/*
 * The exact privacy-loss law of per-position Laplace noise (noisy MinHash's release: each position's
 * value in {0, 1} plus Laplace noise of scale 1/ε), bounded from both sides on a grid.
 *
 * At a position where the two inputs' values differ (v − v′ = ±1; by symmetry take +1) the release
 * y = v + N, N ~ Laplace(1/ε), has log-likelihood ratio ε(|y − v′| − |y − v|) = ε·T with, for
 * W = εN ~ Laplace(1) (density e^{−|w|}/2),
 *   T = |N + 1| − |N| = clip(2N + 1, −1, 1) = clip(2W/ε + 1, −1, 1):
 * T = 1 when W ≥ 0 (probability ½), T = −1 when W ≤ −ε (probability e^{−ε}/2), and 2W/ε + 1 in
 * between. Positions where the values agree carry no loss. With D ~ Bin(κ, p) differing positions
 * (over the public hash functions), L = ε·(T₁ + … + T_D) and
 *   Pr[L > ξ] = Σ_D Bin(D; κ, p)·Pr[T₁ + … + T_D > ξ/ε].
 * T has an atom at each end and a density between, so the sum has no closed form; rounding each T
 * down (up) to a multiple of 1/G gives integer scores whose sum's tail is a lower (upper) bound of
 * the true one (ΣT ≥ Σ⌊GT⌋/G, ΣT ≤ Σ⌈GT⌉/G), computed by convolution. T is pointwise
 * non-decreasing in ε for a fixed W and ξ/ε falls as ε grows, so the tail is non-decreasing in ε.
 */
import { logBinomialPmf } from './exactLoss.js';

/** Default grid: multiples of 1/64 of ε per position (the bounds' gap shrinks as 1/G). */
export const LAPLACE_GRID = 64;

/** Bin(κ, p) mass beyond the D the sum is computed for: the lower bound drops it, the upper adds it. */
const DROP = 1e-16;

/** Pr[K = k] at index k + G, k = −G..G, for K = ⌊G·T⌋ (down) or ⌈G·T⌉ (up) at per-position ε. */
function scorePmf(eps: number, grid: number, down: boolean): Float64Array {
  const pmf = new Float64Array(2 * grid + 1);
  // Pr[W < w] = e^w/2 for w <= 0; T ∈ [k/G, (k+1)/G) ⟺ W ∈ [ε(k/G − 1)/2, ε((k+1)/G − 1)/2)
  const at = (k: number) => (eps * (k / grid - 1)) / 2; // the W where T = k/G
  // e^a/2 − e^b/2 for b < a <= 0, without cancellation
  const between = (a: number, b: number) => (Math.exp(b) * Math.expm1(a - b)) / 2;
  if (down) {
    pmf[2 * grid] += 0.5; // T = 1
    pmf[0] += Math.exp(at(-grid + 1)) / 2; // T < −1 + 1/G (the atom at −1 included)
    for (let k = -grid + 1; k <= grid - 1; k++) pmf[k + grid] += between(at(k + 1), at(k));
  } else {
    pmf[0] += Math.exp(-eps) / 2; // T = −1
    pmf[2 * grid] += 0.5 + between(0, at(grid - 1)); // T > 1 − 1/G (the atom at 1 included)
    for (let k = -grid + 1; k <= grid - 1; k++) pmf[k + grid] += between(at(k), at(k - 1));
  }
  return pmf;
}

/**
 * Lower and upper bounds on Pr[L > ξ] for κ positions, each differing with probability p, under
 * Laplace noise of scale 1/ε (file comment); `grid` G sets the rounding (the bounds differ by the
 * mass of the sum within about D/G of ξ/ε). ε = ∞ (no noise): Pr[D >= 1] for both; ε = 0: 0.
 */
export function laplacePositionTail(kappa: number, p: number, eps: number, xi: number, grid = LAPLACE_GRID): { lower: number; upper: number } {
  if (!(Number.isInteger(kappa) && kappa >= 1)) throw new RangeError(`laplacePositionTail: kappa must be a positive integer, got ${kappa}`);
  if (!(p >= 0 && p <= 1)) throw new RangeError(`laplacePositionTail: p must be in [0, 1], got ${p}`);
  if (!(eps >= 0)) throw new RangeError(`laplacePositionTail: eps must be >= 0, got ${eps}`);
  if (!(xi >= 0)) throw new RangeError(`laplacePositionTail: xi must be >= 0, got ${xi}`);
  if (!(Number.isInteger(grid) && grid >= 1)) throw new RangeError(`laplacePositionTail: grid must be a positive integer, got ${grid}`);
  if (eps === 0 || p === 0) return { lower: 0, upper: 0 };
  if (eps === Infinity || p === 1) {
    const anyDiffers = p === 1 ? 1 : -Math.expm1(kappa * Math.log1p(-p));
    if (eps === Infinity) return { lower: anyDiffers, upper: anyDiffers };
  }
  const lp = Math.log(p);
  const l1p = p === 1 ? -Infinity : Math.log1p(-p);
  const weight = (d: number) => (p === 1 ? (d === kappa ? 1 : 0) : Math.exp(logBinomialPmf(d, kappa, lp, l1p)));
  // the largest D whose Bin(κ, p) tail beyond it is not negligible
  let dMax = kappa;
  let beyond = 0;
  while (dMax > 0 && beyond + weight(dMax) < DROP) beyond += weight(dMax--);
  const threshold = (grid * xi) / eps; // Σ K > threshold
  const bound = (down: boolean): number => {
    const step = scorePmf(eps, grid, down);
    let sum = Float64Array.of(1); // the law of Σ K over 0 positions, index s + offset
    let offset = 0;
    let tail = 0;
    for (let d = 1; d <= dMax; d++) {
      const next = new Float64Array(sum.length + 2 * grid);
      for (let i = 0; i < sum.length; i++) {
        const a = sum[i];
        if (a === 0) continue;
        for (let k = 0; k <= 2 * grid; k++) next[i + k] += a * step[k];
      }
      sum = next;
      offset += grid;
      // Pr[Σ K > threshold]: scores s >= ⌊threshold⌋ + 1
      const sMin = Math.floor(threshold) + 1;
      let above = 0;
      for (let i = Math.max(0, sMin + offset); i < sum.length; i++) above += sum[i];
      tail += weight(d) * Math.min(1, above);
    }
    return tail;
  };
  return { lower: Math.min(1, bound(true)), upper: Math.min(1, bound(false) + beyond) };
}

/**
 * The smallest per-position ε (to a relative 1e-9, on the failing side) at which the lower bound of
 * laplacePositionTail exceeds δ: beyond it the claim Pr[L > ξ] ≤ δ is false, whatever the grid's
 * rounding. Infinity when even ε = ∞ keeps the tail at most δ ((1 − p)^κ >= 1 − δ). At ε <= ξ/κ the
 * loss never exceeds ξ, so the answer is above ξ/κ.
 */
export function laplaceFailingEpsilon(xi: number, kappa: number, p: number, delta: number, grid = LAPLACE_GRID): number {
  if (!(delta > 0 && delta < 1)) throw new RangeError(`laplaceFailingEpsilon: delta must be in (0, 1), got ${delta}`);
  const fails = (eps: number) => laplacePositionTail(kappa, p, eps, xi, grid).lower > delta;
  if (!fails(Infinity)) return Infinity;
  if (xi === 0) return 0;
  let lo = xi / kappa; // passes: |L| <= κε <= ξ
  let hi = 2 * lo;
  while (!fails(hi)) {
    lo = hi;
    hi *= 2;
    if (hi > 1e6) return Infinity;
  }
  while (hi / lo - 1 > 1e-9) {
    const mid = Math.sqrt(lo * hi);
    if (mid <= lo || mid >= hi) break;
    if (fails(mid)) hi = mid;
    else lo = mid;
  }
  return hi;
}
