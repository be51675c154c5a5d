/**
 * Shared by the recommendation tests: small CSR vectors and splits built by hand, the metrics the
 * plain way (dense scores, a full sort), and a bit-for-bit comparison of two means.
 */
import type { RecommendData, UserVectors } from '../../../src/data/types.js';
import { recommendQueries, type RecommendMeans } from '../../../src/evaluations/recommend/lists.js';

/** A CSR matrix from rows of [column, value] (columns ascending). */
export function vectorsOf(n: number, rows: [number, number][][]): UserVectors {
  const rowPtr = new Int32Array(rows.length + 1);
  const cols: number[] = [];
  const vals: number[] = [];
  rows.forEach((r, i) => {
    for (const [c, v] of r) {
      cols.push(c);
      vals.push(v);
    }
    rowPtr[i + 1] = cols.length;
  });
  return {
    dataset: 't',
    n,
    userIds: rows.map((_, i) => `u${i}`),
    itemIds: Array.from({ length: n }, (_, j) => `i${j}`),
    rowPtr,
    colIdx: Int32Array.from(cols),
    values: Float64Array.from(vals),
    dropped: 0,
  };
}

function csr(rows: number[][]): { ptr: Int32Array; col: Int32Array } {
  const ptr = new Int32Array(rows.length + 1);
  rows.forEach((r, i) => {
    ptr[i + 1] = ptr[i] + r.length;
  });
  return { ptr, col: Int32Array.from(rows.flat()) };
}

/** A split from each user's training and held-out columns. */
export function recOf(train: number[][], held: number[][]): RecommendData {
  const t = csr(train);
  const h = csr(held);
  return { trainPtr: t.ptr, trainCol: t.col, heldPtr: h.ptr, heldCol: h.col };
}

/** The discount of rank r (1-based): 1/log2(r + 1). */
export const g = (rank: number) => 1 / Math.log2(rank + 1);

/** The metrics the plain way: dense scores, a full sort of the candidates, the formulas as written. */
export function bruteForce(vectors: UserVectors, rec: RecommendData, queries: Int32Array, answers: Int32Array, width: number, k: number, N: number): [number, number, number] {
  let [hr, ndcg, ir] = [0, 0, 0];
  for (let q = 0; q < queries.length; q++) {
    const u = queries[q];
    const dense = new Array<number>(vectors.n).fill(0);
    for (let i = 0; i < k; i++) {
      const v = answers[q * width + i];
      for (let p = vectors.rowPtr[v]; p < vectors.rowPtr[v + 1]; p++) dense[vectors.colIdx[p]] += vectors.values[p];
    }
    const trained = new Set(Array.from(rec.trainCol.subarray(rec.trainPtr[u], rec.trainPtr[u + 1])));
    const held = new Set(Array.from(rec.heldCol.subarray(rec.heldPtr[u], rec.heldPtr[u + 1])));
    const list = dense
      .map((s, c) => ({ s, c }))
      .filter((x) => !trained.has(x.c))
      .sort((a, b) => b.s - a.s || a.c - b.c)
      .slice(0, N);
    const hitRanks = list.map((x, r) => (held.has(x.c) ? r + 1 : 0)).filter((r) => r > 0);
    let ideal = 0;
    for (let r = 1; r <= Math.min(N, held.size); r++) ideal += g(r);
    hr += hitRanks.length > 0 ? 1 : 0;
    ndcg += hitRanks.reduce((s, r) => s + g(r), 0) / ideal;
    ir += hitRanks.length / held.size;
  }
  return [hr / queries.length, ndcg / queries.length, ir / queries.length];
}

/** The doubles of means as bytes: equal strings are bit-for-bit equal means (NaN and -0 included). */
export function meansBits(m: RecommendMeans): string {
  return [m.ks.join(','), m.top.join(','), ...[m.hr, m.ndcg, m.itemRecall].map((a) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('hex'))].join('|');
}

/** The vectors, split and queries (every user with a held item) of rows and their trained and held columns. */
export function dataOf(rng: () => number, n: number, rows: [number, number][][], train: number[][], held: number[][]) {
  const vectors = vectorsOf(n, rows);
  const rec = recOf(train, held);
  const users = rows.length;
  const queries = recommendQueries(
    rec,
    Int32Array.from({ length: users }, (_, i) => i),
  );
  return { rng, vectors, rec, queries, users };
}

/** Random sparse rows on a grid of eighths, drawn from `rng` (exact sums: ties and zero sums), trained and held columns. */
export function gridRows(rng: () => number, n: number, users: number, density: number, heldRate: number) {
  const rows: [number, number][][] = [];
  const train: number[][] = [];
  const held: number[][] = [];
  for (let u = 0; u < users; u++) {
    const cols = Array.from({ length: n }, (_, c) => c).filter(() => rng() < density);
    // some values exactly 0: a trained column whose score is not touched
    rows.push(cols.map((c) => [c, Math.round(rng() * 16 - 8) / 8] as [number, number]));
    train.push(cols);
    held.push(Array.from({ length: n }, (_, c) => c).filter((c) => !cols.includes(c) && rng() < heldRate));
  }
  return dataOf(rng, n, rows, train, held);
}
