import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { UserError } from '../util/errors.js';
import type { Progress } from '../util/progress.js';
import type { DatasetSpec } from './spec.js';
import type { DatasetSummary, LoadedDataset, UserVectors } from './types.js';
import type { Interactions } from './interactions.js';
import { formatUnit, generatesData, type ReadPlan } from './formats/index.js';
import { buildVectors, rankItems } from './vectors.js';
import { cacheKey, cachePath, hashInput, readVectorCache, writeVectorCache, type CachedBase } from './cache.js';
import { makeFolderSync } from '../util/folders.js';

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
  return { name: spec.name, ...unit.plan(spec, { synthDir, progress: opts.progress }), skipBadRows };
}

/** The interactions of a plan, read by the reader of the plan's format. */
async function readPlan(plan: ReadPlan, progress?: Progress): Promise<Interactions> {
  return formatUnit(plan.format).read(plan, { skipBadRows: plan.skipBadRows, progress });
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
  return withSynthDir(spec, opts, (o) => loadPlanned(spec, dims, o));
}

async function loadPlanned(spec: DatasetSpec, dims: number[], opts: LoadOptions): Promise<LoadedDataset> {
  const cacheDir = opts.cacheDir === undefined ? 'data/cache' : opts.cacheDir;
  // made here, checked, so that no recursive mkdir below meets a path that cannot hold a folder
  if (cacheDir) makeFolderSync(cacheDir, '--cache-dir');
  const plan = planRead(spec, opts);
  const inputs: DatasetSummary['inputs'] = [];
  for (const f of plan.files) {
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
    const bytes = st.size;
    // generated input is named by its options, not by where the cache happens to be, so the
    // outputs do not depend on --cache-dir or --no-cache
    inputs.push({ path: plan.synthetic ? `synthetic:${plan.synthetic}/${basename(f)}` : f, sha256: await hashInput(f, cacheDir), bytes });
  }
  const uniqueDims = [...new Set(dims)];
  const keyOf = (n: number): string => cacheKey({ inputs: inputs.map((i) => i.sha256), reader: { ...plan.reader, skipBadRows: plan.skipBadRows }, center: plan.center, n });

  const vectors = new Map<number, UserVectors>();
  let base: CachedBase | null = null;
  if (cacheDir) {
    for (const n of uniqueDims) {
      const hit = readVectorCache(cachePath(cacheDir, keyOf(n)), keyOf(n));
      if (!hit) continue;
      hit.vectors.dataset = spec.name;
      vectors.set(n, hit.vectors);
      base = hit.base;
    }
  }
  if (vectors.size < uniqueDims.length) {
    const inter = await readPlan(plan, opts.progress);
    base = {
      rowsRead: inter.rowsRead,
      rowsSkipped: inter.rowsSkipped,
      skippedLines: inter.skippedLines,
      users: inter.userIds.length,
      items: inter.itemIds.length,
      interactions: inter.itemIdx.length,
    };
    const ranking = rankItems(inter);
    for (const n of uniqueDims) {
      if (vectors.has(n)) continue;
      const v = buildVectors(inter, ranking, n, plan.center, spec.name);
      vectors.set(n, v);
      if (cacheDir) writeVectorCache(cachePath(cacheDir, keyOf(n)), keyOf(n), v, base);
    }
  }
  const b = base!;
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
      const v = vectors.get(n)!;
      const users = v.userIds.length;
      return { n, usersKept: users, usersDropped: v.dropped, meanNnz: users ? v.colIdx.length / users : 0, itemIds: v.itemIds };
    }),
  };
  const ordered = new Map<number, UserVectors>();
  for (const n of dims) ordered.set(n, vectors.get(n)!);
  return { summary, vectors: ordered };
}
