/**
 * The work of a run: the pending cells, group by group (one group per data set and n). A group's
 * exact neighbours come first (from the k-NN cache, or split over the threads), then its trial
 * cells run on the executor, most expensive first. Every finished cell is stored at once, so a
 * killed run keeps all but the cells in flight.
 */
import type { GroupExtras, UserVectors } from '../data/types.js';
import { ALL_DISTANCES_MAX, type ExactKnn } from '../knn/angular.js';
import type { Progress } from '../util/progress.js';
import { formatCount } from '../util/format.js';
import { InterruptedError } from '../util/errors.js';
import type { SignalGuard } from '../util/signals.js';
import type { ExperimentConfig } from '../experiment/config/schema.js';
import { trialSpec, type Cell, type ResultSpec, type TrialCell } from '../experiment/grid.js';
import { estimateCost } from './shards.js';
import type { ExactRecord, StoredResult, TrialRecord } from '../experiment/records.js';
import type { TrialResult } from '../experiment/trial.js';
import { ALGORITHM_VERSION } from '../experiment/version.js';
import { randomLoss } from '../experiment/randomLoss.js';
import { evaluationsIn } from '../evaluations/index.js';
import type { GroupData, OwnRecord } from '../evaluations/measure.js';
import type { Engine } from './engine.js';
import { concatExact, groupKey, type ExactResult, type Executor } from './executor.js';
import { knnCachePath, readKnnCache, writeKnnCache } from './knnCache.js';
import { setupCachePath } from './setupCache.js';
import type { LoadedData } from './load.js';
import { exactEvaluations, inRecordEvaluations, type RunPlan } from './plan.js';
import { STORE_FORMAT, type CellStore } from './store.js';
import type { RecordStore } from './recordStore.js';

export interface ComputeContext {
  cfg: ExperimentConfig;
  plan: RunPlan;
  data: LoadedData;
  engine: Engine;
  executor: Executor;
  store: CellStore;
  /** the store folders of the config's evaluations with one of their own (attack/), by folder name */
  ownStores?: ReadonlyMap<string, RecordStore<OwnRecord>>;
  progress: Progress;
  guard: SignalGuard;
  cacheDir: string | null;
  /**
   * Called once, when fewer trial cells are left to finish than there are threads: from then on a
   * core idles, where work this thread would otherwise do beside the workers' start fits in
   */
  onThreadFree?: () => void;
}

/** How many results and cells have been computed so far (counted as they finish). */
export interface ComputeCounts {
  computed: number;
  cellsComputed: number;
}

/** Computes every pending cell, counting into `done` as cells finish (so an interruption can say how far it got). */
export async function computePending(ctx: ComputeContext, done: ComputeCounts): Promise<void> {
  const { plan, executor, progress } = ctx;
  if (plan.cellsTodo.length > 0) {
    const toCompute = plan.total - plan.reused;
    progress.start('cells', plan.cellsTodo.length, {
      totalCost: plan.cellsTodo.reduce((sum, c) => sum + plan.costOf(c), 0),
      startLine: `computing ${formatCount(toCompute)} results in ${formatCount(plan.cellsTodo.length)} cells on ${executor.threads} thread${executor.threads === 1 ? '' : 's'}`,
    });
  }
  const groups = new Map<string, Cell[]>();
  for (const c of plan.cellsTodo) {
    const g = groupKey(c.dataset, c.n);
    if (!groups.has(g)) groups.set(g, []);
    groups.get(g)!.push(c);
  }
  const trialsLeft = whenThreadFree(plan.cellsTodo.filter((c) => c.kind === 'trial').length, executor.threads, ctx.onThreadFree);
  for (const [gk, group] of groups) {
    if (ctx.guard.signal) throw new InterruptedError(ctx.guard.signal);
    await computeGroup(ctx, gk, group, done, trialsLeft);
  }
}

/**
 * Counts finished trial cells down from `cells` (the returned function takes how many more have
 * finished: 0 when a group's trial cells start) and calls `free` once, when fewer are left than
 * `threads`: a thread then has none to compute.
 */
export function whenThreadFree(cells: number, threads: number, free?: () => void): (finished: number) => void {
  let left = cells;
  return (finished) => {
    left -= finished;
    if (free && left < threads) {
      const call = free;
      free = undefined;
      call();
    }
  };
}

