import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RecommendData, UserVectors } from '../../../src/data/types.js';
import { recommendByK, recommendMeans, type RecommendKernel } from '../../../src/evaluations/recommend/lists.js';
import { exactKnn } from '../../../src/knn/angular.js';
import { makeRng } from '../../../src/random/rng.js';
import { bruteForce, dataOf, gridRows, meansBits, recOf, vectorsOf } from './fixtures.js';

/**
 * The recommendation scoring in the WebAssembly kernel (src/kernels/recommend.ts wasmRecommendSums,
 * recommend.wat recScore) against the JS loop of lists.ts and the brute force: the same doubles,
 * bit for bit, on the shapes that decide a list (ties, training columns, short lists, k = 0, N
 * beyond the candidates, the floor guessed from the query before).
 */

type Args = [UserVectors, RecommendData, Int32Array, Int32Array, number, number[], number[]];

/** Both kernels on the same arguments: their means bit for bit equal, and equal to the brute force. */
function checkBoth(args: Args, label: string, brute = true): void {
  const [vectors, rec, queries, answers, width, ks, top] = args;
  const run = (kernel: RecommendKernel) => recommendMeans(vectors, rec, queries, answers, width, ks, top, undefined, kernel);
  const wasm = run('wasm');
  expect(meansBits(wasm), label).toBe(meansBits(run('js')));
  expect(meansBits(run('auto')), label).toBe(meansBits(wasm));
  if (!brute) return;
  const got = recommendByK(wasm);
  for (const k of ks) for (const N of top) expect(got[String(k)][String(N)], `${label} k ${k} N ${N}`).toEqual(bruteForce(vectors, rec, queries, answers, width, k, N));
}

/** Random sparse rows on a grid of eighths (fixtures.ts gridRows) from seed `seed`. */
function gridData(seed: string, n: number, users: number, density: number, heldRate: number) {
  return gridRows(makeRng(seed), n, users, density, heldRate);
}

/**
 * MovieLens-shaped data: popular columns first (a rating's column drawn with weight 1/(1 + c/30)),
 * 20 to 200 ratings a user in half stars, centred on the user's mean (values that are not exact
 * in binary: real sums, rarely tied), one held-out column outside the training ones.
 */
function movieLensShaped(seed: string, n: number, users: number) {
  const rng = makeRng(seed);
  const weights = Array.from({ length: n }, (_, c) => 1 / (1 + c / 30));
  const total = weights.reduce((a, b) => a + b, 0);
  const draw = () => {
    let x = rng() * total;
    for (let c = 0; c < n; c++) {
      x -= weights[c];
      if (x < 0) return c;
    }
    return n - 1;
  };
  const rows: [number, number][][] = [];
  const train: number[][] = [];
  const held: number[][] = [];
  for (let u = 0; u < users; u++) {
    const count = 20 + Math.floor(rng() * 180);
    const cols = new Set<number>();
    for (let i = 0; i < count; i++) cols.add(draw());
    const sorted = [...cols].sort((a, b) => a - b);
    const ratings = sorted.map(() => 0.5 * (1 + Math.floor(rng() * 10)));
    const mean = ratings.reduce((a, b) => a + b, 0) / ratings.length;
    rows.push(sorted.map((c, i) => [c, ratings[i] - mean] as [number, number]));
    train.push(sorted);
    const free = Array.from({ length: n }, (_, c) => c).filter((c) => !cols.has(c));
    held.push(rng() < 0.8 && free.length > 0 ? [free[Math.floor(rng() * Math.min(free.length, 300))]] : []);
  }
  return dataOf(rng, n, rows, train, held);
}

