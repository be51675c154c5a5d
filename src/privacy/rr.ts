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

/** The per-bit ε that flipping with `flipProbability(epsilon)` realizes: ln((1 − q)/q). */
export function realizedPerBitEpsilon(epsilon: number): number {
  const q = flipProbability(epsilon);
  return Math.log((1 - q) / q);
}
