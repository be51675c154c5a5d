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

/** seedrandom's xor4096 generator: long period, good quality, fast enough for per-bit draws. */
export function makeRng(seed: string): Rng {
  seedrandomModule ??= require('seedrandom') as typeof import('seedrandom');
  return seedrandomModule.xor4096(seed);
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
