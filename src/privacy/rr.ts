/*
 * Randomized response on one bit with budget eps: keep with probability e^eps / (1 + e^eps).
 * Both forms below use only exp(-|eps|), so they never overflow (eps = Infinity keeps always).
 */

/** Probability that RR keeps a bit: 1 / (1 + e^-eps). */
export function keepProbability(eps: number): number {
  if (eps >= 0) return 1 / (1 + Math.exp(-eps));
  const e = Math.exp(eps);
  return e / (1 + e);
}

/** Probability that RR flips a bit: 1 / (1 + e^eps) (eps = 0: 1/2, the random-hash baseline). */
export function flipProbability(eps: number): number {
  if (eps >= 0) {
    const e = Math.exp(-eps);
    return e / (1 + e);
  }
  return 1 / (1 + Math.exp(eps));
}

/*
 * What LSHRR realizes. Each bit flips when a uniform 32-bit number is below an integer T
 * (flipBitsOnGrid in src/mechanisms/flips.ts, 32 bits at a time: exactly independent
 * Bernoulli(T/2^32) bits for a uniform source of 2^-32 resolution), so the per-bit law it realizes is
 * known exactly: q' = T/2^32, per-bit loss ln((1 − q')/q'). flipBits' other paths (geometric skips,
 * masked fair coins) have no such bound: their bits depend on the age since the last flip (see
 * there), so LSHRR no longer uses them. T is chosen so that q' lies strictly above the true
 * 1/(1 + e^eps):
 * - flipProbability computes q_d = e/(1 + e), e = exp(−eps), within a relative 2.5·2^-52 < 2^-50 of
 *   the true q (exp ≤ 1 ulp, the sum and the quotient ≤ 1/2 ulp each, e's error enters 1 + e halved);
 * - the margin multiplies q_d by 1 + 2^-40 (the product rounds by ≤ 2^-53):
 *   q_d·(1 + 2^-40) ≥ q·(1 − 2^-50)(1 + 2^-40)(1 − 2^-53) > q·(1 + 2^-41);
 * - T = ⌈2^32 · that⌉ (×2^32 is exact) only rounds up: q' ≥ q·(1 + 2^-41), q' < q·(1 + 2^-39) + 2^-32:
 *   the path's law is exactly Bernoulli(q'), at most 2^-32 + 2^-39·q above the margin-free q.
 * Hence the realized per-bit ε' = ln((1 − q')/q') < eps, by at least ln(q'/q) ≥ ln(1 + 2^-41) in
 * absolute terms (ε(q) − ε(q') = ∫ ds/(s(1 − s)) over [q, q'] ≥ ln(q'/q)), so an eps at a jump
 * point ξ/j of the exact accountant gives ε'·j < ξ strictly: no score crosses ξ that did not at
 * eps, and the exact tail at ε' is at most the one at eps (tests/privacy/rr.test.ts proves this in
 * rational arithmetic).
 * Clamps: T ≥ 1 for finite eps (q' ≥ 2^-32: ε' ≤ 32 ln 2 ≈ 22.18 even when eps is larger), T ≤ 2^31
 * (q' = 1/2: ε' = 0, the random-hash baseline); eps = Infinity gives T = 0 (no flips).
 */

/** LSHRR's flips draw uniforms of this resolution: its flip probabilities are multiples of 1/2^32. */
export const FLIP_GRID = 4294967296;

/** The relative margin by which LSHRR aims its flip probability above the computed 1/(1 + e^eps). */
export const FLIP_MARGIN = 2 ** -40;

function checkPerBitEpsilon(eps: number): void {
  if (!(eps >= 0)) throw new RangeError(`per-bit eps must be >= 0, got ${eps}`);
}

/**
 * The integer T of the flip probability T/2^32 that LSHRR realizes at per-bit eps (see above):
 * the smallest multiple of 2^-32 at least flipProbability(eps)·(1 + FLIP_MARGIN), within [1, 2^31];
 * 0 at eps = Infinity.
 */
export function realizedFlipCount(eps: number): number {
  checkPerBitEpsilon(eps);
  if (eps === Infinity) return 0;
  const t = Math.ceil(flipProbability(eps) * (1 + FLIP_MARGIN) * FLIP_GRID);
  return Math.min(FLIP_GRID / 2, Math.max(1, t));
}

/** The flip probability LSHRR realizes at per-bit eps: realizedFlipCount(eps) / 2^32 (exact). */
export function realizedFlipProbability(eps: number): number {
  return realizedFlipCount(eps) / FLIP_GRID;
}

/**
 * The largest per-bit privacy loss ln((1 − q')/q') the implemented flips realize when LSHRR is asked
 * for per-bit eps, rounded up: strictly below eps for 0 < eps < Infinity (the margin above), 0 at
 * eps = 0, Infinity at eps = Infinity (no flips). The log is computed as log1p((2^32 − 2T)/T), with
 * the numerator exact, the quotient within 2^-53 and log1p within 1 ulp of theirs; the factor
 * 1 + 2^-48 covers both, so the result is never below the true loss (and 2^-48·22.2 < 2^-41: never
 * at or above eps either).
 */
export function realizedPerBitEpsilon(epsilon: number): number {
  const t = realizedFlipCount(epsilon);
  if (t === 0) return Infinity;
  return Math.log1p((FLIP_GRID - 2 * t) / t) * (1 + 2 ** -48);
}
