/**
 * The trial setup cache: what a trial cell computes before any ξ (its hyperplanes, the clean
 * projections and codes, the draws its mechanisms share across ξ: src/experiment/trial.ts
 * TrialSetup), one file per (data set input, n, κ, trial, seed, metric), so that a run which adds
 * ξ (or mechanisms) to a grid pays for its new results only. The arrays are the very doubles and
 * words the cell computed, so a cell set up from the file gives the same numbers bit for bit.
 *
 *   bytes 0..7   magic "LSHDPSET"
 *   uint32 LE    format version (1)
 *   uint32 LE    J: length of the JSON table of contents
 *   J bytes      [{ name, type: "f64" | "u32", length }] in file order
 *   then each array, little-endian, starting at a multiple of 8
 *
 * The file name is a hash of everything that determines the arrays, so a changed input never
 * reuses a stale file (the draws' entries carry their mechanism's algorithm version: trial.ts);
 * a truncated or foreign file is ignored. Writes are best effort (a cache that cannot be written
 * costs a recomputation next time) and only for cells of at most SETUP_CACHE_MAX_BYTES.
 *
 * The files together are kept within a budget (pruneSetupCache, after each run that computed
 * cells): a read marks a file as used (its modification time), and the least recently used go
 * first, never one the run itself used or wrote.
 */
import { readdirSync, statSync, unlinkSync, utimesSync } from 'node:fs';
import { endianness } from 'node:os';
import { join } from 'node:path';
import { writeFileAtomicSync } from '../util/atomic.js';
import { UserError } from '../util/errors.js';
import { formatCount } from '../util/format.js';
import { readWholeFileInto } from '../util/readInto.js';
import { sha256Hex, stableStringify } from '../util/hash.js';
import type { SetupArrays, TrialSetupStore } from '../experiment/trial.js';

const MAGIC = 'LSHDPSET';
const VERSION = 1;
const HEADER = 16;
const LITTLE_ENDIAN = endianness() === 'LE';

/**
 * The largest setup kept per trial cell: 16 MB holds a cell of 10,000 users at κ = 50 with
 * LapLSH's draws (8.4 MB) or 610 users at κ = 50 with three mechanisms' (1 MB); a 162,000-user
 * cell (65 MB per array) is not kept, where the new results of a growth dwarf the setup anyway.
 */
export const SETUP_CACHE_MAX_BYTES = 16 * 1024 * 1024;

interface Entry {
  name: string;
  type: 'f64' | 'u32';
  length: number;
}

export function setupCachePath(cacheDir: string, identity: unknown): string {
  return join(cacheDir, `setup-${sha256Hex(stableStringify(identity)).slice(0, 40)}.bin`);
}

const align8 = (x: number): number => (x + 7) & ~7;

/** The bytes of a file holding `arrays` (names in insertion order). */
export function encodeSetup(arrays: SetupArrays): Buffer {
  const entries: Entry[] = [...arrays].map(([name, a]) => ({ name, type: a instanceof Float64Array ? 'f64' : 'u32', length: a.length }));
  const toc = Buffer.from(JSON.stringify(entries), 'utf8');
  let size = align8(HEADER + toc.length);
  for (const [, a] of arrays) size += align8(a.byteLength);
  const buf = Buffer.alloc(size);
  buf.write(MAGIC, 0, 'latin1');
  buf.writeUInt32LE(VERSION, 8);
  buf.writeUInt32LE(toc.length, 12);
  toc.copy(buf, HEADER);
  let off = align8(HEADER + toc.length);
  for (const [, a] of arrays) {
    if (LITTLE_ENDIAN) buf.set(new Uint8Array(a.buffer, a.byteOffset, a.byteLength), off);
    else if (a instanceof Float64Array) for (let i = 0; i < a.length; i++) buf.writeDoubleLE(a[i]!, off + 8 * i);
    else for (let i = 0; i < a.length; i++) buf.writeUInt32LE(a[i]!, off + 4 * i);
    off += align8(a.byteLength);
  }
  return buf;
}

function isEntry(e: unknown): e is Entry {
  const x = e as Entry;
  return typeof x === 'object' && x !== null && typeof x.name === 'string' && (x.type === 'f64' || x.type === 'u32') && Number.isInteger(x.length) && x.length >= 0;
}

/** The arrays of a file's bytes, or null when they are truncated or foreign. Views into `buf`
 *  (8-byte aligned) where the machine is little-endian, else copies. */
export function decodeSetup(buf: Buffer): SetupArrays | null {
  if (buf.length < HEADER || buf.toString('latin1', 0, 8) !== MAGIC || buf.readUInt32LE(8) !== VERSION) return null;
  const tocLength = buf.readUInt32LE(12);
  if (HEADER + tocLength > buf.length) return null;
  let entries: unknown;
  try {
    entries = JSON.parse(buf.toString('utf8', HEADER, HEADER + tocLength));
  } catch {
    return null;
  }
  if (!Array.isArray(entries) || !entries.every(isEntry)) return null;
  const out: SetupArrays = new Map();
  let off = align8(HEADER + tocLength);
  for (const e of entries) {
    const bytes = e.length * (e.type === 'f64' ? 8 : 4);
    if (off + bytes > buf.length) return null;
    const aligned = (buf.byteOffset + off) % 8 === 0;
    if (e.type === 'f64') {
      const a = LITTLE_ENDIAN && aligned ? new Float64Array(buf.buffer, buf.byteOffset + off, e.length) : new Float64Array(e.length);
      if (!(LITTLE_ENDIAN && aligned)) for (let i = 0; i < e.length; i++) a[i] = buf.readDoubleLE(off + 8 * i);
      out.set(e.name, a);
    } else {
      const a = LITTLE_ENDIAN && aligned ? new Uint32Array(buf.buffer, buf.byteOffset + off, e.length) : new Uint32Array(e.length);
      if (!(LITTLE_ENDIAN && aligned)) for (let i = 0; i < e.length; i++) a[i] = buf.readUInt32LE(off + 4 * i);
      out.set(e.name, a);
    }
    off += align8(bytes);
  }
  if (off !== buf.length) return null;
  return out;
}

