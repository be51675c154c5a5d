import type { UserVectors } from '../data/types.js';
import type { ExactKnn } from '../knn/angular.js';
import { densifyRow, distanceFromDot, dotDenseRow, isAngularMetricOf } from '../knn/angular.js';
import { rowSignatures } from '../knn/rowSignatures.js';

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

/** One result's answers for evaluateAnswerSets: row-major Q × width user indices, nearest first. */
export interface AnswerSet {
  answers: Int32Array;
  width: number;
  ks: number[];
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
  return evaluateAnswerSets(vectors, queries, truth, [{ answers, width, ks }], distanceFrom)[0]!;
}

function checkSet(set: AnswerSet, Q: number, truth: ExactKnn): number {
  const { ks, width, answers } = set;
  const kMax = Math.max(...ks);
  if (ks.some((k) => !Number.isInteger(k) || k < 1)) throw new RangeError(`every k must be a positive integer, got ${ks.join(',')}`);
  if (kMax > width) throw new RangeError(`answers hold ${width} neighbours per query, k = ${kMax} asked`);
  if (kMax > truth.k) throw new RangeError(`the exact neighbours hold k = ${truth.k} per query, k = ${kMax} asked`);
  if (answers.length !== Q * width) throw new RangeError(`answers has ${answers.length} entries, expected ${Q}*${width}`);
  return kMax;
}

/**
 * The distances from every query of a (data set, n) group to the users it has met as an answer,
 * kept across the trial cells of the group (Q × users; seen 1 where known holds the distance), or
 * to every user (seen null: known complete, e.g. the exact neighbours' ExactKnn.all). A distance
 * is the same double whichever cell computes it, so the means do not depend on it.
 */
export interface DistanceMemo {
  seen: Int32Array | null;
  known: Float64Array;
}

/** An empty memo for `queries` queries over `users` users. */
export function distanceMemo(queries: number, users: number): DistanceMemo {
  return { seen: new Int32Array(queries * users), known: new Float64Array(queries * users) };
}

/**
 * Stored entries (12 bytes each: a column index and a value) from which the rows of a query's
 * answers are read through first when there is no memo (touchAnswerRows): below, the whole table
 * stays in the processor's caches and the pass only costs (the checkins-nyc grid, 3,272 and 3,751
 * users of 3.6 and 8.8 entries: a fifth of evaluateAnswerSets's time, in a profile of one worker).
 */
export const READ_THROUGH_MIN_ENTRIES = 1 << 20;

/** distanceFromDot(±0): acos(0) is the double π/2, half of Math.PI's double exactly. */
const DISJOINT_DISTANCE = 0.5;

/** Answers per query above which a complete row is read through first: one per 32 users (8 doubles per 64-byte line). */
const ANSWERS_PER_LINE_STREAMED = 32;
/** Where the sums of the rows read through go (kept, so that no compiler drops the reads). */
let _touchSink = 0;

/** The sum of a[from], a[from + 8], ... below from + count: one read per 64-byte line. */
function sumEvery8th(a: Float64Array, from: number, count: number): number {
  let sum = 0;
  for (let p = from, end = from + count; p < end; p += 8) sum += a[p];
  return sum;
}

/**
 * Reads every 16th column index and every 8th value of the rows of query qi's answers not yet
 * known (seen[row + u] !== mark), and returns a sum of them (kept, so the reads stay). In a group
 * too large for a distance memo the rows are not in the cache, and the dot products met their
 * misses one row after another; these independent loads (one per 64-byte line) let them overlap
 * (1,000 queries' answers over 162,541 users: 1.3-1.5x less time for evaluateAnswerSets in a
 * micro-benchmark).
 */
function touchAnswerRows(sets: AnswerSet[], kMaxes: number[], qi: number, seen: Int32Array, row: number, mark: number, rowPtr: Int32Array, colIdx: Int32Array, values: Float64Array): number {
  let sum = 0;
  for (let s = 0; s < sets.length; s++) {
    const { answers, width } = sets[s]!;
    const a0 = qi * width;
    for (let i = 0, kMax = kMaxes[s]!; i < kMax; i++) {
      const u = answers[a0 + i]!;
      if (seen[row + u] === mark) continue;
      const start = rowPtr[u]!;
      const end = rowPtr[u + 1]!;
      for (let p = start; p < end; p += 16) sum += colIdx[p]!;
      for (let p = start; p < end; p += 8) sum += values[p]!;
    }
  }
  return sum;
}

/** Stamps each of a query's first `placed` true neighbours (from t0) with its first place in the list. */
function stampPlaces(indices: Int32Array, t0: number, placed: number, mark: number, place: Int32Array): void {
  for (let j = placed - 1; j >= 0; j--) {
    const v = indices[t0 + j]!;
    if (v >= 0) {
      place[2 * v] = mark;
      place[2 * v + 1] = j;
    }
  }
}

/** A padded answer's (no user's) place: searched, as a padded true list may hold the same; kMax when absent. */
function searchPlace(indices: Int32Array, t0: number, kMax: number, u: number): number {
  for (let j = 0; j < kMax; j++) if (indices[t0 + j] === u) return j;
  return kMax;
}

