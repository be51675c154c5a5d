/** Helpers for tests that run a config in this process (runExperiment) in a scratch folder. */
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runExperiment } from '../../src/pipeline/run.js';

/** A scratch folder holding the config `text` as `file`; returns the folder and the config's path. */
export function scratchConfig(text: string, file = 'config.yaml'): { dir: string; config: string } {
  const dir = mkdtempSync(join(tmpdir(), 'lshdp-pipeline-'));
  writeFileSync(join(dir, file), text);
  return { dir, config: join(dir, file) };
}

/** runExperiment quietly, without a report, a vector cache or worker threads (unless `extra` says). */
export const runQuiet = (config: string, out: string, extra: Partial<Parameters<typeof runExperiment>[0]> = {}) =>
  runExperiment({ config, out, report: false, quiet: true, cacheDir: null, workerUrl: null, log: () => undefined, ...extra });

/** Every file of a folder (relative path → text), recursively. */
export function filesOf(dir: string, sub = ''): Map<string, string> {
  const out = new Map<string, string>();
  for (const f of readdirSync(join(dir, sub), { withFileTypes: true })) {
    const rel = join(sub, f.name);
    if (f.isDirectory()) for (const [k, v] of filesOf(dir, rel)) out.set(k, v);
    else out.set(rel, readFileSync(join(dir, rel), 'utf8'));
  }
  return out;
}

/** The same with compute times (`"ms":N`, provenance only) set to 0. */
export const withoutTimes = (files: Map<string, string>): Map<string, string> => new Map([...files].map(([k, v]) => [k, v.replace(/"ms":\d+/g, '"ms":0')]));

/** The rows of an evaluation's CSV whose `mechanism` column is `label`, as objects (column → cell). */
export function rowsOf(file: string, label: string): Record<string, string>[] {
  const [head, ...lines] = readFileSync(file, 'utf8').trim().split('\n');
  const keys = head!.split(',');
  return lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [keys[i]!, v]))).filter((r) => r.mechanism === label);
}
