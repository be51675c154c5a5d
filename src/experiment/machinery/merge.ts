/**
 * `lshdp merge`: combine the results folders of a sharded run. The shards must come from the same
 * config and inputs (equal config hash and equal cell hashes) and together hold every cell of the
 * grid exactly once; the merged folder then gets the same CSVs, figures and report as an
 * unsharded run, byte-identical because both are rebuilt from the same cell records.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { summaryFromJson, type DatasetSummaryJson } from '../../data/summaryJson.js';
import { UserError } from '../../util/errors.js';
import { loadRealEngine, type Engine } from './engine.js';
import { writeFinalOutputs, type Manifest } from './finalize.js';
import { checkResultsFolder, prepareResultsFolder } from './outdir.js';
import type { CellRecord } from '../records.js';
import { CellStore, STORE_FORMAT } from './store.js';
import { acquireFolderLock } from './lock.js';
import { parseConfig } from '../config.js';
import { stableStringify } from '../../util/hash.js';
import type { GridEntry } from './finalize.js';

/** A grid entry's identity: the exact cell's hash, or the trial cell's result hashes. */
function entryHash(g: GridEntry): string {
  return g.kind === 'exact' ? String(g.hash) : stableStringify(g.results ?? {});
}

/** Does a stored record hold every result of the manifest's entry, computed for the same hashes? */
function holdsEntry(rec: CellRecord, g: GridEntry): boolean {
  if (rec.kind === 'exact') return g.kind === 'exact' && rec.hash === g.hash;
  if (g.kind !== 'trial') return false;
  return Object.entries(g.results ?? {}).every(([id, hash]) => rec.results[id]?.hash === hash);
}

function msOf(rec: CellRecord): number {
  return rec.kind === 'exact' ? rec.ms : Object.values(rec.results).reduce((s, r) => s + r.ms, 0);
}

export interface MergeOptions {
  out: string;
  force?: boolean;
  report?: boolean;
  png?: boolean;
  quiet?: boolean;
  engine?: Pick<Engine, 'mechanism' | 'budgetRows'>;
  log?: (line: string) => void;
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

export async function mergeShards(dirs: string[], opts: MergeOptions): Promise<{ cells: number }> {
  const log = opts.log ?? ((line: string) => (opts.quiet ? undefined : process.stderr.write(line + '\n')));
  if (dirs.length === 0) throw new UserError('merge: name at least one results folder');
  const outAbs = resolve(opts.out);
  for (const d of dirs) if (resolve(d) === outAbs) throw new UserError(`merge: --out ${opts.out} is one of the folders being merged; choose a new folder`);
  const seen = new Set<string>();
  for (const d of dirs) {
    if (seen.has(resolve(d))) throw new UserError(`merge: ${d} is named twice`);
    seen.add(resolve(d));
  }

  const manifests = dirs.map((d) => readJson<Manifest>(d, 'manifest.json', 'was its shard run to completion?'));
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

  // every cell exactly once
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

  const cfg = parseConfig(JSON.stringify(ref.config), join(dirs[0], 'manifest.json'));
  const owner = { name: cfg.name, config_hash: ref.config_hash, store_format: STORE_FORMAT, config: ref.config };
  checkResultsFolder(opts.out, owner, { force: opts.force });
  const engine = opts.engine ?? (await loadRealEngine());
  const summaries = readJson<DatasetSummaryJson[]>(dirs[0], 'datasets.json', 'was its shard run to completion?').map(summaryFromJson);
  const lock = acquireFolderLock(opts.out, `lshdp merge ${dirs.join(' ')}`);
  try {
    prepareResultsFolder(opts.out, owner, { force: opts.force });
    const out = new CellStore(opts.out);
    out.ensure();
    for (const rec of records.values()) out.write(rec);
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
      grid: ref.grid.map((g) => ({ ...g, ms: msOf(records.get(g.key)!) })),
    };
    await writeFinalOutputs(opts.out, cfg, records, summaries, manifest, engine, { report: opts.report, png: opts.png, quiet: opts.quiet, log });
    log(`merged ${dirs.length} folders (${records.size} cells) into ${opts.out}`);
    return { cells: records.size };
  } finally {
    lock.release();
  }
}
