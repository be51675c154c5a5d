import { TopK } from '../util/topK.js';
import type { UserVectors } from '../data/types.js';
import { UserError } from '../util/errors.js';
import { DistanceSum } from './distanceSum.js';
import { ANGULAR_TILE_NNZ, ANGULAR_TILE_USERS, hammingKernelName, wasmAngularTiles } from '../kernels/kernel.js';

/**
 * Exact angular k-NN (protocol §3): for each query user, the k other users nearest by angular
 * distance arccos(clamp(x·y, -1, 1)) / π (rows are unit length), ties by smaller user index.
 *
 * Bit-for-bit agreement: every dot product here (tiles in the WebAssembly module, inverted index,
 * sparse merge, dense row) is the sum of the products x_c·y_c over the shared columns c in
 * ASCENDING column order, starting from +0. Adding the zero products of a dense row does not
 * change such a sum, so `exactKnn`, `angularDistance`, `dotDenseRow` and a naive dense loop all
 * give identical doubles, and ties are decided identically everywhere.
 */
export interface ExactKnn {
  k: number;
  /** row-major Q × k user indices, nearest first */
  indices: Int32Array;
  /** row-major Q × k angular distances in [0, 1], ascending within a row */
  distances: Float64Array;
  /**
   * When asked for (exactKnn's `all`): row-major Q × users, the distance from each query to every
   * user, the very doubles of distanceFromDot(dotDenseRow(...)) (see the module comment), so the
   * utility loss can read them instead of computing them (src/experiment/utility.ts).
   */
  all?: Float64Array;
  /** Per query, (Σ_{u≠q} d(q, u)) / (users − 1): a uniformly random other user's expected distance
   *  (u_rand, src/experiment/randomLoss.ts), summed by DistanceSum: the same double on every path. */
  meanDistance?: Float64Array;
}

/**
 * The most (query, user) distances a run keeps per (data set, n) group: ExactKnn.all from the
 * exact neighbours, else a memo per thread (src/machinery/trialThread.ts); 2M doubles = 16 MB.
 */
export const ALL_DISTANCES_MAX = 2_000_000;

/** Angular distance of two unit vectors from their dot product. */
export function distanceFromDot(dot: number): number {
  // a clamp by comparison in the hot loop, no calls
  return Math.acos(dot > 1 ? 1 : dot < -1 ? -1 : dot) / Math.PI;
}

/** Adds to `sum` the distances of dot[0..len) but place `skip`'s (the query), and returns it: a dot
 *  of exactly 0 (a user sharing no item, or none of weight) is distance exactly 0.5, counted without an acos. */
function addDistances(sum: DistanceSum, dot: Float64Array, len: number, skip: number): DistanceSum {
  let zeros = 0;
  for (let j = 0; j < len; j++) {
    if (j === skip) continue;
    const x = dot[j]!;
    if (x === 0) zeros++;
    else sum.add(distanceFromDot(x));
  }
  return sum.addTimes(0.5, zeros);
}

/** Dot product of rows i and j by a sparse merge (columns ascending within a row). */
export function dotRows(vectors: UserVectors, i: number, j: number): number {
  const { rowPtr, colIdx, values } = vectors;
  let a = rowPtr[i]!;
  const aEnd = rowPtr[i + 1]!;
  let b = rowPtr[j]!;
  const bEnd = rowPtr[j + 1]!;
  let s = 0;
  while (a < aEnd && b < bEnd) {
    const ca = colIdx[a]!;
    const cb = colIdx[b]!;
    if (ca === cb) {
      s += values[a]! * values[b]!;
      a++;
      b++;
    } else if (ca < cb) a++;
    else b++;
  }
  return s;
}

/** Angular distance between users i and j (sparse merge of the two rows). */
export function angularDistance(vectors: UserVectors, i: number, j: number): number {
  return distanceFromDot(dotRows(vectors, i, j));
}