/** One (data set, n) group: the exact neighbours (and the exact cell), then the trial cells. */
async function computeGroup(ctx: ComputeContext, gk: string, group: Cell[], done: ComputeCounts, trialsLeft: (finished: number) => void): Promise<void> {
  const { cfg, plan, engine, executor, store, progress } = ctx;
  const first = group[0];
  const vectors = ctx.data.loaded.get(first.dataset)!.vectors.get(first.n)!;
  const users = vectors.rowPtr.length - 1;
  // what the group carries beside its vectors (a recommendation split's items, item sets)
  const loaded = ctx.data.loaded.get(first.dataset)!;
  const extras: GroupExtras = {};
  const recommend = loaded.recommend?.get(first.n);
  if (recommend) extras.recommend = recommend;
  const items = loaded.items?.get(first.n);
  if (items) extras.items = items;
  const groupData: GroupData = { vectors, ...extras };
  let queries = engine.sampleQueries(users, cfg.queries, cfg.seed, first.dataset, first.n);
  // what the evaluations ask of the data (a recommendation split: the users with a held-out item)
  for (const e of evaluationsIn(cfg)) if (e.queries) queries = e.queries(groupData, queries, first);
  executor.setData(gk, vectors, queries, extras);
  const exactCell = group.find((c) => c.kind === 'exact');
  const { truth, exactMs } = await exactNeighbours(ctx, gk, first, queries, users, exactCell !== undefined);
  if (exactCell) {
    const rows = engine.exactRows(vectors, queries, truth, plan.ks, cfg.metric);
    // the evaluations' own values on the exact record (the recommendation baselines), after `ms`
    const baselines: Record<string, unknown> = {};
    for (const { exact } of exactEvaluations(cfg)) baselines[exact.field] = exact.compute(groupData, queries, truth, plan.ks, cfg);
    const rec: ExactRecord = {
      format: STORE_FORMAT,
      key: exactCell.key,
      kind: 'exact',
      hash: plan.exactHashes.get(exactCell.key)!,
      queries: queries.length,
      kmax: plan.kmax,
      rows,
      nn: nnOf(vectors, queries, truth),
      random: randomLoss(truth, plan.ks),
      ms: exactMs,
      ...baselines,
    };
    store.write(rec);
    plan.records.set(exactCell.key, rec);
    done.computed++;
    done.cellsComputed++;
    progress.increment(1, plan.costOf(exactCell));
  }
  executor.setTruth(gk, truth);
  // most expensive first, so no worker idles on a long cell at the end of the group
  // (the order cannot change a result: every result depends only on its own seeds)
  const trialCells = group.filter((c): c is TrialCell => c.kind === 'trial');
  const own = [...plan.own.entries()];
  const ownTodo = (c: TrialCell) => own.map(([folder, o]) => ({ folder, o, todo: o.pending.get(c.key) ?? [] }));
  const cost = (c: TrialCell) => estimateCost(cfg, c, users, queries.length, (plan.pending.get(c.key)?.length ?? 0) + ownTodo(c).reduce((s, t) => s + t.todo.length, 0));
  trialsLeft(0);
  await Promise.all(
    trialCells
      .map((c, i) => ({ c, i }))
      .sort((a, b) => cost(b.c) - cost(a.c) || a.i - b.i)
      .map(async ({ c }) => {
        const todo = plan.pending.get(c.key) ?? [];
        const others = ownTodo(c);
        const more = others.flatMap(({ o, todo: t }) => t.map((p) => ({ name: o.name, spec: p.spec, asked: p.asked })));
        const setup = ctx.cacheDir ? setupCachePath(ctx.cacheDir, setupIdentity(ctx, c)) : undefined;
        const out = await executor.run({ kind: 'trial', key: c.key, spec: trialSpec(cfg, c, todo, more), ...(setup ? { setup } : {}) });
        // the cell record is written only when it changes: an evaluation of its own store added to a finished grid leaves it as it is
        if (todo.length > 0) {
          const rec = mergeTrialRecord(cfg, plan.records.get(c.key) as TrialRecord | undefined, c.key, queries.length, todo, out.result as TrialResult[], plan.resultHashes.get(c.key)!, out.ms);
          store.write(rec);
          plan.records.set(c.key, rec);
        }
        let entries = 0;
        for (const { folder, o, todo: t } of others) {
          if (t.length === 0) continue;
          const target = ctx.ownStores?.get(folder);
          if (!target) continue;
          const rec = o.store.merge(o.records.get(c.key), c.key, t, out.result as TrialResult[], o.hashes.get(c.key)!, out.ms);
          target.write(rec);
          o.records.set(c.key, rec);
          entries += t.reduce((s, p) => s + o.store.count(p.asked), 0);
        }
        done.computed += todo.length + entries;
        done.cellsComputed++;
        progress.increment(1, plan.costOf(c));
        trialsLeft(1);
      }),
  );
  executor.drop(gk);
}

