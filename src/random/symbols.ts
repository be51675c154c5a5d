/*
 * b-ary randomized response on symbols 0..b−1 with an exactly known realized law: every
 * probability is a multiple of 1/M for the grid M = symbolGrid(b) = b·⌊2^32/b⌋, drawn from uniform
 * 32-bit words by rejection (a word ≥ M is drawn again), so each accepted word is exactly uniform on
 * [0, M) for a source of 2^-32 resolution (makeRng's; see uniformWord). M is a multiple of b, so
 * the uniform law (each symbol 1/b) is on the grid for every b, not only for powers of 2; a word is
 * rejected with probability (2^32 mod b)/2^32 < 2^-24 (never for b a power of 2).
 * What `other` to ask for at a per-position ε is the privacy layer's business
 * (src/privacy/bucketRr.ts realizedOtherCount: strictly below the accountant's ε).
 */
import { type Rng, uniformWord } from './rng.js';

const TWO_32 = 4294967296;

/** The grid of randomizeSymbols' probabilities for b symbols: M = b·⌊2^32/b⌋ (2^32 when b is a power of 2). */
export function symbolGrid(b: number): number {
  if (!(Number.isInteger(b) && b >= 2 && b <= 256)) throw new RangeError(`symbol count b must be an integer in [2, 256], got ${b}`);
  return b * Math.floor(TWO_32 / b);
}

/**
 * b-ary randomized response: a new array where each symbol x of `symbols` (each in 0..b−1) is
 * replaced independently by each of the b − 1 other symbols with probability exactly R/M
 * (R = `other`, M = symbolGrid(b)) and kept with probability (M − (b − 1)R)/M. R = 0 keeps every
 * symbol (no draw); R = M/b gives the uniform law (the input ignored: per-position ε = 0).
 *
 * Draws, in one fixed order: for each entry in array order (row-major users × κ), 32-bit words
 * until one, w, is below M; then the entry becomes x + 1 + ⌊w/R⌋ (mod b) when w < (b − 1)R (each
 * offset 1..b−1 has exactly R accepted words), else x. One word per entry unless a rare rejection.
 * Deterministic given the source.
 */
export function randomizeSymbols(symbols: Uint8Array, b: number, other: number, rng: Rng): Uint8Array {
  const m = symbolGrid(b);
  if (!(Number.isInteger(other) && other >= 0 && other * b <= m)) throw new RangeError(`other-symbol count must be an integer in [0, ${m / b}], got ${other}`);
  const out = new Uint8Array(symbols.length);
  const replace = (b - 1) * other;
  for (let i = 0; i < symbols.length; i++) {
    const x = symbols[i]!;
    if (x >= b) throw new RangeError(`symbol ${x} at ${i} is not in 0..${b - 1}`);
    if (other === 0) {
      out[i] = x;
      continue;
    }
    let w = uniformWord(rng);
    while (w >= m) w = uniformWord(rng);
    out[i] = w < replace ? (x + 1 + Math.floor(w / other)) % b : x;
  }
  return out;
}
