/**
 * Combining the results folders of a sharded run. The shards must come from the same config and
 * inputs (equal config hash and equal cell hashes) and together hold every cell of the grid exactly
 * once; the merged folder then gets the same CSVs, figures and report as an unsharded run,
 * byte-identical because both are rebuilt from the same cell records (src/pipeline/merge.ts writes
 * them).
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { summaryFromJson, type DatasetSummaryJson } from '../data/summaryJson.js';
import type { DatasetSummary } from '../data/types.js';
import { UserError } from '../util/errors.js';
import { stableStringify } from '../util/hash.js';
import type { ExperimentConfig } from '../experiment/config/schema.js';
import { parseConfig } from '../experiment/config.js';
import type { CellRecord } from '../experiment/records.js';
import type { OwnRecord } from '../evaluations/measure.js';
import { ownEvaluations, ownHashesOf, ownStore, type OwnRecords } from './ownStores.js';
import { recordMs, type GridEntry, type Manifest } from './manifest.js';
import type { FolderOwner } from './outdir.js';
import { CellStore, STORE_FORMAT } from './store.js';

/** A grid entry's identity: the exact cell's hash, or the trial cell's result hashes and those of its own store folders' entries. */
function entryHash(g: GridEntry): string {
  if (g.kind === 'exact') return String(g.hash);
  return (
    stableStringify(g.results ?? {}) +
    ownEvaluations()
      .map((e) => ownHashesOf(g, e.facts.store))
      .map((h) => (h ? stableStringify(h) : ''))
      .join('')
  );
}

/** Does a stored record hold every result of the manifest's entry, computed for the same hashes? */
function holdsEntry(rec: CellRecord, g: GridEntry): boolean {
  if (rec.kind === 'exact') return g.kind === 'exact' && rec.hash === g.hash;
  if (g.kind !== 'trial') return false;
  return Object.entries(g.results ?? {}).every(([id, hash]) => rec.results[id]?.hash === hash);
}

function readJson<T>(dir: string, file: string, what: string): T {
  const path = join(dir, file);
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new UserError(`${dir}: not an lshdp results folder (no ${file}; ${what})`);
  }
  try {
    return JSON.parse(text) as T;
  } catch {
    throw new UserError(`${path}: not valid JSON (damaged results folder?)`);
  }
}

/** The shards combined: their config, every cell's record exactly once and the merged manifest. */
export interface MergedShards {
  cfg: ExperimentConfig;
  owner: FolderOwner;
  records: Map<string, CellRecord>;
  /** the records of the config's own store folders (attack/), each from the shard that holds its cell */
  own: OwnRecords;
  manifest: Manifest;
}

/** Checks that the folders are the shards of one run covering every cell once, and combines them (writes nothing). */
export function combineShards(dirs: string[], out: string): MergedShards {
  if (dirs.length === 0) throw new UserError('merge: name at least one results folder');
  const outAbs = resolve(out);
  for (const d of dirs) if (resolve(d) === outAbs) throw new UserError(`merge: --out ${out} is one of the folders being merged; choose a new folder`);
  const seen = new Set<string>();
  for (const d of dirs) {
    if (seen.has(resolve(d))) throw new UserError(`merge: ${d} is named twice`);
    seen.add(resolve(d));
  }
  const manifests = dirs.map((d) => readJson<Manifest>(d, 'manifest.json', 'was its shard run to completion?'));
  checkSameRun(dirs, manifests);
  const ref = manifests[0];
  const { records, from } = collectRecords(dirs, ref);
  const cfg = cfgOf(ref, dirs[0]);
  const own = collectOwn(cfg, ref, from);
  const owner = { name: cfg.name, config_hash: ref.config_hash, store_format: STORE_FORMAT, config: ref.config };
  const manifest: Manifest = {
    ...ref,
    shard: null,
    merged_from: dirs,
    threads: Math.max(...manifests.map((m) => m.threads ?? 1)),
    timings: {
      total_ms: manifests.reduce((s, m) => s + (m.timings?.total_ms ?? 0), 0),
      load_ms: ref.timings?.load_ms ?? {},
      cells_computed: manifests.reduce((s, m) => s + (m.timings?.cells_computed ?? 0), 0),
      cells_reused: manifests.reduce((s, m) => s + (m.timings?.cells_reused ?? 0), 0),
      results_computed: manifests.reduce((s, m) => s + (m.timings?.results_computed ?? 0), 0),
      results_reused: manifests.reduce((s, m) => s + (m.timings?.results_reused ?? 0), 0),
    },
    grid: ref.grid.map((g) => ({ ...g, ms: recordMs(records.get(g.key)!) })),
  };
  return { cfg, owner, records, own, manifest };
}

