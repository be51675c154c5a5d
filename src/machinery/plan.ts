/**
 * The plan of a run, computed before any work and without writing: the grid's cells, the results
 * each trial cell holds and every result's hash, the shard split, and what the store already holds
 * (a result is reused while its hash matches and it has every k asked; the rest is pending).
 */
import type { ExperimentConfig } from '../experiment/config/schema.js';
import { cellResults, entryWithXi, exactHash, exactKey, expandCells, trialResultHashes, trialResults, type Cell, type ResultSpec, type TrialCell } from '../experiment/grid.js';
import { inputIdentity } from '../experiment/inputIdentity.js';
import { assignShards, estimateCost, type ShardSpec } from './shards.js';
import { estimateFromHistory, type RunTime } from './runTimes.js';
import type { CellRecord } from '../experiment/records.js';
import { holdsRandomLoss } from '../experiment/randomLoss.js';
import type { MechanismInfo } from '../mechanisms/types.js';
import { formatCount } from '../util/format.js';
import { reuseCounts } from './rerun.js';
import { describeChanges } from './changes.js';
import { evaluationsIn, type Evaluation } from '../evaluations/index.js';
import type { ExactValues, InRecord, OwnRecord, OwnStore, PendingAsk } from '../evaluations/measure.js';
import type { LoadedData } from './load.js';
import type { RunSetup } from './setup.js';
import type { CellStore } from './store.js';
import type { RecordStore } from './recordStore.js';

/** One pending result of a trial cell, with every k its record must hold afterwards and what each evaluation of the record asks of it. */
export interface PendingResult {
  spec: ResultSpec;
  ks: number[];
  /** per evaluation of the trial cell records (by name): what it asks (its record keeps it all afterwards) */
  asks: Record<string, unknown>;
}

/** What an evaluation with a store folder of its own adds to a run's plan. */
export interface OwnPlan {
  /** the evaluation's name (its `asks` key) and its store's hooks */
  name: string;
  store: OwnStore;
  /** trial cell key → entry key → hash */
  hashes: Map<string, Map<string, string>>;
  /** the valid records the store holds for this run's cells */
  records: Map<string, OwnRecord>;
  /** trial cell key → its results to compute, with what is asked of each */
  pending: Map<string, PendingAsk[]>;
  /** entries of this run's cells, and how many are reused */
  total: number;
  reused: number;
}

/** The evaluations of a config whose values are a field of the trial cell records' results, with their hooks. */
export function inRecordEvaluations(cfg: ExperimentConfig): { e: Evaluation; store: InRecord }[] {
  return evaluationsIn(cfg).flatMap((e) => (e.store?.where === 'record' ? [{ e, store: e.store }] : []));
}

/** The evaluations of a config with values of their own on the exact records. */
export function exactEvaluations(cfg: ExperimentConfig): { e: Evaluation; exact: ExactValues }[] {
  return evaluationsIn(cfg).flatMap((e) => (e.exact ? [{ e, exact: e.exact }] : []));
}

export interface RunPlan {
  cells: Cell[];
  /** the results every trial cell holds */
  results: ResultSpec[];
  /** the config's k, ascending, and the largest */
  ks: number[];
  kmax: number;
  /** per data set: what its results' hashes take from the input */
  inputs: Map<string, unknown>;
  exactHashes: Map<string, string>;
  /** trial cell key → result id → hash */
  resultHashes: Map<string, Map<string, string>>;
  /** per cell, its 0-based shard (sharded runs), else null */
  shardOf: Int32Array | null;
  /** per cell, whether this run computes it (its shard) */
  mine: boolean[];
  /** what the store holds for this run's cells (valid records) */
  records: Map<string, CellRecord>;
  /** trial cell key → its missing or stale results (a cell with only entries of other stores to compute has none) */
  pending: Map<string, PendingResult[]>;
  /** per store folder of an evaluation of the config with one of its own (attack/): hashes, stored records, pending */
  own: Map<string, OwnPlan>;
  /** results (and entries of the other stores) of this run's cells, and how many are reused */
  total: number;
  reused: number;
  /** the cells with work to do */
  cellsTodo: Cell[];
  /** the cost model's estimate of a cell's work (pending results only) */
  costOf: (c: Cell) => number;
}