/** Write row i as a dense vector of length n into `out` (which must have length ≥ n). */
export function densifyRow(vectors: UserVectors, i: number, out: Float64Array): void {
  if (out.length < vectors.n) throw new RangeError(`densifyRow: out has length ${out.length} < n = ${vectors.n}`);
  out.fill(0, 0, vectors.n);
  const { rowPtr, colIdx, values } = vectors;
  for (let p = rowPtr[i]!, end = rowPtr[i + 1]!; p < end; p++) out[colIdx[p]!] = values[p]!;
}

/** Dot product of a dense vector (e.g. from `densifyRow`) with row j; O(nnz of row j). */
export function dotDenseRow(dense: Float64Array, vectors: UserVectors, j: number): number {
  const { rowPtr, colIdx, values } = vectors;
  let s = 0;
  for (let p = rowPtr[j]!, end = rowPtr[j + 1]!; p < end; p++) s += dense[colIdx[p]!]! * values[p]!;
  return s;
}

/** Column-major copy of the CSR matrix: for each column, the users holding it (ascending) and values. */
export interface InvertedIndex {
  colPtr: Int32Array;
  users: Int32Array;
  values: Float64Array;
}

export function buildInvertedIndex(vectors: UserVectors): InvertedIndex {
  const { n, rowPtr, colIdx, values } = vectors;
  const numUsers = rowPtr.length - 1;
  const nnz = rowPtr[numUsers]!;
  const colPtr = new Int32Array(n + 1);
  for (let p = 0; p < nnz; p++) colPtr[colIdx[p]! + 1]!++;
  for (let c = 0; c < n; c++) colPtr[c + 1]! += colPtr[c]!;
  const fill = colPtr.slice(0, n);
  const users = new Int32Array(nnz);
  const vals = new Float64Array(nnz);
  for (let u = 0; u < numUsers; u++) {
    for (let p = rowPtr[u]!, end = rowPtr[u + 1]!; p < end; p++) {
      const dst = fill[colIdx[p]!]!++;
      users[dst] = u;
      vals[dst] = values[p]!;
    }
  }
  return { colPtr, users, values: vals };
}

/** Dots below (worst kept dot − this) cannot reach the worst kept distance: acos has slope ≥ 1,
 *  so their distance is larger by ≥ 1e-9/π, far above acos's rounding error. */
const DOT_MARGIN = 1e-9;

/** Use the dense pass when the query's postings reach 1/DENSE_FACTOR of the users. */
const DENSE_FACTOR = 4;

/** Options of `exactKnn`. */
export interface ExactKnnOptions {
  /** also every query's distance to every user (ExactKnn.all) */
  all?: boolean;
  /** also ExactKnn.meanDistance (an acos per user sharing an item: asked only where u_rand is computed) */
  means?: boolean;
  /** 'wasm': the tiles in the WebAssembly module (throws where it does not apply); 'js': the
   *  inverted index in JS; 'auto' (default): the tiles where the module runs. The same answers. */
  kernel?: 'auto' | 'js' | 'wasm';
  /** the tiles' bounds of the WebAssembly kernel (default ANGULAR_TILE_USERS users, ANGULAR_TILE_NNZ
   *  or 4n stored entries, whichever is more): for tests, which cut small data into many tiles */
  tile?: { users: number; nnz: number };
}

/**
 * Exact k nearest other users of each query (protocol §3), ties by smaller user index. Two ways
 * with the same doubles (see the module comment): with the WebAssembly module, every query
 * against the users tile by tile (`byTiles`); else per query a pass over the postings of its items
 * (`byIndex`).
 */
