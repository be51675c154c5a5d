/**
 * `lshdp run`: config → data sets → grid cells (exact, then trial cells on the executor) → the
 * results store → the final CSVs, manifest and report. Finished cells are kept as they finish;
 * re-running the same command resumes, a shard computes only its share, and the CSVs are always
 * rebuilt from the store, so every path ends in byte-identical files.
 */
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { DatasetSummary, LoadedDataset } from '../../data/types.js';
import type { ExactKnn } from '../../knn/angular.js';
import { InterruptedError, UserError } from '../../util/errors.js';
import { sha256Hex, stableStringify } from '../../util/hash.js';
import { createProgress, type Progress } from '../../util/progress.js';
import { writeFileAtomicSync } from '../../util/atomic.js';
import { configToDocument, loadConfig, type ExperimentConfig } from '../config.js';
import type { TrialResult } from '../trial.js';
import { loadRealEngine, type Engine } from './engine.js';
import { concatExact, defaultWorkerUrl, groupKey, InProcessExecutor, WorkerPool, type ExactResult, type Executor } from './executor.js';
import { writeFinalOutputs, manifestBasics, type GridEntry, type Manifest } from './finalize.js';
import {
  assignShards,
  cellSeeds,
  estimateCost,
  exactHash,
  expandCells,
  inputIdentity,
  resultHash,
  trialResults,
  trialSpec,
  type Cell,
  type ResultSpec,
  type ShardSpec,
  type TrialCell,
} from '../grid.js';
import { knnCachePath, readKnnCache, writeKnnCache } from './knnCache.js';
import { checkResultsFolder, checkWritableFolder, prepareResultsFolder, readOwner } from './outdir.js';
import { acquireFolderLock } from './lock.js';
import { summaryToJson } from '../../data/summaryJson.js';
import { hammingKernelName } from '../../lsh/wasm/kernel.js';
import { accountantsOf } from '../aggregate.js';
import { naiveAccountantWarning, usesNaiveAccountant } from '../../privacy/accountants.js';
import type { CellRecord, ExactRecord, StoredResult, TrialRecord } from '../records.js';
import { CellStore, STORE_FORMAT } from './store.js';
import { describeChanges } from './changes.js';
import { ALGORITHM_VERSION, gitCommit, LSHDP_VERSION } from '../version.js';

export interface RunOptions {
  config: string;
  /** results folder; default results/<config name> */
  out?: string;
  /** worker threads; default: the number of cores */
  threads?: number;
  force?: boolean;
  shard?: ShardSpec | null;
  quiet?: boolean;
  /** build figures, tables and index.html at the end (default true) */
  report?: boolean;
  png?: boolean;
  skipBadRows?: boolean;
  /** data and exact k-NN cache folder; null disables caching. Default data/cache. */
  cacheDir?: string | null;
  /** the computations; default the real engine (tests inject a fake) */
  engine?: Engine;
  /** worker script; default dist/experiment/worker.js when built, else cells run in this thread */
  workerUrl?: URL | null;
  /** module the workers import `createEngine()` from instead of the real engine (tests) */
  engineModule?: string;
  /** informational lines (default: stderr unless quiet) */
  log?: (line: string) => void;
  /** how to run this again, printed on interruption */
  resumeHint?: string;
  /** `--set KEY=VALUE` overrides of the config (YAML values), validated like the file */
  overrides?: readonly string[];
  /** print the grid and what would be computed and reused; compute and write nothing */
  dryRun?: boolean;
}

/**
 * Counts are of results: an exact cell per (data set, n) is one result, and a trial cell holds one
 * result per (mechanism identity, xi), each for every k of the config.
 */
export interface RunResult {
  outDir: string;
  total: number;
  /** results of this shard (all when not sharded) */
  mine: number;
  reused: number;
  computed: number;
  /** grid cells computed in (exact and trial cells with at least one missing result) */
  cellsComputed: number;
}

export function configHashOf(cfg: ExperimentConfig): string {
  return sha256Hex(stableStringify(cfg));
}

