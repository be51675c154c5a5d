import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import { UserError } from '../util/errors.js';
import type { Progress } from '../util/progress.js';
import { FORMATS, NYC_BBOX, type Center, type Column, type Combine, type DatasetSpec } from './spec.js';
import type { DatasetSummary, LoadedDataset, UserVectors } from './types.js';
import { combineRows, type Interactions } from './interactions.js';
import { readMovieLens, type MovieLensFormat } from './movielens.js';
import { readFoursquareTsmc, readFoursquareWww19 } from './foursquare.js';
import { readInteractionsCsv } from './csv-interactions.js';
import { buildVectors, rankItems } from './vectors.js';
import { cacheKey, cachePath, hashInput, readVectorCache, writeVectorCache, type CachedBase } from './cache.js';
import { ensureSynthetic, resolveSynthOptions, PRESETS } from './synth.js';
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

type ReaderFormat = Exclude<DatasetSpec['format'], 'synthetic'>;

/** What to read and how: the resolved reader, files and options (also the cache key's reader part). */
export interface ReadPlan {
  name: string;
  format: ReaderFormat;
  path: string;
  poiPath?: string;
  center: Center;
  /** every option that changes the interactions (part of the cache key) */
  reader: Record<string, unknown>;
  skipBadRows: boolean;
  /** for generated (synthetic) input: the folder name of its options, e.g. `small-20d5b76722a80ef4` */
  synthetic?: string;
}

/**
 * Run `fn` with the synthetic files' folder for these options: the explicit `synthDir`, else
 * `<cacheDir>/synth`, else (no cache) a temporary folder that is removed afterwards.
 */