export function planRun(
  setup: RunSetup,
  data: LoadedData,
  info: (name: string) => MechanismInfo,
  store: CellStore,
  opts: { shard?: ShardSpec | null; force?: boolean; ownStores?: ReadonlyMap<string, RecordStore<OwnRecord>> },
): RunPlan {
  const { cfg, skipBadRows } = setup;
  const cells = expandCells(cfg);
  const results = trialResults(cfg, info);
  // a cell's own results: all of them, unless entries have per-cell ξ
  const resultsOf = cellResults(cfg, results, info);
  const ks = [...cfg.k].sort((a, b) => a - b);
  const kmax = ks[ks.length - 1];
  const usersOf = (c: Cell) => data.loaded.get(c.dataset)!.vectors.get(c.n)!.rowPtr.length - 1;
  const queriesOf = (c: Cell) => (cfg.queries === 0 ? usersOf(c) : Math.min(cfg.queries, usersOf(c)));
  const inputs = new Map<string, unknown>(data.summaries.map((s) => [s.name, inputIdentity(cfg, s.name, s, skipBadRows || cfg.datasets.find((d) => d.name === s.name)!.skip_bad_rows === true)]));
  const exactHashes = new Map<string, string>();
  for (const c of cells) if (c.kind === 'exact') exactHashes.set(c.key, exactHash(cfg, c, inputs.get(c.dataset)));
  const trialCells = cells.filter((c): c is TrialCell => c.kind === 'trial');
  const resultHashes = trialResultHashes(cfg, trialCells, results, (dataset) => inputs.get(dataset), info, resultsOf);
  const fullCost = (c: Cell, variants: number) => estimateCost(cfg, c, usersOf(c), queriesOf(c), variants);
  const shard = opts.shard ?? null;
  const shardOf = shard
    ? assignShards(
        cells.map((c) => fullCost(c, c.kind === 'trial' ? resultsOf(c).length : results.length)),
        shard.count,
      )
    : null;
  const mine = cells.map((_, i) => !shardOf || shardOf[i] === shard!.index - 1);
  const stored = readStored(cfg, cells, mine, resultsOf, exactHashes, resultHashes, store, ks, opts.force === true);
  const { records, pending } = stored;
  const mineOf = new Map(cells.map((c, i) => [c.key, mine[i]]));
  const own = new Map<string, OwnPlan>();
  for (const e of evaluationsIn(cfg)) {
    const ownStore = e.store;
    if (ownStore?.where !== 'own') continue;
    const hashes = ownHashes(trialCells, resultsOf, (cs, rs) => ownStore.hashes(cfg, cs, rs, resultHashes, usersOf, (c) => exactHashes.get(exactKey(c.dataset, c.n, cfg.recommend))!));
    const folder = opts.ownStores?.get(e.facts.store);
    own.set(
      e.facts.store,
      folder
        ? planOwn(cfg, e.facts.name, ownStore, trialCells, (c) => mineOf.get(c.key) === true, resultsOf, hashes, folder, opts.force === true)
        : { name: e.facts.name, store: ownStore, hashes, records: new Map(), pending: new Map(), total: 0, reused: 0 },
    );
  }
  const ownPending = (c: Cell) => [...own.values()].reduce((s, o) => s + (o.pending.get(c.key)?.length ?? 0), 0);
  const cellsTodo = cells.filter((c, i) => mine[i] && (c.kind === 'exact' ? !records.has(c.key) : pending.has(c.key) || ownPending(c) > 0));
  // a result asked only of the other stores re-encodes its codes and ranks them: about one k-NN-less variant
  const costOf = (c: Cell) => (c.kind === 'exact' ? fullCost(c, 0) : fullCost(c, (pending.get(c.key)?.length ?? 0) + ownPending(c)));
  const ownTotal = [...own.values()].reduce((s, o) => s + o.total, 0);
  const ownReused = [...own.values()].reduce((s, o) => s + o.reused, 0);
  return {
    cells,
    results,
    ks,
    kmax,
    inputs,
    exactHashes,
    resultHashes,
    shardOf,
    mine,
    records,
    pending,
    own,
    total: stored.total + ownTotal,
    reused: stored.reused + ownReused,
    cellsTodo,
    costOf,
  };
}

