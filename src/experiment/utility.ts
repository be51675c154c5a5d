import type { UserVectors } from '../data/types.js';
import type { ExactKnn } from '../knn/angular.js';
import { densifyRow, distanceFromDot, dotDenseRow, isAngularMetricOf } from '../knn/angular.js';

/**
 * Utility loss of one answer (protocol §6): mean true angular distance from the query to the first
 * k returned users minus the mean over its true k nearest neighbours. Both lists are summed in list
 * order, so an answer equal to the true neighbours gives exactly 0.
 */
export function utilityLoss(returnedDistances: ArrayLike<number>, trueDistances: ArrayLike<number>, k: number): number {
  let r = 0;
  let t = 0;
  for (let i = 0; i < k; i++) {
    r += returnedDistances[i];
    t += trueDistances[i];
  }
  return r / k - t / k;
}

/** recall@k = |first k returned ∩ true k-NN| / k (quadratic in k: k is small). With ties at the
 *  true k-th distance the true set is the one with the smaller indices (protocol §3). */
export function recallAtK(returned: ArrayLike<number>, trueNeighbours: ArrayLike<number>, k: number): number {
  let hits = 0;
  for (let i = 0; i < k; i++) {
    const u = returned[i];
    for (let j = 0; j < k; j++) {
      if (trueNeighbours[j] === u) {
        hits++;
        break;
      }
    }
  }
  return hits / k;
}

/** Per-k means over the queries of utility loss and recall. */
export interface UtilityMeans {
  k: number[];
  loss: Float64Array;
  recall: Float64Array;
}

/**
 * Evaluates answers (row-major Q x width user indices, nearest first; every k <= width is read as
 * the prefix of length k) against the exact neighbours of the same queries. True distances come
 * from `truth`; returned distances are computed with the very dot product exactKnn uses
 * (densifyRow + dotDenseRow, see src/knn/exact.ts), so identical lists give a loss of exactly 0.
 * Sums run over queries in their order: the floating-point result is deterministic.
 * `distanceFrom` is the metric (default angular; the Jaccard family passes its own).
 */
export function evaluateAnswers(
  vectors: UserVectors,
  queries: Int32Array,
  truth: ExactKnn,
  answers: Int32Array,
  width: number,
  ks: number[],
  distanceFrom?: (query: number) => (user: number) => number,
): UtilityMeans {
  const Q = queries.length;
  if (Q === 0) throw new RangeError('no queries to evaluate');
  const kMax = Math.max(...ks);
  if (ks.some((k) => !Number.isInteger(k) || k < 1)) throw new RangeError(`every k must be a positive integer, got ${ks.join(',')}`);
  if (kMax > width) throw new RangeError(`answers hold ${width} neighbours per query, k = ${kMax} asked`);
  if (kMax > truth.k) throw new RangeError(`the exact neighbours hold k = ${truth.k} per query, k = ${kMax} asked`);
  if (answers.length !== Q * width) throw new RangeError(`answers has ${answers.length} entries, expected ${Q}*${width}`);
  if (truth.indices.length !== Q * truth.k) throw new RangeError(`truth has ${truth.indices.length / truth.k} queries, expected ${Q}`);
  const lossSum = new Float64Array(ks.length);
  const recallSum = new Float64Array(ks.length);
  const returnedDist = new Float64Array(kMax);
  // The loop reads answers and truth by offset and, for the default angular metric, keeps one dense
  // query row (no closure, no subarray per query: with every user a query, their garbage made
  // utility cost more than the Hamming k-NN). The arithmetic is that of utilityLoss and recallAtK.
  const dense = !distanceFrom || isAngularMetricOf(distanceFrom, vectors) ? new Float64Array(vectors.n) : null;
  const { rowPtr, colIdx, values } = vectors;
  let previous = -1;
  for (let qi = 0; qi < Q; qi++) {
    const a0 = qi * width;
    if (dense) {
      const query = queries[qi];
      if (previous < 0) densifyRow(vectors, query, dense);
      else {
        for (let p = rowPtr[previous], end = rowPtr[previous + 1]; p < end; p++) dense[colIdx[p]] = 0;
        for (let p = rowPtr[query], end = rowPtr[query + 1]; p < end; p++) dense[colIdx[p]] = values[p];
      }
      previous = query;
      for (let i = 0; i < kMax; i++) returnedDist[i] = distanceFromDot(dotDenseRow(dense, vectors, answers[a0 + i]));
    } else {
      const distanceTo = (distanceFrom as (query: number) => (user: number) => number)(queries[qi]);
      for (let i = 0; i < kMax; i++) returnedDist[i] = distanceTo(answers[a0 + i]);
    }
    const t0 = qi * truth.k;
    for (let t = 0; t < ks.length; t++) {
      const k = ks[t];
      let r = 0;
      let td = 0;
      let hits = 0;
      for (let i = 0; i < k; i++) {
        r += returnedDist[i];
        td += truth.distances[t0 + i];
        const u = answers[a0 + i];
        for (let j = 0; j < k; j++) {
          if (truth.indices[t0 + j] === u) {
            hits++;
            break;
          }
        }
      }
      lossSum[t] += r / k - td / k;
      recallSum[t] += hits / k;
    }
  }
  const loss = new Float64Array(ks.length);
  const recall = new Float64Array(ks.length);
  for (let t = 0; t < ks.length; t++) {
    loss[t] = lossSum[t] / Q;
    recall[t] = recallSum[t] / Q;
  }
  return { k: ks.slice(), loss, recall };
}
