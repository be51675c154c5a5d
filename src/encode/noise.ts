import { randomFillSync } from 'node:crypto';
import type { Rng } from '../random/rng.js';

/** Uniforms drawn per refill of the cryptographic buffer. */
const BATCH = 8192;

/**
 * A uniform source on [0, 1) from the operating system's cryptographic generator (node:crypto):
 * 53 random bits per draw. The noise of released codes comes from here, and is never stored: whoever
 * could reproduce the noise could subtract it and recover the clean codes.
 */
export function cryptoRng(): Rng {
  const words = new Uint32Array(2 * BATCH);
  let next = BATCH;
  return () => {
    if (next === BATCH) {
      randomFillSync(words);
      next = 0;
    }
    const hi = words[2 * next]!;
    const lo = words[2 * next + 1]! >>> 11;
    next++;
    return (hi * 2097152 + lo) / 9007199254740992; // (32 + 21 bits) / 2^53
  };
}