/**
 * The group's true neighbours: from the k-NN cache, or computed with the queries split over the
 * threads. Angular groups of at most ALL_DISTANCES_MAX (query, user) pairs come with every
 * query's distance to every user (ExactKnn.all), which the trial cells' utility reads instead of
 * computing them in every thread; a cached file without them is computed again, as is one without
 * the mean distances (u_rand's) when the exact cell is to be computed (`means`).
 */
async function exactNeighbours(ctx: ComputeContext, gk: string, first: Cell, queries: Int32Array, users: number, means: boolean): Promise<{ truth: ExactKnn; exactMs: number }> {
  const { cfg, plan, executor, cacheDir } = ctx;
  const wantAll = (cfg.metric ?? 'angular') === 'angular' && queries.length * users <= ALL_DISTANCES_MAX;
  const cachePath = cacheDir ? knnCachePath(cacheDir, { algorithm: ALGORITHM_VERSION, input: plan.inputs.get(first.dataset), n: first.n, queries: cfg.queries, seed: cfg.seed, k: plan.kmax }) : null;
  const cached = cachePath ? readKnnCache(cachePath, queries, plan.kmax) : null;
  if (cached?.all && cached.all.length !== queries.length * users) delete cached.all;
  if (cached && (!wantAll || cached.all) && (!means || cached.meanDistance)) return { truth: cached, exactMs: 0 };
  // split the queries over the threads; joined in query order, the answer is the same
  const parts = Math.max(1, Math.min(executor.threads, queries.length));
  const at = (p: number) => Math.round((p * queries.length) / parts);
  const outs = await Promise.all(
    Array.from({ length: parts }, (_, p) => executor.run({ kind: 'exact', key: `exact_${gk}`, k: plan.kmax, ks: cfg.k, from: at(p), to: at(p + 1), metric: cfg.metric, all: wantAll, means })),
  );
  const truth = concatExact(
    outs.map((o) => (o.result as ExactResult).truth),
    plan.kmax,
  );
  if (cachePath) writeKnnCache(cachePath, queries, truth);
  return { truth, exactMs: outs.reduce((sum, o) => sum + o.ms, 0) };
}

/** What determines a trial cell's setup (its hashing and shared draws): not its results or queries. */
function setupIdentity(ctx: ComputeContext, c: TrialCell): unknown {
  const { cfg, plan } = ctx;
  return { setup: 1, algorithm: ALGORITHM_VERSION, input: plan.inputs.get(c.dataset), dataset: c.dataset, n: c.n, kappa: c.kappa, trial: c.trial, seed: cfg.seed, metric: cfg.metric ?? 'angular' };
}

/**
 * The stored record of a trial cell with freshly computed results merged in (other results kept):
 * each result's value of every evaluation of the records, as its field, in list order after `eps`.
 */
export function mergeTrialRecord(
  cfg: ExperimentConfig,
  prev: TrialRecord | undefined,
  key: string,
  queries: number,
  todo: { spec: ResultSpec }[],
  out: TrialResult[],
  hashes: Map<string, string>,
  ms: number,
): TrialRecord {
  const results: Record<string, StoredResult> = { ...(prev?.results ?? {}) };
  const byId = new Map(out.map((r) => [r.id, r]));
  const inRecord = inRecordEvaluations(cfg);
  for (const { spec } of todo) {
    const r = byId.get(spec.id);
    if (!r) throw new Error(`trial cell ${key}: no result ${spec.id} came back`);
    const fields: Record<string, unknown> = {};
    for (const { e, store: hooks } of inRecord) if (r.values[e.facts.name] !== undefined) fields[hooks.field] = r.values[e.facts.name];
    results[spec.id] = { hash: hashes.get(spec.id)!, base: spec.base, options: spec.options, xi: spec.xi, eps: r.eps, ...fields, ms: Math.round(ms / todo.length) } as StoredResult;
  }
  // ids in sorted order: a record's bytes do not depend on the order results were added
  const sorted: Record<string, StoredResult> = {};
  for (const id of Object.keys(results).sort()) sorted[id] = results[id];
  return { format: STORE_FORMAT, key, kind: 'trial', queries, results: sorted };
}

/** The true 1-NN distance of each query user (queries ascending by user index). */
function nnOf(vectors: UserVectors, queries: Int32Array, truth: ExactKnn): { users: string[]; distances: number[] } {
  const order = Array.from(queries.keys()).sort((a, b) => queries[a] - queries[b]);
  return { users: order.map((q) => vectors.userIds[queries[q]]), distances: order.map((q) => truth.distances[q * truth.k]) };
}