/**
 * An own store's hashes of the trial cells, asked once per distinct result list (cellResults: one
 * list, one call, unless entries have per-cell ξ), so that each cell gets its own results' hashes.
 */
function ownHashes(
  cells: readonly TrialCell[],
  resultsOf: (c: TrialCell) => readonly ResultSpec[],
  hashes: (cells: readonly TrialCell[], results: readonly ResultSpec[]) => Map<string, Map<string, string>>,
): Map<string, Map<string, string>> {
  const groups = new Map<readonly ResultSpec[], TrialCell[]>();
  for (const c of cells) {
    const rs = resultsOf(c);
    const g = groups.get(rs);
    if (g) g.push(c);
    else groups.set(rs, [c]);
  }
  if (groups.size === 1) return hashes(cells, [...groups.keys()][0]);
  const out = new Map<string, Map<string, string>>();
  for (const [rs, cs] of groups) for (const [k, v] of hashes(cs, rs)) out.set(k, v);
  return out;
}

/** What an evaluation's own store holds of this run's cells, and per cell the results to compute. */
function planOwn(
  cfg: ExperimentConfig,
  name: string,
  hooks: OwnStore,
  cells: readonly TrialCell[],
  mine: (c: TrialCell) => boolean,
  resultsOf: (c: TrialCell) => readonly ResultSpec[],
  hashes: Map<string, Map<string, string>>,
  folder: RecordStore<OwnRecord>,
  force: boolean,
): OwnPlan {
  const plan: OwnPlan = { name, store: hooks, hashes, records: new Map(), pending: new Map(), total: 0, reused: 0 };
  for (const c of cells) {
    if (!mine(c)) continue;
    const rec = force ? null : folder.read(c.key);
    const { todo, total, reused } = hooks.pending(cfg, rec, resultsOf(c), hashes.get(c.key)!);
    plan.total += total;
    plan.reused += reused;
    if (rec) plan.records.set(c.key, rec);
    if (todo.length > 0) plan.pending.set(c.key, todo);
  }
  return plan;
}

const union = (a: readonly number[], b: readonly number[]) => [...new Set([...a, ...b])].sort((x, y) => x - y);

/** What the store holds of this run's cells: valid records, and per trial cell the results to compute. */
function readStored(
  cfg: ExperimentConfig,
  cells: Cell[],
  mine: boolean[],
  resultsOf: (c: TrialCell) => readonly ResultSpec[],
  exactHashes: Map<string, string>,
  resultHashes: Map<string, Map<string, string>>,
  store: CellStore,
  ks: number[],
  force: boolean,
) {
  const kmax = ks[ks.length - 1];
  const inRecord = inRecordEvaluations(cfg).map(({ e, store }) => ({ name: e.facts.name, store, asked: store.ask(cfg) }));
  const exact = exactEvaluations(cfg);
  const records = new Map<string, CellRecord>();
  const pending = new Map<string, PendingResult[]>();
  let total = 0;
  let reused = 0;
  cells.forEach((c, i) => {
    if (!mine[i]) return;
    if (c.kind === 'exact') {
      total++;
      const rec = force ? null : store.readExact(c.key, exactHashes.get(c.key)!, kmax);
      // the evaluations' own values on the exact record, of every k too
      const own = rec as unknown as Record<string, unknown> | null;
      // u_rand of every k too: a record of an older lshdp without it is recomputed (the exact cell only)
      const holds = rec && holdsRandomLoss(rec.random, ks) && exact.every(({ exact: x }) => x.holds(own![x.field], ks, cfg));
      if (holds && ks.every((k) => rec.rows.some((r) => r.k === k))) {
        records.set(c.key, rec);
        reused++;
      }
      return;
    }
    const rec = force ? null : store.readTrial(c.key);
    const hashes = resultHashes.get(c.key)!;
    const todo: PendingResult[] = [];
    for (const r of resultsOf(c)) {
      total++;
      const stored = rec?.results[r.id];
      const valid = stored && stored.hash === hashes.get(r.id) ? (stored as unknown as Record<string, unknown>) : null;
      if (valid && inRecord.every((u) => u.store.holds(valid[u.store.field], ks, u.asked))) {
        reused++;
        continue;
      }
      // recompute with the k values (and whatever else) kept so far too, so a record never loses one
      let grownKs = union(ks, []);
      const asks: Record<string, unknown> = {};
      for (const u of inRecord) {
        const kept = valid?.[u.store.field];
        if (kept !== undefined && u.store.keptKs) grownKs = union(grownKs, u.store.keptKs(kept));
        asks[u.name] = u.store.grow(kept, u.asked);
      }
      todo.push({ spec: r, ks: grownKs, asks });
    }
    if (rec) records.set(c.key, rec);
    if (todo.length > 0) pending.set(c.key, todo);
  });
  return { records, pending, total, reused };
}

