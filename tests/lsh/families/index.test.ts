import { describe, expect, it } from 'vitest';
import type { UserVectors } from '../../../src/data/types.js';
import { angularFamily, jaccardFamily, getFamily, itemSetVectors, minHashTables } from '../../../src/lsh/families/index.js';
import { hammingDistance, getBit, packSigns } from '../../../src/lsh/codes.js';
import { drawHyperplanes, projectAll } from '../../../src/lsh/hyperplanes.js';
import { deriveSeed, makeRng, type Rng } from '../../../src/random/rng.js';
import { jaccardKnn, jaccardDistance } from '../../../src/knn/jaccard.js';
import { evaluateAnswers } from '../../../src/experiment/utility.js';
import { UserError } from '../../../src/util/errors.js';

/** Rows of item sets as UserVectors (binary unit values). */
function setsAsVectors(sets: number[][], n: number): UserVectors {
  const rowPtr = new Int32Array(sets.length + 1);
  const cols: number[] = [];
  sets.forEach((s, i) => {
    cols.push(...[...new Set(s)].sort((a, b) => a - b));
    rowPtr[i + 1] = cols.length;
  });
  const v: UserVectors = {
    dataset: 'sets',
    n,
    userIds: sets.map((_, i) => String(i)),
    itemIds: Array.from({ length: n }, (_, j) => `i${j}`),
    rowPtr,
    colIdx: Int32Array.from(cols),
    values: new Float64Array(cols.length),
    dropped: 0,
  };
  return itemSetVectors(v);
}

function exactJaccard(a: number[], b: number[]): number {
  const A = new Set(a);
  const B = new Set(b);
  const inter = [...A].filter((x) => B.has(x)).length;
  return 1 - inter / (A.size + B.size - inter);
}

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

describe('1-bit MinHash (jaccard family)', () => {
  // [S, S'] pairs covering J = 1, 0, 1/3, 1/3 (subset), 1/19, 1/2
  const pairs: [number[], number[]][] = [
    [range(0, 10), range(0, 10)],
    [range(0, 5), range(5, 10)],
    [range(0, 10), range(5, 15)],
    [range(0, 4), range(0, 12)],
    [range(0, 10), range(9, 19)],
    [
      [0, 7, 20, 33, 41, 49],
      [0, 7, 20, 33],
    ].map((s) => s) as [number[], number[]],
  ];
  const n = 50;
  const kappa = 40_000;

  it('Pr[bits differ] = d_J / 2 for several set pairs (Monte Carlo, 4.5 SE)', () => {
    // One hashing of all the pairs' sets (rows 2t, 2t + 1): the tables, not the sets, are the cost.
    // Each pair's bits are still kappa independent draws at its own p; only the pairs now share them.
    const data = setsAsVectors(pairs.flat(), n);
    const { codes } = jaccardFamily.hash(data, kappa, deriveSeed('families-test', 'pairs'));
    pairs.forEach(([a, b], t) => {
      const differ = hammingDistance(codes, 2 * t, 2 * t + 1);
      const dJ = exactJaccard(a, b);
      const p = jaccardFamily.disagreement(dJ);
      expect(p).toBe(dJ / 2);
      const se = Math.sqrt((p * (1 - p)) / kappa);
      if (p === 0) expect(differ).toBe(0);
      else expect(Math.abs(differ / kappa - p)).toBeLessThan(4.5 * se);
    });
  });

  it('ranks are uniform on [0, 1) and coins fair (moments); distinct bits and seeds differ', () => {
    const t = minHashTables('moments', 200, 100);
    const N = t.rank.length;
    let s = 0;
    let s2 = 0;
    let ones = 0;
    for (let i = 0; i < N; i++) {
      s += t.rank[i]!;
      s2 += t.rank[i]! ** 2;
      ones += t.coin[i]!;
    }
    const mean = s / N;
    expect(Math.abs(mean - 0.5)).toBeLessThan(4.5 * Math.sqrt(1 / 12 / N));
    // Var(U^2) = 1/5 - 1/9
    expect(Math.abs(s2 / N - 1 / 3)).toBeLessThan(4.5 * Math.sqrt((1 / 5 - 1 / 9) / N));
    expect(Math.abs(ones / N - 0.5)).toBeLessThan(4.5 * Math.sqrt(0.25 / N));
    const u = minHashTables('moments', 200, 100);
    expect(u.rank).toEqual(t.rank); // deterministic in the seed
    const other = minHashTables('other', 200, 100);
    expect(other.rank[0]).not.toBe(t.rank[0]);
    expect(t.rank[0]).not.toBe(t.rank[100]); // bit 1, item 0
  });

  it('the argmin is uniform over the set (chi-square over 8 items, 1-bit coins ignored)', () => {
    const m = 8;
    const t = minHashTables('argmin', 16_000, m);
    const hits = new Array(m).fill(0);
    for (let j = 0; j < t.kappa; j++) {
      let best = 0;
      for (let c = 1; c < m; c++) if (t.rank[j * m + c]! < t.rank[j * m + best]!) best = c;
      hits[best]++;
    }
    const e = t.kappa / m;
    const chi2 = hits.reduce((s, h) => s + (h - e) ** 2 / e, 0);
    expect(chi2).toBeLessThan(24.32); // chi-square(7) upper 0.1% point
  });

  it("bit j of a one-item set is that item's coin", () => {
    const data = setsAsVectors([[3], [7]], 10);
    const t = minHashTables('single', 64, 10);
    const { codes } = jaccardFamily.hash(data, 64, 'single');
    for (let j = 0; j < 64; j++) {
      expect(getBit(codes, 0, j)).toBe(t.coin[j * 10 + 3]);
      expect(getBit(codes, 1, j)).toBe(t.coin[j * 10 + 7]);
    }
  });
});