const cfgOf = (m: Manifest, dir: string): ExperimentConfig => parseConfig(JSON.stringify(m.config), join(dir, 'manifest.json'));

/** Per own store folder of the config, the record of every trial cell whose manifest entry lists its hashes, from the folder that holds the cell. */
function collectOwn(cfg: ExperimentConfig, ref: Manifest, from: Map<string, string>): OwnRecords {
  const out = new Map<string, Map<string, OwnRecord>>();
  for (const e of ownEvaluations(cfg)) {
    const records = new Map<string, OwnRecord>();
    for (const g of ref.grid) {
      const hashes = ownHashesOf(g, e.facts.store);
      if (!hashes) continue;
      const dir = from.get(g.key)!;
      const store = ownStore(e, dir);
      const rec = store.read(g.key);
      if (!rec) throw new UserError(`merge: ${store.path(g.key)} is missing (its cell is in ${dir}); run that shard to completion and merge again`);
      if (!Object.entries(hashes).every(([k, hash]) => rec.entries[k]?.hash === hash))
        throw new UserError(`${store.path(g.key)}: computed for a different config or input than the manifest; rerun that shard`);
      records.set(g.key, rec);
    }
    out.set(e.facts.store, records);
  }
  return out;
}

/** Every manifest from the config and inputs of the first, with the same grid. */
function checkSameRun(dirs: string[], manifests: Manifest[]): void {
  const ref = manifests[0];
  if (!ref || typeof ref.config_hash !== 'string' || !Array.isArray(ref.grid)) throw new UserError(`${dirs[0]}/manifest.json: not an lshdp manifest`);
  const refHash = new Map(ref.grid.map((g) => [g.key, entryHash(g)]));
  manifests.forEach((m, j) => {
    if (j === 0) return;
    if (m.config_hash !== ref.config_hash) {
      throw new UserError(
        `${dirs[j]} comes from another config than ${dirs[0]} (config ${String(m.config?.name)} ${m.config_hash?.slice(0, 12)} vs ${String(ref.config.name)} ${ref.config_hash.slice(0, 12)}); merge only shards of one run`,
      );
    }
    const differing = (m.grid ?? []).find((g) => refHash.get(g.key) !== entryHash(g));
    if (differing || (m.grid ?? []).length !== ref.grid.length) {
      throw new UserError(`${dirs[j]}: cell ${differing?.key ?? '(grid)'} differs from ${dirs[0]} (different input data, lenient-reading flags or lshdp version); merge only shards of one run`);
    }
  });
}

/** Every cell of the grid from exactly one folder, holding what the manifest says. */
function collectRecords(dirs: string[], ref: Manifest): { records: Map<string, CellRecord>; from: Map<string, string> } {
  const stores = dirs.map((d) => new CellStore(d));
  const records = new Map<string, CellRecord>();
  const from = new Map<string, string>();
  const missing: string[] = [];
  for (const g of ref.grid) {
    for (let j = 0; j < dirs.length; j++) {
      const rec = stores[j].read(g.key);
      if (!rec) continue;
      if (!holdsEntry(rec, g)) throw new UserError(`${stores[j].path(g.key)}: computed for a different config or input than the manifest; rerun that shard`);
      if (records.has(g.key)) throw new UserError(`merge: cell ${g.key} is in both ${from.get(g.key)} and ${dirs[j]}; each cell must come from exactly one shard`);
      records.set(g.key, rec);
      from.set(g.key, dirs[j]);
    }
    if (!records.has(g.key)) missing.push(g.shard ? `${g.key} (shard ${g.shard}/${ref.shard?.count ?? '?'})` : g.key);
  }
  if (missing.length > 0) {
    throw new UserError(`merge: ${missing.length} of ${ref.grid.length} cells are missing (first: ${missing.slice(0, 3).join(', ')}); run the missing shards to completion and merge again`);
  }
  return { records, from };
}

/** The data set summaries of a shard folder (every shard of a run has the same). */
export function shardSummaries(dir: string): DatasetSummary[] {
  return readJson<DatasetSummaryJson[]>(dir, 'datasets.json', 'was its shard run to completion?').map(summaryFromJson);
}
