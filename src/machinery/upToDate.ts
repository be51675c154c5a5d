/**
 * When a run computes nothing new, its outputs (the CSVs, datasets.json, manifest.json, the
 * claims, the figures and the report) would be rebuilt to the same bytes: most of a reuse-everything
 * run's time went there (the figures alone are vega's). A staleness key, stored beside the outputs
 * once they are all written, says what they were built from: the lshdp and algorithm versions, the
 * effective config, every stored result's hash, the data sets' summaries and the output flags. A
 * run whose key matches, with every output file present, leaves the folder as it is.
 *
 * The key is removed before a rebuild starts, so an interrupted rebuild never looks current. The
 * claims are one Holm-corrected family over all cells: any change rebuilds them as a whole.
 *
 * Computing that key means loading the data and hashing every result. Beside it the file keeps a
 * quick key a run checks first, before loading anything: the versions, the effective config, the
 * output flags, the input files' sizes and modification times and the store's files' (name, size,
 * modification time). When the quick key matches, nothing the outputs depend on can have changed
 * (a changed input or cell file changes its size or time), and the run stops there; otherwise it
 * goes the long way, which decides by content.
 */
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from '../util/atomic.js';
import { createHash } from 'node:crypto';
import { stableStringify } from '../util/hash.js';
import { evaluationFacts } from '../evaluations/catalog.js';

export const OUTPUTS_KEY_FILE = '.lshdp-outputs.json';

/** What the outputs depend on. */
export interface OutputsInputs {
  lshdp: string;
  algorithm: string | number;
  configHash: string;
  /** exact cell key → hash */
  exactHashes: Map<string, string>;
  /** trial cell key → result id → hash */
  resultHashes: Map<string, Map<string, string>>;
  summaries: unknown;
  report: boolean;
  png: boolean;
}

/**
 * The files a finished (unsharded) run leaves; with the report, the claims and index.html too;
 * `evaluated`: the files of the evaluations the config evaluates (utility.csv, recommend.csv…).
 */
function expectedFiles(report: boolean, evaluated: readonly string[]): string[] {
  const files = [...new Set([...evaluated, 'nn_distances.csv', 'budgets.csv', 'datasets.json', 'manifest.json', 'config.yaml', 'claims.json'])];
  return report ? [...files, 'index.html'] : files;
}

/** The store folders beside cells/ that evaluations keep their values in (the linkage attack's attack/), each listed once. */
function ownStoreFolders(): string[] {
  return [...new Set(evaluationFacts().map((e) => e.store))].filter((f) => f !== 'cells');
}

export function outputsKey(i: OutputsInputs): string {
  // fed line by line (thousands of result hashes): no intermediate JSON of the whole grid
  const h = createHash('sha256');
  h.update(stableStringify({ lshdp: i.lshdp, algorithm: i.algorithm, config: i.configHash, summaries: i.summaries, report: i.report, png: i.png }) + '\n');
  const byKey = <V>(m: Map<string, V>) => [...m.keys()].sort();
  for (const cell of byKey(i.exactHashes)) h.update(`exact ${cell} ${i.exactHashes.get(cell)}\n`);
  for (const cell of byKey(i.resultHashes)) {
    const results = i.resultHashes.get(cell)!;
    for (const id of byKey(results)) h.update(`result ${cell} ${id} ${results.get(id)}\n`);
  }
  return h.digest('hex');
}

/** What the quick key is made of (besides the files it looks at). */
export interface QuickInputs {
  lshdp: string;
  algorithm: string;
  mechanismAlgorithms: Readonly<Record<string, string>>;
  configHash: string;
  skipBadRows: boolean;
  report: boolean;
  png: boolean;
  /** the input files' stamps (stampFiles), taken before the data are read: an input changed
   *  while a run reads it never looks current afterwards */
  inputStamps: string;
  /** the exact record's fields (EXACT_RECORD_REVISION): a folder whose exact records lack one goes the long way */
  exactRecord: number;
}

