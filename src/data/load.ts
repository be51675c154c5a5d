import { closeSync, existsSync, mkdtempSync, openSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { UserError } from '../util/errors.js';
import type { Progress } from '../util/progress.js';
import type { DatasetSpec } from './spec.js';
import type { DatasetSummary, LoadedDataset, RecommendData, RecommendDimSummary, RecommendSplit, UserVectors } from './types.js';
import type { Interactions } from './interactions.js';
import { formatUnit, generatesData, type ReadPlan } from './formats/index.js';
import { buildVectors, buildVectorsOfDims, rankItems, TooFewItemsError } from './vectors.js';
import { releaseArrays, releasedArraysFreed } from '../util/release.js';
import { cacheKey, cachePath, inputStamp, readVectorCache, rememberedHash, rememberHash, writeVectorCache, type CachedBase, type CachedRecommend, type RecommendBase } from './cache.js';
import { sha256File, sha256FilesInThread } from '../util/hash.js';
import { recommendData, splitInteractions, splitProblem } from './split.js';
import { makeFolderSync } from '../util/folders.js';
import { SKIP_BAD_ROWS_HINT } from './lines.js';
import { ensureSynthetic, resolveSynthOptions } from './synth.js';

export interface LoadOptions {
  /** binary vector cache; default `data/cache` under the working directory, null disables it */
  cacheDir?: string | null;
  progress?: Progress;
  skipBadRows?: boolean;
  /**
   * where `format: synthetic` keeps its generated files; default `<cacheDir>/synth`, and with the
   * cache disabled a temporary folder removed once the data set is read
   */
  synthDir?: string;
  /**
   * a recommendation split (config `recommend`, docs/RECOMMEND.md): the vectors are then built from
   * the training interactions only, and `LoadedDataset.recommend` holds each n's RecommendData
   */
  recommend?: RecommendSplit;
  /** the run's seed, which `split: random` draws each user's held-out items from */
  seed?: number | string;
}

/** Where generated synthetic files live by default: beside the other caches. */
export function defaultSynthDir(cacheDir: string): string {
  return join(cacheDir, 'synth');
}

export type { ReadPlan };

/**
 * Run `fn` with the synthetic files' folder for these options: the explicit `synthDir`, else
 * `<cacheDir>/synth`, else (no cache) a temporary folder that is removed afterwards.
 */
async function withSynthDir<T>(spec: DatasetSpec, opts: LoadOptions, fn: (o: LoadOptions) => Promise<T>): Promise<T> {
  const cacheDir = opts.cacheDir === undefined ? 'data/cache' : opts.cacheDir;
  if (opts.synthDir !== undefined || cacheDir !== null) return fn({ ...opts, synthDir: opts.synthDir ?? defaultSynthDir(cacheDir!) });
  // only generated data needs a folder to be written to
  if (!generatesData(spec.format)) return fn(opts);
  const tmp = mkdtempSync(join(tmpdir(), 'lshdp-synth-'));
  // also when a signal handler ends the process with process.exit() in the middle
  const remove = () => rmSync(tmp, { recursive: true, force: true });
  process.on('exit', remove);
  try {
    return await fn({ ...opts, synthDir: tmp });
  } finally {
    process.off('exit', remove);
    remove();
  }
}

/** Validate a spec and resolve the reader plan (generating synthetic files when needed). */
export function planRead(spec: DatasetSpec, opts: LoadOptions = {}): ReadPlan {
  const unit = formatUnit(spec.format);
  if (spec.center !== undefined && !['user', 'global', 'none'].includes(spec.center))
    throw new UserError(`dataset ${spec.name}: unknown center "${spec.center}" (expected one of: user, global, none)`);
  const skipBadRows = opts.skipBadRows ?? spec.skip_bad_rows ?? false;
  const synthDir = opts.synthDir ?? (opts.cacheDir === null ? null : defaultSynthDir(opts.cacheDir ?? 'data/cache'));
  return { name: spec.name, ...unit.plan(spec, { synthDir, progress: opts.progress, generator: { ensureSynthetic, resolveSynthOptions } }), skipBadRows };
}

/** The interactions of a plan, read by the reader of the plan's format (`times`: with each pair's time). */
async function readPlan(plan: ReadPlan, progress?: Progress, times = false): Promise<Interactions> {
  try {
    return await formatUnit(plan.format).read(plan, { skipBadRows: plan.skipBadRows, progress, ...(times ? { times } : {}) });
  } catch (e) {
    throw plan.skipBadRows ? e : await withBadRowCount(plan, e);
  }
}

/** How many lines of the first few a malformed-row error lists. */
const LINES_SHOWN = 5;

/**
 * A malformed row's error, with how many malformed rows the file has and where the first few are
 * (read again, skipping them, only on this error path): one run says it all, not one run per line.
 * Any other error, or a file with that one malformed row, passes unchanged.
 */
async function withBadRowCount(plan: ReadPlan, e: unknown): Promise<unknown> {
  if (!(e instanceof UserError) || !e.message.endsWith(SKIP_BAD_ROWS_HINT)) return e;
  let again: Interactions;
  try {
    again = await formatUnit(plan.format).read(plan, { skipBadRows: true });
  } catch {
    return e;
  }
  if (again.rowsSkipped < 2) return e;
  const lines = again.skippedLines.slice(0, LINES_SHOWN);
  const more = again.rowsSkipped > lines.length ? ', …' : '';
  return new UserError(`${e.message.slice(0, -SKIP_BAD_ROWS_HINT.length)}; ${again.rowsSkipped} malformed rows in all, at lines ${lines.join(', ')}${more}${SKIP_BAD_ROWS_HINT}`, e.exitCode);
}

/** Read and combine a data set's interactions (no vectors, no cache). */
export async function readInteractions(spec: DatasetSpec, opts: LoadOptions = {}): Promise<Interactions> {
  return withSynthDir(spec, opts, async (o) => readPlan(planRead(spec, o), o.progress));
}

function checkDims(name: string, dims: number[]): void {
  if (dims.length === 0) throw new UserError(`dataset ${name}: no dimensions n requested`);
  for (const n of dims) if (!Number.isInteger(n) || n < 1) throw new UserError(`dataset ${name}: n must be a positive integer, got ${n}`);
}

/**
 * Load a data set as top-n user vectors for every n in `dims` (protocol §1–2), through the binary
 * cache when enabled. Returns the summary and one UserVectors per n.
 */
export async function loadDataset(spec: DatasetSpec, dims: number[], opts: LoadOptions = {}): Promise<LoadedDataset> {
  checkDims(spec.name, dims);
  if (opts.recommend) {
    const problem = splitProblem([spec], opts.recommend);
    if (problem) throw new UserError(problem);
    if (opts.recommend.split === 'random' && opts.seed === undefined) throw new UserError(`dataset ${spec.name}: recommend.split: random draws from the run's seed, and none was given`);
  }
  return withSynthDir(spec, opts, (o) => loadPlanned(spec, dims, o));
}

/** The files of a plan with their sizes (refusing folders, FIFOs and missing files up front), and whether each opens for reading. */
function checkInputs(plan: ReadPlan): { bytes: number; readable: boolean }[] {
  return plan.files.map((f) => {
    let st: ReturnType<typeof statSync>;
    try {
      st = statSync(f);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      throw new UserError(code === 'ENOENT' ? `${resolve(f)}: no such file` : `${f}: cannot read (${code ?? (e as Error).message})`);
    }
    // a folder, a FIFO or a device is refused up front (a FIFO would block the hashing forever)
    if (st.isDirectory()) throw new UserError(`${f}: is a folder, expected a file`);
    if (!st.isFile()) throw new UserError(`${f}: not a regular file`);
    let readable = true;
    try {
      closeSync(openSync(f, 'r'));
    } catch {
      readable = false;
    }
    return { bytes: st.size, readable };
  });
}

/** Inputs of at least this many bytes in all are hashed in a thread of their own, while this one parses them. */
const HASH_THREAD_MIN_BYTES = 32 << 20;

/** The SHA-256s of a plan's inputs, under way. */
interface InputHashes {
  hashes: Promise<string[]>;
  /** every input's hash from `hashes.json`, its stamp current: `hashes` is settled already */
  remembered: boolean;
  /** per input, the hash `hashes.json` last remembered for its path (null when none) */
  last: (string | null)[];
  /** ends a hashing thread that is no longer awaited */
  cancel(): void;
}

/**
 * The SHA-256 of each input: remembered in the cache directory's `hashes.json` where the file's
 * size and mtime are unchanged, else computed (in a thread when `threadBytes`, the inputs' size,
 * is big: see HASH_THREAD_MIN_BYTES) and remembered.
 */
function hashInputs(plan: ReadPlan, cacheDir: string | null, threadBytes: number): InputHashes {
  const stamps = cacheDir ? plan.files.map(inputStamp) : [];
  const seen = cacheDir ? plan.files.map((f, i) => rememberedHash(f, cacheDir, stamps[i]!)) : plan.files.map(() => ({ current: null, last: null }));
  const last = seen.map((r) => r.last);
  if (seen.every((r) => r.current !== null)) return { hashes: Promise.resolve(seen.map((r) => r.current!)), remembered: true, last, cancel: () => undefined };
  const todo = plan.files.filter((_, i) => seen[i]!.current === null);
  const thread = threadBytes >= HASH_THREAD_MIN_BYTES ? sha256FilesInThread(todo) : null;
  const computed = thread ? thread.hashes : Promise.all(todo.map((f) => sha256File(f)));
  const hashes = computed.then((got) => {
    let k = 0;
    return plan.files.map((f, i) => {
      if (seen[i]!.current !== null) return seen[i]!.current!;
      const h = got[k++]!;
      if (cacheDir) rememberHash(f, cacheDir, stamps[i]!, h);
      return h;
    });
  });
  // awaited later, or never when the load fails first: not an unhandled rejection meanwhile
  hashes.catch(() => undefined);
  return { hashes, remembered: false, last, cancel: () => thread?.cancel() };
}

/**
 * The split as the cache key holds it: `last` depends on the data alone; `random` also on the
 * run's seed and the data set's name (the seed of each user's draw).
 */
function splitKey(split: RecommendSplit | undefined, seed: number | string | undefined, name: string): Record<string, unknown> | undefined {
  if (!split) return undefined;
  return split.split === 'random' ? { split: split.split, holdout: split.holdout, seed, dataset: name } : { split: split.split, holdout: split.holdout };
}

/** What one load computes or reads from the cache, per n. */
interface Built {
  vectors: Map<number, UserVectors>;
  recommend: Map<number, RecommendData>;
  dims: Map<number, RecommendDimSummary>;
  base: CachedBase | null;
  recBase: RecommendBase | null;
}

async function loadPlanned(spec: DatasetSpec, dims: number[], opts: LoadOptions): Promise<LoadedDataset> {
  const cacheDir = opts.cacheDir === undefined ? 'data/cache' : opts.cacheDir;
  // made here, checked, so that no recursive mkdir below meets a path that cannot hold a folder
  if (cacheDir) makeFolderSync(cacheDir, '--cache-dir');
  const plan = planRead(spec, opts);
  const files = checkInputs(plan);
  // (an input that does not open is hashed here, for the error it always gave)
  const hashing = hashInputs(plan, cacheDir, files.every((f) => f.readable) ? files.reduce((s, f) => s + f.bytes, 0) : 0);
  const uniqueDims = [...new Set(dims)];
  const split = opts.recommend ? { split: opts.recommend.split, holdout: opts.recommend.holdout } : undefined;
  const recommendKey = splitKey(split, opts.seed, spec.name);
  const keyOf = (hashes: readonly string[], n: number): string =>
    cacheKey({ inputs: [...hashes], reader: { ...plan.reader, skipBadRows: plan.skipBadRows }, center: plan.center, n, ...(recommendKey ? { recommend: recommendKey } : {}) });

  const built: Built = { vectors: new Map(), recommend: new Map(), dims: new Map(), base: null, recBase: null };
  let hashes: string[] | null = null;
  try {
    // A cache hit needs the inputs' hashes first. An input hashes.json holds no hash for, or whose
    // last hash has no cache file for these n, has none to hit (unless the same bytes were read
    // under another path): it is read while it is hashed, not after. An input that does not open
    // is hashed first, as before, for that error.
    const lastKeys = hashing.last.every((h) => h !== null) ? uniqueDims.map((n) => keyOf(hashing.last as string[], n)) : [];
    const mayHit = cacheDir !== null && (hashing.remembered || lastKeys.some((k) => existsSync(cachePath(cacheDir, k))));
    if (mayHit || files.some((f) => !f.readable)) hashes = await hashing.hashes;
    if (cacheDir && mayHit) {
      for (const n of uniqueDims) {
        const key = keyOf(hashes!, n);
        const hit = readVectorCache(cachePath(cacheDir, key), key);
        if (!hit || Boolean(hit.recommend) !== Boolean(split)) continue;
        hit.vectors.dataset = spec.name;
        built.vectors.set(n, hit.vectors);
        built.base = hit.base;
        if (hit.recommend) {
          built.recommend.set(n, hit.recommend.data);
          built.dims.set(n, hit.recommend.dim);
          built.recBase = hit.recommend.base;
        }
      }
    }
    if (built.vectors.size < uniqueDims.length) {
      const missing = uniqueDims.filter((n) => !built.vectors.has(n));
      const stored: [number, CachedRecommend | undefined][] = [];
      let failed: { error: unknown } | null = null;
      try {
        await buildMissing(spec, plan, missing, { ...opts, recommend: split }, built, (n, rec) => void stored.push([n, rec]));
      } catch (error) {
        failed = { error };
      }
      // what was built is cached, also when a later n failed (its error comes after theirs)
      if (cacheDir && stored.length > 0) {
        try {
          hashes ??= await hashing.hashes;
        } catch (e) {
          if (!failed) throw e;
        }
        if (hashes) for (const [n, rec] of stored) writeVectorCache(cachePath(cacheDir, keyOf(hashes, n)), keyOf(hashes, n), built.vectors.get(n)!, built.base!, rec);
      }
      if (failed) throw failed.error;
    }
    hashes ??= await hashing.hashes;
  } catch (e) {
    hashing.cancel();
    throw e;
  }
  const inputs = plan.files.map((f, i) => ({
    // generated input is named by its options, not by where the cache happens to be, so the
    // outputs do not depend on --cache-dir or --no-cache
    path: plan.synthetic ? `synthetic:${plan.synthetic}/${basename(f)}` : f,
    sha256: hashes![i]!,
    bytes: files[i]!.bytes,
  }));
  const summary = summaryOf(spec, plan, inputs, uniqueDims, built);
  const ordered = new Map<number, UserVectors>();
  for (const n of dims) ordered.set(n, built.vectors.get(n)!);
  if (!split) return { summary, vectors: ordered };
  const recommend = new Map<number, RecommendData>();
  for (const n of dims) recommend.set(n, built.recommend.get(n)!);
  return { summary, vectors: ordered, recommend };
}

/**
 * Read the data and build the vectors of the `missing` n (with a split: split first, items ranked
 * and vectors built over the training interactions, and each n's RecommendData); `store` caches each.
 */
async function buildMissing(spec: DatasetSpec, plan: ReadPlan, missing: number[], opts: LoadOptions, built: Built, store: (n: number, rec?: CachedRecommend) => void): Promise<void> {
  const split = opts.recommend;
  const inter = await readPlan(plan, opts.progress, split?.split === 'last');
  // the rows the interactions were combined from are handed back: gone before the vectors are made
  await releasedArraysFreed();
  built.base = {
    rowsRead: inter.rowsRead,
    rowsSkipped: inter.rowsSkipped,
    skippedLines: inter.skippedLines,
    users: inter.userIds.length,
    items: inter.itemIds.length,
    interactions: inter.itemIdx.length,
  };
  if (!split) {
    const ranking = rankItems(inter);
    // the n up to the first one too large, built together; then that one's error, as when built one by one
    const fit = missing.findIndex((n) => n > inter.itemIds.length);
    const ready = fit < 0 ? missing : missing.slice(0, fit);
    for (const [n, v] of buildVectorsOfDims(inter, ranking, ready, plan.center, spec.name)) {
      built.vectors.set(n, v);
      store(n);
    }
    if (fit >= 0) buildVectors(inter, ranking, missing[fit]!, plan.center, spec.name);
    // the vectors copy what they keep: the interactions' memory goes now, not at a collection
    // that may come only after the whole computation (src/util/release.ts)
    releaseArrays([inter.userPtr, inter.itemIdx, inter.values, inter.times]);
    return;
  }
  const parts = splitInteractions(inter, split, { seed: opts.seed ?? 0, dataset: spec.name });
  const train = parts.train;
  built.recBase = {
    split: split.split,
    holdout: split.holdout,
    usersTooFew: parts.usersTooFew,
    heldOut: parts.heldItem.length,
    training: train.itemIdx.length,
    trainingItems: train.itemIds.length,
  };
  const ranking = rankItems(train);
  for (const n of missing) {
    if (n > train.itemIds.length) throw new TooFewItemsError(spec.name, n, 'items with a training interaction', `${train.itemIds.length} of ${inter.itemIds.length} after the recommendation split`);
    const v = buildVectors(train, ranking, n, plan.center, spec.name);
    const { data, dim } = recommendData(parts, ranking, v, split.holdout);
    built.vectors.set(n, v);
    built.recommend.set(n, data);
    built.dims.set(n, dim);
    store(n, { base: built.recBase, dim, data });
  }
}

function summaryOf(spec: DatasetSpec, plan: ReadPlan, inputs: DatasetSummary['inputs'], uniqueDims: number[], built: Built): DatasetSummary {
  const b = built.base!;
  const summary: DatasetSummary = {
    name: spec.name,
    format: spec.format,
    inputs,
    rowsRead: b.rowsRead,
    rowsSkipped: b.rowsSkipped,
    skippedLines: b.skippedLines,
    users: b.users,
    items: b.items,
    interactions: b.interactions,
    center: plan.center,
    perDim: uniqueDims.map((n) => {
      const v = built.vectors.get(n)!;
      const users = v.userIds.length;
      return { n, usersKept: users, usersDropped: v.dropped, meanNnz: users ? v.colIdx.length / users : 0, itemIds: v.itemIds };
    }),
  };
  if (built.recBase) summary.recommend = { ...built.recBase, perDim: uniqueDims.map((n) => built.dims.get(n)!) };
  return summary;
}
