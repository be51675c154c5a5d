import { readFileSync, statSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { writeFileAtomicSync, writePartsAtomicSync } from '../util/atomic.js';
import { sha256Hex, stableStringify } from '../util/hash.js';
import type { DatasetSummary, RecommendData, RecommendDimSummary, RecommendSummary, UserVectors } from './types.js';

/**
 * Binary cache of user vectors, one file per (inputs, reader options, center, n[, split]):
 *   "LSHDPV01" | uint32 LE header length | JSON header | pad to 8 | rowPtr | colIdx | pad to 8 | values
 *   [with a recommendation split: | trainPtr | trainCol | heldPtr | heldCol (Int32)]
 * The key is the SHA-256 of stable JSON of { CACHE_VERSION, input SHA-256s, reader options, center,
 * n } and, only with a split, the split (so files without one keep their keys and bytes).
 * A file that fails any structural check is ignored (and rewritten by the caller).
 */
export const CACHE_VERSION = 2; // 2: rounding residue of the centring shift counts as zero
const MAGIC = Buffer.from('LSHDPV01', 'latin1');

/** What the vectors were built from, stored beside them so a cache hit can rebuild the summary. */
export type CachedBase = Pick<DatasetSummary, 'rowsRead' | 'rowsSkipped' | 'skippedLines' | 'users' | 'items' | 'interactions'>;

/** A split's part of the summary that does not depend on n. */
export type RecommendBase = Omit<RecommendSummary, 'perDim'>;

/** What a split adds to one n's file: its summary parts and the RecommendData arrays. */
export interface CachedRecommend {
  base: RecommendBase;
  dim: RecommendDimSummary;
  data: RecommendData;
}

interface RecommendHeader {
  base: RecommendBase;
  dim: RecommendDimSummary;
  trainNnz: number;
  heldNnz: number;
}

interface Header {
  version: number;
  key: string;
  dataset: string;
  n: number;
  users: number;
  nnz: number;
  dropped: number;
  userIds: string[];
  itemIds: string[];
  base: CachedBase;
  recommend?: RecommendHeader;
}

export function cacheKey(parts: { inputs: string[]; reader: unknown; center: string; n: number; recommend?: unknown }): string {
  return sha256Hex(stableStringify({ version: CACHE_VERSION, ...parts }));
}

export function cachePath(cacheDir: string, key: string): string {
  return join(cacheDir, `${key}.vec`);
}

const pad8 = (x: number): number => (x + 7) & ~7;

const bytesOf = (a: Int32Array | Float64Array): Buffer => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

export function writeVectorCache(file: string, key: string, vec: UserVectors, base: CachedBase, rec?: CachedRecommend): void {
  const users = vec.userIds.length;
  const nnz = vec.colIdx.length;
  const header: Header = { version: CACHE_VERSION, key, dataset: vec.dataset, n: vec.n, users, nnz, dropped: vec.dropped, userIds: vec.userIds, itemIds: vec.itemIds, base };
  if (rec) header.recommend = { base: rec.base, dim: rec.dim, trainNnz: rec.data.trainCol.length, heldNnz: rec.data.heldCol.length };
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const h0 = pad8(12 + json.length);
  const intsBytes = (users + 1 + nnz) * 4;
  const v0 = pad8(h0 + intsBytes);
  // the header and its padding; the arrays are written from their own memory (no joined copy)
  const head = Buffer.alloc(h0);
  MAGIC.copy(head, 0);
  head.writeUInt32LE(json.length, 8);
  json.copy(head, 12);
  const recArrays = rec ? [rec.data.trainPtr, rec.data.trainCol, rec.data.heldPtr, rec.data.heldCol] : [];
  const parts = [head, bytesOf(vec.rowPtr), bytesOf(vec.colIdx), Buffer.alloc(v0 - h0 - intsBytes), bytesOf(vec.values), ...recArrays.map(bytesOf)];
  writePartsAtomicSync(file, parts);
}

/** A CSR of column lists over `rows` rows and `n` columns: pointers from 0 to `nnz`, columns ascending and below n. */
function validColumnLists(ptr: Int32Array, col: Int32Array, rows: number, n: number, nonEmpty: boolean): boolean {
  if (ptr[0] !== 0 || ptr[rows] !== col.length) return false;
  for (let r = 0; r < rows; r++) {
    const a = ptr[r]!;
    const b = ptr[r + 1]!;
    if (b < a || (nonEmpty && b === a)) return false;
    let prev = -1;
    for (let p = a; p < b; p++) {
      const c = col[p]!;
      if (c <= prev || c >= n) return false;
      prev = c;
    }
  }
  return true;
}

/** The split's arrays after the values, or null when they do not fit the header. */
function readRecommendArrays(ab: ArrayBuffer, r0: number, users: number, n: number, h: RecommendHeader): CachedRecommend | null {
  const { trainNnz, heldNnz } = h;
  if (!Number.isInteger(trainNnz) || !Number.isInteger(heldNnz) || trainNnz < 0 || heldNnz < 0) return null;
  if (ab.byteLength !== r0 + (2 * (users + 1) + trainNnz + heldNnz) * 4) return null;
  const trainPtr = new Int32Array(ab, r0, users + 1);
  const trainCol = new Int32Array(ab, r0 + (users + 1) * 4, trainNnz);
  const heldPtr = new Int32Array(ab, r0 + (users + 1 + trainNnz) * 4, users + 1);
  const heldCol = new Int32Array(ab, r0 + (2 * (users + 1) + trainNnz) * 4, heldNnz);
  if (!validColumnLists(trainPtr, trainCol, users, n, true) || !validColumnLists(heldPtr, heldCol, users, n, false)) return null;
  return { base: h.base, dim: h.dim, data: { trainPtr, trainCol, heldPtr, heldCol } };
}

/** The cached vectors (and a split's data), or null when the file is missing, of another key, or corrupt. */
export function readVectorCache(file: string, key: string): { vectors: UserVectors; base: CachedBase; recommend?: CachedRecommend } | null {
  if (!existsSync(file)) return null;
  try {
    const buf = readFileSync(file);
    if (buf.length < 12 || !buf.subarray(0, 8).equals(MAGIC)) return null;
    const len = buf.readUInt32LE(8);
    if (12 + len > buf.length) return null;
    const h = JSON.parse(buf.toString('utf8', 12, 12 + len)) as Header;
    if (h.version !== CACHE_VERSION || h.key !== key) return null;
    const { users, nnz, n } = h;
    if (!Array.isArray(h.userIds) || h.userIds.length !== users || !Array.isArray(h.itemIds) || h.itemIds.length !== n) return null;
    const h0 = pad8(12 + len);
    const v0 = pad8(h0 + (users + 1 + nnz) * 4);
    if (h.recommend ? buf.length < v0 + nnz * 8 : buf.length !== v0 + nnz * 8) return null;
    // copy into fresh, aligned arrays (the file buffer may be at any offset)
    const ab = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.length);
    const rowPtr = new Int32Array(ab, h0, users + 1);
    const colIdx = new Int32Array(ab, h0 + (users + 1) * 4, nnz);
    const values = new Float64Array(ab, v0, nnz);
    if (!validColumnLists(rowPtr, colIdx, users, n, true) || !values.every(Number.isFinite)) return null;
    const recommend = h.recommend ? readRecommendArrays(ab, v0 + nnz * 8, users, n, h.recommend) : undefined;
    if (recommend === null) return null;
    return {
      vectors: { dataset: h.dataset, n, userIds: h.userIds, itemIds: h.itemIds, rowPtr, colIdx, values, dropped: h.dropped },
      base: h.base,
      ...(recommend ? { recommend } : {}),
    };
  } catch {
    return null;
  }
}

