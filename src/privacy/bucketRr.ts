/*
 * b-ary randomized response of bucket MinHash (minhash-bucket; docs/PRIVACY.md "Private MinHash"):
 * its law, the law its sampler realizes, and its exact privacy-loss distribution.
 *
 * Each position's symbol (a bucket in 0..b−1) is kept with probability q = e^ε/(e^ε + b − 1) and
 * otherwise replaced by one of the other b − 1 symbols uniformly, each with r = 1/(e^ε + b − 1);
 * q/r = e^ε, so one position is ε-LDP, and b = 2 is LSHRR's bitwise randomized response.
 *
 * Exact loss. For two inputs x, x' and public hash functions, only the positions where their
 * symbols u ≠ v differ carry information. For y ~ Q(x) at such a position the likelihood ratio
 * Q(y | u)/Q(y | v) is e^ε when y = u (probability q), e^−ε when y = v (probability r) and 1 for the
 * other b − 2 symbols: a trinomial, not LSHRR's binomial. With D ~ Bin(κ, p) differing positions
 * (p = d·(1 − 1/b) at Jaccard distance d), L = ε(N₊ − N₋). Across positions, each one independently
 * scores +1 with probability p·q, −1 with p·r, 0 otherwise; so M = N₊ + N₋ ~ Bin(κ, p(q + r)) and
 * N₊ | M ~ Bin(M, q/(q + r)), where q/(q + r) = e^ε/(e^ε + 1) is LSHRR's keep probability. The score
 * N₊ − N₋ = 2N₊ − M therefore has LSHRR's law (src/privacy/exactLoss.ts) with the per-bit
 * disagreement p̃(ε) = p(q + r) = p(1 + e^−ε)/(1 + (b − 1)e^−ε) in place of p: at b = 2, p̃ = p
 * and the two accountants coincide. For each score threshold the tail is continuous and
 * non-decreasing in ε (each position's score is stochastically increasing: q rises, r falls), and
 * Pr[N₊ − N₋ ≥ 1] → Pr[D ≥ 1] as ε → ∞, so the jump-point search of LSHRR applies unchanged.
 */
import { symbolGrid } from '../random/symbols.js';
import { checkBitProbability, largestPassingEpsilon, minExceedingScore, scoreTail, tailLimit, type ExactEpsilon } from './exactLoss.js';
import { FLIP_MARGIN } from './rr.js';

function checkEpsilon(eps: number): void {
  if (!(eps >= 0)) throw new RangeError(`per-position eps must be >= 0, got ${eps}`);
}

/** b-ary RR's keep probability q = e^ε/(e^ε + b − 1) = 1/(1 + (b − 1)e^−ε) (1 at ε = ∞; 1/b at ε = 0). */
export function bucketKeepProbability(eps: number, b: number): number {
  checkEpsilon(eps);
  symbolGrid(b); // checks b
  return 1 / (1 + (b - 1) * Math.exp(-eps));
}

/** The probability r = 1/(e^ε + b − 1) = e^−ε/(1 + (b − 1)e^−ε) of each of the b − 1 other symbols. */
export function bucketOtherProbability(eps: number, b: number): number {
  checkEpsilon(eps);
  symbolGrid(b);
  const e = Math.exp(-eps);
  return e / (1 + (b - 1) * e);
}

/*
 * What the sampler realizes (src/random/symbols.ts randomizeSymbols): each other symbol with
 * probability exactly R/M, M = symbolGrid(b) = b·⌊2^32/b⌋, kept with (M − (b − 1)R)/M; realized
 * per-position loss ε_R = ln((M − (b − 1)R)/R). R is chosen above the true r, as LSHRR's flip count
 * (src/privacy/rr.ts) is above its flip probability:
 * - r_d = e/(1 + (b − 1)e), e = exp(−ε), is within a relative 2^-50 of r (exp ≤ 1 ulp; the product,
 *   the sum and the quotient ≤ 1/2 ulp each; e's error enters 1 + (b − 1)e at most in full);
 * - the margin: r_d·(1 + 2^-40), then ×M (M is not a power of 2 unless b is: each product rounds
 *   by ≤ 2^-53): r_d(1 + 2^-40)·M ≥ r·M·(1 − 2^-50)(1 + 2^-40)(1 − 2^-53)² > r·M·(1 + 2^-41);
 * - R = ⌈that⌉ only rounds up: r' = R/M ≥ r(1 + 2^-41).
 * Then ε − ε_R = ln((1/r − (b − 1))/(1/r' − (b − 1))) ≥ ln(r'/r) ≥ ln(1 + 2^-41) > 0: strictly
 * below, so at a jump point ε = ξ/j of the exact accountant ε_R·j < ξ, and the tail at ε_R is at most
 * the one at ε (the score is stochastically smaller and the event {ε_R·S > ξ} ⊆ {ε·S > ξ}).
 * Clamps: R ≤ M/b (r' = 1/b: the uniform law, ε_R = 0, on the grid for every b since b divides M;
 * reached at ε = 0 and for ε below about b²·2^-32); R ≥ 1 for finite ε (r' ≥ 1/M: ε_R ≤ ln(M) ≈
 * 22.18 when ε is larger); ε = Infinity gives R = 0 (every symbol kept). At b = 2, M = 2^32 and
 * r_d is the very double flipProbability(ε) computes, so R is LSHRR's realizedFlipCount(ε).
 */

