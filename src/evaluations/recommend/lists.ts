/**
 * Top-N recommendations from a user's neighbours, and their quality on the held-out items
 * (config `recommend`, docs/RECOMMEND.md). For query u with neighbours v1..vk, the score of item
 * column i is the signed sum Σ x_v[i] of the neighbours' training vectors; the candidates are every
 * column except those of u's training row (RecommendData.trainCol: also items whose centred value
 * is 0), ordered by score descending, then by column index (the training popularity order). With
 * H = u's held row: HR@N (a hit in the first N), NDCG@N (Σ over hits of 1/log2(rank + 1), divided
 * by the ideal Σ_{r=1..min(N,|H|)} 1/log2(r + 1)) and item recall@N (hits / |H|), each averaged
 * over the queries in query order.
 *
 * The neighbours of every k are a prefix of one answer (src/experiment/trial.ts), so the scores of
 * a query are accumulated over its answer once, k after k, from the neighbours' sparse rows, and
 * the top list of each k is a partial selection of the N best in one pass over the columns: the
 * same list as a full sort by (score desc, column asc), which the tests check.
 *
 * Without a memo, the lists of every query of a result are scored in one call of the WebAssembly
 * kernel (src/kernels/recommend.ts wasmRecommendSums, recommend.wat recScore): the same operations on
 * the same doubles, its passes skipping blocks of columns by SIMD compares, the sums bit for bit
 * those of the JS loop below, which stays for an engine without WebAssembly SIMD, for
 * LSHDP_KERNEL=js, for a memo, and as the reference of the tests (on MovieLens at n = 1000,
 * k 1/5/10 and N 10/20: about 4 µs a query against 12 µs in JS).
 */
import type { RecommendData, UserVectors } from '../../data/types.js';
import { hammingKernelName } from '../../kernels/instance.js';
import { wasmRecommendSums, type RecommendSums } from '../../kernels/recommend.js';

/** Per (k, N) means over the queries; entry [ki * top.length + ni] is of (ks[ki], top[ni]). */
export interface RecommendMeans {
  ks: number[];
  top: number[];
  hr: Float64Array;
  ndcg: Float64Array;
  itemRecall: Float64Array;
}

/** HR, NDCG and item recall of one (k, N), as stored (src/experiment/records.ts). */
export type RecommendTriple = [hr: number, ndcg: number, itemRecall: number];
/** Per k (as a string key), per N (as a string key): the means over the queries. */
export type RecommendByK = Record<string, Record<string, RecommendTriple>>;

/** Whether query user `u` can be evaluated: it has at least one held-out item among the n items. */
export function hasHeldItems(rec: RecommendData, u: number): boolean {
  return rec.heldPtr[u + 1] > rec.heldPtr[u];
}

/** The query users (ascending user indices) with at least one held-out item: a recommendation run's queries. */
export function recommendQueries(rec: RecommendData, sampled: Int32Array): Int32Array {
  return sampled.filter((u) => hasHeldItems(rec, u));
}

/** 1/log2(r + 1) for ranks r = 1..count (index r - 1). */
function discounts(count: number): Float64Array {
  const d = new Float64Array(count);
  for (let r = 1; r <= count; r++) d[r - 1] = 1 / Math.log2(r + 1);
  return d;
}

/**
 * The per-query scratch: the scores and relevance marks of the n columns, the top list. The
 * query's training columns are no candidates: their score is NaN while the query is scored (a sum
 * with NaN stays NaN, and NaN never compares greater), so the selection skips them without a
 * separate test.
 */
interface Scratch {
  scores: Float64Array;
  relevant: Uint8Array;
  /** the current top list: columns and their scores, best first */
  listCol: Int32Array;
  listScore: Float64Array;
}

function scratchFor(n: number, nMax: number): Scratch {
  return { scores: new Float64Array(n), relevant: new Uint8Array(n), listCol: new Int32Array(nMax), listScore: new Float64Array(nMax) };
}