export function exactKnn(vectors: UserVectors, queries: Int32Array, k: number, options: ExactKnnOptions = {}): ExactKnn {
  const numUsers = vectors.rowPtr.length - 1;
  if (!Number.isInteger(k) || k < 1) throw new UserError(`k-NN: k must be a positive integer, got ${k}`);
  if (numUsers - 1 < k) {
    throw new UserError(`k-NN: k = ${k} needs at least ${k + 1} users, data set ${vectors.dataset} (n = ${vectors.n}) has ${numUsers}`);
  }
  for (let t = 0; t < queries.length; t++) {
    const q = queries[t]!;
    if (q < 0 || q >= numUsers) throw new UserError(`k-NN: query user index ${q} out of range 0..${numUsers - 1}`);
  }
  const kernel = options.kernel ?? 'auto';
  if (kernel !== 'js') {
    // a tile's transposition walks its n columns three times: with many columns, larger tiles
    const tile = options.tile ?? { users: ANGULAR_TILE_USERS, nnz: Math.max(ANGULAR_TILE_NNZ, 4 * vectors.n) };
    const out = byTiles(vectors, queries, k, options.all === true, tile, options.means === true);
    if (out) return out;
    if (kernel === 'wasm') throw new RangeError(`exact k-NN: the WebAssembly kernel does not apply (kernel ${hammingKernelName()})`);
  }
  return byIndex(vectors, queries, k, options.all === true, options.means === true);
}

/** The most stored entries of the queries' rows in the module at once (12 bytes each). */
const QUERY_BLOCK_NNZ = 1 << 20;
/** The most queries of one block (a heap each). */
const QUERY_BLOCK = 4096;

/**
 * Every query against the users tile by tile in the WebAssembly module (kernel.ts
 * wasmAngularTiles): a tile's rows transposed by column stay in the cache while each query of a
 * block adds its postings into the tile's dots, which stay in the first-level cache too; the
 * per-query pass over the whole inverted index read each posting from memory and scattered it
 * over every user's dot. Each query's dot with a user is the same sum in the same order (its
 * columns in row order), users sharing no item get dot +0 as in `byIndex`, and the heaps keep the
 * same k of the same (distance, user) pairs whatever the order they are offered in. Null when the
 * module does not run here.
 */
function byTiles(vectors: UserVectors, queries: Int32Array, k: number, wantAll: boolean, tile: { users: number; nnz: number }, means: boolean): ExactKnn | null {
  const { rowPtr } = vectors;
  const numUsers = rowPtr.length - 1;
  // the tiles: consecutive users, cut before tile.users users or tile.nnz entries
  const cuts = [0];
  let maxUsers = 1;
  let maxNnz = 0;
  for (let u0 = 0; u0 < numUsers; ) {
    let u1 = u0 + 1;
    while (u1 < numUsers && u1 - u0 < tile.users && rowPtr[u1 + 1]! - rowPtr[u0]! <= tile.nnz) u1++;
    maxUsers = Math.max(maxUsers, u1 - u0);
    maxNnz = Math.max(maxNnz, rowPtr[u1]! - rowPtr[u0]!);
    cuts.push(u1);
    u0 = u1;
  }
  const Q = queries.length;
  const indices = new Int32Array(Q * k);
  const distances = new Float64Array(Q * k);
  const all = wantAll ? new Float64Array(Q * numUsers) : null;
  const meanDistance = means ? new Float64Array(Q) : null;
  for (let b0 = 0; b0 < Q; ) {
    // a block of queries: at most QUERY_BLOCK of them, with at most QUERY_BLOCK_NNZ entries (or one)
    let b1 = b0 + 1;
    let nnz = rowPtr[queries[b0]! + 1]! - rowPtr[queries[b0]!]!;
    while (b1 < Q && b1 - b0 < QUERY_BLOCK) {
      nnz += rowPtr[queries[b1]! + 1]! - rowPtr[queries[b1]!]!;
      if (nnz > QUERY_BLOCK_NNZ) break;
      b1++;
    }
    const block = queries.subarray(b0, b1);
    const tiles = wasmAngularTiles(vectors, block, maxUsers, maxNnz);
    if (!tiles) return null;
    const { dot, cand } = tiles;
    const heaps = Array.from(block, () => new TopK(k));
    // every dot of the tile is at hand (0 for users sharing no item): the sums for meanDistance
    const sums = meanDistance ? Array.from(block, () => new DistanceSum()) : null;
    // per query: dots below it cannot enter its heap (meaningful once the heap is full)
    const worst = new Float64Array(block.length).fill(-Infinity);
    for (let t = 0; t + 1 < cuts.length; t++) {
      const u0 = cuts[t]!;
      const len = cuts[t + 1]! - u0;
      tiles.load(u0, u0 + len);
      for (let i = 0; i < block.length; i++) {
        const q = block[i]!;
        let worstDot = worst[i]!;
        const found = tiles.dots(i, worstDot);
        if (all) for (let j = 0, row = (b0 + i) * numUsers + u0; j < len; j++) all[row + j] = distanceFromDot(dot[j]!);
        if (sums) addDistances(sums[i]!, dot, len, q - u0);
        const best = heaps[i]!;
        for (let a = 0; a < found; a++) {
          const j = cand[a]!;
          const du = dot[j]!;
          if (du < worstDot || u0 + j === q) continue;
          best.offer(distanceFromDot(du), u0 + j);
          if (best.full) worstDot = Math.cos(best.worstKey * Math.PI) - DOT_MARGIN;
        }
        worst[i] = worstDot;
      }
    }
    for (let i = 0; i < block.length; i++) {
      heaps[i]!.drain(indices, distances, (b0 + i) * k);
      if (meanDistance) meanDistance[b0 + i] = sums![i]!.value() / (numUsers - 1);
    }
    b0 = b1;
  }
  return withExtras({ k, indices, distances }, all, meanDistance);
}

