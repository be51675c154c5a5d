/**
 * The Hamming k-NN kernels (src/kernels/knn.wat) on codes of at most 64 bits: the scan
 * (wasmScan), the nearest of appended probes (wasmNearestOf, by rank or as a set), the bucket path
 * (wasmBucketKnn) and the bench's bare loop (wasmBareScan). Answers are those of the JS scan of
 * src/lsh/hammingKnn.ts, bit for bit (tests/kernels/wasm.test.ts, tests/lsh/hammingKnn.test.ts).
 */

import { align16, instance, reserve, type KernelMemory } from './instance.js';
import type { CodeSet } from './shapes.js';
import { everyUserOnce, pairsFit, pairsScan, PAIRS_MAX_USERS, type PairsExports } from './pairs.js';
import { gatherScan, groupCodes, groupsScan, type TiesExports } from './ties.js';

/** The exports of knn.wat. */
interface KnnExports extends KernelMemory {
  knn32(codes: number, users: number, queries: number, nq: number, k: number, seed: number, bits: number, out: number, heap: number): void;
  knn64(codes: number, users: number, queries: number, nq: number, k: number, seed: number, bits: number, out: number, heap: number): void;
  knnCount(codes: number, users: number, queries: number, nq: number, k: number, seed: number, bits: number, out: number, heap: number, dist: number, wide: number): void;
  knnSet(codes: number, users: number, queries: number, nq: number, k: number, seed: number, bits: number, out: number, heap: number, dist: number, wide: number, tied: number): void;
  bare64(codes: number, users: number, queries: number, nq: number): bigint;
  bare32(codes: number, users: number, queries: number, nq: number): number;
  knnBucket(
    codes: number,
    bcode: number,
    bstart: number,
    nb: number,
    busers: number,
    queries: number,
    nq: number,
    k: number,
    seed: number,
    bits: number,
    out: number,
    heap: number,
    bdist: number,
    hist: number,
  ): void;
}

/** The longest code the WebAssembly kernel takes (one 64-bit lane per user). */
export const WASM_MAX_BITS = 64;

/** Lays out codes, queries, out and heap in the module's memory; grows it when needed. */
function layout(wasm: KnnExports, set: CodeSet, users: number, nq: number, k: number) {
  const codes = 0;
  const queries = align16(users * set.words * 4 + 32);
  const out = align16(queries + nq * 4);
  const heap = align16(out + nq * k * 4);
  const dist = align16(heap + k * 12);
  // distance bytes padded to 256 (superblocks), then one 16-byte summary per superblock
  const padded = Math.ceil((users + 15) / 256) * 256;
  const end = dist + padded + (padded / 256) * 16 + 16;
  reserve(wasm, end);
  return { codes, queries, out, heap, dist };
}

/**
 * How the WebAssembly kernel selects: 'heap' keeps the k best while scanning (cheap per user, but
 * about k·ln(users/k) heap replacements per query); 'count' writes every distance as a byte, finds
 * the boundary distance by SIMD counting and keys only the users within it (two more passes over
 * one byte per user, few replacements); 'groups' does the same over the distinct codes (one
 * distance per code, the boundary from the groups' sizes, then the users of the groups within it);
 * 'gather' lists the users within the previous query's boundary while writing the distances, and
 * finds the boundary from the list (ties.wat); 'pairs', every user a query, computes each pair's
 * distance once and lists it for both users (pairs.wat). The same answers every way.
 */
export type WasmSelection = 'auto' | 'heap' | 'count' | 'groups' | 'gather' | 'pairs';

/** 'auto' selects by gathering (before it, by counting: the same distance pass, then fewer passes
 *  over the bytes) for codes of <= 32 bits (their distance bytes come out of SIMD narrowing almost
 *  for free: counting was faster at 4k and at 160k users), and for longer codes up to this many
 *  users (measured: counting wins at 8k users, draws at 32k, loses by ~20% at 160k, where the
 *  scalar byte stores cost more than the heap's replacements); see docs/SPEED.md, "2026-12-07:
 *  the tie path". */
export const COUNT_MAX_USERS = 32768;

/** 'auto' scans the groups of equal codes instead of the users when there are at most this many
 *  distinct codes a user (GROUPS_MAX_SHARE); see docs/SPEED.md, "2026-12-07: the tie path". */
