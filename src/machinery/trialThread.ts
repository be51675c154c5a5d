/**
 * What a thread keeps for the trial cells it runs one after another (the worker threads, and the
 * main thread when cells run in process): the plugins the cells name, registered in the thread; a
 * buffer pool for each cell's big arrays; the distance memos of its (data set, n) groups. The
 * science (src/experiment/trial.ts runTrialCell) gives the same numbers without any of it: this
 * only saves a cell the work an earlier cell of the thread did.
 */
import type { GroupExtras, UserVectors } from '../data/types.js';
import { ALL_DISTANCES_MAX, type ExactKnn } from '../knn/angular.js';
import { getFamily, type MetricName } from '../lsh/families/index.js';
import { registerPlugins } from '../mechanisms/plugin.js';
import { runTrialCell, type TrialCellSpec, type TrialResult, type TrialSetupStore, type TrialThread } from '../experiment/trial.js';
import { distanceMemo, type DistanceMemo } from '../experiment/utility.js';
import { BufferPool } from '../util/bufferPool.js';

/** runTrialCell with the thread's plugins, buffers and distance memos. */
export function runTrialCellInThread(vectors: UserVectors, queries: Int32Array, truth: ExactKnn, spec: TrialCellSpec, setup?: TrialSetupStore, extras?: GroupExtras): TrialResult[] {
  if (spec.results.length > 0 && spec.plugins?.length) registerPlugins(spec.plugins, getFamily(spec.metric ?? 'angular').disagreement);
  try {
    return runTrialCell(vectors, queries, truth, spec, setup, THREAD, extras);
  } finally {
    // the cell's big arrays go back to the pool once its results are plain numbers
    cellPool.reclaim();
  }
}

/** The thread's buffers for trial cells (one cell at a time per thread). */
const cellPool = new BufferPool();

/**
 * The thread's distance memos (utility.ts DistanceMemo), one per (data set, n) group, known by its
 * exact neighbours (one object per group and metric in a thread), for the groups whose exact
 * neighbours do not bring every distance (ExactKnn.all: the run asks for it on angular groups).
 * The trial cells of a group answer a query with many of the same users (its near neighbours, and
 * at small ξ the rest), so the cells of a grid compute each distance once instead of once per
 * cell. Bounded: at most ALL_DISTANCES_MAX (query, user) entries per thread (12 bytes each), the
 * oldest group's memo dropped first; a group larger than that is evaluated cell by cell.
 */
const memos = new Map<ExactKnn, { vectors: UserVectors; metric: MetricName; memo: DistanceMemo }>();
function memoFor(vectors: UserVectors, queries: Int32Array, truth: ExactKnn, metric: MetricName): DistanceMemo | undefined {
  const size = queries.length * (vectors.rowPtr.length - 1);
  if (size > ALL_DISTANCES_MAX) return undefined;
  const entry = memos.get(truth);
  if (entry && entry.vectors === vectors && entry.metric === metric && entry.memo.known.length === size) return entry.memo;
  memos.delete(truth);
  let total = size;
  for (const e of memos.values()) total += e.memo.known.length;
  for (const [key, e] of memos) {
    if (total <= ALL_DISTANCES_MAX) break;
    total -= e.memo.known.length;
    memos.delete(key);
  }
  const memo = distanceMemo(queries.length, vectors.rowPtr.length - 1);
  memos.set(truth, { vectors, metric, memo });
  return memo;
}

const THREAD: TrialThread = { alloc: (length) => cellPool.float64(length), memo: memoFor };