/**
 * What the lists of a query are worth, kept across the results of one trial cell: the metrics of
 * a query depend only on the query user and its ordered neighbours (for the same ks and top), and
 * the results of a cell share many answers (lsh and every mechanism at large ξ hash with the same
 * planes and break ties with the same seed). A key holds the query user, ks, top and the answer
 * row in order (the scores are summed in neighbour order, so a reordered row is another key); its
 * value is the query's per-(k, N) values as score() computes them, so adding a kept value to the
 * sums adds the very same numbers in the same query order: the means are bit for bit those of a
 * fresh computation. Use one memo per cell (the same vectors, recommendation data and queries).
 * The trial cells do not (src/evaluations/recommend/measure.ts): on the shared MovieLens grid 7% of
 * the queries hit it, and its keys cost more CPU than those hits saved.
 */
export type RecommendMemo = Map<string, number[]>;

/**
 * Where the lists are scored: 'auto' in the WebAssembly kernel where it applies (src/kernels/recommend.ts
 * wasmRecommendSums: the same doubles), else the JS loop here; 'js' the JS loop; 'wasm' the kernel
 * or an error (tests).
 */
export type RecommendKernel = 'auto' | 'js' | 'wasm';

/**
 * The means over `queries` of HR@N, NDCG@N and item recall@N for every k of `ks` (ascending; 0: no
 * neighbours, the popularity order) and N of `top` (ascending), the neighbours of query q at k being
 * answers[q * width .. q * width + k). Every query must have a held-out item (recommendQueries).
 * With `memo` (one per trial cell), a query whose user and answer row were scored before reuses
 * that query's values (in the JS loop). Without it, `kernel` says where the lists are scored; every
 * way gives the same doubles.
 */
export function recommendMeans(
  vectors: UserVectors,
  rec: RecommendData,
  queries: Int32Array,
  answers: Int32Array,
  width: number,
  ks: readonly number[],
  top: readonly number[],
  memo?: RecommendMemo,
  kernel: RecommendKernel = 'auto',
): RecommendMeans {
  const Q = queries.length;
  checkArgs(vectors, rec, answers, Q, width, ks, top);
  const nMax = top[top.length - 1];
  const cells = ks.length * top.length;
  const disc = discounts(nMax);
  if (kernel === 'wasm' && memo) throw new RangeError('a memo is kept by the JS loop only');
  // the sums of every query in the kernel, divided below as the JS loop's
  const summed = memo || kernel === 'js' ? null : wasmRecommendSums(vectors, rec, queries, answers, width, ks, top, disc);
  if (kernel === 'wasm' && !summed) throw new RangeError(`the WebAssembly kernel does not apply (kernel ${hammingKernelName()})`);
  const sums = summed ?? jsSums(vectors, rec, queries, answers, width, ks, top, disc, memo);
  for (const a of [sums.hr, sums.ndcg, sums.itemRecall]) for (let c = 0; c < cells; c++) a[c] /= Q;
  return { ks: [...ks], top: [...top], ...sums };
}

/** The JS loop of recommendMeans: the sums over the queries in query order, not yet divided. */
function jsSums(
  vectors: UserVectors,
  rec: RecommendData,
  queries: Int32Array,
  answers: Int32Array,
  width: number,
  ks: readonly number[],
  top: readonly number[],
  disc: Float64Array,
  memo: RecommendMemo | undefined,
): RecommendSums {
  const Q = queries.length;
  const nMax = top[top.length - 1];
  const cells = ks.length * top.length;
  const sums = { hr: new Float64Array(cells), ndcg: new Float64Array(cells), itemRecall: new Float64Array(cells) };
  const s = scratchFor(vectors.n, nMax);
  const grid = `${ks.join(',')}|${top.join(',')}|`;
  const units = new Uint16Array(2 * (width + 1));
  // without a memo, one array for every query's values (each entry is written for each query)
  const reused = memo ? null : new Array<number>(3 * cells).fill(0);
  for (let q = 0; q < Q; q++) {
    const u = queries[q];
    const key = memo ? memoKey(grid, u, answers, q * width, width, units) : '';
    let one = memo ? memo.get(key) : reused;
    if (!one || one === reused) {
      // a plain array: cheaper to allocate than a typed one, and it holds the doubles exactly
      one ??= new Array<number>(3 * cells).fill(0);
      scoreQuery(s, vectors, rec, u, answers, q * width, ks, top, disc, one);
      memo?.set(key, one);
    }
    for (let c = 0; c < cells; c++) {
      sums.hr[c] += one[c];
      sums.ndcg[c] += one[cells + c];
      sums.itemRecall[c] += one[2 * cells + c];
    }
  }
  return sums;
}

