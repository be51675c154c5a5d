/**
 * One folder of the results store: `<folder>/<key>.json`, one small JSON record per key, written
 * atomically (temporary name + rename) the moment its work finishes, so a file is either absent
 * or whole and a killed run loses at most the records in flight. The grid cells' records
 * (`cells/`, src/machinery/store.ts) and those of an evaluation with a folder of its own (the
 * linkage attack's `attack/`, src/machinery/ownStores.ts) are folders of this one
 * implementation; what a record holds is the science's (src/experiment/records.ts and the
 * evaluations' units), told apart by each folder's `accepts`.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import { removeTemporaryFiles, writeFileAtomicSync } from '../util/atomic.js';

/** What every stored record has: its store format and its key (its file's name). */
export interface KeyedRecord {
  format: number;
  key: string;
}

/** The keys of the records of a store folder (its `<key>.json` files, temporaries left out), sorted; none when it is missing. */
export function recordKeys(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json') && !f.startsWith('.'))
    .map((f) => f.slice(0, -'.json'.length))
    .sort();
}

export class RecordStore<R extends KeyedRecord> {
  readonly dir: string;
  /** the store folder's name inside the results folder */
  readonly folder: string;
  /**
   * @param folder the store folder's name inside the results folder
   * @param accepts whether a parsed record of the right key is one of this folder's current format
   */
  constructor(
    resultsDir: string,
    folder: string,
    private readonly accepts: (rec: R) => boolean,
  ) {
    this.dir = join(resultsDir, folder);
    this.folder = folder;
  }

  path(key: string): string {
    return join(this.dir, `${key}.json`);
  }

  /** The record of `key`, or null when absent, unreadable (never written whole) or not of the current format. */
  read(key: string): R | null {
    const rec = this.readAny(key);
    return rec && this.accepts(rec) ? rec : null;
  }

  /** The record of `key` whatever its format (its key checked), or null when absent or unreadable. */
  protected readAny(key: string): R | null {
    let text: string;
    try {
      text = readFileSync(this.path(key), 'utf8');
    } catch {
      return null;
    }
    try {
      const rec = JSON.parse(text) as R;
      return rec !== null && typeof rec === 'object' && typeof rec.format === 'number' && rec.key === key ? rec : null;
    } catch {
      return null;
    }
  }

  write(rec: R): void {
    writeFileAtomicSync(this.path(rec.key), JSON.stringify(rec) + '\n');
  }

  /** Keys of every record present (valid or not). */
  keys(): string[] {
    return recordKeys(this.dir);
  }

  ensure(): void {
    mkdirSync(this.dir, { recursive: true });
  }

  remove(key: string): void {
    if (existsSync(this.path(key))) unlinkSync(this.path(key));
  }

  /** Remove temporary files a killed writer left behind (`pid` limits it to one process's). */
  removeTemporaries(pid?: number): number {
    return removeTemporaryFiles(this.dir, pid);
  }
}
