import { readFileSync, statSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { writeFileAtomicSync } from '../util/atomic.js';
import { sha256File, sha256Hex, stableStringify } from '../util/hash.js';
import type { DatasetSummary, UserVectors } from './types.js';

/**
 * Binary cache of user vectors, one file per (inputs, reader options, center, n):
 *   "LSHDPV01" | uint32 LE header length | JSON header | pad to 8 | rowPtr | colIdx | pad to 8 | values
 * The key is the SHA-256 of stable JSON of { CACHE_VERSION, input SHA-256s, reader options, center, n }.
 * A file that fails any structural check is ignored (and rewritten by the caller).
 */
export const CACHE_VERSION = 2; // 2: rounding residue of the centring shift counts as zero
const MAGIC = Buffer.from('LSHDPV01', 'latin1');

/** What the vectors were built from, stored beside them so a cache hit can rebuild the summary. */
export type CachedBase = Pick<DatasetSummary, 'rowsRead' | 'rowsSkipped' | 'skippedLines' | 'users' | 'items' | 'interactions'>;

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
}

export function cacheKey(parts: { inputs: string[]; reader: unknown; center: string; n: number }): string {
  return sha256Hex(stableStringify({ version: CACHE_VERSION, ...parts }));
}

export function cachePath(cacheDir: string, key: string): string {
  return join(cacheDir, `${key}.vec`);
}

const pad8 = (x: number): number => (x + 7) & ~7;

export function writeVectorCache(file: string, key: string, vec: UserVectors, base: CachedBase): void {
  const users = vec.userIds.length;
  const nnz = vec.colIdx.length;
  const header: Header = { version: CACHE_VERSION, key, dataset: vec.dataset, n: vec.n, users, nnz, dropped: vec.dropped, userIds: vec.userIds, itemIds: vec.itemIds, base };
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const h0 = pad8(12 + json.length);
  const intsBytes = (users + 1 + nnz) * 4;
  const v0 = pad8(h0 + intsBytes);
  const out = Buffer.alloc(v0 + nnz * 8);
  MAGIC.copy(out, 0);
  out.writeUInt32LE(json.length, 8);
  json.copy(out, 12);
  Buffer.from(vec.rowPtr.buffer, vec.rowPtr.byteOffset, vec.rowPtr.byteLength).copy(out, h0);
  Buffer.from(vec.colIdx.buffer, vec.colIdx.byteOffset, vec.colIdx.byteLength).copy(out, h0 + (users + 1) * 4);
  Buffer.from(vec.values.buffer, vec.values.byteOffset, vec.values.byteLength).copy(out, v0);
  writeFileAtomicSync(file, out);
}

/** The cached vectors, or null when the file is missing, of another key, or corrupt. */
export function readVectorCache(file: string, key: string): { vectors: UserVectors; base: CachedBase } | null {
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
    if (buf.length !== v0 + nnz * 8) return null;
    // copy into fresh, aligned arrays (the file buffer may be at any offset)
    const ab = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.length);
    const rowPtr = new Int32Array(ab, h0, users + 1);
    const colIdx = new Int32Array(ab, h0 + (users + 1) * 4, nnz);
    const values = new Float64Array(ab, v0, nnz);
    if (rowPtr[0] !== 0 || rowPtr[users] !== nnz) return null;
    for (let r = 0; r < users; r++) {
      const a = rowPtr[r]!;
      const b = rowPtr[r + 1]!;
      if (b <= a) return null;
      let prev = -1;
      for (let p = a; p < b; p++) {
        const c = colIdx[p]!;
        if (c <= prev || c >= n || !Number.isFinite(values[p]!)) return null;
        prev = c;
      }
    }
    return {
      vectors: { dataset: h.dataset, n, userIds: h.userIds, itemIds: h.itemIds, rowPtr, colIdx, values, dropped: h.dropped },
      base: h.base,
    };
  } catch {
    return null;
  }
}

/**
 * SHA-256 of an input file, with a pre-check: `hashes.json` in the cache directory remembers
 * (absolute path, size, mtime in ns) → hash, so an unchanged 680 MB file is not re-hashed on a
 * cache hit. Any change of size or mtime re-hashes. Without a cache directory it always hashes.
 */
export async function hashInput(path: string, cacheDir: string | null): Promise<string> {
  if (!cacheDir) return sha256File(path);
  const indexFile = join(cacheDir, 'hashes.json');
  const abs = resolve(path);
  const st = statSync(path, { bigint: true });
  const stamp = { size: String(st.size), mtimeNs: String(st.mtimeNs) };
  let index: Record<string, { size: string; mtimeNs: string; sha256: string }> = {};
  try {
    index = JSON.parse(readFileSync(indexFile, 'utf8'));
  } catch {
    index = {};
  }
  const hit = index[abs];
  if (hit && hit.size === stamp.size && hit.mtimeNs === stamp.mtimeNs && /^[0-9a-f]{64}$/.test(hit.sha256)) return hit.sha256;
  const sha256 = await sha256File(path);
  // re-read right before writing so concurrent loaders lose as little as possible
  try {
    index = JSON.parse(readFileSync(indexFile, 'utf8'));
  } catch {
    index = {};
  }
  index[abs] = { ...stamp, sha256 };
  writeFileAtomicSync(indexFile, JSON.stringify(index, null, 1));
  return sha256;
}