// "reusing R of T results, computing C": beside the rerun key's lines (src/machinery/rerun.ts)
export { reuseCounts };

/** What the plan means, for the log: what changed since the last run, what is reused, the shard. */
export function planLines(setup: RunSetup, plan: RunPlan, shard: ShardSpec | null | undefined): string[] {
  const lines: string[] = [];
  const change = setup.previous?.config ? describeChanges(setup.previous.config, setup.document) : null;
  const counts = reuseCounts(plan.reused, plan.total);
  if (change) lines.push(`config changed since the last run: ${change}; ${counts}`);
  else if (plan.reused > 0) lines.push(`resuming: ${counts} (use --force to recompute all)`);
  if (shard) lines.push(`shard ${shard.index}/${shard.count}: ${formatCount(plan.total)} results in ${plan.mine.filter(Boolean).length} of ${plan.cells.length} cells`);
  return lines;
}

/** The cost model's units of the cells a plan computes. */
export const plannedCost = (plan: RunPlan): number => plan.cellsTodo.reduce((s, c) => s + plan.costOf(c), 0);

/**
 * `--dry-run`: the grid, what would be computed and reused, and the time: from the earlier run of
 * the config on this machine when there is one (src/machinery/runTimes.ts), else the cost model's
 * rough guess, said to be rough.
 */
export function dryRunLines(cfg: ExperimentConfig, plan: RunPlan, threads: number, history: { earlier: RunTime | null; loadMs: number } = { earlier: null, loadMs: 0 }): string[] {
  const cost = plannedCost(plan);
  const cellsTodo = plan.cellsTodo.length;
  const { earlier } = history;
  // calibration: about 1e8 cost units per second and thread on the development machine (a rough guide, not a promise)
  const seconds = earlier ? estimateFromHistory(earlier, { cost, cells: cellsTodo, threads, loadMs: history.loadMs }) : cost / 1e8 / Math.max(1, Math.min(threads, cellsTodo || 1));
  const basis = earlier
    ? `, from the earlier run of this config here (${earlier.at.slice(0, 16).replace('T', ' ')} UTC: ${formatCount(Math.round(earlier.totalMs / 1000))} s on ${earlier.threads} thread${earlier.threads === 1 ? '' : 's'})`
    : ': rough (no earlier run here)';
  const axes = [
    `datasets ${cfg.datasets.map((d) => d.name).join(', ')}`,
    `n [${cfg.dims.join(', ')}]`,
    `kappa [${cfg.kappa.join(', ')}]`,
    `k [${cfg.k.join(', ')}]`,
    `xi [${cfg.privacy.xi.join(', ')}]`,
    `trials ${cfg.trials}`,
    `mechanisms ${cfg.mechanisms.map(entryWithXi).join(', ')}`,
    // the evaluations a config adds to its grid with a block of its own (docs/RECOMMEND.md, docs/ATTACKS.md)
    ...evaluationsIn(cfg).flatMap((e) => (e.facts.block !== null && e.describe ? [`${e.facts.block} ${e.describe(cfg).settings}`] : [])),
  ];
  const { total, reused } = plan;
  return [
    `grid: ${axes.join('; ')}`,
    // with an entry's per-cell ξ, a trial cell holds some of the config's results: at most all
    `${formatCount(plan.cells.length)} cells (${cfg.mechanisms.some((m) => m.xiAt) ? 'up to ' : ''}${formatCount(plan.results.length)} results per trial cell); ${formatCount(total)} results: ${formatCount(reused)} reused, ${formatCount(total - reused)} to compute in ${formatCount(cellsTodo)} cells`,
    `estimated time: about ${seconds < 1 ? '< 1' : formatCount(Math.round(seconds))} s on ${threads} thread${threads === 1 ? '' : 's'}${basis} (dry run: nothing computed or written)`,
  ];
}
