/**
 * `lshdp run`: a config through its stages, each a function of its own module:
 * set up (config, folder checks, lock) → load the data sets → plan (cells, hashes, shards, what the
 * store holds: pure) → compute the pending cells → write the result files → report (claims,
 * figures, tables, index.html). Finished cells are kept as they finish; running the same command
 * again resumes, a shard computes only its share, and the CSVs are always rebuilt from the store,
 * so every path ends in byte-identical files.
 */
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { InterruptedError } from '../util/errors.js';
import { formatCount } from '../util/format.js';
import { createProgress } from '../util/progress.js';
import { SignalGuard, signalExitCode } from '../util/signals.js';
import { hammingKernelName } from '../kernels/instance.js';
import type { ShardSpec } from '../machinery/shards.js';
import type { ExperimentConfig } from '../experiment/config/schema.js';
import { ALGORITHM_VERSION, gitCommit, LSHDP_VERSION } from '../experiment/version.js';
import { computePending, type ComputeContext, type ComputeCounts } from '../machinery/compute.js';
import { loadRealEngine, type Engine } from '../machinery/engine.js';
import type { MechanismInfo } from '../mechanisms/types.js';
import { defaultWorkerUrl, InProcessExecutor, WorkerPool, type Executor } from '../machinery/executor.js';
import { loadDataSets, queriesCutWarning, topCutWarning, type LoadedData } from '../machinery/load.js';
import { acquireFolderLock } from '../machinery/lock.js';
import { gridEntry, manifestBasics, type Manifest } from '../machinery/manifest.js';
import { prepareResultsFolder } from '../machinery/outdir.js';
import { writeResultFiles, writeShardFiles } from '../machinery/outputs.js';
import { dryRunLines, planLines, plannedCost, planRun, type RunPlan } from '../machinery/plan.js';
import { earlierRun, recordRunTime } from '../machinery/runTimes.js';
import { rerunRecord, upToDateLines, type RerunRecord } from '../machinery/rerun.js';
import { accountantsOf } from '../experiment/aggregate.js';
import { usesNaiveAccountant } from '../privacy/accountants.js';
import { setUpRun, type RunSetup } from '../machinery/setup.js';
import { CellStore } from '../machinery/store.js';
import { ownStores, type OwnRecords } from '../machinery/ownStores.js';
import { evaluationsOf } from '../evaluations/catalog.js';
import { pruneSetupsLogged, setupCacheBudgetOrStop } from '../machinery/setupCache.js';
import { addRerunRecord, forgetOutputsKey, outputsKey, outputsUpToDate, quickOutputsKey, quickUpToDate, recordOutputsKey, stampFiles, type QuickInputs } from '../machinery/upToDate.js';
import { EXACT_RECORD_REVISION } from '../experiment/records.js';
import { MECHANISM_ALGORITHMS } from '../mechanisms/catalog.js';
import { summaryToJson } from '../data/summaryJson.js';
import { inputFiles } from '../data/formats/index.js';
import { prefetchRunModules, writeRunReport } from './report.js';

