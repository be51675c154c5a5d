import { describe, expect, it } from 'vitest';
import { emptyCodes, getBit, lastWordMask } from '../../src/lsh/codes.js';
import { bernoulliWord, FAIR_MASK_ABOVE, flipBits, flipBitsOnGrid } from '../../src/mechanisms/flips.js';
import { makeRng } from '../../src/random/rng.js';
import { binomialSe, transitionRates, Z } from './stats.js';

/** Bitwise RR near 1/2 (fair bits masked by geometric keeps, src/mechanisms/flips.ts). */
describe('flipBits with p in (FAIR_MASK_ABOVE, 1/2)', () => {
  it('flips 0→1 and 1→0 with probability p and leaves the unused high bits 0', () => {
    const users = 3000;
    const bits = 45; // two words, the second partly used
    const clean = emptyCodes(users, bits);
    const rng = makeRng('mask-pattern');
    for (let i = 0; i < users; i++) for (let j = 0; j < bits; j++) if (rng() < 0.5) clean.codes[i * 2 + (j >>> 5)] |= 1 << (j & 31);
    for (const p of [FAIR_MASK_ABOVE + 0.01, 0.45, 0.499]) {
      const noisy = { ...clean, codes: clean.codes.slice() };
      flipBits(noisy, p, makeRng(`mask-${p}`));
      const r = transitionRates(clean, noisy);
      expect(Math.abs(r.up - p), `0→1 at p = ${p}`).toBeLessThan(Z * binomialSe(p, r.zeros));
      expect(Math.abs(r.down - p), `1→0 at p = ${p}`).toBeLessThan(Z * binomialSe(p, r.ones));
      for (let i = 0; i < users; i++) expect(noisy.codes[i * 2 + 1] & ~lastWordMask(bits)).toBe(0);
    }
  });

  it('flips bits independently (neighbouring bits both flip with probability p²)', () => {
    const users = 4000;
    const bits = 20;
    const p = 0.42;
    const set = emptyCodes(users, bits);
    flipBits(set, p, makeRng('mask-pairs'));
    let both = 0;
    for (let i = 0; i < users; i++) for (let j = 0; j + 1 < bits; j++) both += getBit(set, i, j) & getBit(set, i, j + 1);
    const pairs = users * (bits - 1);
    // overlapping pairs share a bit: Var(sum) = pairs·p²(1−p²)·(1 + 2p/(1+p)) (up to edges)
    const inflation = Math.sqrt(1 + (2 * p) / (1 + p));
    expect(Math.abs(both / pairs - p * p)).toBeLessThan(Z * inflation * binomialSe(p * p, pairs));
  });
});

/** LSHRR's flips: exact Bernoulli(T/2^32) bits, 32 at a time (src/mechanisms/flips.ts). */
describe('flipBitsOnGrid', () => {
  it('flips 0→1 and 1→0 with probability p and leaves the unused high bits 0', () => {
    const users = 3000;
    const bits = 45;
    const clean = emptyCodes(users, bits);
    const rng = makeRng('grid-pattern');
    for (let i = 0; i < users; i++) for (let j = 0; j < bits; j++) if (rng() < 0.5) clean.codes[i * 2 + (j >>> 5)] |= 1 << (j & 31);
    for (const t of [1 << 20, 0.1 * 2 ** 32, 0.27 * 2 ** 32, 0.45 * 2 ** 32]) {
      const p = Math.ceil(t) / 2 ** 32;
      const noisy = { ...clean, codes: clean.codes.slice() };
      flipBitsOnGrid(noisy, p, makeRng(`grid-${p}`));
      const r = transitionRates(clean, noisy);
      expect(Math.abs(r.up - p), `0→1 at p = ${p}`).toBeLessThan(Z * binomialSe(p, r.zeros));
      expect(Math.abs(r.down - p), `1→0 at p = ${p}`).toBeLessThan(Z * binomialSe(p, r.ones));
      for (let i = 0; i < users; i++) expect(noisy.codes[i * 2 + 1] & ~lastWordMask(bits)).toBe(0);
    }
  });

  it('sets bit i of a word exactly when the 32-bit number spelt by column i of the words drawn is below t', () => {
    // column i of the successive words (top bit first) is k_i; bernoulliWord must return [k_i < t]
    const rng = makeRng('grid-columns');
    for (const t of [1, 12345, 0x40000000, 0x7fffffff, 0x12345678, 0x7ffe0000]) {
      const ks = Array.from({ length: 32 }, (_, i) => {
        if (i === 0) return t - 1;
        if (i === 1) return t;
        if (i === 2) return t + 1;
        if (i === 3) return 0;
        if (i === 4) return 0xffffffff;
        if (i === 5) return t ^ 1; // differs from t in the lowest bit only
        return (rng() * 4294967296) >>> 0;
      });
      const words = Array.from({ length: 32 }, (_, l) => ks.reduce((w, k, i) => (w | (((k >>> (31 - l)) & 1) << i)) >>> 0, 0));
      let next = 0;
      const got = bernoulliWord(t, () => words[next++] / 4294967296);
      expect(next, `t=${t}: at most 32 words`).toBeLessThanOrEqual(32);
      for (let i = 0; i < 32; i++) expect((got >>> i) & 1, `t=${t} column ${i} k=${ks[i]}`).toBe(ks[i] < t ? 1 : 0);
    }
  });

  it('draws about log2(32) + 1.3 words per 32 bits', () => {
    let calls = 0;
    const rng = makeRng('grid-cost');
    const counting = () => {
      calls++;
      return rng();
    };
    const n = 20000;
    for (let i = 0; i < n; i++) bernoulliWord(0x1234567, counting);
    // E[max of 32 Geometric(1/2) levels] = 6.3 (capped by t's lowest set bit, here 0)
    expect(calls / n).toBeGreaterThan(5.5);
    expect(calls / n).toBeLessThan(7);
  });

  it('flips neighbouring bits independently (both flip with probability p²)', () => {
    const users = 4000;
    const bits = 20;
    const p = Math.ceil(0.2 * 2 ** 32) / 2 ** 32;
    const set = emptyCodes(users, bits);
    flipBitsOnGrid(set, p, makeRng('grid-pairs'));
    let both = 0;
    for (let i = 0; i < users; i++) for (let j = 0; j + 1 < bits; j++) both += getBit(set, i, j) & getBit(set, i, j + 1);
    const pairs = users * (bits - 1);
    const inflation = Math.sqrt(1 + (2 * p) / (1 + p));
    expect(Math.abs(both / pairs - p * p)).toBeLessThan(Z * inflation * binomialSe(p * p, pairs));
  });

  it('draws nothing at p = 0, fair words at p = 1/2, and rejects a probability off the grid or above 1/2', () => {
    const set = emptyCodes(10, 40);
    let calls = 0;
    flipBitsOnGrid(set, 0, () => {
      calls++;
      return 0;
    });
    expect(calls).toBe(0);
    flipBitsOnGrid(set, 0.5, makeRng('grid-half'));
    expect(set.codes.some((w) => w !== 0)).toBe(true);
    for (let i = 0; i < 10; i++) expect(set.codes[i * 2 + 1] & ~lastWordMask(40)).toBe(0);
    expect(() => flipBitsOnGrid(set, 0.1, makeRng('x'))).toThrow(/multiple of 2\^-32/);
    expect(() => flipBitsOnGrid(set, 0.75, makeRng('x'))).toThrow(RangeError);
    expect(() => flipBitsOnGrid(set, -0, makeRng('x'))).not.toThrow();
  });
});