/**
 * The thread's read buffer, reused from file to file: touching fresh memory costs more than the
 * read (page faults: ~25 ms for the 7 MB of a 10,000-user cell on the development machine).
 */
let scratch = new ArrayBuffer(0);

/**
 * The arrays of the file at `path`, or null when it is absent, truncated or foreign. They are views
 * into this thread's read buffer (8-byte aligned): valid until the next readSetup in the thread,
 * which is the next trial cell (a cell reads its setup once, at its start).
 */
export function readSetup(path: string): SetupArrays | null {
  const buf = readWholeFileInto(path, (size) => {
    if (scratch.byteLength < size) scratch = new ArrayBuffer(size);
    return Buffer.from(scratch, 0, size);
  });
  const arrays = buf ? decodeSetup(buf) : null;
  if (arrays) markUsed(path);
  return arrays;
}

/** Marks a kept file as used now (its modification time: access times are often not kept). Best effort. */
function markUsed(path: string): void {
  try {
    const now = new Date();
    utimesSync(path, now, now);
  } catch {
    // a read-only cache is still a cache
  }
}

/** The default budget of the setup files of a cache folder (LSHDP_SETUP_CACHE_MB overrides it). */
export const SETUP_CACHE_BUDGET_MB = 2048;

/** The budget in bytes: LSHDP_SETUP_CACHE_MB when set (a number of MB, 0 keeps only a run's own), else the default. */
export function setupCacheBudget(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.LSHDP_SETUP_CACHE_MB;
  if (raw === undefined || raw.trim() === '') return SETUP_CACHE_BUDGET_MB * 1024 * 1024;
  const mb = Number(raw);
  if (!Number.isFinite(mb) || mb < 0) throw new RangeError(`LSHDP_SETUP_CACHE_MB must be a number of megabytes >= 0, got ${JSON.stringify(raw)}`);
  return mb * 1024 * 1024;
}

/**
 * Deletes the least recently used setup files of `cacheDir` (oldest modification time first)
 * until they hold at most `budget` bytes, sparing every file used or written at or after
 * `usedSince` (epoch ms: the run's own, which may alone exceed the budget). Other files of the
 * folder are never touched. A file another run reads meanwhile is only recomputed there (the
 * cache is best effort). Returns what was removed.
 */
export function pruneSetupCache(cacheDir: string, budget: number, usedSince: number): { removed: number; bytes: number } {
  let names: string[];
  try {
    names = readdirSync(cacheDir).filter((f) => f.startsWith('setup-') && f.endsWith('.bin'));
  } catch {
    return { removed: 0, bytes: 0 };
  }
  const files: { path: string; size: number; used: number }[] = [];
  let total = 0;
  for (const name of names) {
    try {
      const st = statSync(join(cacheDir, name));
      files.push({ path: join(cacheDir, name), size: st.size, used: st.mtimeMs });
      total += st.size;
    } catch {
      // gone meanwhile
    }
  }
  let removed = 0;
  let bytes = 0;
  if (total <= budget) return { removed, bytes };
  files.sort((a, b) => a.used - b.used || (a.path < b.path ? -1 : 1));
  for (const f of files) {
    if (total <= budget || f.used >= usedSince) break;
    try {
      unlinkSync(f.path);
      removed++;
      bytes += f.size;
    } catch (e) {
      // gone meanwhile (no longer counted), or not ours to delete (kept)
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') total -= f.size;
      continue;
    }
    total -= f.size;
  }
  return { removed, bytes };
}

/** Best effort; false when the setup is larger than SETUP_CACHE_MAX_BYTES or cannot be written. */
export function writeSetup(path: string, arrays: SetupArrays): boolean {
  let bytes = 0;
  for (const [, a] of arrays) bytes += a.byteLength;
  if (bytes > SETUP_CACHE_MAX_BYTES) return false;
  try {
    writeFileAtomicSync(path, encodeSetup(arrays));
    return true;
  } catch {
    return false;
  }
}

/** The setup store of one trial cell, kept in the file at `path`. */
export function fileSetupStore(path: string): TrialSetupStore {
  return { read: () => readSetup(path), write: (arrays) => void writeSetup(path, arrays) };
}

/** The setup cache's budget (LSHDP_SETUP_CACHE_MB), read before anything is done so a bad value stops the run at once. */
export function setupCacheBudgetOrStop(): number {
  try {
    return setupCacheBudget();
  } catch (e) {
    throw new UserError((e as Error).message);
  }
}

/**
 * Keeps the trial setups of the cache folder within their budget after a run computed cells: the
 * least recently used go first, never one this run used or wrote (times from 2 s before its start:
 * some file systems keep modification times to the second or two).
 */
export function pruneSetupsLogged(cacheDir: string, budget: number, started: number, log: (line: string) => void): void {
  const { removed, bytes } = pruneSetupCache(cacheDir, budget, started - 2000);
  if (removed > 0) {
    log(
      `${cacheDir}: removed ${formatCount(removed)} least recently used trial setups (${(bytes / 1048576).toFixed(0)} MB) to keep them within ${(budget / 1048576).toFixed(0)} MB (LSHDP_SETUP_CACHE_MB)`,
    );
  }
}
