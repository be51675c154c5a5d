import { describe, expect, it } from 'vitest';
import { hammingKnn, type HammingPath } from '../../src/lsh/hammingKnn.js';
import { emptyCodes, hammingDistance } from '../../src/lsh/codes.js';
import type { CodeSet } from '../../src/mechanisms/types.js';
import { makeRng } from '../../src/random/rng.js';
import { UserError } from '../../src/util/errors.js';
import { chiSquareCritical, homogeneity, pearson } from './stats.js';

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
  values.forEach((v, i) => (set.codes[i] = v >>> 0));
  return set;
}

/** The reference: distances of all other users, sorted; the k smallest. */
function bruteForceDistances(set: CodeSet, q: number, k: number): number[] {
  const d: number[] = [];
  for (let u = 0; u < codeCount(set); u++) if (u !== q) d.push(hammingDistance(set, q, u));
  return d.sort((a, b) => a - b).slice(0, k);
}
function codeCount(set: CodeSet): number {
  return set.codes.length / set.words;
}

const PATHS: HammingPath[] = ['scan', 'bucket'];

describe('hammingKnn', () => {
  it('returns exactly the brute-force neighbour distances, ascending, distinct, never the query', () => {
    for (const bits of [5, 12, 40, 70]) {
      const set = randomCodes(300, bits, `brute-${bits}`);
      // duplicate some codes (including the queries' own) so distance-0 ties occur
      for (let i = 0; i < 20; i++) set.codes.copyWithin((i + 100) * set.words, i * set.words, (i + 1) * set.words);
      const queries = Int32Array.from([0, 3, 7, 19, 150, 299]);
      const k = 12;
      for (const path of PATHS) {
        if (path === 'bucket' && bits > 16) continue;
        const out = hammingKnn(set, queries, k, makeRng(`t-${bits}-${path}`), { path });
        queries.forEach((q, qi) => {
          const row = Array.from(out.subarray(qi * k, (qi + 1) * k));
          expect(row).not.toContain(q);
          expect(new Set(row).size).toBe(k);
          const dist = row.map((u) => hammingDistance(set, q, u));
          expect(dist).toEqual(bruteForceDistances(set, q, k)); // same multiset, and ascending
        });
      }
    }
  });

  it('stays exact when the scan keeps many candidates (buffer compaction and growth)', () => {
    // far users first (the bound shrinks late, the buffer fills with soon-stale candidates), then
    // 3000 copies of the query's code (ties at distance 0 outgrow the initial buffer)
    const bits = 40;
    const set = randomCodes(6000, bits, 'many');
    for (let u = 3000; u < 6000; u++) set.codes.copyWithin(u * 2, 0, 2);
    const queries = Int32Array.from([0, 1, 4000]);
    const k = 15;
    const out = hammingKnn(set, queries, k, makeRng('many'), { path: 'scan' });
    queries.forEach((q, qi) => {
      const row = Array.from(out.subarray(qi * k, (qi + 1) * k));
      expect(row).not.toContain(q);
      expect(new Set(row).size).toBe(k);
      expect(row.map((u) => hammingDistance(set, q, u))).toEqual(bruteForceDistances(set, q, k));
    });
  });

  it('picks boundary ties uniformly and orders equal distances uniformly (both paths)', () => {
    // query 0 (code 0); users 1,2 at distance 1; users 3..8 at distance 2; the rest far away.
    // k = 4: users 1,2 in random order, then an ordered pair of distinct users from 3..8 (30 pairs).
    const values = [0b0, 0b1, 0b10, 0b11, 0b101, 0b1001, 0b110, 0b1010, 0b1100];
    for (let i = 0; i < 30; i++) values.push(0b11110000 | (i % 16));
    const set = codesFromInts(values, 8);
    const reps = 12_000;
    const queries = new Int32Array(reps); // the same query again and again: independent draws
    for (const path of PATHS) {
      const out = hammingKnn(set, queries, 4, makeRng(`uniform-${path}`), { path });
      const cells = new Float64Array(2 * 30);
      let malformed = 0;
      for (let r = 0; r < reps; r++) {
        const [a, b, c, d] = out.subarray(4 * r, 4 * r + 4);
        const ok = a + b === 3 && a !== b && c >= 3 && c <= 8 && d >= 3 && d <= 8 && c !== d;
        if (!ok) {
          malformed++;
          continue;
        }
        const pair = (c - 3) * 5 + (d < c ? d - 3 : d - 4); // ordered pair index 0..29
        cells[(a === 1 ? 0 : 30) + pair]++;
      }
      expect(malformed).toBe(0);
      const expected = new Float64Array(60).fill(reps / 60);
      expect(pearson(cells, expected)).toBeLessThan(chiSquareCritical(59));
    }
  });

  it('gives the scan and bucket paths the same distribution on random codes', () => {
    // 10-bit random codes, 600 users: for one query, how often each user lands in the 5-NN.
    const set = randomCodes(600, 10, 'paths');
    const reps = 4000;
    const q = 17;
    const counts = PATHS.map((path) => {
      const out = hammingKnn(set, new Int32Array(reps).fill(q), 5, makeRng(`paths-${path}`), { path });
      const c = new Float64Array(600);
      for (const u of out) c[u]++;
      return c;
    });
    // the boundary users are included with probability need/m, the closer ones always: a 2 x users
    // table of inclusion counts; each sample is need-of-m without replacement, whose counts vary
    // less than multinomial ones, so the chi-square bound is conservative.
    const { stat, df } = homogeneity(counts[0], counts[1]);
    expect(df).toBeGreaterThan(3); // there are boundary ties to choose from
    expect(stat).toBeLessThan(chiSquareCritical(df));
  });

  it('serves every k from one call: each prefix is a valid answer', () => {
    const set = randomCodes(200, 9, 'prefix');
    const out = hammingKnn(set, Int32Array.from([5, 6]), 10, makeRng('prefix'));
    for (let qi = 0; qi < 2; qi++) {
      const q = qi + 5;
      const row = Array.from(out.subarray(qi * 10, qi * 10 + 10));
      for (let k = 1; k <= 10; k++) {
        expect(row.slice(0, k).map((u) => hammingDistance(set, q, u))).toEqual(bruteForceDistances(set, q, k));
      }
    }
  });

  it('is deterministic for a seed and rejects an impossible k', () => {
    const set = randomCodes(50, 20, 'det');
    const qs = Int32Array.from([1, 2, 3]);
    expect(hammingKnn(set, qs, 5, makeRng('s'))).toEqual(hammingKnn(set, qs, 5, makeRng('s')));
    expect(hammingKnn(set, qs, 0, makeRng('s')).length).toBe(0);
    expect(() => hammingKnn(set, qs, 50, makeRng('s'))).toThrow(UserError);
    expect(() => hammingKnn(set, qs, 49, makeRng('s'))).not.toThrow();
  });
});
