/**
 * The top-N recommendation lists (src/kernels/recommend.wat): the sums of
 * src/evaluations/recommend/lists.ts, bit for bit (tests/evaluations/recommend/kernel.test.ts).
 */

import { align16, newInstance, reserve, type KernelMemory } from './instance.js';
import type { ScoredRows } from './shapes.js';

/** The exports of recommend.wat. */
interface RecommendExports extends KernelMemory {
  recScore(
    rowPtr: number,
    colIdx: number,
    values: number,
    trainPtr: number,
    trainCol: number,
    heldPtr: number,
    heldCol: number,
    queries: number,
    nq: number,
    answers: number,
    width: number,
    ks: number,
    nk: number,
    top: number,
    nt: number,
    disc: number,
    n: number,
    scores: number,
    rel: number,
    listScore: number,
    listCol: number,
    sums: number,
    guess: number,
    buf: number,
  ): void;
}

/** A recommendation split's training and held-out columns (data/types.ts `RecommendData`, stated by shape). */
interface SplitColumns {
  trainPtr: Int32Array;
  trainCol: Int32Array;
  heldPtr: Int32Array;
  heldCol: Int32Array;
}

/** The sums over the queries of HR, NDCG and item recall per (k, N) cell, not yet divided by their number. */
export interface RecommendSums {
  hr: Float64Array;
  ndcg: Float64Array;
  itemRecall: Float64Array;
}

/**
 * The most bytes of vectors and split the recommendation instance keeps in its memory (about 5M
 * stored entries). A WebAssembly memory never shrinks, and each thread has its own: a larger data
 * set is scored by the JS loop, where the other work of a trial cell (a k-NN over that many users)
 * outweighs the lists anyway.
 */
export const RECOMMEND_MAX_BYTES = 64 << 20;

let recCached: RecommendExports | null | undefined;

/**
 * A second instance of the module for the recommendation scoring alone: the other kernels lay out
 * their arrays from address 0 of their instance's memory at every call, and would overwrite the
 * vectors and split that this one keeps from call to call (the same for every result of a trial
 * cell). Null where the first instance is (no WebAssembly SIMD, or LSHDP_KERNEL=js).
 */
function recInstance(): RecommendExports | null {
  if (recCached === undefined) recCached = newInstance<RecommendExports>();
  return recCached;
}

/**
 * What the recommendation instance holds from an earlier call: its source arrays (by identity,
 * weakly: a group's data released by its thread are not kept alive here) and their addresses.
 */
interface HeldRows {
  sources: readonly WeakRef<ArrayBufferView>[];
  rowPtr: number;
  colIdx: number;
  values: number;
  trainPtr: number;
  trainCol: number;
  heldPtr: number;
  heldCol: number;
  /** the first free byte after them */
  end: number;
}

let held: HeldRows | null = null;

/** Whether every row of a CSR matrix holds distinct columns in ascending order (the kernel lists a row's columns as they are). */
function rowsAscending(rowPtr: Int32Array, colIdx: Int32Array): boolean {
  for (let u = 0; u + 1 < rowPtr.length; u++) for (let p = rowPtr[u]! + 1; p < rowPtr[u + 1]!; p++) if (!(colIdx[p]! > colIdx[p - 1]!)) return false;
  return true;
}

/** Whether the CSR offsets `ptr` run from 0 up to at most `length` without going down. */
function offsetsOf(ptr: Int32Array, length: number): boolean {
  if (ptr[0] !== 0 || !(ptr[ptr.length - 1]! <= length)) return false;
  for (let i = 1; i < ptr.length; i++) if (!(ptr[i]! >= ptr[i - 1]!)) return false;
  return true;
}

/**
 * Copies the vectors and split into the recommendation instance's memory unless the same arrays
 * (by identity: the data of a group are never changed once loaded) are there from the call before;
 * null when an offset or column is out of range (the kernel reads without bounds checks) or a row's
 * columns are not distinct and ascending: the JS loop then runs. The checks run with the copy, once
 * per data, not per call.
 */
function holdRows(wasm: RecommendExports, vectors: ScoredRows, rec: SplitColumns): HeldRows | null {
  const sources = [vectors.rowPtr, vectors.colIdx, vectors.values, rec.trainPtr, rec.trainCol, rec.heldPtr, rec.heldCol];
  if (held?.sources.every((a, i) => a.deref() === sources[i])) return held;
  held = null;
  const n = vectors.n;
  const users = vectors.rowPtr.length - 1;
  if (vectors.values.length !== vectors.colIdx.length || rec.trainPtr.length !== users + 1 || rec.heldPtr.length !== users + 1) return null;
  if (!offsetsOf(vectors.rowPtr, vectors.colIdx.length) || !offsetsOf(rec.trainPtr, rec.trainCol.length) || !offsetsOf(rec.heldPtr, rec.heldCol.length)) return null;
  if (!indicesBelow(vectors.colIdx, n) || !indicesBelow(rec.trainCol, n) || !indicesBelow(rec.heldCol, n)) return null;
  if (!rowsAscending(vectors.rowPtr, vectors.colIdx)) return null;
  // values first: the doubles 8-aligned at 0, every other part 16-aligned after
  const values = 0;
  const rowPtr = align16(vectors.values.length * 8);
  const colIdx = align16(rowPtr + vectors.rowPtr.length * 4);
  const trainPtr = align16(colIdx + vectors.colIdx.length * 4);
  const trainCol = align16(trainPtr + rec.trainPtr.length * 4);
  const heldPtr = align16(trainCol + rec.trainCol.length * 4);
  const heldCol = align16(heldPtr + rec.heldPtr.length * 4);
  const end = align16(heldCol + rec.heldCol.length * 4);
  reserve(wasm, end);
  const buf = wasm.memory.buffer;
  new Float64Array(buf, values, vectors.values.length).set(vectors.values);
  new Int32Array(buf, rowPtr, vectors.rowPtr.length).set(vectors.rowPtr);
  new Int32Array(buf, colIdx, vectors.colIdx.length).set(vectors.colIdx);
  new Int32Array(buf, trainPtr, rec.trainPtr.length).set(rec.trainPtr);
  new Int32Array(buf, trainCol, rec.trainCol.length).set(rec.trainCol);
  new Int32Array(buf, heldPtr, rec.heldPtr.length).set(rec.heldPtr);
  new Int32Array(buf, heldCol, rec.heldCol.length).set(rec.heldCol);
  held = { sources: sources.map((a) => new WeakRef<ArrayBufferView>(a)), rowPtr, colIdx, values, trainPtr, trainCol, heldPtr, heldCol, end };
  return held;
}

