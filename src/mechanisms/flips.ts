import type { CodeSet } from '../lsh/codes.js';
import type { Rng } from '../random/rng.js';
import { lastWordMask } from '../lsh/codes.js';

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
  for (let i = 0; i < users; i++) {
    const row = i * words;
    for (let w = 0; w < words - 1; w++) codes[row + w] = randomWord(rng);
    codes[row + words - 1] = (randomWord(rng) & mask) >>> 0;
  }
}

/**
 * Bitwise randomized response in place: each used bit of each code flips independently with
 * probability p (paper Def. "bitwise RR"; protocol §4). p = 1/2 draws 32 fair bits per word; small
 * p skips geometrically over the users*bits stream; p in (0.35, 1/2) masks fair bits with
 * geometrically drawn keeps; otherwise one uniform per bit.
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
