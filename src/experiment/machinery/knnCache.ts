/**
 * A compact binary cache of exact k-NN answers, one file per (data hash, n, queries, seed, k):
 *
 *   bytes 0..7   magic "LSHDPKNN"
 *   uint32 LE    format version (1)
 *   uint32 LE    number of queries Q
 *   uint32 LE    k
 *   uint32 LE    0 (reserved)
 *   int32  LE    Q query user indices
 *   int32  LE    Q*k neighbour indices, row-major
 *   float64 LE   Q*k angular distances, row-major
 *
 * The file name is a hash of everything that determines the answer, so a changed input never
 * reuses a stale file; a truncated or foreign file is ignored and recomputed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from '../../util/atomic.js';
import { sha256Hex, stableStringify } from '../../util/hash.js';
import type { ExactKnn } from '../../knn/angular.js';

const MAGIC = 'LSHDPKNN';
const HEADER = 24;

export function knnCachePath(cacheDir: string, identity: unknown): string {
  return join(cacheDir, `knn-${sha256Hex(stableStringify(identity)).slice(0, 40)}.bin`);
}

export function encodeKnn(queries: Int32Array, truth: ExactKnn): Uint8Array {
  const q = queries.length;
  const k = truth.k;
  const buf = Buffer.alloc(HEADER + 4 * q + 4 * q * k + 8 * q * k);
  buf.write(MAGIC, 0, 'latin1');
  buf.writeUInt32LE(1, 8);
  buf.writeUInt32LE(q, 12);
  buf.writeUInt32LE(k, 16);
  buf.writeUInt32LE(0, 20);
  let off = HEADER;
  for (let i = 0; i < q; i++, off += 4) buf.writeInt32LE(queries[i], off);
  for (let i = 0; i < q * k; i++, off += 4) buf.writeInt32LE(truth.indices[i], off);
  for (let i = 0; i < q * k; i++, off += 8) buf.writeDoubleLE(truth.distances[i], off);
  return buf;
}

/** The cached answer, or null when the file is absent, truncated, foreign or for other queries. */
export function decodeKnn(buf: Buffer, queries: Int32Array, k: number): ExactKnn | null {
  if (buf.length < HEADER || buf.toString('latin1', 0, 8) !== MAGIC || buf.readUInt32LE(8) !== 1) return null;
  const q = buf.readUInt32LE(12);
  if (q !== queries.length || buf.readUInt32LE(16) !== k) return null;
  if (buf.length !== HEADER + 4 * q + 4 * q * k + 8 * q * k) return null;
  let off = HEADER;
  for (let i = 0; i < q; i++, off += 4) if (buf.readInt32LE(off) !== queries[i]) return null;
  const indices = new Int32Array(q * k);
  const distances = new Float64Array(q * k);
  for (let i = 0; i < q * k; i++, off += 4) indices[i] = buf.readInt32LE(off);
  for (let i = 0; i < q * k; i++, off += 8) distances[i] = buf.readDoubleLE(off);
  return { k, indices, distances };
}

export function readKnnCache(path: string, queries: Int32Array, k: number): ExactKnn | null {
  let buf: Buffer;
  try {
    buf = readFileSync(path);
  } catch {
    return null;
  }
  return decodeKnn(buf, queries, k);
}

/** Best effort: a cache that cannot be written only costs a recomputation next time. */
export function writeKnnCache(path: string, queries: Int32Array, truth: ExactKnn): boolean {
  try {
    writeFileAtomicSync(path, encodeKnn(queries, truth));
    return true;
  } catch {
    return false;
  }
}
