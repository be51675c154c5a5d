/**
 * The results store's grid cells: `cells/<cell key>.json`, one small JSON file per grid cell, a
 * folder of the one store implementation (src/machinery/recordStore.ts: written atomically the
 * moment the cell's work finishes, so a killed run loses at most the cells in flight).
 *
 * Results are stored and reused at the grain of the result: an exact cell holds the true
 * neighbours' rows of one (data set, n); a trial cell holds, per result identity (base mechanism,
 * options, xi), the per-trial means of every k asked so far, each result with the hash of
 * everything that determined it. A result whose hash differs from the config's is stale and is
 * recomputed; results the config no longer asks for are kept (a shrunk axis that grows again costs
 * nothing) until `lshdp status --prune`. The final CSVs are always rebuilt from the store, so they
 * are the same whatever order, thread, shard, interruption or growth produced the records.
 */
import type { CellRecord, ExactRecord, TrialRecord } from '../experiment/records.js';
import { RecordStore } from './recordStore.js';

/** 2: results per identity (lshdp 0.2); 1: one row list per cell (lshdp 0.1, not readable now). */
export const STORE_FORMAT = 2;

/** Whether a record of `cells/` is whole and of the current format. */
function isCellRecord(rec: CellRecord): boolean {
  if (rec.format !== STORE_FORMAT) return false;
  if (rec.kind === 'exact') return typeof rec.hash === 'string' && Array.isArray(rec.rows);
  if (rec.kind === 'trial') return rec.results !== null && typeof rec.results === 'object';
  return false;
}

/** The store folder of the grid cells' records. */
export const CELLS_FOLDER = 'cells';

export class CellStore extends RecordStore<CellRecord> {
  constructor(resultsDir: string) {
    super(resultsDir, CELLS_FOLDER, isCellRecord);
  }

  /** The store format of the records present (first readable one), or null when none. */
  formatPresent(): number | null {
    for (const key of this.keys()) {
      const rec = this.readAny(key);
      if (rec) return rec.format;
    }
    return null;
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
}
