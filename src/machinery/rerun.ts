/**
 * A rerun whose outputs are current, answered before the config is parsed. The quick key of
 * src/machinery/upToDate.ts needs the effective config's hash, hence the config schema, the
 * mechanisms' and evaluations' modules and zod: about 270 modules, most of a current rerun's time.
 * A run that leaves its outputs current therefore also records, beside the quick key, a rerun key of
 * what determines the effective config (the config file's path and bytes, the `--set` overrides,
 * the data folder, the output flags, the results folder and its owner file, and the build's stamp,
 * which a new build or version changes) with the quick key's other inputs. A later run with the
 * same rerun key recomputes the quick key from them (the input files' and the store's stamps now)
 * and, when it matches and every output is there, stops as the quick path does, with its lines.
 * Configs with plugins (their module files are read while parsing) or with a warning to print get
 * no rerun key; anything unexpected here falls back to the long way, which decides as before.
 */
import { readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { formatCount } from '../util/format.js';
import { sha256Hex, stableStringify } from '../util/hash.js';
import { checkWritableFolder } from '../util/folders.js';
import { acquireFolderLock } from './lock.js';
import { setupCacheBudget } from './setupCache.js';
import { OUTPUTS_KEY_FILE, quickOutputsKey, quickUpToDate, stampFiles, type QuickInputs } from './upToDate.js';

/** What the rerun key is of: the run's arguments that decide its effective config and outputs. */
export interface RerunArgs {
  config: string;
  /** the results folder as the run resolves it */
  outDir: string;
  overrides: readonly string[];
  dataDir?: string;
  skipBadRows: boolean;
  report: boolean;
  png: boolean;
}

/** Kept in the outputs key file beside the quick key. */
export interface RerunRecord {
  key: string;
  /** the quick key's inputs but the input files' stamps, taken now */
  quick: Omit<QuickInputs, 'inputStamps'>;
  inputs: string[];
  /** the evaluations' output files (quickUpToDate) */
  evaluated: string[];
}

/** The built worker bundle's size and time: every `npm run build` and every installed version writes it anew. */
function buildStamp(): string | null {
  // '../machinery/': this folder, also from the CLI's bundle (dist/bundle/)
  try {
    const s = statSync(fileURLToPath(new URL('../machinery/worker.bundle.cjs', import.meta.url)));
    return `${s.size} ${s.mtimeMs}`;
  } catch {
    return null;
  }
}

function fileStamp(path: string): string {
  try {
    const s = statSync(path);
    return `${s.size} ${s.mtimeMs}`;
  } catch {
    return 'missing';
  }
}

/** The rerun key of these arguments now, or null (no build stamp, the config unreadable). */
export function rerunKey(a: RerunArgs): string | null {
  const build = buildStamp();
  if (build === null) return null;
  let text: Buffer;
  try {
    text = readFileSync(a.config);
  } catch {
    return null;
  }
  return sha256Hex(
    stableStringify({
      v: 1,
      build,
      config: resolve(a.config),
      text: sha256Hex(text),
      overrides: a.overrides,
      dataDir: a.dataDir ?? null,
      envDataDir: process.env.LSHDP_DATA_DIR ?? null,
      skipBadRows: a.skipBadRows,
      report: a.report,
      png: a.png,
      out: resolve(a.outDir),
      owner: fileStamp(join(a.outDir, 'lshdp-results.json')),
    }),
  );
}

/** What a run that leaves `a.outDir` current records for the next one, or null (no rerun key). */
export function rerunRecord(a: RerunArgs, quick: QuickInputs, inputs: string[], evaluated: string[]): RerunRecord | null {
  const key = rerunKey(a);
  if (key === null) return null;
  const { inputStamps: _now, ...rest } = quick;
  return { key, quick: rest, inputs, evaluated };
}

/**
 * The number of results when `a.outDir`'s outputs are current by its rerun key (the folder then
 * locked and released as a run's quick path does, the cache folder checked as a run checks it);
 * null to go the long way.
 */
export function currentByRerunKey(a: RerunArgs, cacheDir: string | null): number | null {
  try {
    const file = join(a.outDir, OUTPUTS_KEY_FILE);
    const record = (JSON.parse(readFileSync(file, 'utf8')) as { rerun?: RerunRecord }).rerun;
    if (!record || record.key !== rerunKey(a)) return null;
    checkWritableFolder(a.outDir, '--out');
    if (cacheDir) {
      setupCacheBudget();
      checkWritableFolder(cacheDir, '--cache-dir');
    }
    const lock = acquireFolderLock(a.outDir, `lshdp run ${a.config}`);
    try {
      return quickUpToDate(a.outDir, quickOutputsKey(a.outDir, { ...record.quick, inputStamps: stampFiles(record.inputs) }), a.report, record.evaluated);
    } finally {
      lock.release();
    }
  } catch {
    return null;
  }
}

/** "reusing R of T results, computing C", as the log says it. */
export function reuseCounts(reused: number, total: number): string {
  return `reusing ${formatCount(reused)} of ${formatCount(total)} results, computing ${formatCount(total - reused)}`;
}

/** What a run whose outputs are current says (quick path and rerun key alike). */
export function upToDateLines(outDir: string, results: number): string[] {
  return [
    `resuming: ${reuseCounts(results, results)} (use --force to recompute all)`,
    `${outDir} is up to date (all ${formatCount(results)} results reused; its tables, claims and figures are unchanged)`,
  ];
}