/** Signals stop the run: abort the executor, keep the finished cells, exit 130/143 via InterruptedError. */
class SignalGuard {
  signal: NodeJS.Signals | null = null;
  private onAbort: ((sig: NodeJS.Signals) => void) | null = null;
  private readonly handlers: [NodeJS.Signals, () => void][] = [];
  constructor() {
    for (const sig of ['SIGINT', 'SIGTERM'] as const) {
      const h = () => {
        if (this.signal) return;
        this.signal = sig;
        this.onAbort?.(sig);
      };
      process.on(sig, h);
      this.handlers.push([sig, h]);
    }
  }
  whenSignalled(fn: (sig: NodeJS.Signals) => void): void {
    this.onAbort = fn;
  }
  dispose(): void {
    for (const [sig, h] of this.handlers) process.off(sig, h);
  }
}

export async function runExperiment(opts: RunOptions): Promise<RunResult> {
  const started = Date.now();
  const log = opts.log ?? ((line: string) => (opts.quiet ? undefined : process.stderr.write(line + '\n')));
  const cfg = loadConfig(opts.config, { checkFiles: true, overrides: opts.overrides });
  if (usesNaiveAccountant(accountantsOf(cfg))) process.stderr.write(`${naiveAccountantWarning(opts.config)}\n`);
  // shards default to folders of their own: merge needs each cell in exactly one folder
  const outDir = opts.out ?? join('results', opts.shard ? `${cfg.name}-shard${opts.shard.index}of${opts.shard.count}` : cfg.name);
  const configHash = configHashOf(cfg);
  const document = configToDocument(cfg);
  const owner = { name: cfg.name, config_hash: configHash, store_format: STORE_FORMAT, config: document };
  checkResultsFolder(outDir, owner, { force: opts.force });
  const previous = readOwner(outDir);
  const oldStore = new CellStore(outDir).formatPresent();
  if (oldStore !== null && oldStore !== STORE_FORMAT && !opts.force) {
    throw new UserError(
      `${outDir} holds results of an older lshdp (results store format ${oldStore}); they cannot be reused, since ties are now broken by keyed hashes: rerun with --force to recompute, or use another --out`,
    );
  }
  const threads = opts.threads ?? availableParallelism();
  if (!Number.isInteger(threads) || threads < 1) throw new UserError(`--threads: must be a positive integer, got ${threads}`);
  const cacheDir = opts.cacheDir === undefined ? join('data', 'cache') : opts.cacheDir;
  // an unwritable cache fails now, not after minutes of loading
  if (cacheDir) checkWritableFolder(cacheDir, '--cache-dir');
  const skipBadRows = opts.skipBadRows ?? false;
  // one run per folder at a time (a dry run only reads)
  const lock = opts.dryRun ? null : acquireFolderLock(outDir, `lshdp run ${opts.config}`);

  const guard = new SignalGuard();
  // while loading nothing is written yet: stop at once
  guard.whenSignalled((sig) => {
    process.stderr.write(`lshdp: interrupted by ${sig} while loading the data; nothing was written\n`);
    process.exit(sig === 'SIGINT' ? 130 : 143);
  });
  try {
    const engine = opts.engine ?? (await loadRealEngine());
    const info = (name: string) => engine.mechanism(name);
    const progress: Progress = createProgress({ quiet: opts.quiet });

    // 1. data sets (errors here are the user's input; nothing has been written)
    const loaded = new Map<string, LoadedDataset>();
    const loadMs: Record<string, number> = {};
    for (const spec of cfg.datasets) {
      const t0 = Date.now();
      const ds = await engine.loadDataset(spec, cfg.dims, { metric: cfg.metric, cacheDir, progress, skipBadRows: skipBadRows || spec.skip_bad_rows === true });
      progress.stop();
      loadMs[spec.name] = Date.now() - t0;
      if (guard.signal) throw new InterruptedError(guard.signal, `interrupted by ${guard.signal} while loading ${spec.name}; nothing was written`);
      if (ds.summary.rowsSkipped > 0) {
        const lines = (ds.summary.skippedLines ?? []).join(', ');
        const many = ds.summary.rowsSkipped > 1;
        log(`${spec.name}: skipped ${ds.summary.rowsSkipped} malformed row${many ? 's' : ''}${lines ? ` (${many ? 'first at lines' : 'line'} ${lines})` : ''}`);
      }
      loaded.set(spec.name, ds);
    }
    const summaries: DatasetSummary[] = cfg.datasets.map((d) => loaded.get(d.name)!.summary);
    checkGridAgainstData(opts.config, cfg, loaded);

    // 2. the grid: cells, the results they hold and their hashes, costs and the shard plan
    const cells = expandCells(cfg);
    const results = trialResults(cfg, info);
    const ks = [...cfg.k].sort((a, b) => a - b);
    const kmax = ks[ks.length - 1];
    const usersOf = (c: Cell) => loaded.get(c.dataset)!.vectors.get(c.n)!.rowPtr.length - 1;
    const queriesOf = (c: Cell) => (cfg.queries === 0 ? usersOf(c) : Math.min(cfg.queries, usersOf(c)));
    const inputs = new Map(summaries.map((s) => [s.name, inputIdentity(cfg, s.name, s, skipBadRows || cfg.datasets.find((d) => d.name === s.name)!.skip_bad_rows === true)]));
    const exactHashes = new Map<string, string>();
    const resultHashes = new Map<string, Map<string, string>>();
    for (const c of cells) {
      if (c.kind === 'exact') exactHashes.set(c.key, exactHash(cfg, c, inputs.get(c.dataset)));
      else resultHashes.set(c.key, new Map(results.map((r) => [r.id, resultHash(cfg, c, r, inputs.get(c.dataset), info)])));
    }
    const fullCost = (c: Cell, variants: number) => estimateCost(cfg, c, usersOf(c), queriesOf(c), variants);
    const shardOf = opts.shard
      ? assignShards(
          cells.map((c) => fullCost(c, results.length)),
          opts.shard.count,
        )
      : null;
    const mine = cells.map((_, i) => !shardOf || shardOf[i] === opts.shard!.index - 1);

    // 3. what the store already holds: reuse every result whose hash still matches
    const store = new CellStore(outDir);
    if (!opts.force) store.removeTemporaries();
    const records = new Map<string, CellRecord>();
    const pending = new Map<string, { spec: ResultSpec; ks: number[] }[]>();
    let total = 0;
    let reused = 0;
    cells.forEach((c, i) => {
      if (!mine[i]) return;
      if (c.kind === 'exact') {
        total++;
        const rec = opts.force ? null : store.readExact(c.key, exactHashes.get(c.key)!, kmax);
        if (rec && ks.every((k) => rec.rows.some((r) => r.k === k))) {
          records.set(c.key, rec);
          reused++;
        }
        return;
      }
      const rec = opts.force ? null : store.readTrial(c.key);
      const hashes = resultHashes.get(c.key)!;
      const todo: { spec: ResultSpec; ks: number[] }[] = [];
      for (const r of results) {
        total++;
        const stored = rec?.results[r.id];
        const valid = stored && stored.hash === hashes.get(r.id) ? stored : null;
        if (valid && ks.every((k) => valid.values[String(k)] !== undefined)) {
          reused++;
          continue;
        }
        // recompute with the k values kept so far too, so a record never loses a k
        const keep = valid ? Object.keys(valid.values).map(Number) : [];
        todo.push({ spec: r, ks: [...new Set([...ks, ...keep])].sort((a, b) => a - b) });
      }
      if (rec) records.set(c.key, rec);
      if (todo.length > 0) pending.set(c.key, todo);
    });
    const toCompute = total - reused;
    const cellsTodo = cells.filter((c, i) => mine[i] && (c.kind === 'exact' ? !records.has(c.key) : pending.has(c.key)));
    const change = previous?.config ? describeChanges(previous.config, document) : null;
    const counts = `reusing ${fmt(reused)} of ${fmt(total)} results, computing ${fmt(toCompute)}`;
    if (change) log(`config changed since the last run: ${change}; ${counts}`);
    else if (reused > 0) log(`resuming: ${counts} (use --force to recompute all)`);
    if (opts.shard) log(`shard ${opts.shard.index}/${opts.shard.count}: ${fmt(total)} results in ${mine.filter(Boolean).length} of ${cells.length} cells`);

    if (opts.dryRun) {
      const cost = cellsTodo.reduce((s, c) => s + (c.kind === 'exact' ? fullCost(c, 0) : fullCost(c, pending.get(c.key)!.length)), 0);
      const lines = dryRunLines(cfg, results.length, cells.length, total, reused, cellsTodo.length, cost, threads);
      for (const l of lines) (opts.log ?? ((x: string) => process.stdout.write(x + '\n')))(l);
      return { outDir, total, mine: total, reused, computed: 0, cellsComputed: 0 };
    }

    // 4. the results folder (nothing was written before this point)
    prepareResultsFolder(outDir, owner, { force: opts.force });
    store.ensure();

    // 5. compute the pending cells, group by group
    const workerUrl = opts.workerUrl === undefined ? defaultWorkerUrl() : opts.workerUrl;
    // more workers than pending cells, or far more than cores, only cost start-up time and memory
    const maxUseful = 4 * availableParallelism();
    const workers = Math.max(1, Math.min(threads, cellsTodo.length, maxUseful));
    if (threads > maxUseful) log(`--threads ${threads}: using ${workers} worker threads (at most 4 per core; results do not depend on it)`);
    const executor: Executor = workerUrl ? new WorkerPool(workers, { workerUrl, engineModule: opts.engineModule }) : new InProcessExecutor(engine);
    let computed = 0;
    let cellsComputed = 0;
    const hint = opts.resumeHint ?? 'run the same command again';
    guard.whenSignalled((sig) => {
      executor.abort(new InterruptedError(sig));
    });
    try {
      const costOf = (c: Cell) => (c.kind === 'exact' ? fullCost(c, 0) : fullCost(c, pending.get(c.key)!.length));
      if (cellsTodo.length > 0) {
        progress.start('cells', cellsTodo.length, {
          totalCost: cellsTodo.reduce((sum, c) => sum + costOf(c), 0),
          startLine: `computing ${fmt(toCompute)} results in ${fmt(cellsTodo.length)} cells on ${executor.threads} thread${executor.threads === 1 ? '' : 's'}`,
        });
      }
      const groups = new Map<string, Cell[]>();
      for (const c of cellsTodo) {
        const g = groupKey(c.dataset, c.n);
        if (!groups.has(g)) groups.set(g, []);
        groups.get(g)!.push(c);
      }
      for (const [gk, group] of groups) {
        if (guard.signal) throw new InterruptedError(guard.signal);
        const first = group[0];
        const vectors = loaded.get(first.dataset)!.vectors.get(first.n)!;
        const users = vectors.rowPtr.length - 1;
        const queries = engine.sampleQueries(users, cfg.queries, cfg.seed, first.dataset, first.n);
        executor.setData(gk, vectors, queries);
        const cachePath = cacheDir ? knnCachePath(cacheDir, { algorithm: ALGORITHM_VERSION, input: inputs.get(first.dataset), n: first.n, queries: cfg.queries, seed: cfg.seed, k: kmax }) : null;
        let truth: ExactKnn | null = cachePath ? readKnnCache(cachePath, queries, kmax) : null;
        let exactMs = 0;
        if (!truth) {
          // split the queries over the threads; joined in query order, the answer is the same
          const parts = Math.max(1, Math.min(executor.threads, queries.length));
          const at = (p: number) => Math.round((p * queries.length) / parts);
          const outs = await Promise.all(
            Array.from({ length: parts }, (_, p) => executor.run({ kind: 'exact', key: `exact_${gk}`, k: kmax, ks: cfg.k, from: at(p), to: at(p + 1), metric: cfg.metric })),
          );
          truth = concatExact(
            outs.map((o) => (o.result as ExactResult).truth),
            kmax,
          );
          exactMs = outs.reduce((sum, o) => sum + o.ms, 0);
          if (cachePath) writeKnnCache(cachePath, queries, truth);
        }
        const exactCell = group.find((c) => c.kind === 'exact');
        if (exactCell) {
          const rows = engine.exactRows(vectors, queries, truth, ks, cfg.metric);
          const rec: ExactRecord = {
            format: STORE_FORMAT,
            key: exactCell.key,
            kind: 'exact',
            hash: exactHashes.get(exactCell.key)!,
            queries: queries.length,
            kmax,
            rows,
            nn: nnOf(vectors.userIds, queries, truth),
            ms: exactMs,
          };
          store.write(rec);
          records.set(exactCell.key, rec);
          computed++;
          cellsComputed++;
          progress.increment(1, costOf(exactCell));
        }
        executor.setTruth(gk, truth);
        // most expensive first, so no worker idles on a long cell at the end of the group
        // (the order cannot change a result: every result depends only on its own seeds)
        const trialCells = group.filter((c): c is TrialCell => c.kind === 'trial');
        const cost = (c: TrialCell) => estimateCost(cfg, c, users, queries.length, pending.get(c.key)!.length);
        await Promise.all(
          trialCells
            .map((c, i) => ({ c, i }))
            .sort((a, b) => cost(b.c) - cost(a.c) || a.i - b.i)
            .map(async ({ c }) => {
              const todo = pending.get(c.key)!;
              const out = await executor.run({ kind: 'trial', key: c.key, spec: trialSpec(cfg, c, todo) });
              const rec = mergeTrialRecord(records.get(c.key) as TrialRecord | undefined, c.key, queries.length, todo, out.result as TrialResult[], resultHashes.get(c.key)!, out.ms);
              store.write(rec);
              records.set(c.key, rec);
              computed += todo.length;
              cellsComputed++;
              progress.increment(1, costOf(c));
            }),
        );
        executor.drop(gk);
      }
    } catch (e) {
      progress.stop();
      executor.abort(e instanceof Error ? e : new Error(String(e)));
      store.removeTemporaries(process.pid);
      if (e instanceof InterruptedError || guard.signal) {
        const sig = e instanceof InterruptedError ? e.signal : guard.signal!;
        throw new InterruptedError(sig, `interrupted by ${sig}: ${fmt(reused + computed)} of ${fmt(total)} results finished and kept in ${join(outDir, 'cells')}; to resume, ${hint}`);
      }
      throw e;
    } finally {
      progress.stop();
      await executor.close();
    }

    // 6. outputs (every result is stored: a signal now only cuts the rebuild of files short)
    guard.whenSignalled((sig) => {
      store.removeTemporaries(process.pid);
      process.stderr.write(`lshdp: interrupted by ${sig} while writing the outputs; all ${fmt(total)} results are kept in ${join(outDir, 'cells')}; to finish, ${hint}\n`);
      process.exit(sig === 'SIGINT' ? 130 : 143);
    });
    const grid: GridEntry[] = cells.map((c, i) => gridEntry(cfg, c, exactHashes, resultHashes, records, shardOf ? shardOf[i] + 1 : undefined));
    const manifest: Manifest = {
      lshdp: LSHDP_VERSION,
      algorithm: ALGORITHM_VERSION,
      git_commit: gitCommit(),
      node: process.version,
      // which Hamming kernel this process's workers run (WebAssembly SIMD, scalar, or the JS fallback)
      kernel: hammingKernelName(),
      config_file: opts.config,
      config_hash: configHash,
      config: document,
      skip_bad_rows: skipBadRows,
      ...manifestBasics(summaries),
      shard: opts.shard ?? null,
      threads: executor.threads,
      timings: {
        total_ms: Date.now() - started,
        load_ms: loadMs,
        cells_computed: cellsComputed,
        cells_reused: cells.filter((_, i) => mine[i]).length - cellsComputed,
        results_computed: computed,
        results_reused: reused,
      },
      grid,
    };
    if (opts.shard) {
      // a shard holds part of the grid: manifest and summaries only; `lshdp merge` writes the CSVs
      writeFileAtomicSync(join(outDir, 'datasets.json'), JSON.stringify(summaries.map(summaryToJson), null, 2) + '\n');
      writeFileAtomicSync(join(outDir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
      log(`shard ${opts.shard.index}/${opts.shard.count} done: ${fmt(total)} results in ${outDir}; combine the shards with lshdp merge (which also tests the paper's claims)`);
    } else {
      await writeFinalOutputs(outDir, cfg, records, summaries, manifest, engine, { report: opts.report, png: opts.png, quiet: opts.quiet, log });
      log(`wrote ${outDir} (${fmt(computed)} results computed, ${fmt(reused)} reused)`);
    }
    return { outDir, total, mine: total, reused, computed, cellsComputed };
  } finally {
    guard.dispose();
    lock?.release();
  }
}

/** 1,260 */
function fmt(n: number): string {
  return n.toLocaleString('en-US');
}

/** The stored record of a trial cell with freshly computed results merged in (other results kept). */
export function mergeTrialRecord(prev: TrialRecord | undefined, key: string, queries: number, todo: { spec: ResultSpec }[], out: TrialResult[], hashes: Map<string, string>, ms: number): TrialRecord {
  const results: Record<string, StoredResult> = { ...(prev?.results ?? {}) };
  const byId = new Map(out.map((r) => [r.id, r]));
  for (const { spec } of todo) {
    const r = byId.get(spec.id);
    if (!r) throw new Error(`trial cell ${key}: no result ${spec.id} came back`);
    const values: Record<string, [number, number]> = {};
    r.ks.forEach((k, t) => {
      values[String(k)] = [r.loss[t], r.recall[t]];
    });
    results[spec.id] = { hash: hashes.get(spec.id)!, base: spec.base, options: spec.options, xi: spec.xi, eps: r.eps, values, ms: Math.round(ms / todo.length) };
  }
  // ids in sorted order: a record's bytes do not depend on the order results were added
  const sorted: Record<string, StoredResult> = {};
  for (const id of Object.keys(results).sort()) sorted[id] = results[id];
  return { format: STORE_FORMAT, key, kind: 'trial', queries, results: sorted };
}

/** What the manifest says about one cell: its coordinates, seeds, the hashes of the results it holds for this config. */
function gridEntry(
  cfg: ExperimentConfig,
  c: Cell,
  exactHashes: Map<string, string>,
  resultHashes: Map<string, Map<string, string>>,
  records: Map<string, CellRecord>,
  shard: number | undefined,
): GridEntry {
  const rec = records.get(c.key);
  const ms = rec ? (rec.kind === 'exact' ? rec.ms : Object.values(rec.results).reduce((s, r) => s + r.ms, 0)) : undefined;
  return {
    key: c.key,
    kind: c.kind,
    dataset: c.dataset,
    n: c.n,
    ...(c.kind === 'trial' ? { kappa: c.kappa, trial: c.trial, results: Object.fromEntries(resultHashes.get(c.key)!) } : { hash: exactHashes.get(c.key)! }),
    seeds: cellSeeds(cfg, c),
    ...(shard !== undefined ? { shard } : {}),
    ...(ms !== undefined ? { ms } : {}),
  };
}

/** `--dry-run`: the grid, what would be computed and reused, and a rough time. */
function dryRunLines(cfg: ExperimentConfig, perCell: number, cells: number, total: number, reused: number, cellsTodo: number, cost: number, threads: number): string[] {
  // calibration: about 1e8 cost units per second and thread on the development machine (a rough guide, not a promise)
  const seconds = cost / 1e8 / Math.max(1, Math.min(threads, cellsTodo || 1));
  const axes = [
    `datasets ${cfg.datasets.map((d) => d.name).join(', ')}`,
    `n [${cfg.dims.join(', ')}]`,
    `kappa [${cfg.kappa.join(', ')}]`,
    `k [${cfg.k.join(', ')}]`,
    `xi [${cfg.privacy.xi.join(', ')}]`,
    `trials ${cfg.trials}`,
    `mechanisms ${cfg.mechanisms.map((m) => m.label).join(', ')}`,
  ];
  return [
    `grid: ${axes.join('; ')}`,
    `${fmt(cells)} cells (${fmt(perCell)} results per trial cell); ${fmt(total)} results: ${fmt(reused)} reused, ${fmt(total - reused)} to compute in ${fmt(cellsTodo)} cells`,
    `estimated compute: about ${seconds < 1 ? '< 1' : fmt(Math.round(seconds))} s on ${threads} thread${threads === 1 ? '' : 's'} (dry run: nothing computed or written)`,
  ];
}

/** The true 1-NN distance of each query user (queries ascending by user index). */
function nnOf(userIds: string[], queries: Int32Array, truth: ExactKnn): { users: string[]; distances: number[] } {
  const order = Array.from(queries.keys()).sort((a, b) => queries[a] - queries[b]);
  return { users: order.map((q) => userIds[queries[q]]), distances: order.map((q) => truth.distances[q * truth.k]) };
}

/** Grid values that only the data can check: k below the number of users, enough users. */
function checkGridAgainstData(file: string, cfg: ExperimentConfig, loaded: Map<string, LoadedDataset>): void {
  const problems: string[] = [];
  const kmax = Math.max(...cfg.k);
  for (const ds of cfg.datasets) {
    for (const n of cfg.dims) {
      const v = loaded.get(ds.name)!.vectors.get(n);
      if (!v) {
        problems.push(`dims: data set "${ds.name}" has no vectors for n=${n}`);
        continue;
      }
      const users = v.rowPtr.length - 1;
      if (kmax >= users) problems.push(`k: ${kmax} must be below the number of users of data set "${ds.name}" at n=${n} (${users})`);
    }
  }
  if (problems.length === 1) throw new UserError(`${file}: ${problems[0]}`);
  if (problems.length > 1) throw new UserError(`${file}: ${problems.length} problems:\n` + problems.map((p) => `  ${p}`).join('\n'));
}
