import { TopK } from '../util/topK.js';
import type { UserVectors } from '../data/types.js';
import { UserError } from '../util/errors.js';
import { buildInvertedIndex, type ExactKnn } from './angular.js';
import { DistanceSum } from './distanceSum.js';

/**
 * Exact Jaccard k-NN. A user is the SET of columns of its row (the support; values are ignored),
 * and d_J(S, S') = 1 − |S ∩ S'| / |S ∪ S'|. For each query: the k other users with the smallest
 * d_J, ties by smaller user index (protocol §3, as the angular k-NN).
 *
 * Every distance is `jaccardFromCounts(|S∩S'|, |S|, |S'|)`: one division of two exact integers,
 * correctly rounded, so equal ratios give equal doubles and ties are decided exactly; the utility
 * loss (src/lsh/families/jaccard.ts `distanceFrom`) uses the same function, so the exact answer
 * has a loss of exactly 0.
 */
export function jaccardFromCounts(intersection: number, sizeA: number, sizeB: number): number {
  return 1 - intersection / (sizeA + sizeB - intersection);
}

/** Size of the intersection of rows i and j (sparse merge; columns ascending within a row). */
export function intersectRows(data: UserVectors, i: number, j: number): number {
  const { rowPtr, colIdx } = data;
  let a = rowPtr[i]!;
  const aEnd = rowPtr[i + 1]!;
  let b = rowPtr[j]!;
  const bEnd = rowPtr[j + 1]!;
  let c = 0;
  while (a < aEnd && b < bEnd) {
    const ca = colIdx[a]!;
    const cb = colIdx[b]!;
    if (ca === cb) {
      c++;
      a++;
      b++;
    } else if (ca < cb) a++;
    else b++;
  }
  return c;
}

/** Jaccard distance between the item sets of users i and j. */
export function jaccardDistance(data: UserVectors, i: number, j: number): number {
  const size = (u: number) => data.rowPtr[u + 1]! - data.rowPtr[u]!;
  return jaccardFromCounts(intersectRows(data, i, j), size(i), size(j));
}

/**
 * Exact k nearest other users of each query by Jaccard distance. Cost per query: the postings of
 * the query's items (users sharing an item), then — only when fewer than k of those are closer
 * than 1 — the smallest-index users sharing no item (distance exactly 1).
 */
export function jaccardKnn(data: UserVectors, queries: Int32Array, k: number): ExactKnn {
  const numUsers = data.rowPtr.length - 1;
  if (!Number.isInteger(k) || k < 1) throw new UserError(`k-NN: k must be a positive integer, got ${k}`);
  if (numUsers - 1 < k) throw new UserError(`k-NN: k = ${k} needs at least ${k + 1} users, data set ${data.dataset} (n = ${data.n}) has ${numUsers}`);
  for (let t = 0; t < queries.length; t++) {
    const q = queries[t]!;
    if (q < 0 || q >= numUsers) throw new UserError(`k-NN: query user index ${q} out of range 0..${numUsers - 1}`);
  }
  const { colPtr, users: postUser } = buildInvertedIndex(data);
  const { rowPtr, colIdx } = data;
  const count = new Int32Array(numUsers);
  const stamp = new Int32Array(numUsers);
  const touched = new Int32Array(numUsers);
  const best = new TopK(k);
  const indices = new Int32Array(queries.length * k);
  const distances = new Float64Array(queries.length * k);
  // ExactKnn.meanDistance: the users sharing an item, then those sharing none (distance 1) as one count
  const meanDistance = new Float64Array(queries.length);
  const sum = new DistanceSum();
  for (let t = 0; t < queries.length; t++) {
    const q = queries[t]!;
    const mark = t + 1;
    let nTouched = 0;
    for (let p = rowPtr[q]!, end = rowPtr[q + 1]!; p < end; p++) {
      const c = colIdx[p]!;
      for (let s = colPtr[c]!, sEnd = colPtr[c + 1]!; s < sEnd; s++) {
        const u = postUser[s]!;
        if (stamp[u] !== mark) {
          stamp[u] = mark;
          count[u] = 0;
          touched[nTouched++] = u;
        }
        count[u]++;
      }
    }
    const sizeQ = rowPtr[q + 1]! - rowPtr[q]!;
    sum.reset();
    let others = 0;
    for (let a = 0; a < nTouched; a++) {
      const u = touched[a]!;
      if (u === q) continue;
      const d = jaccardFromCounts(count[u]!, sizeQ, rowPtr[u + 1]! - rowPtr[u]!);
      sum.add(d);
      others++;
      best.offer(d, u);
    }
    sum.addTimes(1, numUsers - 1 - others);
    meanDistance[t] = sum.value() / (numUsers - 1);
    for (let u = 0; u < numUsers && best.accepts(1, u); u++) {
      if (u !== q && stamp[u] !== mark) best.offer(1, u);
    }
    best.drain(indices, distances, t * k);
  }
  return { k, indices, distances, meanDistance };
}