export const GROUPS_MAX_SHARE = 0.5;

/** 'auto' computes each pair's distance once ('pairs') when every user is a query, from this many
 *  users on (below, its sample of gathered users is a large share); see docs/SPEED.md, "2026-12-07
 *  (night): each pair's distance once". */
export const PAIRS_MIN_USERS = 512;

/**
 * Writes the k best of every query into `out` (queries x k, best first) and returns true, or
 * returns false when this kernel does not apply (no WebAssembly, or codes longer than 64 bits).
 * Arguments are validated by the caller (hammingKnn).
 */
export function wasmScan(set: CodeSet, users: number, queries: Int32Array, k: number, tieSeed: number, out: Int32Array, selection: WasmSelection = 'auto'): boolean {
  const wasm = instance<KnnExports & TiesExports & PairsExports>();
  if (!wasm || set.bits > WASM_MAX_BITS || set.words > 2) return false;
  if (selection === 'pairs' && (k < 1 || users > PAIRS_MAX_USERS || !everyUserOnce(queries, users))) {
    throw new RangeError('the pairs selection needs k >= 1 and every user a query exactly once');
  }
  if (k > 0 && (selection === 'groups' || selection === 'auto')) {
    const groups = selection === 'groups' ? groupCodes(set, users) : groupCodes(set, users, Math.floor(users * GROUPS_MAX_SHARE));
    if (groups) {
      groupsScan(wasm, set, groups, users, queries, k, tieSeed, out);
      return true;
    }
  }
  const pairs = selection === 'pairs' || (selection === 'auto' && k > 0 && users >= PAIRS_MIN_USERS && pairsFit(users, k) && everyUserOnce(queries, users));
  if (pairs) {
    pairsScan(wasm, set, users, queries, k, tieSeed, out);
    return true;
  }
  const at = layout(wasm, set, users, queries.length, k);
  const buf = wasm.memory.buffer;
  new Uint32Array(buf, at.codes, users * set.words).set(set.codes.subarray(0, users * set.words));
  new Int32Array(buf, at.queries, queries.length).set(queries);
  const auto = selection === 'auto' && (set.words === 1 || users <= COUNT_MAX_USERS);
  if ((selection === 'gather' || auto) && k > 0) {
    const padded = Math.ceil((users + 15) / 256) * 256;
    gatherScan(wasm, set, users, queries.length, k, tieSeed, at, align16(at.dist + padded + (padded / 256) * 16 + 16));
  } else if (selection === 'count' || auto) {
    wasm.knnCount(at.codes, users, at.queries, queries.length, k, tieSeed | 0, set.bits, at.out, at.heap, at.dist, set.words - 1);
  } else {
    const knn = set.words === 1 ? wasm.knn32 : wasm.knn64; // little-endian word pairs are the u64 codes
    knn(at.codes, users, at.queries, queries.length, k, tieSeed | 0, set.bits, at.out, at.heap);
  }
  out.set(new Int32Array(wasm.memory.buffer, at.out, queries.length * k));
  return true;
}

/**
 * The k nearest of the `m` codes of `candidates` (gathered, one after another) to each of the
 * `probes.length / words` codes of `probes`, best first, into `out` (probes x k): hammingKnn's
 * answer for queries placed after the candidates (query i at index m + i, so never one of them),
 * ties by the tie key of (m + i, candidate index). With `asSet`, each probe's k in no order (the
 * same users; for a caller that only counts them). With `only`, the probes it lists alone (each
 * keeping its place m + i), their answers one after another in `out`. Returns false when this kernel does not apply
 * (no WebAssembly, codes longer than 64 bits, or k not below m: every candidate is then an answer).
 */
