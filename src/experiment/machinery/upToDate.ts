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
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from '../../util/atomic.js';
import { createHash } from 'node:crypto';
import { stableStringify } from '../../util/hash.js';

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

/** The files a finished (unsharded) run leaves; with the report, the claims and index.html too. */
function expectedFiles(report: boolean): string[] {
  const files = ['utility.csv', 'nn_distances.csv', 'budgets.csv', 'datasets.json', 'manifest.json', 'config.yaml', 'claims.json'];
  return report ? [...files, 'index.html'] : files;
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

/** Whether `outDir`'s outputs were built from exactly these inputs and are all still there. */
export function outputsUpToDate(outDir: string, key: string, report: boolean): boolean {
  const file = join(outDir, OUTPUTS_KEY_FILE);
  if (!existsSync(file)) return false;
  try {
    if ((JSON.parse(readFileSync(file, 'utf8')) as { key?: unknown }).key !== key) return false;
  } catch {
    return false;
  }
  return expectedFiles(report).every((f) => existsSync(join(outDir, f)));
}

/** Before a rebuild: the old key no longer describes the folder. */
export function forgetOutputsKey(outDir: string): void {
  rmSync(join(outDir, OUTPUTS_KEY_FILE), { force: true });
}

/** After every output is written. */
export function recordOutputsKey(outDir: string, key: string): void {
  writeFileAtomicSync(join(outDir, OUTPUTS_KEY_FILE), JSON.stringify({ key }) + '\n');
}
