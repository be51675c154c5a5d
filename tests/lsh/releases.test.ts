import { describe, expect, it } from 'vitest';
import { hammingKnn } from '../../src/lsh/hammingKnn.js';
import type { CodeSet } from '../../src/lsh/codes.js';
import { queryKeyBase } from '../../src/lsh/tieKey.js';
import {
  bitsOf,
  describeRelease,
  distancesTo,
  nearestByDistance,
  packSymbols,
  releaseKind,
  releaseKnn,
  releaseLength,
  releaseRows,
  sameShape,
  selectRows,
  symbolAt,
  symbolWidth,
  unpackSymbols,
  type RealSet,
  type SymbolSet,
} from '../../src/lsh/releases.js';
import { makeRng } from '../../src/random/rng.js';
import { UserError } from '../../src/util/errors.js';
import { bruteForceKnn } from '../helpers/releases.js';

function randomSymbols(users: number, positions: number, alphabet: number, seed: string): Uint8Array {
  const rng = makeRng(seed);
  return Uint8Array.from({ length: users * positions }, () => Math.floor(rng() * alphabet));
}

/** A real release with few distinct coordinates, so that distances tie often. */
function tiedReals(users: number, dims: number, seed: string): RealSet {
  const rng = makeRng(seed);
  return { kind: 'reals', dims, values: Float64Array.from({ length: users * dims }, () => Math.floor(rng() * 3) - 1) };
}

const bruteForce = bruteForceKnn;

const unequal = (s: Uint8Array, positions: number) => (a: number, b: number) => {
  let d = 0;
  for (let j = 0; j < positions; j++) if (s[a * positions + j] !== s[b * positions + j]) d++;
  return d;
};

const squared = (r: RealSet) => (a: number, b: number) => {
  let d = 0;
  for (let j = 0; j < r.dims; j++) d += (r.values[a * r.dims + j]! - r.values[b * r.dims + j]!) ** 2;
  return d;
};

describe('symbol releases', () => {
  it('pack at the smallest width of 1, 2, 4 or 8 bits and read back every symbol', () => {
    expect([2, 3, 4, 5, 16, 17, 256].map(symbolWidth)).toEqual([1, 2, 2, 4, 4, 8, 8]);
    expect(() => symbolWidth(1)).toThrow(RangeError);
    expect(() => symbolWidth(257)).toThrow(RangeError);
    for (const [alphabet, positions] of [
      [2, 70],
      [3, 17],
      [4, 33],
      [16, 9],
      [17, 5],
      [256, 13],
    ] as const) {
      const s = randomSymbols(7, positions, alphabet, `pack-${alphabet}`);
      const set = packSymbols(s, 7, positions, alphabet);
      expect(unpackSymbols(set)).toEqual(s);
      expect(symbolAt(set, 3, positions - 1)).toBe(s[3 * positions + positions - 1]);
      expect(set.words).toBe(Math.ceil((positions * set.width) / 32));
      expect(releaseRows(set)).toBe(7);
      expect(releaseLength(set)).toBe(positions);
      expect(releaseKind(set)).toBe('symbols');
    }
    expect(() => packSymbols(Uint8Array.of(0, 4), 1, 2, 4)).toThrow(/not below/);
  });

  it('count unequal positions, whatever the width and across words', () => {
    for (const alphabet of [2, 3, 4, 7, 16, 100, 256]) {
      const positions = 41;
      const s = randomSymbols(30, positions, alphabet, `dist-${alphabet}`);
      // symbols that differ in one bit only, or only in a symbol's high bit: the fold must see them
      s[0] = alphabet - 1;
      s[positions] = alphabet - 1 - (alphabet > 2 ? 1 : 0);
      const set = packSymbols(s, 30, positions, alphabet);
      const out = new Float64Array(30);
      const d = unequal(s, positions);
      for (const q of [0, 1, 17]) {
        distancesTo(set, set, q, out);
        expect(Array.from(out)).toEqual(Array.from({ length: 30 }, (_, u) => d(q, u)));
      }
    }
  });

  it('give the neighbours of the brute force, ties by the tie key', () => {
    for (const alphabet of [3, 4, 16, 256]) {
      const s = randomSymbols(120, 6, alphabet, `knn-${alphabet}`);
      const set = packSymbols(s, 120, 6, alphabet);
      const queries = Int32Array.of(0, 5, 77, 119);
      expect(releaseKnn(set, queries, 9, 12345)).toEqual(bruteForce(120, unequal(s, 6), queries, 9, 12345));
    }
  });

  it('of two letters give the very neighbours of the same bits (one tie rule)', () => {
    const s = randomSymbols(300, 12, 2, 'two-letters');
    const set = packSymbols(s, 300, 12, 2);
    // width 1: the packed words are laid out as a bit code's
    const bits: CodeSet = { codes: set.packed, bits: 12, words: set.words };
    const queries = Int32Array.from({ length: 300 }, (_, i) => i);
    expect(releaseKnn(set, queries, 10, 7)).toEqual(hammingKnn(bits, queries, 10, 7));
  });
});

