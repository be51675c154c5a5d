/**
 * Attribute inference (src/evaluations/infer/inference.ts) against independent references: the
 * metrics by hand on a constructed case with ties at every level of the ranking, auc and prec10
 * against their pairwise definitions on random cases (a brute force that sorts the whole ranking),
 * a target whose twin is in the auxiliary group recovering its own set at k = 1 from a clean code,
 * the prior against a direct count, and the draws (permutation, nested groups, target sample).
 */
import { describe, expect, it } from 'vitest';
import { auxSize, inferGroups, inferMeans, inferPermutation, nearestInGroup, popularity, priorMeans, priorOrder, type ItemSets } from '../../../src/evaluations/infer/inference.js';
import type { CodeSet } from '../../../src/lsh/codes.js';
import type { RealSet } from '../../../src/lsh/releases.js';
import { makeRng } from '../../../src/random/rng.js';
import { queryKeyBase, tieKey } from '../../../src/lsh/tieKey.js';

/** Item sets from lists of columns (each sorted here). */
function setsOf(rows: number[][], n: number): ItemSets {
  const rowPtr = new Int32Array(rows.length + 1);
  const cols: number[] = [];
  rows.forEach((r, u) => {
    cols.push(...[...r].sort((a, b) => a - b));
    rowPtr[u + 1] = cols.length;
  });
  return { rowPtr, colIdx: Int32Array.from(cols), n };
}

/** One-word codes from numbers. */
const codesOf = (values: number[], bits = 8): CodeSet => ({ codes: Uint32Array.from(values), bits, words: 1 });

/** The pairwise definitions, by brute force: the full ranking sorted by (score desc, popularity desc, column asc). */
function bruteForce(sets: ItemSets, neighbours: number[], aux: number[], target: number): { auc: number; prec10: number } | null {
  const row = (u: number) => Array.from(sets.colIdx.subarray(sets.rowPtr[u]!, sets.rowPtr[u + 1]!));
  const S = new Set(row(target));
  if (S.size === 0 || S.size === sets.n) return null;
  const score = (c: number) => neighbours.filter((v) => row(v).includes(c)).length;
  const pop = (c: number) => aux.filter((a) => row(a).includes(c)).length;
  const ranking = [...Array(sets.n).keys()].sort((a, b) => score(b) - score(a) || pop(b) - pop(a) || a - b);
  const place = new Map(ranking.map((c, r) => [c, r]));
  let right = 0;
  let pairs = 0;
  for (const i of S)
    for (let j = 0; j < sets.n; j++)
      if (!S.has(j)) {
        pairs++;
        if (place.get(i)! < place.get(j)!) right++;
      }
  const top = ranking.slice(0, 10).filter((c) => S.has(c)).length;
  return { auc: right / pairs, prec10: top / Math.min(10, S.size) };
}