/**
 * evaluateAnswers for several results of the same queries at once (the results of one trial
 * cell): each query's row is prepared once, and a user that answers the query in several results
 * has its distance computed once (the same double every time), and a user sharing no column with
 * the query (their rowSignatures share no bit) has distance 0.5 without a dot product (the double
 * distanceFromDot gives its dot of +0). Each result's sums run over the
 * queries in their order, as evaluateAnswers's: the means are the same to the bit.
 * `readThrough` (default: from READ_THROUGH_MIN_ENTRIES stored entries on) reads the answers' rows
 * through first where there is no memo; it changes no result.
 */
export function evaluateAnswerSets(
  vectors: UserVectors,
  queries: Int32Array,
  truth: ExactKnn,
  sets: AnswerSet[],
  distanceFrom?: (query: number) => (user: number) => number,
  memo?: DistanceMemo,
  readThrough = vectors.colIdx.length >= READ_THROUGH_MIN_ENTRIES,
): UtilityMeans[] {
  const Q = queries.length;
  if (Q === 0) throw new RangeError('no queries to evaluate');
  if (truth.indices.length !== Q * truth.k) throw new RangeError(`truth has ${truth.indices.length / truth.k} queries, expected ${Q}`);
  const kMaxes = sets.map((set) => checkSet(set, Q, truth));
  const lossSums = sets.map((set) => new Float64Array(set.ks.length));
  const recallSums = sets.map((set) => new Float64Array(set.ks.length));
  const returnedDist = new Float64Array(Math.max(1, ...kMaxes));
  const placeOf = new Int32Array(returnedDist.length);
  // the sums of a query's first k returned (rSum[k]) and true (tdSum[k]) distances, each added in
  // order from 0 once for every k: the same doubles as a sum per k (its first k terms in the same order)
  const rSum = new Float64Array(returnedDist.length + 1);
  const tdSum = new Float64Array(returnedDist.length + 1);
  const kTop = Math.max(0, ...kMaxes);
  // The loop reads answers and truth by offset and, for the default angular metric, keeps one dense
  // query row (no closure, no subarray per query: with every user a query, their garbage made
  // utility cost more than the Hamming k-NN). The arithmetic is that of utilityLoss and recallAtK.
  const dense = !distanceFrom || isAngularMetricOf(distanceFrom, vectors) ? new Float64Array(vectors.n) : null;
  const { rowPtr, colIdx, values } = vectors;
  const users = rowPtr.length - 1;
  const { complete, seen, known, stride } = memoRows(memo, Q, users);
  // A complete table's row is read at random places (the answers); when they are many (several
  // results of a cell), reading the row through once first costs less than a cache miss per
  // answer: the growth of the shared MovieLens grid by one ξ spent 0.8 worker CPU-s here, 0.5 with
  // it (CPU profiles; 610 users, 7 results × 10 answers per query). The sum only keeps the reads.
  const touchRow = complete && kMaxes.reduce((a, b) => a + b, 0) * ANSWERS_PER_LINE_STREAMED >= users;
  // each true neighbour's first place in the query's list, stamped per query: an answer's place is one lookup
  // instead of a search (a quarter of this function's time on a check-in table, every user a query)
  const place = new Int32Array(2 * users); // user v's mark at 2v, its place at 2v + 1: one read of memory for both
  const placed = Math.min(truth.k, Math.max(0, ...kMaxes));
  // rows whose column signatures share no bit share no column: distance exactly 0.5, what
  // distanceFromDot(dotDenseRow(...)) gives for their dot of +0, without the dot product (rowSignatures)
  const sig = dense && !complete ? rowSignatures(vectors) : new Uint32Array(4);
  let q0 = 0;
  let q1 = 0;
  let q2 = 0;
  let q3 = 0;
  let previous = -1;
  let touched = 0;
  for (let qi = 0; qi < Q; qi++) {
    const query = queries[qi];
    let distanceTo: ((user: number) => number) | null = null;
    if (complete) {
      if (touchRow) touched += sumEvery8th(known, qi * stride, users);
    } else if (dense) {
      previous = denseRowOf(vectors, query, previous, dense);
      q0 = sig[query * 4]!;
      q1 = sig[query * 4 + 1]!;
      q2 = sig[query * 4 + 2]!;
      q3 = sig[query * 4 + 3]!;
    } else distanceTo = (distanceFrom as (query: number) => (user: number) => number)(query);
    const mark = memo ? 1 : qi + 1;
    const row = qi * stride;
    const t0 = qi * truth.k;
    stampPlaces(truth.indices, t0, placed, qi + 1, place);
    runningSums(truth.distances, t0, kTop, tdSum);
    // without a memo (a group too large for one), the answers' rows are read through first
    if (dense && !memo && readThrough) touched += touchAnswerRows(sets, kMaxes, qi, seen, row, mark, rowPtr, colIdx, values);
    for (let s = 0; s < sets.length; s++) {
      const { answers, width, ks } = sets[s]!;
      const kMax = kMaxes[s]!;
      const a0 = qi * width;
      for (let i = 0; i < kMax; i++) {
        const u = answers[a0 + i];
        // the answer's first place in the true list (kMax when not among its first kMax): recall@k
        // counts the answers placed below k, what recallAtK's nested loop counts, by one lookup
        placeOf[i] = u >= 0 ? (place[2 * u] === qi + 1 && place[2 * u + 1]! < kMax ? place[2 * u + 1]! : kMax) : searchPlace(truth.indices, t0, kMax, u);
        if (complete) returnedDist[i] = known[row + u];
        // no common signature bit: no common column, distance 0.5 (the test costs less than the memo's)
        else if (dense && ((sig[u * 4]! & q0) | (sig[u * 4 + 1]! & q1) | (sig[u * 4 + 2]! & q2) | (sig[u * 4 + 3]! & q3)) === 0) returnedDist[i] = DISJOINT_DISTANCE;
        else if (seen[row + u] === mark) returnedDist[i] = known[row + u];
        else {
          let d: number;
          if (!dense) d = (distanceTo as (user: number) => number)(u);
          else {
            const dot = dotDenseRow(dense, vectors, u);
            d = dot === 0 ? DISJOINT_DISTANCE : distanceFromDot(dot);
          }
          seen[row + u] = mark;
          known[row + u] = d;
          returnedDist[i] = d;
        }
      }
      runningSums(returnedDist, 0, kMax, rSum);
      addQueryMeans(ks, rSum, tdSum, placeOf, lossSums[s]!, recallSums[s]!);
    }
  }
  _touchSink = touched;
  return sets.map((set, s) => meansOf(set.ks, lossSums[s]!, recallSums[s]!, Q));
}