export interface RunOptions {
  config: string;
  /** results folder; default results/<config name> */
  out?: string;
  /** the data folder of the data sets a config names with `dataset:` */
  dataDir?: string;
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
  /** worker script; default dist/machinery/worker.js when built, else cells run in this thread */
  workerUrl?: URL | null;
  /** module the workers import `createEngine()` from instead of the real engine (tests) */
  engineModule?: string;
  /**
   * worker threads the caller owns and keeps between runs (`--watch`): used as they are (not
   * trimmed, not closed at the end); after a failed run they may be aborted (WorkerPool.usable)
   */
  pool?: WorkerPool;
  /** informational lines (default: stderr unless quiet) */
  log?: (line: string) => void;
  /** how to run this again, printed on interruption */
  resumeHint?: string;
  /** `--set KEY=VALUE` overrides of the config (YAML values), validated like the file */
  overrides?: readonly string[];
  /** print the grid and what would be computed and reused; compute and write nothing */
  dryRun?: boolean;
  /**
   * write the result files, claims and report once computed (default true). false: compute and
   * store only, for a caller that runs again to write them once (calibrate's rounds); the folder's
   * outputs key is forgotten when anything was computed, so that the next run rewrites its files
   */
  outputs?: boolean;
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

export async function runExperiment(opts: RunOptions): Promise<RunResult> {
  const started = Date.now();
  const log = opts.log ?? ((line: string) => (opts.quiet ? undefined : process.stderr.write(line + '\n')));
  const setup = setUpRun(opts);
  const { cfg, outDir } = setup;
  const setupBudget = setup.cacheDir ? setupCacheBudgetOrStop() : 0;
  // one run per folder at a time (a dry run only reads)
  const lock = opts.dryRun ? null : acquireFolderLock(outDir, `lshdp run ${opts.config}`);
  // Internal hook for the lock test: hold the run once it holds its lock, so the test meets a live
  // lock whatever the machine's speed (a kill ends it). Not a user setting.
  if (lock && process.env.LSHDP_HOLD_AFTER_LOCK === '1') await new Promise<never>(() => setInterval(() => undefined, 60_000));
  // a folder whose outputs are current by the quick key: done before anything is loaded
  const report = opts.report !== false;
  const quick: QuickInputs = {
    lshdp: LSHDP_VERSION,
    algorithm: ALGORITHM_VERSION,
    mechanismAlgorithms: MECHANISM_ALGORITHMS,
    configHash: setup.configHash,
    skipBadRows: setup.skipBadRows,
    report,
    png: opts.png !== false,
    inputStamps: stampFiles(cfg.datasets.flatMap(inputFiles)),
    exactRecord: EXACT_RECORD_REVISION,
  };
  // (the real engine only: an injected one may load other data from the same files)
  if (lock && !opts.force && !opts.shard && !opts.engine) {
    const results = quickUpToDate(outDir, quickOutputsKey(outDir, quick), report, configOutputs(cfg));
    if (results !== null) {
      const rerun = rerunOf(opts, setup, quick);
      if (rerun) addRerunRecord(outDir, rerun);
      lock.release();
      for (const line of upToDateLines(outDir, results)) log(line);
      return { outDir, total: results, mine: results, reused: results, computed: 0, cellsComputed: 0 };
    }
  }
  const guard = new SignalGuard();
  // while loading nothing is written yet: stop at once
  guard.whenSignalled((sig) => {
    process.stderr.write(`lshdp: interrupted by ${sig} while loading the data; nothing was written\n`);
    process.exit(signalExitCode(sig));
  });
  // asked now, read for the manifest at the end
  const gitCommitOfRun = gitCommit();
  // the workers start now and load their engine while this thread loads the data and plans
  let executor: Executor | null = opts.dryRun ? null : (opts.pool ?? startWorkers(opts, setup));
  const owned = !opts.pool;
  try {
    const engine = opts.engine ?? (await loadRealEngine());
    const progress = createProgress({ quiet: opts.quiet });
    const data = await loadDataSets(setup, opts.config, engine, progress, guard, log);
    // a warning, not a progress line: said under -q too
    for (const warning of [queriesCutWarning(cfg, data.loaded), topCutWarning(cfg)]) if (warning) process.stderr.write(`${warning}\n`);
    const store = new CellStore(outDir);
    if (!opts.force) store.removeTemporaries();
    // the evaluations with store folders of their own (the linkage attack's entries), beside cells/
    const others = ownStores(cfg, outDir);
    if (!opts.force) for (const s of others.values()) s.removeTemporaries();
    const plan = planRun(setup, data, (name) => engine.mechanism(name), store, { shard: opts.shard, force: opts.force, ownStores: others });
    for (const line of planLines(setup, plan, opts.shard)) log(line);
    if (opts.dryRun) return dryRun(opts, setup, plan, data);
    // the results folder (nothing was written before this point)
    prepareResultsFolder(outDir, setup.owner, { force: opts.force });
    store.ensure();
    for (const s of others.values()) s.ensure();
    if (owned) executor = fitExecutor(executor, setup, plan, engine, log);
    const onThreadFree = !opts.shard && opts.outputs !== false && plan.cellsTodo.length > 0 ? prefetchRunModules(report, opts.png !== false) : undefined;
    const hint = opts.resumeHint ?? 'run the same command again';
    const computeStarted = Date.now();
    const ctx = { cfg, plan, data, engine, executor: executor!, store, ownStores: others, progress, guard, cacheDir: setup.cacheDir, onThreadFree };
    const done = await computeStage(ctx, outDir, hint, owned);
    if (setup.cacheDir && done.cellsComputed > 0) pruneSetupsLogged(setup.cacheDir, setupBudget, started, log);
    if (opts.outputs === false && !opts.shard) {
      if (done.computed > 0) forgetOutputsKey(outDir);
      return { outDir, total: plan.total, mine: plan.total, reused: plan.reused, computed: done.computed, cellsComputed: done.cellsComputed };
    }
    // every result is stored: a signal now only cuts the rebuild of files short
    guard.whenSignalled((sig) => {
      store.removeTemporaries(process.pid);
      for (const s of others.values()) s.removeTemporaries(process.pid);
      process.stderr.write(`lshdp: interrupted by ${sig} while writing the outputs; all ${formatCount(plan.total)} results are kept in ${join(outDir, 'cells')}; to finish, ${hint}\n`);
      process.exit(signalExitCode(sig));
    });
    const threads = executor!.threads;
    const commit = await gitCommitOfRun;
    const manifest = () => runManifest(opts.config, setup, plan, data, { threads, shard: opts.shard ?? null, done, started, commit, info: (name) => engine.mechanism(name) });
    if (opts.shard) {
      // a shard holds part of the grid: manifest and summaries only; `lshdp merge` writes the CSVs
      writeShardFiles(outDir, data.summaries, manifest());
      log(`shard ${opts.shard.index}/${opts.shard.count} done: ${formatCount(plan.total)} results in ${outDir}; combine the shards with lshdp merge (which also tests the paper's claims)`);
    } else await timedOutputsStage(opts, setup, { plan, data, done, quick, engine, manifest }, log, { started, computeStarted, threads });
    return { outDir, total: plan.total, mine: plan.total, reused: plan.reused, computed: done.computed, cellsComputed: done.cellsComputed };
  } finally {
    // on every path, errors included: live workers would keep the process from exiting (a pool
    // the caller owns stays open for its next run)
    if (owned) await executor?.close();
    guard.dispose();
    lock?.release();
  }
}

/** `--dry-run`: its lines, the time from this config's earlier run here when there is one; nothing computed or written. */
function dryRun(opts: RunOptions, setup: RunSetup, plan: RunPlan, data: LoadedData): RunResult {
  const history = { earlier: earlierRun(setup.cacheDir, setup.configHash), loadMs: Object.values(data.loadMs).reduce((a, b) => a + b, 0) };
  for (const l of dryRunLines(setup.cfg, plan, setup.threads, history)) (opts.log ?? ((x: string) => process.stdout.write(x + '\n')))(l);
  return { outDir: setup.outDir, total: plan.total, mine: plan.total, reused: plan.reused, computed: 0, cellsComputed: 0 };
}

/** The outputs stage, then the run's stage times recorded for the next --dry-run of this config here (in the cache folder, never the results). */
async function timedOutputsStage(
  opts: RunOptions,
  setup: RunSetup,
  run: Parameters<typeof outputsStage>[2],
  log: (line: string) => void,
  at: { started: number; computeStarted: number; threads: number },
): Promise<void> {
  const outputsStarted = Date.now();
  await outputsStage(opts, setup, run, log);
  const end = Date.now();
  const { plan, done } = run;
  recordRunTime(setup.cacheDir, {
    configHash: setup.configHash,
    threads: at.threads,
    cells: done.cellsComputed,
    cost: plannedCost(plan),
    computeMs: outputsStarted - at.computeStarted,
    outputsMs: end - outputsStarted,
    totalMs: end - at.started,
  });
}

/**
 * The outputs of a whole grid: the CSVs, claims, figures and report, rebuilt unless the folder's
 * outputs key says they are current; the quick key is recorded for the next run.
 */
async function outputsStage(
  opts: RunOptions,
  setup: RunSetup,
  run: { plan: RunPlan; data: LoadedData; done: ComputeCounts; quick: QuickInputs; engine: Engine; manifest: () => Manifest },
  log: (line: string) => void,
): Promise<void> {
  const { cfg, outDir } = setup;
  const { plan, data, done, quick } = run;
  const report = opts.report !== false;
  const key = outputsKey({
    lshdp: LSHDP_VERSION,
    algorithm: ALGORITHM_VERSION,
    configHash: setup.configHash,
    exactHashes: plan.exactHashes,
    resultHashes: plan.resultHashes,
    summaries: data.summaries.map(summaryToJson),
    report,
    png: opts.png !== false,
  });
  if (done.computed === 0 && !opts.force && outputsUpToDate(outDir, key, report, configOutputs(cfg))) {
    // current by content: the quick key is recorded for the folder as it is now
    recordOutputsKey(outDir, key, { inputs: quick, results: plan.total, rerun: rerunOf(opts, setup, quick) });
    log(`${outDir} is up to date (all ${formatCount(plan.reused)} results reused; its tables, claims and figures are unchanged)`);
    return;
  }
  forgetOutputsKey(outDir);
  const manifest = run.manifest();
  const walked = writeResultFiles(outDir, cfg, plan.records, data.summaries, manifest, run.engine, ownRecords(plan));
  // the claims read the records this run holds, not the folder it just wrote (the same values)
  const { claimsInputOf } = await import('../claims/index.js');
  const claimsInput = claimsInputOf(cfg, plan.records, manifest, outDir, ownRecords(plan), walked);
  await writeRunReport(outDir, { report: opts.report, png: opts.png, quiet: opts.quiet, log, claimsInput, threads: setup.threads });
  recordOutputsKey(outDir, key, { inputs: quick, results: plan.total, rerun: rerunOf(opts, setup, quick) });
  log(`wrote ${outDir} (${formatCount(done.computed)} results computed, ${formatCount(plan.reused)} reused)`);
}

/**
 * The rerun key of this run (src/machinery/rerun.ts), recorded with the quick key; none for a config
 * with plugin modules (read while parsing) or whose parse prints a warning (a rerun must print it).
 */
function rerunOf(opts: RunOptions, setup: RunSetup, quick: QuickInputs): RerunRecord | undefined {
  const { cfg } = setup;
  if (cfg.mechanisms.some((m) => m.module !== undefined) || usesNaiveAccountant(accountantsOf(cfg))) return undefined;
  const args = { config: opts.config, outDir: setup.outDir, overrides: setup.overrides, dataDir: opts.dataDir, skipBadRows: setup.skipBadRows, report: quick.report, png: quick.png };
  return rerunRecord(args, quick, cfg.datasets.flatMap(inputFiles), configOutputs(cfg)) ?? undefined;
}

/** More workers than this, far more than cores, only cost start-up time and memory. */
const maxUsefulWorkers = () => 4 * availableParallelism();

/**
 * Worker threads, started before the data load so that their start (their modules and the
 * WebAssembly kernel, ~0.15 s) overlaps it; null when there is no worker script (cells then run
 * in this thread).
 */
function startWorkers(opts: RunOptions, setup: RunSetup): WorkerPool | null {
  return startWorkerPool({ ...opts, threads: setup.threads });
}

/** A pool of `threads` workers (default: the cores; at most 4 per core), or null when there is no worker script. */
export function startWorkerPool(opts: Pick<RunOptions, 'threads' | 'workerUrl' | 'engineModule'>): WorkerPool | null {
  const workerUrl = opts.workerUrl === undefined ? defaultWorkerUrl() : opts.workerUrl;
  const threads = opts.threads ?? availableParallelism();
  return workerUrl ? new WorkerPool(Math.min(threads, maxUsefulWorkers()), { workerUrl, engineModule: opts.engineModule }) : null;
}

/** The started workers, no more than pending cells (at least one), or this thread when there are none. */
function fitExecutor(started: Executor | null, setup: RunSetup, plan: RunPlan, engine: Engine, log: (line: string) => void): Executor {
  const workers = Math.max(1, Math.min(setup.threads, plan.cellsTodo.length, maxUsefulWorkers()));
  if (setup.threads > maxUsefulWorkers()) log(`--threads ${setup.threads}: using ${workers} worker threads (at most 4 per core; results do not depend on it)`);
  if (started instanceof WorkerPool) {
    started.trim(workers);
    return started;
  }
  return new InProcessExecutor(engine);
}

/**
 * The compute stage. A signal aborts the workers; on any stop the finished cells stay in the store
 * and the error says how far the run got and how to resume.
 */
async function computeStage(ctx: ComputeContext, outDir: string, hint: string, owned: boolean): Promise<ComputeCounts> {
  const { plan, executor, store, guard, progress } = ctx;
  const done: ComputeCounts = { computed: 0, cellsComputed: 0 };
  guard.whenSignalled((sig) => executor.abort(new InterruptedError(sig)));
  try {
    await computePending(ctx, done);
    return done;
  } catch (e) {
    progress.stop();
    executor.abort(e instanceof Error ? e : new Error(String(e)));
    store.removeTemporaries(process.pid);
    for (const s of ctx.ownStores?.values() ?? []) s.removeTemporaries(process.pid);
    if (e instanceof InterruptedError || guard.signal) {
      const sig = e instanceof InterruptedError ? e.signal : guard.signal!;
      const finished = formatCount(plan.reused + done.computed);
      throw new InterruptedError(sig, `interrupted by ${sig}: ${finished} of ${formatCount(plan.total)} results finished and kept in ${join(outDir, 'cells')}; to resume, ${hint}`);
    }
    throw e;
  } finally {
    progress.stop();
    // the workers wind down while the outputs are written; the run awaits them at its end
    if (owned) void executor.close();
  }
}

/** The files of the evaluations the config evaluates (utility.csv, and recommend.csv, attack.csv…): a folder without one is rebuilt. */
function configOutputs(cfg: ExperimentConfig): string[] {
  return evaluationsOf(cfg).map((e) => e.file);
}

/** manifest.json of this run: versions, the effective config, inputs, the grid with seeds and hashes, timings. */
function runManifest(
  configFile: string,
  setup: RunSetup,
  plan: RunPlan,
  data: LoadedData,
  run: { threads: number; shard: ShardSpec | null; done: ComputeCounts; started: number; commit: string | null; info: (name: string) => MechanismInfo },
): Manifest {
  const { cfg } = setup;
  const versions = Object.fromEntries(cfg.mechanisms.flatMap((m) => (run.info(m.name).algorithm ? [[m.name, run.info(m.name).algorithm as string]] : [])));
  // the entry hashes of the evaluations' own store folders (attack/), listed under each folder's name
  const ownHashes = new Map([...plan.own].map(([folder, o]) => [folder, o.hashes]));
  return {
    lshdp: LSHDP_VERSION,
    algorithm: ALGORITHM_VERSION,
    ...(Object.keys(versions).length > 0 ? { mechanism_algorithms: versions } : {}),
    git_commit: run.commit,
    node: process.version,
    // which Hamming kernel this process's workers run (WebAssembly SIMD, scalar, or the JS fallback)
    kernel: hammingKernelName(),
    config_file: configFile,
    config_hash: setup.configHash,
    config: setup.document,
    skip_bad_rows: setup.skipBadRows,
    // with `recommend` every vector is a training vector: so are utility.csv's loss and recall
    ...(cfg.recommend ? { utility_vectors: 'training' as const } : {}),
    ...manifestBasics(data.summaries),
    shard: run.shard,
    threads: run.threads,
    timings: {
      total_ms: Date.now() - run.started,
      load_ms: data.loadMs,
      cells_computed: run.done.cellsComputed,
      cells_reused: plan.cells.filter((_, i) => plan.mine[i]).length - run.done.cellsComputed,
      results_computed: run.done.computed,
      results_reused: plan.reused,
    },
    grid: plan.cells.map((c, i) => gridEntry(cfg, c, plan.exactHashes, plan.resultHashes, plan.records, plan.shardOf ? plan.shardOf[i] + 1 : undefined, ownHashes)),
  };
}

/** The records of the plan's own store folders (attack/), by folder, for the result files and claims. */
function ownRecords(plan: RunPlan): OwnRecords {
  return new Map([...plan.own].map(([folder, o]) => [folder, o.records]));
}
