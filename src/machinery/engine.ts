/**
 * The computations the runner orchestrates, behind one interface so the runner, the workers and
 * the tests (which inject a tiny fake) share the orchestration code. The real engine is the data
 * loader, exact k-NN, query sampling, trial evaluation, mechanism registry and budget table of the
 * other modules.
 */
import type { DatasetSpec } from '../data/spec.js';
import type { GroupExtras, LoadedDataset, RecommendSplit, UserVectors } from '../data/types.js';
import type { ExactKnn } from '../knn/angular.js';
import type { Progress } from '../util/progress.js';
import type { MechanismInfo } from '../mechanisms/types.js';

import type { CellRow, TrialCellSpec, TrialResult, TrialSetupStore } from '../experiment/trial.js';
import type { BudgetRecord } from '../privacy/budget.js';

export interface LoadOptions {
  /** the LSH family whose view of the data to load (jaccard: item sets before centring) */
  metric?: 'angular' | 'jaccard';
  cacheDir?: string | null;
  progress?: Progress;
  skipBadRows?: boolean;
  /** a recommendation split (config `recommend`): training vectors, and `LoadedDataset.recommend` per n */
  recommend?: RecommendSplit;
  /** the run's seed (`split: random` draws from it) */
  seed?: number | string;
}

export interface Engine {
  loadDataset(spec: DatasetSpec, dims: number[], opts: LoadOptions): Promise<LoadedDataset>;
  sampleQueries(users: number, queries: number, runSeed: number, dataset: string, n: number): Int32Array;
  /** `all`: also each query's distance to every user (ExactKnn.all), where the metric gives it; `means`: also ExactKnn.meanDistance */
  exactKnn(vectors: UserVectors, queries: Int32Array, k: number, metric?: 'angular' | 'jaccard', all?: boolean, means?: boolean): ExactKnn;
  exactRows(vectors: UserVectors, queries: Int32Array, truth: ExactKnn, k: number[], metric?: 'angular' | 'jaccard'): CellRow[];
  /** `setup`: where the cell's setup is kept between runs (src/machinery/setupCache.ts); `recommend`: the split's items, for results asked with `top` */
  runTrialCell(vectors: UserVectors, queries: Int32Array, truth: ExactKnn, spec: TrialCellSpec, setup?: TrialSetupStore, extras?: GroupExtras): TrialResult[];
  mechanism(name: string): MechanismInfo;
  /** budgets.csv's rows: one per (accountant, d, kappa, xi) */
  budgetRows(args: { accountants: readonly string[]; d: number[]; kappa: number[]; xi: number[]; delta: number; disagreement?: (d: number) => number }): BudgetRecord[];
}

/** What a worker computes: the cell kernels only (no loaders, so workers start fast). */
export type ComputeEngine = Pick<Engine, 'exactKnn' | 'exactRows' | 'runTrialCell'>;

export async function loadComputeEngine(): Promise<ComputeEngine> {
  const [families, trial, thread] = await Promise.all([import('../lsh/families/index.js'), import('../experiment/trial.js'), import('./trialThread.js')]);
  return {
    exactKnn: (v, q, k, metric, all, means) => families.getFamily(metric ?? 'angular').exactKnn(v, q, k, { all, means }),
    exactRows: (v, q, t, k, metric) => trial.exactRows(v, q, t, k, metric),
    runTrialCell: (v, q, t, spec, setup, extras) => thread.runTrialCellInThread(v, q, t, spec, setup, extras),
  };
}

/**
 * The real engine. Modules are imported lazily so that commands which never run an experiment
 * do not load them.
 */
export async function loadRealEngine(): Promise<Engine> {
  const [compute, families, queries, mech, privacy] = await Promise.all([
    loadComputeEngine(),
    import('../lsh/families/load.js'),
    import('../experiment/queries.js'),
    import('../mechanisms/index.js'),
    import('../privacy/index.js'),
  ]);
  return {
    ...compute,
    loadDataset: async (spec, dims, opts) => families.loadFamilyData((await import('../lsh/families/index.js')).getFamily(opts.metric ?? 'angular'), spec, dims, opts),
    sampleQueries: (users, q, seed, dataset, n) => queries.sampleQueries(users, q, seed, dataset, n),
    mechanism: (name) => mech.mechanismInfo(name),
    budgetRows: (args) => privacy.budgetRows(args),
  };
}
