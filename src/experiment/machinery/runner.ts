/**
 * `lshdp run`: config → data sets → grid cells (exact, then trial cells on the executor) → the
 * results store → the final CSVs, manifest and report. Finished cells are kept as they finish;
 * re-running the same command resumes, a shard computes only its share, and the CSVs are always
 * rebuilt from the store, so every path ends in byte-identical files.
 */
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import type { DatasetSummary, LoadedDataset } from '../../data/types.js';
import type { ExactKnn } from '../../knn/exact.js';
import { InterruptedError, UserError } from '../../util/errors.js';
import { sha256Hex, stableStringify } from '../../util/hash.js';
import { createProgress, type Progress } from '../../util/progress.js';
import { writeFileAtomicSync } from '../../util/atomic.js';
import { loadConfig, type ExperimentConfig } from '../config.js';
import { loadRealEngine, type CellRow, type Engine } from './engine.js';
import { concatExact, defaultWorkerUrl, groupKey, InProcessExecutor, WorkerPool, type ExactResult, type Executor } from './executor.js';
import { writeFinalOutputs, manifestBasics, type GridEntry, type Manifest } from './finalize.js';
import { assignShards, cellHash, cellSeeds, codeMechanisms, estimateCost, expandCells, inputIdentity, trialSpec, type Cell, type ShardSpec } from '../grid.js';
import { knnCachePath, readKnnCache, writeKnnCache } from './knnCache.js';
import { checkResultsFolder, prepareResultsFolder } from './outdir.js';
import { CellStore, STORE_FORMAT, type CellRecord } from './store.js';
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
}

export interface RunResult {
  outDir: string;
  total: number;
  /** cells of this shard (all cells when not sharded) */
  mine: number;
  reused: number;
  computed: number;
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
  const cfg = loadConfig(opts.config, { checkFiles: true });
  // shards default to folders of their own: merge needs each cell in exactly one folder
  const outDir = opts.out ?? join('results', opts.shard ? `${cfg.name}-shard${opts.shard.index}of${opts.shard.count}` : cfg.name);
  const configHash = configHashOf(cfg);
  const owner = { name: cfg.name, configHash };
  checkResultsFolder(outDir, owner, { force: opts.force });
  const threads = opts.threads ?? availableParallelism();
  if (!Number.isInteger(threads) || threads < 1) throw new UserError(`--threads: must be a positive integer, got ${threads}`);
  const cacheDir = opts.cacheDir === undefined ? join('data', 'cache') : opts.cacheDir;
  const skipBadRows = opts.skipBadRows ?? false;

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
      const ds = await engine.loadDataset(spec, cfg.dims, { cacheDir, progress, skipBadRows: skipBadRows || spec.skip_bad_rows === true });
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

    // 2. the grid, its hashes, costs and shard plan
    const cells = expandCells(cfg);
    const variants = codeMechanisms(cfg, info).reduce((s, m) => s + (info(m.name).usesXi ? cfg.privacy.xi.length : 1), 0);
    const usersOf = (c: Cell) => loaded.get(c.dataset)!.vectors.get(c.n)!.rowPtr.length - 1;
    const queriesOf = (c: Cell) => (cfg.queries === 0 ? usersOf(c) : Math.min(cfg.queries, usersOf(c)));
    const inputs = new Map(summaries.map((s) => [s.name, inputIdentity(cfg, s.name, s, skipBadRows || cfg.datasets.find((d) => d.name === s.name)!.skip_bad_rows === true)]));
    const hashes = cells.map((c) => cellHash(cfg, c, inputs.get(c.dataset), info));
    const shardOf = opts.shard ? assignShards(cells.map((c) => estimateCost(cfg, c, usersOf(c), queriesOf(c), variants)), opts.shard.count) : null;
    const mine = cells.map((_, i) => !shardOf || shardOf[i] === opts.shard!.index - 1);