describe('real releases', () => {
  it('rank by the squared Euclidean distance, ties by the tie key (brute force)', () => {
    const r = tiedReals(150, 3, 'reals');
    const queries = Int32Array.of(0, 1, 64, 149);
    const got = releaseKnn(r, queries, 12, 99);
    expect(got).toEqual(bruteForce(150, squared(r), queries, 12, 99));
    // ties are common here: the test checks the tie rule, not only the distances
    const out = new Float64Array(150);
    distancesTo(r, r, 0, out);
    expect(new Set(out).size).toBeLessThan(30);
  });

  it('with distinct doubles are ranked by distance alone', () => {
    const rng = makeRng('distinct');
    const r: RealSet = { kind: 'reals', dims: 5, values: Float64Array.from({ length: 200 * 5 }, () => rng() - 0.5) };
    const queries = Int32Array.of(3);
    const got = releaseKnn(r, queries, 20, 1);
    const d = squared(r);
    const byDistance = Array.from({ length: 200 }, (_, u) => u)
      .filter((u) => u !== 3)
      .sort((a, b) => d(3, a) - d(3, b))
      .slice(0, 20);
    expect(Array.from(got)).toEqual(byDistance);
  });
});

describe('release sets', () => {
  it('sends bits to the Hamming k-NN', () => {
    const rng = makeRng('bits');
    const bits: CodeSet = { codes: Uint32Array.from({ length: 80 }, () => Math.floor(rng() * 2 ** 20)), bits: 20, words: 1 };
    const queries = Int32Array.of(0, 9);
    expect(releaseKnn(bits, queries, 5, 3)).toEqual(hammingKnn(bits, queries, 5, 3));
    expect(releaseKind(bits)).toBe('bits');
    expect(bitsOf(bits)).toBe(bits);
  });

  it('select rows, compare shapes and name themselves', () => {
    const s = packSymbols(randomSymbols(5, 4, 4, 'rows'), 5, 4, 4);
    const sub = selectRows(s, Int32Array.of(4, 0)) as SymbolSet;
    expect(Array.from(unpackSymbols(sub))).toEqual([...Array.from(unpackSymbols(s).subarray(16, 20)), ...Array.from(unpackSymbols(s).subarray(0, 4))]);
    const r = tiedReals(4, 2, 'rows');
    expect(Array.from((selectRows(r, Int32Array.of(2)) as RealSet).values)).toEqual(Array.from(r.values.subarray(4, 6)));
    expect(sameShape(s, sub)).toBe(true);
    expect(sameShape(s, r)).toBe(false);
    expect(sameShape(r, tiedReals(3, 3, 'x'))).toBe(false);
    expect(describeRelease(s)).toBe('4 symbols of 4');
    expect(describeRelease(r)).toBe('2 reals');
    expect(() => bitsOf(r)).toThrow(/expected bit codes, got 2 reals/);
    expect(() => distancesTo(s, r, 0, new Float64Array(5))).toThrow(/cannot compare/);
  });

  it('refuse a k the rows cannot give, as the Hamming k-NN does', () => {
    const r = tiedReals(4, 2, 'few');
    expect(() => releaseKnn(r, Int32Array.of(0), 4, 1)).toThrow(UserError);
    expect(releaseKnn(r, Int32Array.of(0), 0, 1)).toEqual(new Int32Array(0));
  });

  it('nearestByDistance keeps every candidate when no row is skipped', () => {
    const dist = Float64Array.of(2, 1, 1, 0);
    const out = new Int32Array(4);
    nearestByDistance(dist, 4, 4, -1, queryKeyBase(5, 0), out, 0);
    expect(out[0]).toBe(3);
    expect(out[3]).toBe(0);
    expect(new Set(out.subarray(1, 3))).toEqual(new Set([1, 2]));
  });
});