/** Whether every entry of `a` is an index in [0, bound). */
function indicesBelow(a: Int32Array, bound: number): boolean {
  for (let i = 0; i < a.length; i++) if (!(a[i]! >= 0 && a[i]! < bound)) return false;
  return true;
}

/**
 * The sums over `queries` (in query order) of src/evaluations/recommend/lists.ts's per-query HR,
 * NDCG and item recall at every (k of `ks`, N of `top`), cell ki * top.length + ni, the neighbours
 * of query q at k being answers[q * width .. q * width + k): the very doubles of the JS loop there,
 * which divides them by the number of queries. `disc` holds 1/log2(r + 1) for r = 1..N of the last
 * N, as that loop computes it. The vectors and split stay in the module's memory from one call to
 * the next while they are the same arrays (every result of a trial cell). Returns null when the
 * kernel does not apply (no WebAssembly, data over RECOMMEND_MAX_BYTES, an index out of range, a
 * row whose columns are not distinct and ascending, or a query without a held-out item: the JS
 * loop then runs, or reports it). Arguments are otherwise validated by the caller.
 */
export function wasmRecommendSums(
  vectors: ScoredRows,
  rec: SplitColumns,
  queries: Int32Array,
  answers: Int32Array,
  width: number,
  ks: readonly number[],
  top: readonly number[],
  disc: Float64Array,
): RecommendSums | null {
  const wasm = recInstance();
  if (!wasm) return null;
  const users = vectors.rowPtr.length - 1;
  const n = vectors.n;
  const bytes = vectors.values.length * 8 + (vectors.rowPtr.length + vectors.colIdx.length) * 4 + (rec.trainPtr.length + rec.trainCol.length + rec.heldPtr.length + rec.heldCol.length) * 4;
  if (bytes > RECOMMEND_MAX_BYTES) return null;
  if (!indicesBelow(queries, users) || !indicesBelow(answers, users)) return null;
  for (let q = 0; q < queries.length; q++) if (!(rec.heldPtr[queries[q]! + 1]! > rec.heldPtr[queries[q]!]!)) return null;
  const rows = holdRows(wasm, vectors, rec);
  if (!rows) return null;
  const nq = queries.length;
  const nk = ks.length;
  const nt = top.length;
  const nMax = top[nt - 1]!;
  const cells = nk * nt;
  const queriesAt = rows.end;
  const answersAt = align16(queriesAt + nq * 4);
  const ksAt = align16(answersAt + answers.length * 4);
  const topAt = align16(ksAt + nk * 4);
  const discAt = align16(topAt + nt * 4);
  const scoresAt = align16(discAt + nMax * 8);
  const relAt = align16(scoresAt + (n + 16) * 8);
  const listScoreAt = align16(relAt + n);
  const listColAt = align16(listScoreAt + nMax * 8);
  const sumsAt = align16(listColAt + nMax * 4);
  const guessAt = align16(sumsAt + 3 * cells * 8);
  const bufAt = align16(guessAt + nk * 8);
  reserve(wasm, bufAt + n * 4);
  const buf = wasm.memory.buffer;
  new Int32Array(buf, queriesAt, nq).set(queries);
  new Int32Array(buf, answersAt, answers.length).set(answers);
  new Int32Array(buf, ksAt, nk).set(ks);
  new Int32Array(buf, topAt, nt).set(top);
  new Float64Array(buf, discAt, nMax).set(disc.subarray(0, nMax));
  // the 16 doubles after the n scores: NaN, never listed (the last block of 16 columns may read them)
  new Float64Array(buf, scoresAt + n * 8, 16).fill(Number.NaN);
  new Uint8Array(buf, relAt, n).fill(0);
  const sums = new Float64Array(buf, sumsAt, 3 * cells).fill(0);
  // no guess yet of each k's floor (recommend.wat recTop): the first query's passes are over every column
  new Float64Array(buf, guessAt, nk).fill(Number.NEGATIVE_INFINITY);
  wasm.recScore(
    rows.rowPtr,
    rows.colIdx,
    rows.values,
    rows.trainPtr,
    rows.trainCol,
    rows.heldPtr,
    rows.heldCol,
    queriesAt,
    nq,
    answersAt,
    width,
    ksAt,
    nk,
    topAt,
    nt,
    discAt,
    n,
    scoresAt,
    relAt,
    listScoreAt,
    listColAt,
    sumsAt,
    guessAt,
    bufAt,
  );
  return { hr: sums.slice(0, cells), ndcg: sums.slice(cells, 2 * cells), itemRecall: sums.slice(2 * cells) };
}