describe('attribute inference: the metrics', () => {
  it('by hand, with ties in score, in popularity and in column', () => {
    // 6 items; aux users 1, 2, 3; target 0 holds {1, 4}
    const sets = setsOf([[1, 4], [0, 1], [0, 2], [2, 5], [4]], 6);
    // popularity in {1, 2, 3}: item 0: 2, item 1: 1, item 2: 2, item 5: 1, items 3, 4: 0 → prior 0, 2, 1, 5, 3, 4
    expect(Array.from(priorOrder(popularity(sets, Int32Array.of(1, 2, 3))))).toEqual([0, 2, 1, 5, 3, 4]);
    // the target's released code equals aux 1's and aux 2's clean code, aux 3 is far: k = 2 takes {1, 2}
    const released = codesOf([0b0000, 0, 0, 0, 0]);
    const clean = codesOf([0, 0b0000, 0b0000, 0b1111, 0]);
    const got = inferMeans({ sets, released, clean, aux: Int32Array.of(1, 2, 3), targets: Int32Array.of(0), k: 2, tieSeed: 7 });
    // scores: item 0: 2; items 1, 2: 1 (item 2 before item 1: both popularity... 2 > 1); the rest 0 in prior order: 5, 3, 4
    // ranking 0, 2, 1, 5, 3, 4; S = {1, 4}: item 1 beats 5 and 3 (2 of 4 outside), item 4 beats none: auc = 2/8
    expect(got).toEqual({ auc: 2 / 8, prec10: 2 / 2, targets: 1 });
    expect(bruteForce(sets, [1, 2], [1, 2, 3], 0)).toEqual({ auc: 2 / 8, prec10: 1 });
  });

  it('equal the pairwise definitions on random cases (4 sizes, rankings shorter and longer than 10 from the votes)', () => {
    const rng = makeRng('infer-brute');
    for (const n of [5, 12, 30, 80]) {
      const users = 25;
      const rows = Array.from({ length: users }, () => [...Array(n).keys()].filter(() => rng() < 0.3));
      const sets = setsOf(rows, n);
      const perm = inferPermutation(users, 3, 'x', n, 0);
      const { aux, targets } = inferGroups(perm, 0.5, 1000, { runSeed: 3, dataset: 'x', n, trial: 0 });
      const released = codesOf(Array.from({ length: users }, () => Math.floor(rng() * 256)));
      const clean = codesOf(Array.from({ length: users }, () => Math.floor(rng() * 256)));
      for (const k of [1, 3, 6]) {
        let auc = 0;
        let prec = 0;
        let counted = 0;
        for (const [i, t] of targets.entries()) {
          const nb = Array.from(nearestInGroup(released, t, clean, aux, k, { seed: 9, query: aux.length + i }));
          const m = bruteForce(sets, nb, Array.from(aux), t);
          if (!m) continue;
          auc += m.auc;
          prec += m.prec10;
          counted++;
        }
        const got = inferMeans({ sets, released, clean, aux, targets, k, tieSeed: 9 });
        expect(got.targets).toBe(counted);
        expect(got.auc).toBeCloseTo(auc / counted, 12);
        expect(got.prec10).toBeCloseTo(prec / counted, 12);
      }
    }
  });

  it('over releases of reals equal the pairwise definitions with neighbours by Euclidean distance, ties by the tie key', () => {
    const rng = makeRng('infer-reals');
    const n = 20;
    const users = 40;
    const sets = setsOf(
      Array.from({ length: users }, () => [...Array(n).keys()].filter(() => rng() < 0.3)),
      n,
    );
    const { aux, targets } = inferGroups(inferPermutation(users, 4, 'r', n, 0), 0.5, 1000, { runSeed: 4, dataset: 'r', n, trial: 0 });
    // two coordinates of three values: many ties
    const real = (): RealSet => ({ kind: 'reals', dims: 2, values: Float64Array.from({ length: users * 2 }, () => Math.floor(rng() * 3)) });
    const released = real();
    const clean = real();
    const k = 4;
    let auc = 0;
    let counted = 0;
    for (const [i, t] of targets.entries()) {
      const base = queryKeyBase(11, aux.length + i);
      const d = (g: number) => (clean.values[aux[g]! * 2]! - released.values[t * 2]!) ** 2 + (clean.values[aux[g]! * 2 + 1]! - released.values[t * 2 + 1]!) ** 2;
      const nb = [...aux.keys()].sort((x, y) => d(x) - d(y) || tieKey(base, x) - tieKey(base, y)).slice(0, k);
      const m = bruteForce(
        sets,
        nb.map((g) => aux[g]!),
        Array.from(aux),
        t,
      );
      if (!m) continue;
      auc += m.auc;
      counted++;
    }
    const got = inferMeans({ sets, released, clean, aux, targets, k, tieSeed: 11 });
    expect(got.targets).toBe(counted);
    expect(got.auc).toBeCloseTo(auc / counted, 12);
    expect(() => inferMeans({ sets, released, clean: codesOf([0]), aux, targets, k, tieSeed: 11 })).toThrow(/released 2 reals, the clean ones are 8-bit codes/);
  });

  it('a target whose twin is in the auxiliary group gets its own set at k = 1 from a clean code', () => {
    // user 0 and its twin 3 hold the same items and have the same clean code, unlike anyone else
    const sets = setsOf([[0, 2, 5], [1], [1, 3], [0, 2, 5], [4]], 8);
    const clean = codesOf([0b1010, 0b0001, 0b0011, 0b1010, 0b0100]);
    const got = inferMeans({ sets, released: clean, clean, aux: Int32Array.of(1, 2, 3, 4), targets: Int32Array.of(0), k: 1, tieSeed: 1 });
    expect(got).toEqual({ auc: 1, prec10: 1, targets: 1 });
  });

  it('skips targets with no item or every item, and counts only the others', () => {
    const sets = setsOf([[], [0, 1, 2], [0], [1]], 3);
    const codes = codesOf([0, 0, 0, 0]);
    expect(inferMeans({ sets, released: codes, clean: codes, aux: Int32Array.of(2, 3), targets: Int32Array.of(0, 1), k: 1, tieSeed: 1 }).targets).toBe(0);
    expect(priorMeans(sets, Int32Array.of(2, 3), Int32Array.of(0, 1, 2)).targets).toBe(1);
  });
});