/** The answers with the distances to every user and the mean distances, where computed. */
function withExtras(knn: ExactKnn, all: Float64Array | null, meanDistance: Float64Array | null): ExactKnn {
  if (all) knn.all = all;
  if (meanDistance) knn.meanDistance = meanDistance;
  return knn;
}

/**
 * Per query, a pass over the inverted index. Cost per query: the postings of the query's items
 * (users sharing an item), plus — only when fewer than k such users are closer than distance 0.5 —
 * an ascending scan for the smallest-index users sharing no item (dot 0, distance exactly 0.5,
 * eligible like any other user).
 */
function byIndex(vectors: UserVectors, queries: Int32Array, k: number, wantAll: boolean, means: boolean): ExactKnn {
  const numUsers = vectors.rowPtr.length - 1;
  const { colPtr: postPtr, users: postUser, values: postValue } = buildInvertedIndex(vectors);
  const { rowPtr, colIdx, values } = vectors;
  const dot = new Float64Array(numUsers);
  // stamp[u] === query ordinal + 1 marks u as touched (shares an item) for the current query.
  const stamp = new Int32Array(numUsers);
  const touched = new Int32Array(numUsers);
  const best = new TopK(k);
  const Q = queries.length;
  const indices = new Int32Array(Q * k);
  const distances = new Float64Array(Q * k);
  // every dot is at hand here: the whole row of distances costs one acos per user sharing an item
  const all = wantAll ? new Float64Array(Q * numUsers) : null;
  const half = distanceFromDot(0);
  const meanDistance = means ? new Float64Array(Q) : null;
  const sum = means ? new DistanceSum() : null;

  for (let t = 0; t < Q; t++) {
    const q = queries[t]!;
    // Work of the sparse path ~ total postings of the query's items; when that is a sizeable
    // fraction of all users, a dense pass (no touched bookkeeping) is cheaper. Both paths give
    // identical results: an untouched user's dot is exactly 0 in either.
    let postings = 0;
    for (let p = rowPtr[q]!, end = rowPtr[q + 1]!; p < end; p++) {
      const c = colIdx[p]!;
      postings += postPtr[c + 1]! - postPtr[c]!;
    }
    best.reset();
    if (postings * DENSE_FACTOR >= numUsers) {
      dot.fill(0);
      for (let p = rowPtr[q]!, end = rowPtr[q + 1]!; p < end; p++) {
        const c = colIdx[p]!;
        const qv = values[p]!;
        for (let s = postPtr[c]!, sEnd = postPtr[c + 1]!; s < sEnd; s++) dot[postUser[s]!] += qv * postValue[s]!;
      }
      if (all) for (let u = 0, row = t * numUsers; u < numUsers; u++) all[row + u] = distanceFromDot(dot[u]!);
      if (meanDistance) meanDistance[t] = addDistances(sum!.reset(), dot, numUsers, q).value() / (numUsers - 1);
      let worstDot = -Infinity; // meaningful only when the heap is full
      for (let u = 0; u < numUsers; u++) {
        if (u === q) continue;
        const du = dot[u]!;
        if (du < worstDot) continue;
        best.offer(distanceFromDot(du), u);
        if (best.full) worstDot = Math.cos(best.worstKey * Math.PI) - DOT_MARGIN;
      }
      best.drain(indices, distances, t * k);
      continue;
    }
    const mark = t + 1;
    let nTouched = 0;
    // Accumulate in ascending column order of the query row (see the module comment).
    for (let p = rowPtr[q]!, end = rowPtr[q + 1]!; p < end; p++) {
      const c = colIdx[p]!;
      const qv = values[p]!;
      for (let s = postPtr[c]!, sEnd = postPtr[c + 1]!; s < sEnd; s++) {
        const u = postUser[s]!;
        if (stamp[u] !== mark) {
          stamp[u] = mark;
          dot[u] = 0;
          touched[nTouched++] = u;
        }
        dot[u] += qv * postValue[s]!;
      }
    }
    if (all) {
      // a user sharing no item has dot +0 in dotDenseRow too: distance exactly 0.5
      const row = t * numUsers;
      all.fill(half, row, row + numUsers);
      for (let a = 0; a < nTouched; a++) all[row + touched[a]!] = distanceFromDot(dot[touched[a]!]!);
    }
    let worstDot = -Infinity; // meaningful only when the heap is full
    sum?.reset();
    for (let a = 0; a < nTouched; a++) {
      const u = touched[a]!;
      if (u === q) continue;
      const du = dot[u]!;
      sum?.add(distanceFromDot(du));
      if (du < worstDot) continue;
      best.offer(distanceFromDot(du), u);
      if (best.full) worstDot = Math.cos(best.worstKey * Math.PI) - DOT_MARGIN;
    }
    // the users sharing no item (distance 0.5) as one count: the others but the touched (q among them)
    if (meanDistance) meanDistance[t] = sum!.addTimes(half, numUsers - nTouched - (stamp[q] === mark ? 0 : 1)).value() / (numUsers - 1);
    // Users sharing no item with the query: distance exactly 0.5; smallest indices first.
    if (best.accepts(half, 0)) {
      for (let u = 0; u < numUsers; u++) {
        if (u === q || stamp[u] === mark) continue;
        if (!best.accepts(half, u)) break;
        best.offer(half, u);
      }
    }
    best.drain(indices, distances, t * k);
  }
  return withExtras({ k, indices, distances }, all, meanDistance);
}

