/**
 * A compact binary cache of exact k-NN answers, one file per (data hash, n, queries, seed, k):
 *
 *   bytes 0..7   magic "LSHDPKNN"
 *   uint32 LE    format version (3; versions 1 and 2, without the sections they lack, are still read)
 *   uint32 LE    number of queries Q
 *   uint32 LE    k
 *   uint32 LE    U: the users of the distances to every user, 0 when absent (version 1: 0)
 *   int32  LE    Q query user indices
 *   int32  LE    Q*k neighbour indices, row-major
 *   float64 LE   Q*k angular distances, row-major
 *   float64 LE   Q mean distances to every other user (ExactKnn.meanDistance; from version 3)
 *   (U > 0: zero bytes up to a multiple of 8, then)
 *   float64 LE   Q*U distances from each query to every user, row-major (ExactKnn.all)
 *
 * The file name is a hash of everything that determines the answer, so a changed input never
 * reuses a stale file; a truncated or foreign file is ignored and recomputed.
 */
import { endianness } from 'node:os';
import { join } from 'node:path';
import { writeFileAtomicSync } from '../util/atomic.js';
import { readWholeFileInto } from '../util/readInto.js';
import { sha256Hex, stableStringify } from '../util/hash.js';
import type { ExactKnn } from '../knn/angular.js';

const MAGIC = 'LSHDPKNN';
const HEADER = 24;
const VERSION = 3;
/** Whether a Float64Array's bytes are already the file's little-endian doubles. */
const LITTLE_ENDIAN = endianness() === 'LE';

export function knnCachePath(cacheDir: string, identity: unknown): string {
  return join(cacheDir, `knn-${sha256Hex(stableStringify(identity)).slice(0, 40)}.bin`);
}

/** Where the answers end: after the header, the queries, the neighbours and their distances, and
 *  (version 3, `means`) the mean distances. */
const answersEnd = (q: number, k: number, means: boolean): number => HEADER + 4 * q + 4 * q * k + 8 * q * k + (means ? 8 * q : 0);
/** Where the distances to every user start: after the answers, 8-byte aligned. */
const allOffset = (q: number, k: number, means: boolean): number => (answersEnd(q, k, means) + 7) & ~7;
/** The length of a file with `users` distances per query to every user (0: none). */
const fileLength = (q: number, k: number, users: number, means: boolean): number => (users > 0 ? allOffset(q, k, means) + 8 * q * users : answersEnd(q, k, means));

export function encodeKnn(queries: Int32Array, truth: ExactKnn): Uint8Array {
  const q = queries.length;
  const k = truth.k;
  const users = truth.all ? truth.all.length / q : 0;
  // without the mean distances (an engine that gives none), a file of version 2
  const means = truth.meanDistance !== undefined;
  const buf = Buffer.alloc(fileLength(q, k, users, means));
  buf.write(MAGIC, 0, 'latin1');
  buf.writeUInt32LE(means ? VERSION : 2, 8);
  buf.writeUInt32LE(q, 12);
  buf.writeUInt32LE(k, 16);
  buf.writeUInt32LE(users, 20);
  let off = HEADER;
  for (let i = 0; i < q; i++, off += 4) buf.writeInt32LE(queries[i], off);
  for (let i = 0; i < q * k; i++, off += 4) buf.writeInt32LE(truth.indices[i], off);
  for (let i = 0; i < q * k; i++, off += 8) buf.writeDoubleLE(truth.distances[i], off);
  if (means) for (let i = 0; i < q; i++, off += 8) buf.writeDoubleLE(truth.meanDistance![i], off);
  if (truth.all) {
    off = allOffset(q, k, means);
    if (LITTLE_ENDIAN) buf.set(bytesOf(truth.all), off);
    else for (let i = 0; i < truth.all.length; i++) buf.writeDoubleLE(truth.all[i], off + 8 * i);
  }
  return buf;
}

/**
 * The cached answer, or null when the file is absent, truncated, foreign or for other queries.
 * The distances to every user (when the file has them) are read in place when `buf` lies in
 * shared memory (readKnnCache), ready for the workers; else copied into shared memory.
 */
export function decodeKnn(buf: Buffer, queries: Int32Array, k: number): ExactKnn | null {
  if (buf.length < HEADER || buf.toString('latin1', 0, 8) !== MAGIC) return null;
  const version = buf.readUInt32LE(8);
  if (version !== 1 && version !== 2 && version !== VERSION) return null;
  const means = version >= 3;
  const q = buf.readUInt32LE(12);
  if (q !== queries.length || buf.readUInt32LE(16) !== k) return null;
  const users = version === 1 ? 0 : buf.readUInt32LE(20);
  if (buf.length !== fileLength(q, k, users, means)) return null;
  let off = HEADER;
  if (LITTLE_ENDIAN) {
    // the arrays' bytes are the file's: copied whole (a read per element was 10 ms of a run's
    // main thread at 8,474 queries, before its workers could start)
    if (!buf.subarray(off, off + 4 * q).equals(bytesOf(queries))) return null;
    off += 4 * q;
  } else for (let i = 0; i < q; i++, off += 4) if (buf.readInt32LE(off) !== queries[i]) return null;
  const indices = new Int32Array(q * k);
  const distances = new Float64Array(q * k);
  off = readInto(buf, off, indices);
  off = readInto(buf, off, distances);
  const answers: ExactKnn = { k, indices, distances };
  if (means) {
    answers.meanDistance = new Float64Array(q);
    off = readInto(buf, off, answers.meanDistance);
  }
  if (users === 0) return answers;
  off = allOffset(q, k, means);
  const inPlace = LITTLE_ENDIAN && buf.buffer instanceof SharedArrayBuffer && (buf.byteOffset + off) % 8 === 0;
  if (inPlace) return { ...answers, all: new Float64Array(buf.buffer, buf.byteOffset + off, q * users) };
  const all = new Float64Array(new SharedArrayBuffer(8 * q * users));
  readInto(buf, off, all);
  return { ...answers, all };
}

/** A typed array's bytes, in place. */
const bytesOf = (a: Int32Array | Float64Array): Uint8Array => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/** Fills `into` with the file's little-endian numbers at `off`; returns the offset after them. */
function readInto(buf: Buffer, off: number, into: Int32Array | Float64Array): number {
  const size = into.BYTES_PER_ELEMENT;
  if (LITTLE_ENDIAN) bytesOf(into).set(buf.subarray(off, off + into.byteLength));
  else if (into instanceof Int32Array) for (let i = 0; i < into.length; i++) into[i] = buf.readInt32LE(off + size * i);
  else for (let i = 0; i < into.length; i++) into[i] = buf.readDoubleLE(off + size * i);
  return off + into.byteLength;
}

/** The cached answer of `path` (decodeKnn), read straight into shared memory (one copy of the
 *  distances to every user, which the workers then read without copies of their own). */
export function readKnnCache(path: string, queries: Int32Array, k: number): ExactKnn | null {
  const buf = readWholeFileInto(path, (size) => Buffer.from(new SharedArrayBuffer(size)));
  return buf ? decodeKnn(buf, queries, k) : null;
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
