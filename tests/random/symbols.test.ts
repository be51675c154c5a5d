import { describe, expect, it } from 'vitest';
import { makeRng, type Rng, uniformWord } from '../../src/random/rng.js';
import { randomizeSymbols, symbolGrid } from '../../src/random/symbols.js';
import { realizedOtherCount } from '../../src/privacy/bucketRr.js';
import { chiSquareCritical, pearson } from '../lsh/stats.js';

/** Standard errors a Monte Carlo estimate may stray at a fixed seed (two-sided ≈ 6e-5 per check). */
const Z = 4;
const within = (observed: number, expected: number, se: number, tag: string) => expect(Math.abs(observed - expected), `${tag}: ${observed} vs ${expected} ± ${Z}×${se}`).toBeLessThanOrEqual(Z * se);

/** A source replaying the given 32-bit words (as U = k/2^32), failing when asked for more. */
function scripted(words: number[]): Rng & { used: () => number } {
  let i = 0;
  const f = (() => {
    if (i >= words.length) throw new Error('scripted source exhausted');
    return words[i++]! / 4294967296;
  }) as Rng & { used: () => number };
  f.used = () => i;
  return f;
}

describe('the uniform source of the samplers', () => {
  it("makeRng draws on the 2^-32 grid, so uniformWord is the generator's word exactly", () => {
    const rng = makeRng('grid');
    for (let i = 0; i < 100_000; i++) {
      const u = rng() * 4294967296;
      expect(Number.isInteger(u) && u >= 0 && u < 4294967296).toBe(true);
    }
    const a = makeRng('word');
    const b = makeRng('word');
    for (let i = 0; i < 1000; i++) expect(uniformWord(a)).toBe(b() * 4294967296);
  });
});

describe('b-ary randomized response (randomizeSymbols)', () => {
  const N = 200_000;
  for (const b of [2, 4, 16, 256]) {
    for (const eps of [0.5, 3]) {
      it(`b = ${b}, eps = ${eps}: keep rate, the other symbols uniform, offset moments, both directions`, () => {
        const m = symbolGrid(b);
        const other = realizedOtherCount(eps, b);
        const r = other / m; // exact law of the sampler
        const q = 1 - (b - 1) * r;
        // moments of the offset k = (out − in) mod b: P(0) = q, P(k) = r for k = 1..b−1
        let m1 = 0;
        let m2 = 0;
        let m4 = 0;
        for (let k = 1; k < b; k++) {
          m1 += r * k;
          m2 += r * k * k;
          m4 += r * k ** 4;
        }
        // a → c and c → a: two symbols far apart, each read as the input of N draws
        const [a, c] = [0, b - 1];
        const rng = makeRng(`symbols-${b}-${eps}`);
        for (const [from, to] of [
          [a, c],
          [c, a],
        ] as const) {
          const tag = `b=${b} eps=${eps} ${from}→${to}`;
          const out = randomizeSymbols(new Uint8Array(N).fill(from), b, other, rng);
          const counts = new Float64Array(b);
          let s1 = 0;
          let s2 = 0;
          for (const y of out) {
            counts[y]++;
            const k = (y - from + b) % b;
            s1 += k;
            s2 += k * k;
          }
          within(counts[from]! / N, q, Math.sqrt((q * (1 - q)) / N), `${tag} keep`);
          within(counts[to]! / N, r, Math.sqrt((r * (1 - r)) / N), `${tag} to the other symbol`);
          within(s1 / N, m1, Math.sqrt((m2 - m1 * m1) / N), `${tag} mean offset`);
          within(s2 / N, m2, Math.sqrt((m4 - m2 * m2) / N), `${tag} second moment of the offset`);
          if (b > 2) {
            // the b − 1 other symbols are equally likely (Pearson over them, df b − 2)
            const others = Array.from(counts).filter((_, y) => y !== from);
            const total = others.reduce((x, y) => x + y, 0);
            const stat = pearson(others, new Array(b - 1).fill(total / (b - 1)));
            expect(stat, `${tag} chi-square`).toBeLessThan(chiSquareCritical(b - 2, Z));
          }
        }
      });
    }
  }

  it('eps = 0 is the uniform law for b not a power of 2 too (b = 3, 5), whatever the input', () => {
    for (const b of [3, 5]) {
      const other = realizedOtherCount(0, b);
      expect(other * b).toBe(symbolGrid(b));
      const rng = makeRng(`uniform-${b}`);
      for (const from of [0, b - 1]) {
        const out = randomizeSymbols(new Uint8Array(60_000).fill(from), b, other, rng);
        const counts = new Array(b).fill(0);
        for (const y of out) counts[y]++;
        expect(pearson(counts, new Array(b).fill(60_000 / b)), `b=${b} from ${from}`).toBeLessThan(chiSquareCritical(b - 1, Z));
      }
    }
  });

  it('draws one word per symbol in array order, rejects words >= M, maps w < (b − 1)R to offset 1 + floor(w/R)', () => {
    const b = 3;
    const m = symbolGrid(b); // 2^32 − 1: the word 2^32 − 1 is rejected
    expect(m).toBe(4294967295);
    const other = 1000;
    const rng = scripted([4294967295, 0, 1999, 2000, 4294967295, 4294967295, 999]);
    const out = randomizeSymbols(Uint8Array.of(2, 0, 1, 1), b, other, rng);
    // 2: rejected, then 0 → offset 1 → 0; 0: 1999 → offset 2 → 2; 1: 2000 = (b − 1)R → kept;
    // 1: two rejections, then 999 → offset 1 → 2
    expect([...out]).toEqual([0, 2, 1, 2]);
    expect(rng.used()).toBe(7);
  });

  it('other = 0 copies without a draw; deterministic in the seed; inputs checked', () => {
    const input = Uint8Array.of(0, 3, 2, 1);
    const none = scripted([]);
    const copy = randomizeSymbols(input, 4, 0, none);
    expect([...copy]).toEqual([...input]);
    expect(copy).not.toBe(input);
    const x = randomizeSymbols(new Uint8Array(1000).fill(2), 16, 12345678, makeRng('same'));
    const y = randomizeSymbols(new Uint8Array(1000).fill(2), 16, 12345678, makeRng('same'));
    expect(x).toEqual(y);
    expect(() => randomizeSymbols(Uint8Array.of(4), 4, 1, makeRng('x'))).toThrow(RangeError);
    expect(() => randomizeSymbols(Uint8Array.of(0), 4, 2 ** 30 + 1, makeRng('x'))).toThrow(RangeError);
    expect(() => randomizeSymbols(Uint8Array.of(0), 4, 1.5, makeRng('x'))).toThrow(RangeError);
    expect(() => symbolGrid(257)).toThrow(RangeError);
    expect(() => symbolGrid(1)).toThrow(RangeError);
  });
});
