import { createHash } from 'node:crypto';
import { createRequire } from 'node:module';

/** A uniform source on [0, 1). Samplers take one (d3-random's `.source(rng)` pattern). */
export type Rng = () => number;

/**
 * Seed for one role of one grid cell, derived from the run's seed by hashing, so any cell can be
 * recomputed alone and results never depend on the order or the parallelism of cells.
 * Example: deriveSeed(1, 'planes', 'movielens', 100, 20, 3).
 */
export function deriveSeed(runSeed: number | string, ...parts: (string | number)[]): string {
  return createHash('sha256')
    .update(JSON.stringify([runSeed, ...parts]))
    .digest('hex')
    .slice(0, 32);
}

// seedrandom is loaded at the first generator, so commands that draw nothing do not pay for it
const require = createRequire(import.meta.url);
let seedrandomModule: typeof import('seedrandom') | undefined;

/**
 * seedrandom's xor4096 generator: long period, good quality, fast enough for per-bit draws.
 * seedrandom seeds it (its own mixing of the seed string); the draws then come from the same
 * recurrence run here on a state of 130 int32 (rngWordState), so that bulk consumers (the
 * randomized response's flips: src/mechanisms/flips.ts) can run it in the WebAssembly module and
 * hand the state back. Every draw is seedrandom's very double (tests/mechanisms/flipsKernel.test.ts).
 */
export function makeRng(seed: string): Rng {
  seedrandomModule ??= require('seedrandom') as typeof import('seedrandom');
  const seeded = seedrandomModule.xor4096(seed, { state: true }).state();
  const S = new Int32Array(XOR4096_STATE);
  S.set(seeded.X);
  S[XOR4096_I] = seeded.i;
  S[XOR4096_W] = seeded.w;
  // seedrandom's XorGen.next, then (int32 >>> 0) / 2^32 as its prng returns
  const rng: Rng = () => {
    const w = (S[XOR4096_W]! + 0x61c88647) | 0;
    S[XOR4096_W] = w;
    let i = S[XOR4096_I]!;
    let v = S[(i + 34) & 127]!;
    i = (i + 1) & 127;
    let t = S[i]!;
    v ^= v << 13;
    t ^= t << 17;
    v ^= v >>> 15;
    t ^= t >>> 12;
    v ^= t;
    S[i] = v;
    S[XOR4096_I] = i;
    return ((v + (w ^ (w >>> 16))) >>> 0) / 4294967296;
  };
  states.set(rng, S);
  return rng;
}

/** The xor4096 state's length: X[0..127], then i, then w (seedrandom's XorGen fields). */
export const XOR4096_STATE = 130;
/** Where the state holds i (X's current index). */
export const XOR4096_I = 128;
/** Where the state holds w (the Weyl counter). */
export const XOR4096_W = 129;

const states = new WeakMap<Rng, Int32Array>();

/**
 * The live xor4096 state of a generator made by makeRng (X[0..127], i, w: XOR4096_STATE int32), or
 * undefined for any other source. A consumer that draws from it directly (words
 * `(v + (w ^ (w >>> 16))) | 0` of seedrandom's XorGen.next) and leaves the state as that many
 * calls would leave it consumes the generator's stream exactly as calls to it would.
 */
export function rngWordState(rng: Rng): Int32Array | undefined {
  return states.get(rng);
}

/**
 * The uniform 32-bit word k of one draw U = k/2^32. Exact for makeRng's sources: seedrandom's
 * xor4096 returns (int32 >>> 0)/2^32, a multiple of 2^-32 (tests/random/symbols.test.ts checks it),
 * so the word is the generator's own output and samplers built on it realize laws on the 2^-32
 * grid exactly. (The same expression as randomWord in src/mechanisms/flips.ts, which this layer
 * may not import.)
 */
export function uniformWord(rng: Rng): number {
  return (rng() * 4294967296) >>> 0;
}
