/**
 * The times of earlier runs of a config on this machine, for `lshdp run --dry-run`'s estimate: each
 * run that computed something records, in the cache folder (never in the results: they travel to
 * other machines), how long its stages took for how much work. A later dry run of the same config
 * (the same effective config's hash) on the same host scales the compute stage by the work it has
 * to do, and adds the outputs stage as it was and the data load it has just done itself. Without a
 * record the cost model's rough guess is said to be rough.
 */
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { writeFileAtomicSync } from '../util/atomic.js';

/** The file, in the cache folder. */
export const RUN_TIMES_FILE = 'run-times.json';
/** Records kept (the most recent), so the file stays small. */
const KEPT = 200;

/** One run's times: its work (the cost model's units, over the cells it computed) and its stages. */
export interface RunTime {
  host: string;
  configHash: string;
  /** ISO time the run ended */
  at: string;
  threads: number;
  /** cells computed, and their cost in the cost model's units */
  cells: number;
  cost: number;
  /** wall time of the compute stage and of writing the outputs (CSVs, claims, figures, report) */
  computeMs: number;
  outputsMs: number;
  /** the whole run, start to end */
  totalMs: number;
}

function readTimes(cacheDir: string): RunTime[] {
  try {
    const v = JSON.parse(readFileSync(join(cacheDir, RUN_TIMES_FILE), 'utf8')) as { runs?: unknown };
    return Array.isArray(v.runs) ? (v.runs as RunTime[]).filter((r) => r && typeof r.configHash === 'string' && r.cost > 0 && r.computeMs >= 0) : [];
  } catch {
    return [];
  }
}

/** Record a run that computed something (nothing when there is no cache folder). A failed write costs the next estimate only. */
export function recordRunTime(cacheDir: string | null, run: Omit<RunTime, 'host' | 'at'>): void {
  if (!cacheDir || run.cells === 0 || !(run.cost > 0)) return;
  const runs = [...readTimes(cacheDir), { host: hostname(), at: new Date().toISOString(), ...run }].slice(-KEPT);
  try {
    writeFileAtomicSync(join(cacheDir, RUN_TIMES_FILE), `${JSON.stringify({ runs }, null, 1)}\n`);
  } catch {
    // a read-only cache: the estimate stays rough
  }
}

/** The latest record of this config on this host, or null. */
export function earlierRun(cacheDir: string | null, configHash: string): RunTime | null {
  if (!cacheDir) return null;
  const host = hostname();
  const mine = readTimes(cacheDir).filter((r) => r.host === host && r.configHash === configHash);
  return mine[mine.length - 1] ?? null;
}

/**
 * The seconds a run is likely to take: the earlier run's compute rate (per cost unit and thread in
 * use) times the work to do now on the threads it will use, plus its outputs stage when there is
 * work (a run with nothing to compute rewrites nothing), plus `loadMs` (the data load just done).
 */
export function estimateFromHistory(earlier: RunTime, now: { cost: number; cells: number; threads: number; loadMs: number }): number {
  const used = (threads: number, cells: number) => Math.max(1, Math.min(threads, cells));
  const perUnit = (earlier.computeMs * used(earlier.threads, earlier.cells)) / earlier.cost;
  const compute = now.cells === 0 ? 0 : (perUnit * now.cost) / used(now.threads, now.cells);
  const outputs = now.cells === 0 ? 0 : earlier.outputsMs;
  return (compute + outputs + now.loadMs) / 1000;
}