/**
 * The memo key of query user u and its answer row answers[from .. from + width): `grid` (ks and
 * top), then each number as two 16-bit code units (low, high; a 32-bit index exactly), so a key is
 * built without writing decimal numbers. `units` is the caller's scratch of 2 * (width + 1).
 */
function memoKey(grid: string, u: number, answers: Int32Array, from: number, width: number, units: Uint16Array): string {
  units[0] = u & 0xffff;
  units[1] = u >>> 16;
  for (let i = 0; i < width; i++) {
    const v = answers[from + i];
    units[2 * i + 2] = v & 0xffff;
    units[2 * i + 3] = v >>> 16;
  }
  return grid + String.fromCharCode.apply(null, units as unknown as number[]);
}

/**
 * One query's HR, NDCG and item recall at every (k, N) into `one` (HR of cell c at c, NDCG at
 * cells + c, item recall at 2 * cells + c), its neighbours answers[from .. from + k).
 */
function scoreQuery(
  s: Scratch,
  vectors: UserVectors,
  rec: RecommendData,
  u: number,
  answers: Int32Array,
  from: number,
  ks: readonly number[],
  top: readonly number[],
  disc: Float64Array,
  one: number[],
): void {
  const h0 = rec.heldPtr[u];
  const h1 = rec.heldPtr[u + 1];
  if (h1 <= h0) throw new RangeError(`query user ${u} has no held-out item among the n items`);
  const nMax = top[top.length - 1];
  s.scores.fill(0);
  fill(s.scores, rec.trainCol, rec.trainPtr[u], rec.trainPtr[u + 1], Number.NaN);
  fill(s.relevant, rec.heldCol, h0, h1, 1);
  let done = 0;
  for (let ki = 0; ki < ks.length; ki++) {
    for (; done < ks[ki]; done++) addRow(s.scores, vectors, answers[from + done]);
    const length = topList(s, vectors.n, nMax);
    score(s, length, h1 - h0, top, disc, one, ki * top.length, ks.length * top.length);
  }
  fill(s.relevant, rec.heldCol, h0, h1, 0);
}

function checkArgs(vectors: UserVectors, rec: RecommendData, answers: Int32Array, Q: number, width: number, ks: readonly number[], top: readonly number[]): void {
  const users = vectors.rowPtr.length - 1;
  if (rec.trainPtr.length !== users + 1 || rec.heldPtr.length !== users + 1) throw new RangeError(`recommendation data hold ${rec.trainPtr.length - 1} users, the vectors ${users}`);
  if (Q === 0) throw new RangeError('no query user to evaluate recommendations for');
  if (top.length === 0 || top.some((N, i) => !Number.isInteger(N) || N < 1 || (i > 0 && N <= top[i - 1]))) throw new RangeError(`top must be ascending positive integers, got ${top.join(',')}`);
  if (ks.length === 0 || ks.some((k, i) => !Number.isInteger(k) || k < 0 || k > width || (i > 0 && k <= ks[i - 1])))
    throw new RangeError(`ks must be ascending integers in [0, ${width}], got ${ks.join(',')}`);
  if (answers.length !== Q * width) throw new RangeError(`answers has ${answers.length} entries, expected ${Q}*${width}`);
}

function fill(a: Float64Array | Uint8Array, cols: Int32Array, from: number, to: number, value: number): void {
  for (let p = from; p < to; p++) a[cols[p]] = value;
}

/** Adds neighbour v's training row to the scores (its columns ascending: one pass over its non-zeros). */
function addRow(scores: Float64Array, vectors: UserVectors, v: number): void {
  const { colIdx, values } = vectors;
  const end = vectors.rowPtr[v + 1];
  for (let p = vectors.rowPtr[v]; p < end; p++) scores[colIdx[p]] += values[p];
}

/**
 * Fills s.listCol/listScore with the first (at most nMax) candidates by (score desc, column asc);
 * returns its length. One pass over the columns in ascending order: a column enters only with a
 * score above the list's last (an equal score of a later column comes after it), so the order of
 * equal scores is the column order; a training column's NaN never enters. The pass is sequential
 * and, once the list is full, almost always one comparison: cheaper than tracking the columns the
 * neighbours touched (measured on MovieLens at n = 1000; tried again with a pass over the touched
 * columns only and the zeros merged in column order: the scoring took 1.7× as long, the touched
 * columns coming in no order and the tests per column being more).
 */
