import type { CodeSet } from '../lsh/codes.js';
import type { Rng } from '../random/rng.js';
import { lastWordMask } from '../lsh/codes.js';
import { rngWordState } from '../random/rng.js';
import { wasmFlipGrid, wasmRandomWords } from '../kernels/releases.js';

/** Below this flip probability geometric skipping (one uniform and one log per flip, ~3x the cost
 *  of one uniform) beats one uniform per bit; measured with tests/lsh/bench-lsh.mjs (break-even
 *  near p = 0.3-0.35, see docs/MECHANISMS.md). */
export const GEOMETRIC_BELOW = 0.3;

/** Above this flip probability (and below 1/2) a flip is a fair coin masked by rare keeps drawn
 *  geometrically with probability 1 - 2p (one fair word per 32 bits plus ~(1 - 2p) skips per bit:
 *  cheaper than one uniform per bit while 1 - 2p < GEOMETRIC_BELOW). */
export const FAIR_MASK_ABOVE = 0.35;

/** 32 uniform random bits from a uniform on [0, 1) (exact for sources of >= 32-bit resolution). */
export function randomWord(rng: Rng): number {
  return (rng() * 4294967296) >>> 0;
}

/** Replaces every used bit of every code by a fair coin (flip probability 1/2 is the same as
 *  ignoring the input: eps = 0). Unused high bits stay 0. */
export function randomizeAll(set: CodeSet, rng: Rng): void {
  const { codes, words, bits } = set;
  const users = words === 0 ? 0 : codes.length / words;
  const mask = lastWordMask(bits);
  // the generator's own stream in the WebAssembly module: the same words, the state left as here
  const state = rngWordState(rng);
  if (state && users > 0 && wasmRandomWords(state, codes, users, words, mask)) return;
  for (let i = 0; i < users; i++) {
    const row = i * words;
    for (let w = 0; w < words - 1; w++) codes[row + w] = randomWord(rng);
    codes[row + words - 1] = (randomWord(rng) & mask) >>> 0;
  }
}

/**
 * Bitwise randomized response in place: each used bit of each code flips with probability about p
 * (paper Def. "bitwise RR"; protocol §4). p = 1/2 draws 32 fair bits per word; small p skips
 * geometrically over the users*bits stream; p in (0.35, 1/2) masks fair bits with geometrically
 * drawn keeps; otherwise one uniform per bit.
 *
 * What each path realizes, for a uniform source U = k/2^32 (seedrandom's xor4096, treated as ideal):
 * - p = 1/2: each bit is one bit of the uniform word k: exactly independent fair bits.
 * - one uniform per bit (p in [0.3, 0.35], p > 1/2): flips iff U < p, i.e. k < p·2^32: exactly
 *   independent Bernoulli(⌈p·2^32⌉/2^32) bits, in [p, p + 2^-32).
 * - geometric skips (p < 0.3): a gap is G = ⌊ln(1 − U)/ln(1 − p)⌋ in doubles. log1p (≤ 1 ulp),
 *   ln(1 − p) (≤ 1 ulp) and the quotient (1/2 ulp) move the threshold g·|ln(1 − p)| ≤ 32 ln 2 by a
 *   relative < 2^-50, far less than one step of k, so P(G ≥ g) is within 2^-31 of (1 − p)^g at every
 *   g. The bits are not independent: given the past, a bit flips with the hazard
 *   h(a) = 1 − P(G ≥ a + 1)/P(G ≥ a) at the age a since the last flip (across users too), and
 *   |h(a) − p| ≤ 2^-30/P(G ≥ a), which is small while (1 − p)^a ≫ 2^-30 but grows without bound:
 *   no gap exceeds 32 ln 2/|ln(1 − p)|, after which a flip is certain. No per-bit ε bound holds
 *   for this path uniformly, only one in total variation from the ideal law.
 * - masked fair coins (p in (0.35, 1/2)): flip = fair bit AND NOT keep, the keeps from the geometric
 *   path at r = 1 − 2p (exact in doubles): given the keeps' past, a bit flips with probability
 *   (1 − h_r(a))/2, within 2^-31/P(G ≥ a) of p; the same caveat.
 * LSHRR therefore flips through flipBitsOnGrid (exact, with its margin: src/privacy/rr.ts); RAPPOR
 * still uses this function.
 */