/** The angular distance from one query to any user, computed as exactKnn does (densifyRow +
 *  dotDenseRow); other metrics have their own (src/lsh/families, `distanceFrom`). */
export function angularDistanceFrom(vectors: UserVectors): (query: number) => (user: number) => number {
  const dense = new Float64Array(vectors.n);
  const { rowPtr, colIdx } = vectors;
  let previous = -1;
  const metric = (query: number) => {
    if (previous < 0) densifyRow(vectors, query, dense);
    else {
      // the same dense row as densifyRow, without clearing all n entries per query (every query
      // is evaluated once per mechanism and xi: with every user a query this was a visible share)
      for (let p = rowPtr[previous], end = rowPtr[previous + 1]; p < end; p++) dense[colIdx[p]] = 0;
      for (let p = rowPtr[query], end = rowPtr[query + 1]; p < end; p++) dense[colIdx[p]] = vectors.values[p];
    }
    previous = query;
    return (user: number) => distanceFromDot(dotDenseRow(dense, vectors, user));
  };
  angularMetrics.set(metric, vectors);
  return metric;
}

/** The metrics made by angularDistanceFrom and their vectors: evaluateAnswers (src/experiment/utility.ts)
 *  inlines them. */
const angularMetrics = new WeakMap<object, UserVectors>();

/** Whether `metric` is an angularDistanceFrom of exactly these vectors (so its loop may be inlined). */
export function isAngularMetricOf(metric: object, vectors: UserVectors): boolean {
  return angularMetrics.get(metric) === vectors;
}