    // 3. the results folder and its store
    prepareResultsFolder(outDir, owner, { force: opts.force });
    const store = new CellStore(outDir);
    store.ensure();
    store.removeTemporaries();
    const records = new Map<string, CellRecord>();
    let reused = 0;
    cells.forEach((c, i) => {
      if (!mine[i]) return;
      const rec = store.readValid(c.key, hashes[i]);
      if (rec) {
        records.set(c.key, rec);
        reused++;
      }
    });
    const mineCount = mine.filter(Boolean).length;
    const todo = mineCount - reused;
    if (reused > 0) log(`resuming: ${reused} of ${mineCount} cells already finished; computing ${todo} (use --force to recompute all)`);
    if (opts.shard) log(`shard ${opts.shard.index}/${opts.shard.count}: ${mineCount} of ${cells.length} cells`);

    // 4. compute the pending cells, group by group
    const workerUrl = opts.workerUrl === undefined ? defaultWorkerUrl() : opts.workerUrl;
    // more workers than pending cells, or far more than cores, only cost start-up time and memory
    const maxUseful = 4 * availableParallelism();
    const workers = Math.max(1, Math.min(threads, todo, maxUseful));
    if (threads > maxUseful) log(`--threads ${threads}: using ${workers} worker threads (at most 4 per core; results do not depend on it)`);
    const executor: Executor = workerUrl ? new WorkerPool(workers, { workerUrl, engineModule: opts.engineModule }) : new InProcessExecutor(engine);
    let computed = 0;
    const hint = opts.resumeHint ?? 'run the same command again';
    guard.whenSignalled((sig) => {
      executor.abort(new InterruptedError(sig));
    });
    const ms = new Map<string, number>();
    try {
      if (todo > 0) progress.start('cells', todo);
      const groups = new Map<string, number[]>();
      cells.forEach((c, i) => {
        if (!mine[i] || records.has(c.key)) return;
        const g = groupKey(c.dataset, c.n);
        if (!groups.has(g)) groups.set(g, []);
        groups.get(g)!.push(i);
      });
      for (const [gk, idx] of groups) {
        if (guard.signal) throw new InterruptedError(guard.signal);
        const first = cells[idx[0]];
        const vectors = loaded.get(first.dataset)!.vectors.get(first.n)!;
        const users = vectors.rowPtr.length - 1;
        const queries = engine.sampleQueries(users, cfg.queries, cfg.seed, first.dataset, first.n);
        executor.setData(gk, vectors, queries);
        const kmax = Math.max(...cfg.k);
        const cachePath = cacheDir ? knnCachePath(cacheDir, { algorithm: ALGORITHM_VERSION, input: inputs.get(first.dataset), n: first.n, queries: cfg.queries, seed: cfg.seed, k: kmax }) : null;
        let truth: ExactKnn | null = cachePath ? readKnnCache(cachePath, queries, kmax) : null;
        const exactIdx = idx.find((i) => cells[i].kind === 'exact');
        let exactMs = 0;
        if (!truth) {
          // split the queries over the threads; joined in query order, the answer is the same
          const parts = Math.max(1, Math.min(executor.threads, queries.length));
          const at = (p: number) => Math.round((p * queries.length) / parts);
          const outs = await Promise.all(
            Array.from({ length: parts }, (_, p) => executor.run({ kind: 'exact', key: `exact_${gk}`, k: kmax, ks: cfg.k, from: at(p), to: at(p + 1) })),
          );
          truth = concatExact(outs.map((o) => (o.result as ExactResult).truth), kmax);
          exactMs = outs.reduce((sum, o) => sum + o.ms, 0);
          if (cachePath) writeKnnCache(cachePath, queries, truth);
        }
        if (exactIdx !== undefined) {
          const c = cells[exactIdx];
          const exactRows = engine.exactRows(vectors, queries, truth, cfg.k);
          const rec: CellRecord = { format: STORE_FORMAT, key: c.key, kind: 'exact', hash: hashes[exactIdx], queries: queries.length, rows: exactRows, nn: nnOf(vectors.userIds, queries, truth), ms: exactMs };
          store.write(rec);
          records.set(c.key, rec);
          ms.set(c.key, rec.ms);
          computed++;
          progress.increment();
        }
        executor.setTruth(gk, truth);
        // most expensive first, so no worker idles on a long cell at the end of the group
        // (the order cannot change a result: every cell depends only on its own seeds)
        const cost = (i: number) => estimateCost(cfg, cells[i], users, queries.length, variants);
        await Promise.all(
          idx
            .filter((i) => cells[i].kind === 'trial')
            .sort((a, b) => cost(b) - cost(a) || a - b)
            .map(async (i) => {
              const c = cells[i];
              if (c.kind !== 'trial') return;
              const out = await executor.run({ kind: 'trial', key: c.key, spec: trialSpec(cfg, c, info) });
              const rec: CellRecord = { format: STORE_FORMAT, key: c.key, kind: 'trial', hash: hashes[i], queries: queries.length, rows: out.result as CellRow[], ms: out.ms };
              store.write(rec);
              records.set(c.key, rec);
              ms.set(c.key, rec.ms);
              computed++;
              progress.increment();
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
        const kept = records.size;
        throw new InterruptedError(sig, `interrupted by ${sig}: ${kept} of ${mineCount} cells finished and kept in ${join(outDir, 'cells')}; to resume, ${hint}`);
      }
      throw e;
    } finally {
      progress.stop();
      await executor.close();
    }

    // 5. outputs (every cell is stored: a signal now only cuts the rebuild of files short)
    guard.whenSignalled((sig) => {
      store.removeTemporaries(process.pid);
      process.stderr.write(`lshdp: interrupted by ${sig} while writing the outputs; all ${mineCount} cells are kept in ${join(outDir, 'cells')}; to finish, ${hint}\n`);
      process.exit(sig === 'SIGINT' ? 130 : 143);
    });
    const grid: GridEntry[] = cells.map((c, i) => ({
      key: c.key,
      kind: c.kind,
      dataset: c.dataset,
      n: c.n,
      ...(c.kind === 'trial' ? { kappa: c.kappa, trial: c.trial } : {}),
      hash: hashes[i],
      seeds: cellSeeds(cfg, c),
      ...(shardOf ? { shard: shardOf[i] + 1 } : {}),
      ...(records.has(c.key) ? { ms: records.get(c.key)!.ms } : {}),
    }));
    const manifest: Manifest = {
      lshdp: LSHDP_VERSION,
      algorithm: ALGORITHM_VERSION,
      gitCommit: gitCommit(),
      node: process.version,
      configFile: opts.config,
      configHash,
      config: cfg,
      skipBadRows,
      ...manifestBasics(summaries),
      shard: opts.shard ?? null,
      threads: executor.threads,
      timings: { totalMs: Date.now() - started, loadMs, cellsComputed: computed, cellsReused: reused },
      grid,
    };
    if (opts.shard) {
      // a shard holds part of the grid: manifest and summaries only; `lshdp merge` writes the CSVs
      writeFileAtomicSync(join(outDir, 'datasets.json'), JSON.stringify(summaries, null, 2) + '\n');
      writeFileAtomicSync(join(outDir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
      log(`shard ${opts.shard.index}/${opts.shard.count} done: ${mineCount} cells in ${outDir}; combine the shards with lshdp merge`);
    } else {
      await writeFinalOutputs(outDir, cfg, records, summaries, manifest, engine, { report: opts.report, png: opts.png, quiet: opts.quiet });
      log(`wrote ${outDir} (${computed} cells computed, ${reused} reused)`);
    }
    return { outDir, total: cells.length, mine: mineCount, reused, computed };
  } finally {
    guard.dispose();
  }
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
