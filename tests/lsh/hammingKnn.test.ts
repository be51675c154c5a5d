import { describe, expect, it } from 'vitest';
import { hammingKnn, type HammingOptions } from '../../src/lsh/hammingKnn.js';
import { hammingKernelName } from '../../src/kernels/instance.js';
import { WASM_MAX_BITS } from '../../src/kernels/knn.js';
import { emptyCodes, hammingDistance } from '../../src/lsh/codes.js';
import { queryKeyBase, tieKey } from '../../src/lsh/tieKey.js';
import type { CodeSet } from '../../src/lsh/codes.js';
import { makeRng } from '../../src/random/rng.js';
import { UserError } from '../../src/util/errors.js';
import { chiSquareCritical, pearson } from './stats.js';

function randomCodes(users: number, bits: number, seed: string): CodeSet {
  const rng = makeRng(seed);
  const set = emptyCodes(users, bits);
  for (let i = 0; i < users; i++) {
    for (let j = 0; j < bits; j++) if (rng() < 0.5) set.codes[i * set.words + (j >>> 5)] |= 1 << (j & 31);
  }
  return set;
}

function codesFromInts(values: number[], bits: number): CodeSet {
  const set = emptyCodes(values.length, bits);
  values.forEach((v, i) => {
    set.codes[i] = v >>> 0;
  });
  return set;
}

function codeCount(set: CodeSet): number {
  return set.codes.length / set.words;
}

/** The contract, written independently of the kernels: every other user sorted by (distance, tie key). */
function bruteForce(set: CodeSet, queries: Int32Array, k: number, seed: number): Int32Array {
  const out = new Int32Array(queries.length * k);
  queries.forEach((q, qi) => {
    const base = queryKeyBase(seed, q);
    const others: { u: number; d: number; key: number }[] = [];
    for (let u = 0; u < codeCount(set); u++) if (u !== q) others.push({ u, d: hammingDistance(set, q, u), key: tieKey(base, u) });
    others.sort((a, b) => a.d - b.d || a.key - b.key);
    out.set(
      others.slice(0, k).map((o) => o.u),
      qi * k,
    );
  });
  return out;
}

/** Every (path, kernel) combination that applies to codes of `bits` bits. */
function variants(bits: number): HammingOptions[] {
  const v: HammingOptions[] = [{}, { path: 'scan', kernel: 'js' }];
  if (bits <= 16) v.push({ path: 'bucket', kernel: 'js' });
  if (bits <= WASM_MAX_BITS && hammingKernelName() === 'wasm-simd') v.push({ path: 'scan', kernel: 'wasm' });
  // the bucket path's queries in the WebAssembly module (knn.wat knnBucket)
  if (bits <= 16 && hammingKernelName() === 'wasm-simd') v.push({ path: 'bucket', kernel: 'wasm' });
  return v;
}

/** Copies user i's code onto user `to` (distance-0 ties). */
function duplicate(set: CodeSet, from: number, to: number): void {
  set.codes.copyWithin(to * set.words, from * set.words, (from + 1) * set.words);
}