/** An input file's size and modification time (ns), as `hashes.json` keeps them. */
export interface InputStamp {
  size: string;
  mtimeNs: string;
}

export function inputStamp(path: string): InputStamp {
  const st = statSync(path, { bigint: true });
  return { size: String(st.size), mtimeNs: String(st.mtimeNs) };
}

type HashIndex = Record<string, InputStamp & { sha256: string }>;

function readHashIndex(indexFile: string): HashIndex {
  try {
    return JSON.parse(readFileSync(indexFile, 'utf8'));
  } catch {
    return {};
  }
}

/**
 * `hashes.json` in the cache directory remembers (absolute path, size, mtime in ns) -> SHA-256, so
 * an unchanged 680 MB file is not re-hashed on a cache hit; any change of size or mtime re-hashes
 * (docs/DATA.md, "Cache"). What it remembers of an input: its SHA-256 when the file's
 * stamp is the one remembered with it (`current`), else null; and the hash remembered for the
 * path whatever its stamp (`last`, null when none), whose cache files say the input was read before.
 */
export function rememberedHash(path: string, cacheDir: string, stamp: InputStamp): { current: string | null; last: string | null } {
  const hit = readHashIndex(join(cacheDir, 'hashes.json'))[resolve(path)];
  const last = hit && /^[0-9a-f]{64}$/.test(hit.sha256) ? hit.sha256 : null;
  return { current: last !== null && hit!.size === stamp.size && hit!.mtimeNs === stamp.mtimeNs ? last : null, last };
}

/** Records an input's hash with the stamp it was taken at (the index re-read right before, so concurrent loaders lose as little as possible). */
export function rememberHash(path: string, cacheDir: string, stamp: InputStamp, sha256: string): void {
  const indexFile = join(cacheDir, 'hashes.json');
  const index = readHashIndex(indexFile);
  index[resolve(path)] = { ...stamp, sha256 };
  writeFileAtomicSync(indexFile, JSON.stringify(index, null, 1));
}