/** Random item sets with many exact ties (small sets over few items, duplicates). */
function randomSets(rng: Rng, users: number, n: number): number[][] {
  const sets: number[][] = [];
  for (let u = 0; u < users; u++) {
    if (u > 0 && rng() < 0.1) {
      sets.push([...sets[Math.floor(rng() * u)]!]);
      continue;
    }
    const size = 1 + Math.floor(rng() * 5);
    const s = new Set<number>();
    while (s.size < size) s.add(Math.floor(rng() * n));
    sets.push([...s]);
  }
  return sets;
}

describe('exact Jaccard k-NN', () => {
  it('equals brute force (sort by distance, then user index), ties included', () => {
    const rng = makeRng('jaccard-knn');
    const sets = randomSets(rng, 300, 30);
    const data = setsAsVectors(sets, 30);
    const queries = Int32Array.from(range(0, 300));
    const k = 12;
    const got = jaccardKnn(data, queries, k);
    for (const q of queries) {
      const order = range(0, 300)
        .filter((u) => u !== q)
        .map((u) => ({ u, d: exactJaccard(sets[q]!, sets[u]!) }))
        .sort((a, b) => a.d - b.d || a.u - b.u)
        .slice(0, k);
      expect(Array.from(got.indices.subarray(q * k, q * k + k))).toEqual(order.map((o) => o.u));
      order.forEach((o, i) => {
        expect(got.distances[q * k + i]).toBeCloseTo(o.d, 14);
      });
    }
  });

  it('distance and the utility hook agree bit for bit: the exact answer has loss exactly 0', () => {
    const rng = makeRng('jaccard-utility');
    const sets = randomSets(rng, 120, 20);
    const data = setsAsVectors(sets, 20);
    const queries = Int32Array.from([0, 5, 17, 99, 119]);
    const truth = jaccardKnn(data, queries, 6);
    const to = jaccardFamily.distanceFrom(data);
    for (const q of queries) {
      const d = to(q);
      for (let u = 0; u < 120; u++) expect(d(u)).toBe(jaccardDistance(data, q, u));
    }
    const means = evaluateAnswers(data, queries, truth, truth.indices, truth.k, [1, 3, 6], jaccardFamily.distanceFrom(data));
    expect(Array.from(means.loss)).toEqual([0, 0, 0]);
    expect(Array.from(means.recall)).toEqual([1, 1, 1]);
    // a worse answer has a positive loss measured in Jaccard distance
    const reversed = Int32Array.from(Array.from(truth.indices).map((_, i) => truth.indices[Math.floor(i / 6) * 6 + 5 - (i % 6)]!));
    const worse = evaluateAnswers(data, queries, truth, reversed, 6, [1], jaccardFamily.distanceFrom(data));
    expect(worse.loss[0]).toBeGreaterThan(0);
  });

  it('users with disjoint sets are at distance exactly 1, smallest indices first', () => {
    const data = setsAsVectors([[0], [1], [2], [3], [0, 1]], 4);
    const r = jaccardKnn(data, Int32Array.from([2]), 3);
    expect(Array.from(r.indices)).toEqual([0, 1, 3]);
    expect(Array.from(r.distances)).toEqual([1, 1, 1]);
  });
});

describe('angular family', () => {
  it('hashes exactly as the experiment path (planes from the seed, sign of the projection)', () => {
    const sets = randomSets(makeRng('ang'), 50, 20);
    const data = setsAsVectors(sets, 20);
    const seed = deriveSeed(7, 'planes', 'sets', 20, 24, 0);
    const h = angularFamily.hash(data, 24, seed);
    const planes = drawHyperplanes(makeRng(seed), 24, 20);
    expect(h.planes).toEqual(planes);
    expect(h.codes).toEqual(packSigns(projectAll(data, planes, 24), 50, 24));
    expect(angularFamily.disagreement(0.3)).toBe(0.3);
  });

  it('Pr[bits differ] = angular distance (Monte Carlo, 4.5 SE)', () => {
    // two unit vectors at 60 degrees: d = 1/3
    const data: UserVectors = {
      dataset: 'two',
      n: 2,
      userIds: ['a', 'b'],
      itemIds: ['x', 'y'],
      rowPtr: Int32Array.from([0, 1, 3]),
      colIdx: Int32Array.from([0, 0, 1]),
      values: Float64Array.from([1, 0.5, Math.sqrt(3) / 2]),
      dropped: 0,
    };
    const kappa = 40_000;
    const { codes } = angularFamily.hash(data, kappa, 'angular-mc');
    const p = angularFamily.disagreement(angularFamily.distance(data, 0, 1));
    expect(p).toBeCloseTo(1 / 3, 12);
    expect(Math.abs(hammingDistance(codes, 0, 1) / kappa - p)).toBeLessThan(4.5 * Math.sqrt((p * (1 - p)) / kappa));
  });

  it('getFamily names the key and the known metrics on a typo', () => {
    expect(getFamily('jaccard')).toBe(jaccardFamily);
    expect(() => getFamily('cosine', 'CONFIG: metric')).toThrow(UserError);
    expect(() => getFamily('cosine', 'CONFIG: metric')).toThrow('CONFIG: metric: unknown metric "cosine" (known: angular, jaccard)');
  });
});