export function flipBits(set: CodeSet, p: number, rng: Rng): void {
  if (!(p >= 0 && p <= 1)) throw new RangeError(`flip probability must be in [0, 1], got ${p}`);
  if (p === 0) return;
  if (p === 0.5) {
    randomizeAll(set, rng);
    return;
  }
  const { codes, words, bits } = set;
  const users = words === 0 ? 0 : codes.length / words;
  if (p < GEOMETRIC_BELOW) {
    toggleBernoulli(codes, users, words, bits, p, rng);
    return;
  }
  if (p > FAIR_MASK_ABOVE && p < 0.5) {
    // flip = fair coin AND NOT keep, keep ~ Bernoulli(q = 1 - 2p) independently per bit:
    // P(flip) = (1/2)(1 - q) = p. Near 1/2, q is small: a few geometric skips plus one fair word per
    // 32 bits instead of one uniform per bit.
    const keep = new Uint32Array(codes.length);
    toggleBernoulli(keep, users, words, bits, 1 - 2 * p, rng);
    const mask = lastWordMask(bits);
    for (let i = 0; i < users; i++) {
      const row = i * words;
      for (let w = 0; w < words; w++) {
        const used = w === words - 1 ? mask : 0xffffffff;
        codes[row + w] ^= randomWord(rng) & ~keep[row + w] & used;
      }
    }
    return;
  }
  for (let i = 0; i < users; i++) {
    const row = i * words;
    for (let j = 0; j < bits; j++) {
      if (rng() < p) codes[row + (j >>> 5)] ^= 1 << (j & 31);
    }
  }
}

/**
 * 32 independent bits, each 1 with probability exactly t/2^32 (0 < t < 2^32 an integer): bit i is
 * [k_i < t] for a uniform 32-bit k_i, compared from its top bit down and drawn lazily, one uniform
 * word per level for all 32 columns at once: at a level where t's bit is 1 a column whose bit is 0
 * is decided below t (1), at a 0 bit a column with bit 1 is decided above (0); a column equal to t
 * down to t's lowest set bit is not below it. Each column's bits are fair and independent of the
 * others' (a uniform on the 2^-32 grid has 32 independent fair bits), so the law is exact; the
 * loop ends when no column is undecided: about log2(32) + 1.3 ≈ 6 words per 32 bits on average.
 */
export function bernoulliWord(t: number, rng: Rng): number {
  let below = 0;
  let undecided = 0xffffffff;
  const lowest = Math.clz32(1) - Math.clz32(t & -t); // index of t's lowest set bit
  for (let level = 31; level >= lowest && undecided !== 0; level--) {
    const r = randomWord(rng);
    if ((t >>> level) & 1) {
      below |= undecided & ~r;
      undecided &= r;
    } else {
      undecided &= ~r;
    }
  }
  return below >>> 0;
}

/**
 * Bitwise randomized response in place with a flip probability on the 2^-32 grid (p = T/2^32,
 * 0 <= T <= 2^31): each used bit flips independently with probability exactly p (bernoulliWord, for
 * a uniform source of 2^-32 resolution: seedrandom's xor4096 as makeRng builds it), the law LSHRR's
 * accounting assumes (src/privacy/rr.ts); p = 1/2 draws fair words. Unlike flipBits' geometric and
 * masked paths, whose bits are neither exactly Bernoulli(p) nor independent (see there).
 */
export function flipBitsOnGrid(set: CodeSet, p: number, rng: Rng): void {
  const t = p * 4294967296;
  if (!(p >= 0 && p <= 0.5 && Number.isInteger(t))) throw new RangeError(`flip probability must be a multiple of 2^-32 in [0, 1/2], got ${p}`);
  if (p === 0) return;
  if (p === 0.5) {
    randomizeAll(set, rng);
    return;
  }
  const { codes, words, bits } = set;
  const users = words === 0 ? 0 : codes.length / words;
  const mask = lastWordMask(bits);
  // the generator's own stream in the WebAssembly module (bernoulliWord there, branch-free): the
  // same words, the state left as here
  const state = rngWordState(rng);
  if (state && users > 0 && wasmFlipGrid(state, codes, users, words, mask, t)) return;
  for (let i = 0; i < users; i++) {
    const row = i * words;
    for (let w = 0; w < words; w++) {
      const used = w === words - 1 ? mask : 0xffffffff;
      codes[row + w] ^= bernoulliWord(t, rng) & used;
    }
  }
}

/**
 * Toggles each used bit of `words`-word rows independently with probability p, skipping
 * geometrically over the users*bits stream: the gap before the next toggle ~ Geometric(p),
 * P(gap >= g) = (1-p)^g = P(log(1-U)/log(1-p) >= g). One uniform and one log per toggle.
 */
function toggleBernoulli(codes: Uint32Array, users: number, words: number, bits: number, p: number, rng: Rng): void {
  if (p <= 0) return;
  const total = users * bits;
  const logKeep = Math.log1p(-p);
  let pos = Math.floor(Math.log1p(-rng()) / logKeep);
  while (pos < total) {
    const i = Math.floor(pos / bits);
    const j = pos - i * bits;
    codes[i * words + (j >>> 5)] ^= 1 << (j & 31);
    pos += 1 + Math.floor(Math.log1p(-rng()) / logKeep);
  }
}

/** A copy of a code set (mechanisms never modify the shared clean codes). */
export function copyCodes(set: CodeSet): CodeSet {
  return { codes: set.codes.slice(), bits: set.bits, words: set.words };
}