const stamp = (file: string): string => {
  try {
    const s = statSync(file);
    return `${s.size} ${s.mtimeMs}`;
  } catch {
    return 'missing';
  }
};

/** Size and modification time of each file, one line each. */
export function stampFiles(files: readonly string[]): string {
  return files.map((f) => `${f} ${stamp(f)}\n`).join('');
}

/** The quick key of `outDir`: the values, the inputs' stamps and the store's files' stamps now. */
export function quickOutputsKey(outDir: string, i: QuickInputs): string {
  const h = createHash('sha256');
  h.update(stableStringify(i) + '\n');
  const cells = join(outDir, 'cells');
  const names = existsSync(cells) ? readdirSync(cells).sort() : [];
  for (const f of names) h.update(`cell ${f} ${stamp(join(cells, f))}\n`);
  // the evaluations' own store folders (the linkage attack's): absent for other configs, whose key is unchanged
  for (const folder of ownStoreFolders()) {
    const dir = join(outDir, folder);
    if (existsSync(dir)) for (const f of readdirSync(dir).sort()) h.update(`${folder} ${f} ${stamp(join(dir, f))}\n`);
  }
  return h.digest('hex');
}

/** The number of results of `outDir` when its recorded quick key is `quick` and every output is there; else null. */
export function quickUpToDate(outDir: string, quick: string, report: boolean, evaluated: readonly string[]): number | null {
  const file = join(outDir, OUTPUTS_KEY_FILE);
  if (!existsSync(file)) return null;
  try {
    const k = JSON.parse(readFileSync(file, 'utf8')) as { quick?: unknown; results?: unknown };
    if (k.quick !== quick || typeof k.results !== 'number') return null;
    return expectedFiles(report, evaluated).every((f) => existsSync(join(outDir, f))) ? k.results : null;
  } catch {
    return null;
  }
}

/** Whether `outDir`'s outputs were built from exactly these inputs and are all still there. */
export function outputsUpToDate(outDir: string, key: string, report: boolean, evaluated: readonly string[]): boolean {
  const file = join(outDir, OUTPUTS_KEY_FILE);
  if (!existsSync(file)) return false;
  try {
    if ((JSON.parse(readFileSync(file, 'utf8')) as { key?: unknown }).key !== key) return false;
  } catch {
    return false;
  }
  return expectedFiles(report, evaluated).every((f) => existsSync(join(outDir, f)));
}

/** Before a rebuild: the old key no longer describes the folder. */
export function forgetOutputsKey(outDir: string): void {
  rmSync(join(outDir, OUTPUTS_KEY_FILE), { force: true });
}

/** After every output is written (or found current): the key, and the quick key of the folder as it is now. */
export function recordOutputsKey(outDir: string, key: string, quick?: { inputs: QuickInputs; results: number; rerun?: unknown }): void {
  const record = quick ? { key, quick: quickOutputsKey(outDir, quick.inputs), results: quick.results, ...(quick.rerun ? { rerun: quick.rerun } : {}) } : { key };
  writeFileAtomicSync(join(outDir, OUTPUTS_KEY_FILE), JSON.stringify(record) + '\n');
}

/**
 * A folder found current by its quick key keeps that key and gains `rerun` (the rerun key of
 * src/machinery/rerun.ts) when it lacks this one, so the next run can answer before parsing.
 */
export function addRerunRecord(outDir: string, rerun: { key: string }): void {
  const file = join(outDir, OUTPUTS_KEY_FILE);
  try {
    const record = JSON.parse(readFileSync(file, 'utf8')) as { rerun?: { key?: unknown } };
    if (record.rerun?.key === rerun.key) return;
    writeFileAtomicSync(file, JSON.stringify({ ...record, rerun }) + '\n');
  } catch {
    // no key file to add to: the next run goes the long way
  }
}
