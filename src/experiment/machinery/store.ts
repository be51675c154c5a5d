/**
 * The results store: `cells/<cell key>.json`, one small JSON file per finished cell, written
 * atomically (temporary name + rename) the moment the cell finishes. A file is either absent or
 * whole, so a killed run loses at most the cells in flight. A record carries the hash of
 * everything that determined it; a record whose hash differs from the current cell's is stale and
 * is recomputed. The final CSVs are always rebuilt from the store, so they are the same whatever
 * order, thread, shard or interruption produced the records.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from '../../util/atomic.js';
import type { CellRow } from './engine.js';

export const STORE_FORMAT = 1;

export interface CellRecord {
  format: number;
  key: string;
  kind: 'exact' | 'trial';
  hash: string;
  /** number of query users the rows average over */
  queries: number;
  rows: CellRow[];
  /** exact cells: the true 1-NN distance of each query user, users ascending by index */
  nn?: { users: string[]; distances: number[] };
  /** compute time in the thread that ran it, ms (0 when read from the k-NN cache); provenance only, never in the CSVs */
  ms: number;
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
    let text: string;
    try {
      text = readFileSync(this.path(key), 'utf8');
    } catch {
      return null;
    }
    try {
      const rec = JSON.parse(text) as CellRecord;
      if (rec.format !== STORE_FORMAT || rec.key !== key || typeof rec.hash !== 'string' || !Array.isArray(rec.rows)) return null;
      return rec;
    } catch {
      return null;
    }
  }

  /** The record of `key` when it was computed for exactly this `hash`. */
  readValid(key: string, hash: string): CellRecord | null {
    const rec = this.read(key);
    return rec && rec.hash === hash ? rec : null;
  }

  write(rec: CellRecord): void {
    writeFileAtomicSync(this.path(rec.key), JSON.stringify(rec) + '\n');
  }

  /** Keys of every record present (valid or not). */
  keys(): string[] {
    if (!existsSync(this.dir)) return [];
    return readdirSync(this.dir)
      .filter((f) => f.endsWith('.json') && !f.startsWith('.'))
      .map((f) => f.slice(0, -'.json'.length))
      .sort();
  }

  ensure(): void {
    mkdirSync(this.dir, { recursive: true });
  }

  clear(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }

  /** Remove temporary files a killed writer left behind (`pid` limits it to one process's). */
  removeTemporaries(pid?: number): number {
    if (!existsSync(this.dir)) return 0;
    const prefix = pid === undefined ? '.lshdp-tmp-' : `.lshdp-tmp-${pid}-`;
    let removed = 0;
    for (const f of readdirSync(this.dir)) {
      if (!f.startsWith(prefix)) continue;
      try {
        unlinkSync(join(this.dir, f));
        removed++;
      } catch {
        // already gone
      }
    }
    return removed;
  }
}
