/**
 * A finished results folder read back for statistics (claims, compare, status): its effective
 * config from manifest.json and its records from the results store, so every statistic can be
 * re-evaluated from the folder alone. What the records mean as per-trial values is the science's
 * (src/experiment/values.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UserError } from '../util/errors.js';
import type { ExperimentConfig } from '../experiment/config/schema.js';
import { parseConfig } from '../experiment/config.js';
import { expandCells } from '../experiment/grid.js';
import type { NnDistance, TrialValue } from '../experiment/trialValues.js';
import { evaluationValues, trialValuesOf } from '../experiment/values.js';
import type { StoredRecords } from '../experiment/walk.js';
import { evaluationNamed } from '../evaluations/catalog.js';
import type { Manifest } from './manifest.js';
import type { CellRecord } from '../experiment/records.js';
import { readOwnRecords } from './ownStores.js';
import { CELLS_FOLDER, CellStore, STORE_FORMAT } from './store.js';

/** The manifest and effective config of a results folder; one-line errors for what is not one. */
export function readResultsConfig(dir: string): { manifest: Manifest; config: ExperimentConfig } {
  const path = join(dir, 'manifest.json');
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new UserError(`${dir}: not an lshdp results folder (no manifest.json)`);
  }
  let manifest: Manifest;
  try {
    manifest = JSON.parse(text) as Manifest;
  } catch {
    throw new UserError(`${path}: not valid JSON (damaged results folder?)`);
  }
  if (!manifest || typeof manifest !== 'object' || !manifest.config || !Array.isArray(manifest.grid)) throw new UserError(`${path}: not an lshdp manifest`);
  const config = parseConfig(JSON.stringify(manifest.config), path);
  return { manifest, config };
}

/** Every record of the folder's grid, or a one-line error naming what is missing. */
export function readRecords(dir: string, config: ExperimentConfig): Map<string, CellRecord> {
  const store = new CellStore(dir);
  const format = store.formatPresent();
  if (format === null) throw new UserError(`${dir}: no per-trial values (the results store cells/ is empty or missing); run the config again to compute them`);
  if (format !== STORE_FORMAT) throw new UserError(`${dir}: per-trial values of an older lshdp (results store format ${format}); rerun the config with --force`);
  const records = new Map<string, CellRecord>();
  for (const c of expandCells(config)) {
    const rec = store.read(c.key);
    if (rec) records.set(c.key, rec);
  }
  return records;
}

/**
 * The per-trial values and true 1-NN distances of a finished (unsharded or merged) results folder.
 * Values are in utility.csv order; exact rows have trial 0.
 */
export function readTrialValues(dir: string): { config: ExperimentConfig; values: TrialValue[]; nn: NnDistance[] } {
  const { config } = wholeFolder(dir);
  return { config, ...trialValuesOf(config, readRecords(dir, config), dir) };
}

/** The manifest and config of a folder that is no shard (a shard's is a one-line error). */
function wholeFolder(dir: string): { manifest: Manifest; config: ExperimentConfig } {
  const read = readResultsConfig(dir);
  const { shard } = read.manifest;
  if (shard) throw new UserError(`${dir} is shard ${shard.index}/${shard.count} of a sharded run; combine the shards with lshdp merge first`);
  return read;
}

/** Every record of the folder's grid by store folder (cells/, and the evaluations' own: attack/). */
export function readStores(dir: string, config: ExperimentConfig): StoredRecords {
  const trialKeys = expandCells(config)
    .filter((c) => c.kind === 'trial')
    .map((c) => c.key);
  return new Map<string, ReadonlyMap<string, unknown>>([[CELLS_FOLDER, readRecords(dir, config)], ...readOwnRecords(dir, config, trialKeys)]);
}

/**
 * The per-trial values of evaluation `name` (src/evaluations/catalog.ts) of a finished results
 * folder, in its file's order; a one-line error for a folder whose config lacks its block.
 */
export function readEvaluationValues<V>(dir: string, name: string): { config: ExperimentConfig; values: V[] } {
  const { config } = wholeFolder(dir);
  const facts = evaluationNamed(name);
  if (facts.block !== null && (config as unknown as Record<string, unknown>)[facts.block] === undefined) {
    throw new UserError(`${dir}: no ${facts.title.toLowerCase()} values (its config has no ${facts.block} block; ${facts.docs})`);
  }
  return { config, values: evaluationValues<V>(name, config, readStores(dir, config)) };
}

export { trialValuesOf };

/** One u_rand of a results folder: the exact expected loss of k random neighbours (src/experiment/randomLoss.ts). */
export interface RandomLossRow {
  dataset: string;
  n: number;
  k: number;
  uRand: number;
}

/**
 * u_rand per (data set, n, k) of a finished results folder, from its exact cells' records (grid
 * order; k ascending), with `get` to look one up. An exact record without it (computed by an
 * older lshdp) or missing is a one-line error: running the config again into the folder adds it
 * and recomputes only the exact cells.
 */
export function readRandomLoss(
  dir: string,
  /** the folder's config and cells/ records when the caller has read them already (choose reads them once) */
  read?: { config: ExperimentConfig; records: ReadonlyMap<string, CellRecord> },
): { rows: RandomLossRow[]; get(dataset: string, n: number, k: number): number | undefined } {
  const config = read?.config ?? wholeFolder(dir).config;
  const records = read?.records ?? readRecords(dir, config);
  const ks = [...config.k].sort((a, b) => a - b);
  const rows: RandomLossRow[] = [];
  for (const c of expandCells(config)) {
    if (c.kind !== 'exact') continue;
    const rec = records.get(c.key);
    const random = rec?.kind === 'exact' ? rec.random : undefined;
    const missing = ks.find((k) => typeof random?.[String(k)] !== 'number');
    if (missing !== undefined) {
      const what = rec ? `its record has no u_rand at k ${missing} (computed by an older lshdp)` : 'no record';
      throw new UserError(`${dir}: exact cell ${c.key}: ${what}; run the config again into this folder (only the exact cells are recomputed)`);
    }
    for (const k of ks) rows.push({ dataset: c.dataset, n: c.n, k, uRand: random![String(k)]! });
  }
  const byKey = new Map(rows.map((r) => [`${r.dataset}\t${r.n}\t${r.k}`, r.uRand]));
  return { rows, get: (dataset, n, k) => byKey.get(`${dataset}\t${n}\t${k}`) };
}
