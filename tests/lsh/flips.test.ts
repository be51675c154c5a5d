import { describe, expect, it } from 'vitest';
import { emptyCodes, getBit, lastWordMask } from '../../src/lsh/codes.js';
import { FAIR_MASK_ABOVE, flipBits } from '../../src/mechanisms/flips.js';
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
