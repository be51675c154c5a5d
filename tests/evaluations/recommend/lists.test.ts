import { describe, expect, it } from 'vitest';
import { holdsEvery, recommendBaselines, recommendByK, recommendMeans, recommendQueries, storedTop } from '../../../src/evaluations/recommend/lists.js';
import { makeRng } from '../../../src/random/rng.js';
import { bruteForce, g, gridRows, recOf, vectorsOf } from './fixtures.js';

describe('recommendation metrics by hand', () => {
  // 6 items; query user 0 trained on item 0 and holds items 2, 4, 5 (|H| = 3 > N = 2)
  const vectors = vectorsOf(6, [
    [[0, 1]],
    [
      [1, 0.5],
      [3, 0.5],
      [4, -0.5],
    ],
    [
      [2, 0.5],
      [3, -0.5],
    ],
  ]);
  const rec = recOf([[0], [1, 3, 4], [2, 3]], [[2, 4, 5], [], []]);
  const queries = Int32Array.of(0);
  const answers = Int32Array.of(1, 2);
  const m = recommendByK(recommendMeans(vectors, rec, queries, answers, 2, [1, 2], [2, 3, 5, 10]));

  it('k = 1: ties by column, a score-0 candidate before a negative one, |H| > N', () => {
    // scores: c1 .5, c3 .5, c4 -.5, c2 = c5 = 0; c0 excluded: list 1, 3, 2, 5, 4
    const ideal3 = g(1) + g(2) + g(3);
    expect(m['1']['2']).toEqual([0, 0, 0]);
    expect(m['1']['3'][0]).toBe(1);
    expect(m['1']['3'][1]).toBeCloseTo(g(3) / ideal3, 14);
    expect(m['1']['3'][2]).toBeCloseTo(1 / 3, 14);
    expect(m['1']['5'][1]).toBeCloseTo((g(3) + g(4) + g(5)) / ideal3, 14);
    expect(m['1']['5'][2]).toBe(1);
  });

  it('k = 2: a touched column summing to 0 ranks among the zeros, by column', () => {
    // scores: c1 .5, c2 .5, c3 0 (touched), c4 -.5, c5 0: list 1, 2, 3, 5, 4
    expect(m['2']['2'][0]).toBe(1);
    expect(m['2']['2'][1]).toBeCloseTo(g(2) / (g(1) + g(2)), 14);
    expect(m['2']['2'][2]).toBeCloseTo(1 / 3, 14);
    expect(m['2']['3'][1]).toBeCloseTo(g(2) / (g(1) + g(2) + g(3)), 14);
  });

  it('fewer than N candidates: the list is shorter, the ideal is over min(N, |H|)', () => {
    // N = 10 > 5 candidates: hits at ranks 2, 4, 5 of list 1, 2, 3, 5, 4
    expect(m['2']['10'][0]).toBe(1);
    expect(m['2']['10'][1]).toBeCloseTo((g(2) + g(4) + g(5)) / (g(1) + g(2) + g(3)), 14);
    expect(m['2']['10'][2]).toBe(1);
  });

  it('averages over queries, and pop is the column order without neighbours', () => {
    // user 1 (trained on 1, 3, 4) holds item 0: pop list 0, 2, 5 → hit at rank 1
    const rec2 = recOf([[0], [1, 3, 4], [2, 3]], [[2, 4, 5], [0], []]);
    const q = Int32Array.of(0, 1);
    const truth = Int32Array.of(1, 2, 0, 2);
    const { exact, pop } = recommendBaselines(vectors, rec2, q, truth, 2, [1], [1]);
    // pop: user 0's list 1, 2, ... → miss at N = 1; user 1's list 0 → hit
    expect(pop['1']).toEqual([0.5, 0.5, 0.5]);
    // exact k = 1: user 0 from user 1 (c1 first: miss); user 1 from user 0 (c0 scores 1: hit)
    expect(exact['1']['1']).toEqual([0.5, 0.5, 0.5]);
  });

  it('only the users with held-out items are queries', () => {
    const rec2 = recOf([[0], [1], [2]], [[2], [], [1, 3]]);
    expect(Array.from(recommendQueries(rec2, Int32Array.of(0, 1, 2)))).toEqual([0, 2]);
  });

  it('a query without held-out items, or bad arguments, are refused', () => {
    expect(() => recommendMeans(vectors, rec, Int32Array.of(1), Int32Array.of(0), 1, [1], [1])).toThrow(/no held-out item/);
    expect(() => recommendMeans(vectors, rec, queries, answers, 2, [3], [1])).toThrow(/ks/);
    expect(() => recommendMeans(vectors, rec, queries, answers, 2, [1], [5, 2])).toThrow(/top/);
  });

  it('holdsEvery and storedTop read stored values', () => {
    expect(holdsEvery(m, [1, 2], [2, 10])).toBe(true);
    expect(holdsEvery(m, [1, 3], [2])).toBe(false);
    expect(holdsEvery(m, [1], [4])).toBe(false);
    expect(holdsEvery(undefined, [1], [2])).toBe(false);
    expect(storedTop(m)).toEqual([2, 3, 5, 10]);
  });
});