async function withSynthDir<T>(spec: DatasetSpec, opts: LoadOptions, fn: (o: LoadOptions) => Promise<T>): Promise<T> {
  const cacheDir = opts.cacheDir === undefined ? 'data/cache' : opts.cacheDir;
  if (opts.synthDir !== undefined || cacheDir !== null) return fn({ ...opts, synthDir: opts.synthDir ?? defaultSynthDir(cacheDir!) });
  // only generated data needs a folder to be written to
  if (spec.format !== 'synthetic') return fn(opts);
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

const isMovieLens = (f: string): f is MovieLensFormat => f.startsWith('movielens-');

function defaultCenter(format: ReaderFormat): Center {
  return isMovieLens(format) ? 'user' : 'none';
}

function requirePath(spec: DatasetSpec, key: 'path' | 'poi_path'): string {
  const p = spec[key];
  if (typeof p !== 'string' || p === '') throw new UserError(`dataset ${spec.name}: ${key} is required for format ${spec.format}`);
  return p;
}

/** Validate a spec and resolve the reader plan (generating synthetic files when needed). */
export function planRead(spec: DatasetSpec, opts: LoadOptions = {}): ReadPlan {
  if (!(FORMATS as readonly string[]).includes(spec.format)) throw new UserError(`unknown format "${spec.format}" (expected one of: ${FORMATS.join(', ')})`);
  if (spec.center !== undefined && !['user', 'global', 'none'].includes(spec.center))
    throw new UserError(`dataset ${spec.name}: unknown center "${spec.center}" (expected one of: user, global, none)`);
  const skipBadRows = opts.skipBadRows ?? spec.skip_bad_rows ?? false;
  if (spec.format === 'synthetic') {
    const so = resolveSynthOptions(spec);
    const synthDir = opts.synthDir ?? (opts.cacheDir === null ? null : defaultSynthDir(opts.cacheDir ?? 'data/cache'));
    if (synthDir === null) throw new Error('planRead: a synthetic data set without a cache needs opts.synthDir (loadDataset and readInteractions give a temporary one)');
    const r = ensureSynthetic(so, synthDir, opts.progress);
    const main = r.files[0]!.path;
    const base: ReadPlan = {
      name: spec.name,
      format: r.format,
      path: main,
      center: spec.center ?? (PRESETS[so.preset]!.kind === 'ratings' ? 'user' : 'none'),
      reader: { format: r.format },
      skipBadRows,
      synthetic: basename(dirname(main)),
    };
    if (r.format === 'foursquare-www19') {
      base.poiPath = r.files[1]!.path;
      base.reader = { format: r.format, bbox: spec.bbox ?? NYC_BBOX, max_users: spec.max_users ?? null };
    }
    return base;
  }
  const format = spec.format;
  const plan: ReadPlan = { name: spec.name, format, path: requirePath(spec, 'path'), center: spec.center ?? defaultCenter(format), reader: { format }, skipBadRows };
  if (format === 'foursquare-www19') {
    plan.poiPath = requirePath(spec, 'poi_path');
    const bbox = spec.bbox ?? NYC_BBOX;
    if (!Array.isArray(bbox) || bbox.length !== 4 || bbox.some((x) => typeof x !== 'number' || !Number.isFinite(x)) || bbox[0] > bbox[1] || bbox[2] > bbox[3])
      throw new UserError(`dataset ${spec.name}: bbox must be [lat_min, lat_max, lon_min, lon_max], got ${JSON.stringify(bbox)}`);
    if (spec.max_users !== undefined && (!Number.isInteger(spec.max_users) || spec.max_users < 1))
      throw new UserError(`dataset ${spec.name}: max_users must be a positive integer, got ${spec.max_users}`);
    plan.reader = { format, bbox, max_users: spec.max_users ?? null };
  } else if (format === 'interactions') {
    if (spec.user === undefined || spec.item === undefined)
      throw new UserError(`dataset ${spec.name}: format interactions needs user: and item: columns (names, or 0-based indices with header: false)`);
    const combine: Combine = spec.combine ?? (spec.value !== undefined ? 'last' : 'count');
    if (!['last', 'sum', 'count'].includes(combine)) throw new UserError(`dataset ${spec.name}: unknown combine "${combine}" (expected one of: last, sum, count)`);
    if (combine !== 'count' && spec.value === undefined) throw new UserError(`dataset ${spec.name}: combine ${combine} needs value: (a value column)`);
    const delimiter = spec.delimiter ?? ',';
    if (typeof delimiter !== 'string' || delimiter.length === 0) throw new UserError(`dataset ${spec.name}: delimiter must be a non-empty string`);
    for (const key of ['user', 'item', 'value'] as const) {
      const c = spec[key];
      if (typeof c === 'number' && !(Number.isInteger(c) && c >= 0)) throw new UserError(`dataset ${spec.name}: ${key}: a column index is a whole number ≥ 0 (0 is the first column), got ${c}`);
      if (typeof c === 'string' && spec.header === false)
        throw new UserError(`dataset ${spec.name}: ${key}: "${c}" is a column name, but header: false gives the columns no names: give its 0-based index`);
    }
    // `header` enters the cache key only when false, so headed files keep their cached vectors
    plan.reader = { format, delimiter, ...(spec.header === false ? { header: false } : {}), user: spec.user, item: spec.item, value: combine === 'count' ? null : spec.value, combine };
  }
  return plan;
}

async function readPlan(plan: ReadPlan, progress?: Progress): Promise<Interactions> {
  const o = { skipBadRows: plan.skipBadRows, progress };
  let inter: Interactions;
  if (isMovieLens(plan.format)) inter = combineRows(readMovieLens(plan.path, plan.format, o), 'last');
  else if (plan.format === 'foursquare-tsmc') inter = combineRows(readFoursquareTsmc(plan.path, o), 'count');
  else if (plan.format === 'foursquare-www19') {
    const r = plan.reader as { bbox: [number, number, number, number]; max_users: number | null };
    const { rows, keepUser } = readFoursquareWww19(plan.path, { ...o, poiPath: plan.poiPath!, bbox: r.bbox, maxUsers: r.max_users ?? undefined });
    inter = combineRows(rows, 'count', keepUser);
    if (inter.userIds.length === 0) throw new UserError(`${plan.path}: no check-ins at POIs inside the bounding box ${JSON.stringify(r.bbox)}`);
  } else {
    const r = plan.reader as { delimiter: string; header?: false; user: Column; item: Column; value: Column | null; combine: Combine };
    inter = combineRows(
      await readInteractionsCsv(plan.path, { ...o, delimiter: r.delimiter, header: r.header !== false, user: r.user, item: r.item, value: r.value ?? undefined, combine: r.combine }),
      r.combine,
    );
  }
  return inter;
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
  const files = plan.poiPath ? [plan.path, plan.poiPath] : [plan.path];
  const inputs: DatasetSummary['inputs'] = [];
  for (const f of files) {
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