describe('attribute inference: the neighbours and the prior', () => {
  it('the k nearest by Hamming distance, ties by the tie key of (seed, query place, candidate place)', () => {
    const released = codesOf([0b1111]);
    const clean = codesOf([0, 0b1110, 0b1101, 0b0000, 0b1111]);
    const group = Int32Array.of(1, 2, 3, 4);
    const got = Array.from(nearestInGroup(released, 0, clean, group, 3, { seed: 5, query: 4 }));
    expect(got[0]).toBe(4);
    // users 1 and 2 (group places 0 and 1) are both at distance 1: the smaller tie key first
    const base = queryKeyBase(5, 4);
    expect(got.slice(1)).toEqual(tieKey(base, 0) < tieKey(base, 1) ? [1, 2] : [2, 1]);
  });

  it('the prior is the popularity ranking alone, equal to a direct count', () => {
    const rng = makeRng('infer-prior');
    const n = 15;
    const rows = Array.from({ length: 40 }, () => [...Array(n).keys()].filter(() => rng() < 0.25));
    const sets = setsOf(rows, n);
    const aux = Int32Array.from([...Array(20).keys()]);
    const targets = Int32Array.from([...Array(20).keys()].map((i) => i + 20));
    const got = priorMeans(sets, aux, targets);
    let auc = 0;
    let counted = 0;
    for (const t of targets) {
      const m = bruteForce(sets, [], Array.from(aux), t);
      if (!m) continue;
      auc += m.auc;
      counted++;
    }
    expect(got.targets).toBe(counted);
    expect(got.auc).toBeCloseTo(auc / counted, 12);
  });
});

describe('attribute inference: the draws', () => {
  it('one permutation per trial; nested auxiliary groups; the rest the targets, sampled above the cap', () => {
    const perm = inferPermutation(50, 1, 'ml', 100, 2);
    expect([...perm].sort((a, b) => a - b)).toEqual([...Array(50).keys()]);
    expect(Array.from(inferPermutation(50, 1, 'ml', 100, 2))).toEqual(Array.from(perm));
    expect(Array.from(inferPermutation(50, 1, 'ml', 100, 3))).not.toEqual(Array.from(perm));
    const at = { runSeed: 1, dataset: 'ml', n: 100, trial: 2 };
    const small = inferGroups(perm, 0.25, 1000, at);
    const large = inferGroups(perm, 0.5, 1000, at);
    expect(auxSize(0.25, 50)).toBe(13);
    expect(small.aux.length).toBe(13);
    expect(Array.from(small.aux).every((u) => large.aux.includes(u))).toBe(true);
    expect(small.aux.length + small.targets.length).toBe(50);
    const capped = inferGroups(perm, 0.5, 10, at);
    expect(capped.targets.length).toBe(10);
    expect(Array.from(capped.targets).every((u) => large.targets.includes(u))).toBe(true);
  });

  it('the permutation is uniform: each user at each place about equally often (chi-square, 4,000 draws)', () => {
    const users = 5;
    const counts = Array.from({ length: users }, () => new Array<number>(users).fill(0));
    const draws = 4000;
    for (let t = 0; t < draws; t++) {
      inferPermutation(users, 'u', 'd', 1, t).forEach((u, place) => {
        counts[u]![place]!++;
      });
    }
    const expected = draws / users;
    const chi2 = counts.flat().reduce((s, c) => s + ((c - expected) * (c - expected)) / expected, 0);
    // 16 degrees of freedom ((5 − 1)²): the 0.999 quantile is 39.25
    expect(chi2).toBeLessThan(39.25);
  });
});