describe('hammingKnn', () => {
  it('equals the brute force (distance, tie key) order for every kappa 1..64 (and longer), on every path', () => {
    const bitsList = [...Array.from({ length: 64 }, (_, i) => i + 1), 65, 96, 130];
    for (const bits of bitsList) {
      const users = 61 + (bits % 7); // never a multiple of a lane width
      const set = randomCodes(users, bits, `brute-${bits}`);
      for (let i = 0; i < 8; i++) duplicate(set, i, users - 1 - i); // ties at distance 0, queries included
      const queries = Int32Array.from([0, 3, 7, users - 2, users - 1]);
      const k = 12;
      const seed = (bits * 2654435761) >>> 0;
      const expected = bruteForce(set, queries, k, seed);
      for (const opts of variants(bits)) {
        expect(hammingKnn(set, queries, k, seed, opts), `bits ${bits} ${JSON.stringify(opts)}`).toEqual(expected);
      }
    }
  });

  it('stays exact with thousands of equal distances (boundary far larger than k)', () => {
    // far users first (the bound shrinks late), then 3000 copies of user 0's code
    const bits = 40;
    const set = randomCodes(6003, bits, 'many');
    for (let u = 3000; u < 6003; u++) duplicate(set, 0, u);
    const queries = Int32Array.from([0, 1, 4000]);
    const expected = bruteForce(set, queries, 15, 99);
    for (const opts of variants(bits)) expect(hammingKnn(set, queries, 15, 99, opts)).toEqual(expected);
    const small = randomCodes(5003, 12, 'many-small'); // bucket path with heavy ties
    const q2 = Int32Array.from([2, 2500, 5002]);
    const expected2 = bruteForce(small, q2, 20, 7);
    for (const opts of variants(12)) expect(hammingKnn(small, q2, 20, 7, opts)).toEqual(expected2);
  });

  it('equals the brute force with every user a query (each pair once, pairs.wat), duplicates and near codes included', () => {
    for (const bits of [17, 20, 32, 33, 50, 64]) {
      const users = 600 + bits; // from 512 users on, 'auto' takes the pairs with every user a query
      const set = randomCodes(users, bits, `every-${bits}`);
      // near copies: users 40.. copy users 0..39 with one or two bits flipped, and exact duplicates
      for (let u = 40; u < 200; u++) {
        duplicate(set, u % 40, u);
        if (u % 3) set.codes[u * set.words] ^= 1 << (u % Math.min(bits, 32));
        if (u % 5 === 0) set.codes[u * set.words] ^= 1 << ((u + 7) % Math.min(bits, 32));
      }
      const queries = Int32Array.from({ length: users }, (_, i) => (i * 7) % users); // 7 is prime to every users here
      const expected = bruteForce(set, queries, 10, bits);
      expect(hammingKnn(set, queries, 10, bits)).toEqual(expected);
    }
  });

  it('serves every k from one call: the answer for k is the prefix of the answer for a larger k', () => {
    for (const bits of [9, 33, 64]) {
      const set = randomCodes(203, bits, `prefix-${bits}`);
      const queries = Int32Array.from([5, 6, 202]);
      for (const opts of variants(bits)) {
        const full = hammingKnn(set, queries, 10, 12345, opts);
        for (let k = 1; k < 10; k++) {
          const part = hammingKnn(set, queries, k, 12345, opts);
          queries.forEach((_, qi) => {
            expect(part.subarray(qi * k, (qi + 1) * k)).toEqual(full.subarray(qi * 10, qi * 10 + k));
          });
        }
      }
    }
  });

  it('picks boundary ties uniformly and orders equal distances uniformly (across seeds)', () => {
    // query 0 (code 0); users 1,2 at distance 1; users 3..8 at distance 2; the rest far away.
    // k = 4: users 1,2 in random order, then an ordered pair of distinct users from 3..8 (30 pairs).
    const values = [0b0, 0b1, 0b10, 0b11, 0b101, 0b1001, 0b110, 0b1010, 0b1100];
    for (let i = 0; i < 30; i++) values.push(0b11110000 | (i % 16));
    const set = codesFromInts(values, 8);
    const reps = 6000;
    const query = new Int32Array(1);
    for (const opts of variants(8)) {
      const cells = new Float64Array(2 * 30);
      let malformed = 0;
      for (let s = 0; s < reps; s++) {
        const [a, b, c, d] = hammingKnn(set, query, 4, (s * 0x9e3779b9) >>> 0, opts);
        const ok = a + b === 3 && a !== b && c >= 3 && c <= 8 && d >= 3 && d <= 8 && c !== d;
        if (!ok) {
          malformed++;
          continue;
        }
        const pair = (c - 3) * 5 + (d < c ? d - 3 : d - 4); // ordered pair index 0..29
        cells[(a === 1 ? 0 : 30) + pair]++;
      }
      expect(malformed).toBe(0);
      expect(pearson(cells, new Float64Array(60).fill(reps / 60))).toBeLessThan(chiSquareCritical(59));
    }
  });

  it('breaks ties uniformly for every query of one seed (across queries)', () => {
    // 10 users with one code: every other user is a tie. Cell (query, its first neighbour).
    const users = 10;
    const set = codesFromInts(new Array(users).fill(0b1011), 5);
    const queries = Int32Array.from({ length: users }, (_, q) => q);
    const reps = 400;
    const cells = new Float64Array(users * users);
    for (let s = 0; s < reps; s++) {
      const out = hammingKnn(set, queries, 1, s, { path: 'scan' });
      queries.forEach((q, qi) => {
        cells[q * users + out[qi]]++;
      });
    }
    const expected = new Float64Array(users * users);
    for (let q = 0; q < users; q++) for (let u = 0; u < users; u++) if (u !== q) expected[q * users + u] = reps / (users - 1);
    expect(pearson(cells, expected)).toBeLessThan(chiSquareCritical(users * (users - 2)));
  });

  it('is deterministic for a seed, depends on it, and rejects an impossible k or seed', () => {
    const set = randomCodes(50, 3, 'det'); // 3 bits: plenty of ties
    const qs = Int32Array.from([1, 2, 3]);
    expect(hammingKnn(set, qs, 5, 1)).toEqual(hammingKnn(set, qs, 5, 1));
    expect(hammingKnn(set, qs, 5, 1)).not.toEqual(hammingKnn(set, qs, 5, 2));
    expect(hammingKnn(set, qs, 0, 1).length).toBe(0);
    expect(() => hammingKnn(set, qs, 50, 1)).toThrow(UserError);
    expect(() => hammingKnn(set, qs, 49, 1)).not.toThrow();
    expect(() => hammingKnn(set, qs, 5, -1)).toThrow(RangeError);
    expect(() => hammingKnn(set, qs, 5, 2 ** 32)).toThrow(RangeError);
  });
});
