import { createRequire } from 'node:module';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeRng, rngWordState, type Rng } from '../../src/random/rng.js';
import { bernoulliWord, flipBitsOnGrid, randomizeAll } from '../../src/mechanisms/flips.js';
import { lastWordMask, wordsFor, type CodeSet } from '../../src/lsh/codes.js';

// seedrandom's own generator: the stream every draw of makeRng must reproduce
const require = createRequire(import.meta.url);
const seedrandom = require('seedrandom') as typeof import('seedrandom');

/** Random codes of `users` x `bits` (unused high bits 0). */
function codesOf(users: number, bits: number, seed: string): CodeSet {
  const rng = makeRng(seed);
  const words = wordsFor(bits);
  const codes = new Uint32Array(users * words);
  const mask = lastWordMask(bits);
  for (let i = 0; i < codes.length; i++) codes[i] = ((rng() * 4294967296) >>> 0) & (i % words === words - 1 ? mask : 0xffffffff);
  return { codes, bits, words };
}

/** The loops of flipBitsOnGrid and randomizeAll before the kernel, on any source. */
function flipsBefore(set: CodeSet, t: number, rng: Rng): void {
  const { codes, words, bits } = set;
  const mask = lastWordMask(bits);
  for (let i = 0; i < codes.length / words; i++) {
    for (let w = 0; w < words; w++) codes[i * words + w] ^= bernoulliWord(t, rng) & (w === words - 1 ? mask : 0xffffffff);
  }
}
function randomizeBefore(set: CodeSet, rng: Rng): void {
  const { codes, words, bits } = set;
  const mask = lastWordMask(bits);
  for (let i = 0; i < codes.length / words; i++) {
    for (let w = 0; w < words - 1; w++) codes[i * words + w] = (rng() * 4294967296) >>> 0;
    codes[i * words + words - 1] = (((rng() * 4294967296) >>> 0) & mask) >>> 0;
  }
}

const BITS = [1, 10, 20, 31, 32, 33, 50, 64, 70];
// on the 2^-32 grid: the smallest, powers of two (the level loop stops early), odd, near 1/2
const TS = [1, 2 ** 20, 2 ** 29, 2 ** 30, 123456789, 2 ** 31 - 1, 3 * 2 ** 28 + 5];

describe('makeRng', () => {
  it("draws seedrandom xor4096's doubles", () => {
    for (const seed of ['s', 'seed-1', 'x'.repeat(300), '0123456789abcdef0123456789abcdef']) {
      const ours = makeRng(seed);
      const theirs = seedrandom.xor4096(seed);
      const a = Float64Array.from({ length: 20_000 }, ours);
      const b = Float64Array.from({ length: 20_000 }, () => theirs());
      expect(a.every((x, k) => x === b[k])).toBe(true);
      expect(rngWordState(ours)).toHaveLength(130);
    }
    expect(rngWordState(seedrandom.xor4096('s'))).toBeUndefined();
  });
});

function checkFlips(): void {
  for (const bits of BITS) {
    for (const t of TS) {
      const seed = `flip-${bits}-${t}`;
      const a = codesOf(37, bits, seed);
      const b = codesOf(37, bits, seed);
      const ours = makeRng(`noise-${seed}`);
      const theirs = seedrandom.xor4096(`noise-${seed}`);
      flipBitsOnGrid(a, t / 2 ** 32, ours);
      flipsBefore(b, t, theirs);
      expect(Array.from(a.codes), `${bits} bits, t ${t}`).toEqual(Array.from(b.codes));
      // the generator goes on from where the flips left it
      expect(Array.from({ length: 300 }, ours)).toEqual(Array.from({ length: 300 }, () => theirs()));
    }
    const a = codesOf(41, bits, `all-${bits}`);
    const b = codesOf(41, bits, `all-${bits}`);
    const ours = makeRng(`rand-${bits}`);
    const theirs = seedrandom.xor4096(`rand-${bits}`);
    randomizeAll(a, ours);
    randomizeBefore(b, theirs);
    expect(Array.from(a.codes), `${bits} bits randomized`).toEqual(Array.from(b.codes));
    expect(Array.from({ length: 300 }, ours)).toEqual(Array.from({ length: 300 }, () => theirs()));
    // p = 1/2 goes through randomizeAll
    const c = codesOf(5, bits, `half-${bits}`);
    const d = codesOf(5, bits, `half-${bits}`);
    flipBitsOnGrid(c, 0.5, makeRng(`half-${bits}`));
    randomizeBefore(d, seedrandom.xor4096(`half-${bits}`));
    expect(Array.from(c.codes)).toEqual(Array.from(d.codes));
  }
}

describe('the randomized response on the generator state', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  it('flips and randomizes as the loops before it, with the kernel', async () => {
    const kernel = await import('../../src/kernels/instance.js');
    expect(kernel.hammingKernelName()).toBe('wasm-simd');
    checkFlips();
  });

  it('and without it (LSHDP_KERNEL=js)', async () => {
    vi.stubEnv('LSHDP_KERNEL', 'js');
    vi.resetModules();
    const kernel = await import('../../src/kernels/instance.js');
    expect(kernel.hammingKernelName()).toBe('js');
    const flips = await import('../../src/mechanisms/flips.js');
    const rng = await import('../../src/random/rng.js');
    const a = codesOf(37, 50, 'js-path');
    const b = codesOf(37, 50, 'js-path');
    flips.flipBitsOnGrid(a, 123456789 / 2 ** 32, rng.makeRng('js-noise'));
    flipsBefore(b, 123456789, seedrandom.xor4096('js-noise'));
    expect(Array.from(a.codes)).toEqual(Array.from(b.codes));
  });
});
