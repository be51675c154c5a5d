/*
 * Laplace noise for noisy MinHash (src/privacy/minhash.ts): each 0/1 MinHash value plus an
 * independent Laplace(1/ε') variate, released as a double.
 */
import { type Rng, uniformWord } from './rng.js';

const TWO_52 = 4503599627370496;

/**
 * Standard Laplace variates (scale 1: density e^−|x|/2, mean 0, variance 2), one per call, from two
 * 32-bit words: the first word's top bit is the sign; its other 31 bits and the second word's top
 * 21 form a 52-bit integer k, and the magnitude is −ln((k + 1)/2^52), an Exp(1) variate by the
 * inverse CDF of a uniform on (0, 1] (never ln 0). Sign and magnitude are independent, so the law
 * is symmetric; the magnitude is exponential up to its 2^-52 grid, truncated at 52 ln 2 ≈ 36
 * (mass e^-36 ≈ 2e-16 beyond it). Like every floating-point Laplace sampler its outputs are doubles
 * on an uneven grid, so the ε-DP of the ideal law is not a statement about these exact doubles
 * (Mironov, CCS 2012); docs/PRIVACY.md says so.
 */
export function laplaceSource(rng: Rng): () => number {
  return () => {
    const w1 = uniformWord(rng);
    const w2 = uniformWord(rng);
    const k = (w1 & 0x7fffffff) * 2097152 + (w2 >>> 11); // 31 + 21 = 52 bits
    const magnitude = -Math.log((k + 1) / TWO_52);
    return w1 >>> 31 ? -magnitude : magnitude;
  };
}

/**
 * Noisy MinHash values: out[i] = values[i] + L_i/ε for independent standard Laplace L_i
 * (laplaceSource, drawn in array order), i.e. Laplace noise of scale 1/ε on each 0/1 value.
 * - ε = Infinity: the values themselves, as doubles, with no draw (noise of scale 0).
 * - ε = 0: the noise L_i alone. The scale 1/ε is infinite there; the release (v + L/ε)·ε = v·ε + L
 *   is a rescaling of the release at ε, and rescaling every released coordinate by the same factor
 *   changes no ranking by (squared) Euclidean distance, so its ε → 0 limit is the input-free L
 *   (0-LDP). The same L_i are drawn at every ε: only their scale changes.
 * Values must be 0 or 1 (the 1-bit MinHash values; minHashBits in src/lsh/minHash.ts).
 */
export function laplaceNoisyValues(values: Uint8Array, eps: number, rng: Rng): Float64Array {
  if (!(eps >= 0)) throw new RangeError(`Laplace eps must be >= 0, got ${eps}`);
  const out = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) {
    if (values[i]! > 1) throw new RangeError(`value ${values[i]} at ${i} is not 0 or 1`);
    out[i] = values[i]!;
  }
  if (eps === Infinity) return out;
  const laplace = laplaceSource(rng);
  if (eps === 0) {
    for (let i = 0; i < out.length; i++) out[i] = laplace();
    return out;
  }
  for (let i = 0; i < out.length; i++) out[i] = out[i]! + laplace() / eps;
  return out;
}