describe('recommendation scoring against a dense brute force', () => {
  it('agrees on random sparse data with many ties, zero sums and negative scores', () => {
    const rng = makeRng('recommend-brute-force');
    const n = 30;
    const users = 60;
    const rows: [number, number][][] = [];
    const train: number[][] = [];
    const held: number[][] = [];
    for (let u = 0; u < users; u++) {
      const cols = Array.from({ length: n }, (_, c) => c).filter(() => rng() < 0.2);
      // values on a grid of quarters: exact sums, many ties and sums of exactly 0
      rows.push(cols.map((c) => [c, Math.round(rng() * 8 - 4) / 4] as [number, number]).filter(([, v]) => v !== 0));
      // the train row: the vector's columns and some of value 0; held items among the rest
      train.push(cols);
      held.push(Array.from({ length: n }, (_, c) => c).filter((c) => !cols.includes(c) && rng() < 0.15));
    }
    const vectors = vectorsOf(n, rows);
    const rec = recOf(train, held);
    const queries = recommendQueries(
      rec,
      Int32Array.from({ length: users }, (_, i) => i),
    );
    const width = 12;
    const answers = new Int32Array(queries.length * width);
    for (let i = 0; i < answers.length; i++) answers[i] = Math.floor(rng() * users);
    const ks = [0, 1, 3, 12];
    const top = [1, 5, 10, 40];
    const got = recommendByK(recommendMeans(vectors, rec, queries, answers, width, ks, top));
    for (const k of ks) {
      for (const N of top) {
        const want = bruteForce(vectors, rec, queries, answers, width, k, N);
        got[String(k)][String(N)].forEach((x, i) => {
          expect(x).toBeCloseTo(want[i], 12);
        });
      }
    }
    expect(queries.length).toBeGreaterThan(30);

    // a memo kept across results: bit for bit the fresh means, on repeated and on changed answers
    const memo = new Map<string, number[]>();
    expect(recommendMeans(vectors, rec, queries, answers, width, ks, top, memo)).toEqual(recommendMeans(vectors, rec, queries, answers, width, ks, top));
    expect(memo.size).toBe(new Set(Array.from(queries, (u, q) => `${u}:${answers.subarray(q * width, (q + 1) * width).join(',')}`)).size);
    const changed = answers.slice();
    // every other query's row reversed (the same neighbours in another order: another sum order) or redrawn
    for (let q = 0; q < queries.length; q += 2) {
      const row = changed.subarray(q * width, (q + 1) * width);
      if (q % 4 === 0) row.reverse();
      else for (let i = 0; i < width; i++) row[i] = Math.floor(rng() * users);
    }
    const before = memo.size;
    expect(recommendMeans(vectors, rec, queries, changed, width, ks, top, memo)).toEqual(recommendMeans(vectors, rec, queries, changed, width, ks, top));
    expect(memo.size).toBeGreaterThan(before);
    expect(recommendMeans(vectors, rec, queries, answers, width, ks, top, memo)).toEqual(recommendMeans(vectors, rec, queries, answers, width, ks, top));
    // another top is another key, never a value of the first
    expect(recommendMeans(vectors, rec, queries, answers, width, ks, [2, 3], memo)).toEqual(recommendMeans(vectors, rec, queries, answers, width, ks, [2, 3]));
  });

  it('is bit for bit the full recompute per k: dense and sparse rows, lists shorter than N, repeated neighbours', () => {
    // the scores are accumulated once over the answer, k after k, and each k's list is one pass of
    // selection; the brute force sums every k afresh over a dense row and sorts all candidates: equal
    // bits, not only close values (recommend.csv is byte-identical across speed changes)
    const rng = makeRng('recommend-touched');
    for (const { n, users, density, width, ks, top } of [
      { n: 40, users: 50, density: 0.1, width: 8, ks: [0, 1, 4, 8], top: [1, 3, 20] },
      // wide rows: most columns trained, lists shorter than N
      { n: 24, users: 40, density: 0.7, width: 6, ks: [1, 2, 6], top: [5, 10, 30] },
      { n: 200, users: 80, density: 0.05, width: 10, ks: [1, 5, 10], top: [10, 20] },
    ]) {
      // eighths: exact sums, ties and zero sums; some rows with a value of 0 (a column trained, not scored)
      const { vectors, rec, queries } = gridRows(rng, n, users, density, 0.2);
      const answers = new Int32Array(queries.length * width);
      // neighbours drawn with repeats, sometimes the query user itself
      for (let i = 0; i < answers.length; i++) answers[i] = rng() < 0.05 ? queries[Math.floor(i / width)] : Math.floor(rng() * users);
      const got = recommendByK(recommendMeans(vectors, rec, queries, answers, width, ks, top));
      for (const k of ks) for (const N of top) expect(got[String(k)][String(N)]).toEqual(bruteForce(vectors, rec, queries, answers, width, k, N));
    }
  });
});