function topList(s: Scratch, n: number, nMax: number): number {
  const { scores, listScore, listCol } = s;
  let length = 0;
  let c = 0;
  for (; c < n && length < nMax; c++) {
    const x = scores[c];
    if (Number.isNaN(x)) continue;
    insert(listScore, listCol, length, x, c);
    length++;
  }
  if (length < nMax) return length;
  let worst = listScore[nMax - 1];
  for (; c < n; c++) {
    const x = scores[c];
    if (!(x > worst)) continue;
    insert(listScore, listCol, nMax - 1, x, c);
    worst = listScore[nMax - 1];
  }
  return length;
}

/** Puts (x, c) at index `at` or before, moving down the entries it comes before (a later column: only those of lower score). */
function insert(listScore: Float64Array, listCol: Int32Array, at: number, x: number, c: number): void {
  let i = at;
  while (i > 0 && x > listScore[i - 1]) {
    listScore[i] = listScore[i - 1];
    listCol[i] = listCol[i - 1];
    i--;
  }
  listScore[i] = x;
  listCol[i] = c;
}

/** One query's HR, NDCG and item recall at every N of `top` (for one k) into `one` at `at` (see scoreQuery). */
function score(s: Scratch, length: number, held: number, top: readonly number[], disc: Float64Array, one: number[], at: number, cells: number): void {
  let hits = 0;
  let dcg = 0;
  let rank = 0;
  let ideal = 0;
  let idealRank = 0;
  for (let ni = 0; ni < top.length; ni++) {
    const N = top[ni];
    for (; rank < N && rank < length; rank++) {
      if (s.relevant[s.listCol[rank]] !== 0) {
        hits++;
        dcg += disc[rank];
      }
    }
    for (; idealRank < N && idealRank < held; idealRank++) ideal += disc[idealRank];
    one[at + ni] = hits > 0 ? 1 : 0;
    one[cells + at + ni] = dcg / ideal;
    one[2 * cells + at + ni] = hits / held;
  }
}

/** The means as stored: per k, per N, [hr, ndcg, item recall]. */
export function recommendByK(means: RecommendMeans): RecommendByK {
  const out: RecommendByK = {};
  means.ks.forEach((k, ki) => {
    const perN: Record<string, RecommendTriple> = {};
    means.top.forEach((N, ni) => {
      const c = ki * means.top.length + ni;
      perN[String(N)] = [means.hr[c], means.ndcg[c], means.itemRecall[c]];
    });
    out[String(k)] = perN;
  });
  return out;
}

/** Whether stored values hold every (k, N) asked. */
export function holdsEvery(stored: RecommendByK | undefined, ks: readonly number[], top: readonly number[]): boolean {
  if (!stored) return false;
  return ks.every((k) => {
    const perN = stored[String(k)];
    return perN !== undefined && top.every((N) => perN[String(N)] !== undefined);
  });
}

/** The N values every k of stored values holds (the N a recomputation must keep). */
export function storedTop(stored: RecommendByK | undefined): number[] {
  if (!stored) return [];
  const all = new Set<number>();
  for (const perN of Object.values(stored)) for (const N of Object.keys(perN)) all.add(Number(N));
  return [...all].sort((a, b) => a - b);
}

/** The `exact` and `pop` baselines of an exact cell: the exact neighbours' lists per k, and the popularity order. */
export interface RecommendBaselines {
  exact: RecommendByK;
  pop: Record<string, RecommendTriple>;
}

/**
 * The baselines of one (data set, n): `exact` from the true k nearest neighbours (each k of `ks`,
 * `truth` row-major Q × width, nearest first) and `pop`, the first N candidates in column order.
 */
export function recommendBaselines(vectors: UserVectors, rec: RecommendData, queries: Int32Array, truth: Int32Array, width: number, ks: readonly number[], top: readonly number[]): RecommendBaselines {
  const exact = recommendByK(recommendMeans(vectors, rec, queries, truth, width, ks, top));
  const pop = recommendByK(recommendMeans(vectors, rec, queries, new Int32Array(0), 0, [0], top))['0']!;
  return { exact, pop };
}