describe('recommendation scoring in the WebAssembly kernel', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  it('equals the JS loop and the brute force on random data: ties, zero sums, repeated neighbours, the query itself', () => {
    for (const { n, users, density, width, ks, top } of [
      { n: 40, users: 50, density: 0.1, width: 8, ks: [0, 1, 4, 8], top: [1, 3, 20] },
      // n not a multiple of 4 (the padding after the scores), N above the candidates
      { n: 13, users: 30, density: 0.3, width: 5, ks: [1, 5], top: [2, 7, 40] },
      // most columns trained: lists shorter than N
      { n: 24, users: 40, density: 0.7, width: 6, ks: [1, 2, 6], top: [5, 10, 30] },
      { n: 201, users: 80, density: 0.05, width: 10, ks: [1, 5, 10], top: [10, 20] },
    ]) {
      const { rng, vectors, rec, queries, users: u } = gridData(`rec-kernel-${n}`, n, users, density, 0.2);
      const answers = new Int32Array(queries.length * width);
      for (let i = 0; i < answers.length; i++) answers[i] = rng() < 0.05 ? queries[Math.floor(i / width)] : Math.floor(rng() * u);
      checkBoth([vectors, rec, queries, answers, width, ks, top], `n ${n}`);
    }
  });

  it('equals them at k = 0 alone (the popularity order) and with no answer columns', () => {
    const { vectors, rec, queries } = gridData('rec-kernel-pop', 30, 40, 0.3, 0.2);
    checkBoth([vectors, rec, queries, new Int32Array(0), 0, [0], [1, 5, 40]], 'pop');
  });

  it('equals them on MovieLens-shaped data with exact and random neighbours (n 1000 and an odd n)', () => {
    for (const n of [1000, 333]) {
      const { rng, vectors, rec, queries, users } = movieLensShaped(`rec-kernel-ml-${n}`, n, 300);
      expect(queries.length).toBeGreaterThan(150);
      const width = 10;
      const exact = exactKnn(vectors, queries, width).indices;
      const random = Int32Array.from({ length: queries.length * width }, () => Math.floor(rng() * users));
      // the brute force on the exact neighbours at every (k, N); the kernels on both
      checkBoth([vectors, rec, queries, exact, width, [0, 1, 5, 10], [10, 20]], `n ${n} exact`);
      checkBoth([vectors, rec, queries, random, width, [1, 5, 10], [1, 10, 20, 50]], `n ${n} random`, false);
    }
  });

  it("lists from one neighbour's row: its positive columns, the zeros in column order, then (by a pass) the negative ones", () => {
    // query 0 trains column 0 and holds column 9; at k = 1 the scores are user 1's row: c5 1,
    // c2 = c8 0.5, then the zeros c3 (never rated), c4 (rated 0), c6, c9, then c1 -0.5, c7 -1
    const vectors = vectorsOf(10, [
      [[0, 1]],
      [
        [1, -0.5],
        [2, 0.5],
        [4, 0],
        [5, 1],
        [7, -1],
        [8, 0.5],
      ],
      [[3, 0.25]],
    ]);
    const rec = recOf([[0], [1, 2, 4, 5, 7, 8], [3]], [[9], [], []]);
    const args: Args = [vectors, rec, Int32Array.of(0), Int32Array.of(1, 2), 2, [1, 2], [1, 3, 6, 7, 9]];
    checkBoth(args, 'one row');
    const m = recommendByK(recommendMeans(...args, undefined, 'wasm'));
    // c9 is 7th at k = 1: a zero listed after c3, c4 and c6; at k = 2 c3 scores 0.25 (4th), c9 still 7th
    expect([m['1']['6'][2], m['1']['7'][2], m['2']['6'][2], m['2']['7'][2]]).toEqual([0, 1, 0, 1]);
  });

  it('leaves to the JS loop vectors whose rows are not in column order', () => {
    const vectors = vectorsOf(6, [
      [[0, 1]],
      [
        [3, 1],
        [1, 2],
      ],
    ]);
    const rec = recOf([[0], [1, 3]], [[2], []]);
    const args: Args = [vectors, rec, Int32Array.of(0), Int32Array.of(1), 1, [1], [2]];
    expect(meansBits(recommendMeans(...args))).toBe(meansBits(recommendMeans(...args, undefined, 'js')));
    expect(() => recommendMeans(...args, undefined, 'wasm')).toThrow(RangeError);
  });

  it('lists the same after a floor guessed too high: a query of high scores, then one of low scores', () => {
    // users 0-3 rate every column high, users 4-7 low; queries 8 and 9 take the first as neighbours,
    // query 10 the second: its pass above the floor of query 9 finds no column and runs again
    const n = 30;
    const high = Array.from({ length: n }, (_, c) => [c, 4 - c / 16] as [number, number]);
    const low = Array.from({ length: n }, (_, c) => [c, (c % 5) / 8 - 0.25] as [number, number]);
    const rows = [high, high, high, high, low, low, low, low, [], [], []];
    const vectors = vectorsOf(n, rows);
    const rec = recOf(
      rows.map((_, u) => (u >= 8 ? [u - 8] : [])),
      rows.map((_, u) => (u >= 8 ? [3, 20 + u - 8] : [])),
    );
    const queries = Int32Array.of(8, 9, 10, 8);
    const answers = Int32Array.of(0, 1, 2, 3, 1, 2, 3, 0, 4, 5, 6, 7, 5, 6, 7, 4);
    checkBoth([vectors, rec, queries, answers, 4, [1, 2, 4], [3, 10]], 'floor');
  });

  it('keeps the data of the call before only while they are the same arrays', () => {
    const a = gridData('rec-kernel-a', 40, 50, 0.2, 0.2);
    const b = gridData('rec-kernel-b', 40, 50, 0.2, 0.2);
    const answersOf = (d: typeof a) => Int32Array.from({ length: d.queries.length * 5 }, () => Math.floor(d.rng() * d.users));
    const aAnswers = answersOf(a);
    const bAnswers = answersOf(b);
    for (const [d, answers, label] of [
      [a, aAnswers, 'a'],
      [b, bAnswers, 'b'],
      [a, aAnswers, 'a again'],
      [a, answersOf(a), 'a, other answers'],
    ] as const) {
      checkBoth([d.vectors, d.rec, d.queries, answers, 5, [1, 5], [3, 10]], label, false);
    }
    // the same values in new arrays are copied again (never confused with the ones held)
    const copy = { ...a.vectors, values: a.vectors.values.map((v) => -v) };
    checkBoth([copy, a.rec, a.queries, aAnswers, 5, [1, 5], [3, 10]], 'negated copy');
  });

  it('leaves to the JS loop what it does not take: an answer out of range, a memo', () => {
    const { vectors, rec, queries } = gridData('rec-kernel-out', 20, 30, 0.3, 0.3);
    const answers = Int32Array.from({ length: queries.length * 2 }, (_, i) => (i === 3 ? -1 : i % 30));
    const js = recommendMeans(vectors, rec, queries, answers, 2, [1, 2], [3], undefined, 'js');
    expect(meansBits(recommendMeans(vectors, rec, queries, answers, 2, [1, 2], [3]))).toBe(meansBits(js));
    expect(() => recommendMeans(vectors, rec, queries, answers, 2, [1, 2], [3], undefined, 'wasm')).toThrow(RangeError);
    const fine = answers.map((v) => Math.max(v, 0));
    expect(() => recommendMeans(vectors, rec, queries, fine, 2, [1, 2], [3], new Map(), 'wasm')).toThrow(/memo/);
    expect(meansBits(recommendMeans(vectors, rec, queries, fine, 2, [1, 2], [3], new Map()))).toBe(meansBits(recommendMeans(vectors, rec, queries, fine, 2, [1, 2], [3])));
  });

  it('runs the JS loop when WebAssembly is switched off (the same means)', async () => {
    const { rng, vectors, rec, queries, users } = gridData('rec-kernel-off', 30, 40, 0.2, 0.2);
    const answers = Int32Array.from({ length: queries.length * 4 }, () => Math.floor(rng() * users));
    const expected = meansBits(recommendMeans(vectors, rec, queries, answers, 4, [1, 4], [2, 5], undefined, 'wasm'));
    vi.stubEnv('LSHDP_KERNEL', 'js');
    vi.resetModules();
    const fresh = await import('../../../src/evaluations/recommend/lists.js');
    expect(meansBits(fresh.recommendMeans(vectors, rec, queries, answers, 4, [1, 4], [2, 5]))).toBe(expected);
    expect(() => fresh.recommendMeans(vectors, rec, queries, answers, 4, [1, 4], [2, 5], undefined, 'wasm')).toThrow(RangeError);
  });
});
