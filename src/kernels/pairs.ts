/**
 * The Hamming k-NN when every user is a query (src/kernels/pairs.wat knnPairs), called by wasmScan
 * (src/kernels/knn.ts) with the module it holds: each pair's distance computed once and listed for
 * both users when within a guessed boundary. Answers are those of the JS scan of
 * src/lsh/hammingKnn.ts, bit for bit (tests/kernels/wasm.test.ts, tests/lsh/hammingKnn.test.ts).
 */

import { align16, reserve, type KernelMemory } from './instance.js';
import type { CodeSet } from './shapes.js';

/** The exports of pairs.wat. */
export interface PairsExports extends KernelMemory {
  knnPairs(
    codes: number,
    users: number,
    k: number,
    seed: number,
    bits: number,
    out: number,
    heap: number,
    dist: number,
    list: number,
    hist: number,
    wide: number,
    cnt: number,
    lists: number,
    cap: number,
    dh: number,
    sample: number,
  ): number;
}

/** Users answered by the gather first, whose boundaries give the guess g (pairs.wat). */
export const PAIRS_SAMPLE = 32;

/** The largest number of users (a list entry holds a user in 24 bits, its distance in 8). */
export const PAIRS_MAX_USERS = (1 << 24) - 1;

/** A user's list holds at most this many entries beyond k (more: the user's full row is scanned). */
export const PAIRS_CAP_EXTRA = 120;

/** The most bytes the users' lists may take in the module's memory, which never shrinks ('auto'
 *  scans query by query beyond: 129,055 users at k 10). */
export const PAIRS_MAX_LIST_BYTES = 1 << 26;

/** Whether the lists of `users` users at `k` fit PAIRS_MAX_LIST_BYTES (and a list entry's 24 bits). */
export function pairsFit(users: number, k: number): boolean {
  return users <= PAIRS_MAX_USERS && users * (k + PAIRS_CAP_EXTRA) * 4 <= PAIRS_MAX_LIST_BYTES;
}

/** Whether `queries` is every one of `users` users exactly once (the pairs here, reals.ts's pairing once). */
export function everyUserOnce(queries: Int32Array, users: number): boolean {
  if (queries.length !== users) return false;
  const seen = new Uint8Array(users);
  for (let i = 0; i < users; i++) {
    const q = queries[i]!;
    if (seen[q]) return false;
    seen[q] = 1;
  }
  return true;
}

/**
 * knnPairs over the first `users` codes of `set` (1 or 2 words a code; 1 <= k < users <=
 * PAIRS_MAX_USERS; `queries` every user once): the k best of query i into out[i k ..), best first.
 * `cap` (tests): a list's capacity, k + PAIRS_CAP_EXTRA by default. Returns the guess g.
 */
export function pairsScan(wasm: PairsExports, set: CodeSet, users: number, queries: Int32Array, k: number, tieSeed: number, out: Int32Array, cap = k + PAIRS_CAP_EXTRA): number {
  const words = set.words;
  const n16 = (users + 15) & ~15;
  const codes = 0;
  const outAt = align16(n16 * words * 4);
  const heap = align16(outAt + users * k * 4);
  const dist = align16(heap + k * 12);
  const list = align16(dist + n16 + 16);
  const hist = align16(list + (users + 1) * 4);
  const cnt = align16(hist + (set.bits + 1) * 4);
  const dh = align16(cnt + users * 4);
  const lists = align16(dh + (set.bits + 1) * 4);
  reserve(wasm, lists + users * cap * 4);
  const buf = wasm.memory.buffer;
  const codeWords = new Uint32Array(buf, codes, n16 * words);
  codeWords.set(set.codes.subarray(0, users * words));
  codeWords.fill(0, users * words); // the padding users: read by the SIMD rows, never listed
  new Int32Array(buf, cnt, users).fill(0);
  new Int32Array(buf, dh, set.bits + 1).fill(0);
  const sample = Math.min(users, PAIRS_SAMPLE);
  const g = wasm.knnPairs(codes, users, k, tieSeed | 0, set.bits, outAt, heap, dist, list, hist, words - 1, cnt, lists, cap, dh, sample);
  const answers = new Int32Array(wasm.memory.buffer, outAt, users * k);
  let identity = true;
  for (let qi = 0; qi < users && identity; qi++) identity = queries[qi] === qi;
  if (identity) out.set(answers);
  else for (let qi = 0; qi < users; qi++) out.set(answers.subarray(queries[qi]! * k, (queries[qi]! + 1) * k), qi * k);
  return g;
}