/** The integer R of the per-symbol replacement probability R/symbolGrid(b) that the sampler is asked for at per-position ε (see above). */
export function realizedOtherCount(eps: number, b: number): number {
  const m = symbolGrid(b);
  checkEpsilon(eps);
  if (eps === Infinity) return 0;
  const e = Math.exp(-eps);
  const r = e / (1 + (b - 1) * e);
  const count = Math.ceil(r * (1 + FLIP_MARGIN) * m);
  return Math.min(m / b, Math.max(1, count));
}

/** The probability of each other symbol that the sampler realizes at per-position ε: realizedOtherCount/M (within 2^-53). */
export function realizedOtherProbability(eps: number, b: number): number {
  return realizedOtherCount(eps, b) / symbolGrid(b);
}

/**
 * The per-position loss ln((M − (b − 1)R)/R) the sampler realizes at per-position ε, rounded up:
 * computed as log1p((M − bR)/R) with the numerator exact (an integer < 2^32), the quotient within
 * 2^-53 and log1p within 1 ulp; the factor 1 + 2^-48 covers both, so it is never below the true
 * loss, and (2^-48·22.2 < 2^-43 < ln(1 + 2^-41)) still strictly below ε for 0 < ε < ∞. 0 at ε = 0,
 * Infinity at ε = Infinity.
 */
export function realizedBucketEpsilon(eps: number, b: number): number {
  const r = realizedOtherCount(eps, b);
  if (r === 0) return Infinity;
  const m = symbolGrid(b);
  return Math.log1p((m - b * r) / r) * (1 + 2 ** -48);
}

/** The per-position disagreement p̃ = p·(q + r) = p(1 + e^−ε)/(1 + (b − 1)e^−ε) of the equivalent LSHRR score (file comment). */
export function effectiveDisagreement(p: number, b: number, eps: number): number {
  checkEpsilon(eps);
  const e = Math.exp(-eps);
  // the ratio first: at b = 2 it is exactly 1, so p̃ is p itself and the tail LSHRR's to the bit
  return p * ((1 + e) / (1 + (b - 1) * e));
}

/** Pr[N₊ − N₋ >= sMin] at per-position ε for κ positions differing with probability p each (0 when sMin > κ). */
export function bucketScoreTail(kappa: number, p: number, b: number, eps: number, sMin: number): number {
  return scoreTail(kappa, effectiveDisagreement(p, b, eps), eps, sMin);
}

/** Pr[L > ξ], L = ε(N₊ − N₋): the exact loss tail of bucket MinHash's b-ary RR at per-position ε. */
export function bucketExactTail(kappa: number, p: number, b: number, eps: number, xi: number): number {
  checkBitProbability(p);
  symbolGrid(b);
  if (eps === 0) return xi < 0 ? 1 : 0;
  return bucketScoreTail(kappa, p, b, eps, minExceedingScore(eps, xi, kappa));
}

/**
 * The exact accountant of bucket MinHash: the largest per-position ε with Pr[ε(N₊ − N₋) > ξ] ≤ δ,
 * p the per-position disagreement probability (d·(1 − 1/b) at Jaccard distance d). Unbounded
 * (ε = Infinity) when (1 − p)^κ ≥ 1 − δ, the tail's limit; otherwise exactEpsilon's search
 * (largestPassingEpsilon) on this tail: jump points ξ/j are the largest doubles ≤ ξ/j, interior
 * roots keep the passing end, so the returned ε meets the bound. At b = 2 it is exactEpsilon.
 */
export function bucketExactEpsilon(xi: number, kappa: number, p: number, b: number, delta: number): ExactEpsilon {
  checkBitProbability(p);
  symbolGrid(b);
  const limit = tailLimit(kappa, p);
  if (limit <= delta) return { epsilon: Infinity, unbounded: true, tail: limit };
  return largestPassingEpsilon(xi, kappa, delta, (eps, sMin) => bucketScoreTail(kappa, p, b, eps, sMin));
}