/**
 * The memo of the distances as evaluateAnswerSets reads it: seen[row + u] === mark when
 * known[row + u] holds the distance from query qi to user u. Without a memo from the caller, one
 * row reused by every query (stride 0, mark = query ordinal + 1); with one, a row per query (mark
 * 1) kept across calls; with a complete one (seen null), every known[row + u] holds it and no
 * distance is computed.
 */
function memoRows(memo: DistanceMemo | undefined, Q: number, users: number): { complete: boolean; seen: Int32Array; known: Float64Array; stride: number } {
  if (memo && (memo.known.length !== Q * users || (memo.seen && memo.seen.length !== Q * users))) throw new RangeError(`the distance memo holds ${memo.known.length} entries, expected ${Q}*${users}`);
  if (!memo) return { complete: false, seen: new Int32Array(users), known: new Float64Array(users), stride: 0 };
  return { complete: memo.seen === null, seen: memo.seen ?? new Int32Array(0), known: memo.known, stride: users };
}

/** `query`'s dense row in `dense`, which holds `previous`'s (none when negative): the entries of
 *  densifyRow, without clearing all n per query. Returns query. */
function denseRowOf(vectors: UserVectors, query: number, previous: number, dense: Float64Array): number {
  const { rowPtr, colIdx, values } = vectors;
  if (previous < 0) densifyRow(vectors, query, dense);
  else {
    for (let p = rowPtr[previous]!, end = rowPtr[previous + 1]!; p < end; p++) dense[colIdx[p]!] = 0;
    for (let p = rowPtr[query]!, end = rowPtr[query + 1]!; p < end; p++) dense[colIdx[p]!] = values[p]!;
  }
  return query;
}

/** out[i + 1] = values[from] + ... + values[from + i] for i < count, added in order from 0: the
 *  very double of a sum of those first i + 1 terms in order, for every i at once. */
function runningSums(values: Float64Array, from: number, count: number, out: Float64Array): void {
  for (let i = 0, sum = 0; i < count; i++) {
    sum += values[from + i]!;
    out[i + 1] = sum;
  }
}

/** Adds one query's utility loss and recall at each k of `ks` to the result's sums (the arithmetic of
 *  utilityLoss and recallAtK): rSum and tdSum its running sums of returned and true distances,
 *  placeOf each answer's first place in the true list. */
function addQueryMeans(ks: number[], rSum: Float64Array, tdSum: Float64Array, placeOf: Int32Array, lossSum: Float64Array, recallSum: Float64Array): void {
  for (let t = 0; t < ks.length; t++) {
    const k = ks[t]!;
    let hits = 0;
    for (let i = 0; i < k; i++) if (placeOf[i]! < k) hits++;
    lossSum[t] += rSum[k]! / k - tdSum[k]! / k;
    recallSum[t] += hits / k;
  }
}

/** Per-k means from the sums over Q queries. */
function meansOf(ks: number[], lossSum: Float64Array, recallSum: Float64Array, Q: number): UtilityMeans {
  const loss = new Float64Array(ks.length);
  const recall = new Float64Array(ks.length);
  for (let t = 0; t < ks.length; t++) {
    loss[t] = lossSum[t]! / Q;
    recall[t] = recallSum[t]! / Q;
  }
  return { k: ks.slice(), loss, recall };
}
