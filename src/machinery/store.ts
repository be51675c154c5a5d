/**
 * The results store: `cells/<cell key>.json`, one small JSON file per grid cell, written
 * atomically (temporary name + rename) the moment the cell's work finishes. A file is either
 * absent or whole, so a killed run loses at most the cells in flight.
 *
 * Results are stored and reused at the grain of the result: an exact cell holds the true
 * neighbours' rows of one (data set, n); a trial cell holds, per result identity (base mechanism,
 * options, xi), the per-trial means of every k asked so far, each result with the hash of
 * everything that determined it. A result whose hash differs from the config's is stale and is
 * recomputed; results the config no longer asks for are kept (a shrunk axis that grows again costs
 * nothing) until `lshdp status --prune`. The final CSVs are always rebuilt from the store, so they
 * are the same whatever order, thread, shard, interruption or growth produced the records.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeTemporaryFiles, writeFileAtomicSync } from '../util/atomic.js';
import type { CellRecord, ExactRecord, TrialRecord } from '../experiment/records.js';

/** 2: results per identity (lshdp 0.2); 1: one row list per cell (lshdp 0.1, not readable now). */
export const STORE_FORMAT = 2;

/** The keys of the records of a store folder (its `<key>.json` files, temporaries left out), sorted; none when it is missing. */
export function recordKeys(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json') && !f.startsWith('.'))
    .map((f) => f.slice(0, -'.json'.length))
    .sort();
}

export class CellStore {
  readonly dir: string;
  constructor(resultsDir: string) {
    this.dir = join(resultsDir, 'cells');
  }

  path(key: string): string {
    return join(this.dir, `${key}.json`);
  }

  /** The record of `key`, or null when absent, unreadable (never written whole) or of another format. */
  read(key: string): CellRecord | null {
    const rec = this.readAny(key);
    return rec && rec.format === STORE_FORMAT ? (rec as CellRecord) : null;
  }

  /** The store format of the records present (first readable one), or null when none. */
  formatPresent(): number | null {
    for (const key of this.keys()) {
      const rec = this.readAny(key);
      if (rec) return rec.format;
    }
    return null;
  }

  private readAny(key: string): { format: number } | null {
    let text: string;
    try {
      text = readFileSync(this.path(key), 'utf8');
    } catch {
      return null;
    }
    try {
      const rec = JSON.parse(text) as CellRecord;
      if (typeof rec.format !== 'number' || rec.key !== key) return null;
      if (rec.format === STORE_FORMAT && rec.kind === 'exact' && (typeof rec.hash !== 'string' || !Array.isArray(rec.rows))) return null;
      if (rec.format === STORE_FORMAT && rec.kind === 'trial' && (rec.results === null || typeof rec.results !== 'object')) return null;
      return rec;
    } catch {
      return null;
    }
  }

  /** The exact record of `key` when it was computed for exactly this `hash` and holds k up to `kmax`. */
  readExact(key: string, hash: string, kmax: number): ExactRecord | null {
    const rec = this.read(key);
    return rec && rec.kind === 'exact' && rec.hash === hash && rec.kmax >= kmax ? rec : null;
  }

  /** The trial record of `key` (every result, valid or stale), or null. */
  readTrial(key: string): TrialRecord | null {
    const rec = this.read(key);
    return rec && rec.kind === 'trial' ? rec : null;
  }

  write(rec: CellRecord): void {
    writeFileAtomicSync(this.path(rec.key), JSON.stringify(rec) + '\n');
  }

  /** Keys of every record present (valid or not). */
  keys(): string[] {
    return recordKeys(this.dir);
  }

  ensure(): void {
    mkdirSync(this.dir, { recursive: true });
  }

  /** Remove temporary files a killed writer left behind (`pid` limits it to one process's). */
  removeTemporaries(pid?: number): number {
    return removeTemporaryFiles(this.dir, pid);
  }
}