export function wasmNearestOf(candidates: Uint32Array, m: number, probes: Uint32Array, bits: number, k: number, tieSeed: number, out: Int32Array, asSet = false, only?: Int32Array): boolean {
  const wasm = instance<KnnExports>();
  const words = Math.ceil(bits / 32);
  if (!wasm || bits > WASM_MAX_BITS || words > 2 || k >= m) return false;
  const np = probes.length / words;
  const nq = only ? only.length : np;
  const set: CodeSet = { codes: candidates, bits, words };
  const at = layout(wasm, set, m + np, nq, k);
  // the set search's tied users and their keys, after the distance bytes and their summaries
  const padded = Math.ceil((m + np + 15) / 256) * 256;
  const tied = align16(at.dist + padded + (padded / 256) * 16 + 16);
  if (asSet) reserve(wasm, tied + (2 * m + 8) * 4);
  const buf = wasm.memory.buffer;
  new Uint32Array(buf, at.codes, m * words).set(candidates.subarray(0, m * words));
  new Uint32Array(buf, at.codes + m * words * 4, np * words).set(probes);
  const queries = new Int32Array(buf, at.queries, nq);
  for (let i = 0; i < nq; i++) queries[i] = m + (only ? only[i]! : i);
  if (asSet) wasm.knnSet(at.codes, m, at.queries, nq, k, tieSeed | 0, bits, at.out, at.heap, at.dist, words - 1, tied);
  else wasm.knnCount(at.codes, m, at.queries, nq, k, tieSeed | 0, bits, at.out, at.heap, at.dist, words - 1);
  out.set(new Int32Array(wasm.memory.buffer, at.out, nq * k));
  return true;
}

/**
 * Bench baseline: the bare distance loop without selection over the same codes and queries
 * (i64.popcnt unrolled for 33..64 bits, SIMD for <= 32 bits); returns a checksum (the sum of
 * distances, or null without WebAssembly).
 */
export function wasmBareScan(set: CodeSet, queries: Int32Array): number | null {
  const wasm = instance<KnnExports>();
  if (!wasm || set.words > 2) return null;
  const users = set.codes.length / set.words;
  const at = layout(wasm, set, users, queries.length, 0);
  const buf = wasm.memory.buffer;
  new Uint32Array(buf, at.codes, users * set.words).set(set.codes);
  new Int32Array(buf, at.queries, queries.length).set(queries);
  return set.words === 1 ? wasm.bare32(at.codes, users, at.queries, queries.length) : Number(wasm.bare64(at.codes, users, at.queries, queries.length));
}

// ---- the bucket path of the Hamming k-NN (src/lsh/hammingKnn.ts) ----

/**
 * The k nearest of every query (best first into `out`, queries x k) over users grouped by code
 * (codes of at most 16 bits, one word a user): `bucketCode` the distinct codes, bucket t's users
 * at bucketUsers[bucketStart[t] .. bucketStart[t + 1]). hammingKnn's bucket path, with the heap
 * and tie keys of the scans (knn.wat knnBucket): the same answers. Returns false without
 * WebAssembly. Arguments are validated by the caller (k below the number of users).
 */
export function wasmBucketKnn(
  codes: Uint32Array,
  bits: number,
  bucketCode: Int32Array,
  bucketStart: Int32Array,
  bucketUsers: Int32Array,
  queries: Int32Array,
  k: number,
  tieSeed: number,
  out: Int32Array,
): boolean {
  const wasm = instance<KnnExports>();
  if (!wasm || bits > 16) return false;
  const users = bucketUsers.length;
  const nb = bucketCode.length;
  const nq = queries.length;
  const codesAt = 0;
  const bcodeAt = align16(users * 4);
  const bstartAt = align16(bcodeAt + nb * 4);
  const busersAt = align16(bstartAt + (nb + 1) * 4);
  const queriesAt = align16(busersAt + users * 4);
  const outAt = align16(queriesAt + nq * 4);
  const heapAt = align16(outAt + nq * k * 4);
  const bdistAt = align16(heapAt + k * 12);
  const histAt = align16(bdistAt + nb);
  reserve(wasm, histAt + (bits + 1) * 4);
  const buf = wasm.memory.buffer;
  new Uint32Array(buf, codesAt, users).set(codes.subarray(0, users));
  new Int32Array(buf, bcodeAt, nb).set(bucketCode);
  new Int32Array(buf, bstartAt, nb + 1).set(bucketStart);
  new Int32Array(buf, busersAt, users).set(bucketUsers);
  new Int32Array(buf, queriesAt, nq).set(queries);
  wasm.knnBucket(codesAt, bcodeAt, bstartAt, nb, busersAt, queriesAt, nq, k, tieSeed | 0, bits, outAt, heapAt, bdistAt, histAt);
  out.set(new Int32Array(wasm.memory.buffer, outAt, nq * k));
  return true;
}
