/**
 * The Hamming k-NN's scans that spare the tie path (src/kernels/ties.wat), called by wasmScan
 * (src/kernels/knn.ts) with the module it holds: users grouped by code (groupCodes, groupsScan)
 * and the one-pass gather (gatherScan). Answers are those of the JS scan of src/lsh/hammingKnn.ts,
 * bit for bit (tests/kernels/wasm.test.ts, tests/lsh/hammingKnn.test.ts).
 */

import { align16, reserve, type KernelMemory } from './instance.js';
import type { CodeSet } from './shapes.js';

/** The exports of ties.wat. */
export interface TiesExports extends KernelMemory {
  knnGroups(
    gcodes: number,
    ng: number,
    gstart: number,
    gusers: number,
    ugroup: number,
    queries: number,
    order: number,
    nq: number,
    k: number,
    seed: number,
    bits: number,
    out: number,
    heap: number,
    dist: number,
    hist: number,
    glist: number,
    wide: number,
  ): void;
  knnGather(codes: number, users: number, queries: number, nq: number, k: number, seed: number, bits: number, out: number, heap: number, dist: number, list: number, hist: number, wide: number): void;
}

/** Users grouped by code: the distinct codes in order of first appearance (`words` u32 each), group
 *  g's users (ascending) at users[start[g] .. start[g + 1]), and each user's group. */
export interface CodeGroups {
  codes: Uint32Array;
  count: number;
  start: Int32Array;
  users: Int32Array;
  groupOf: Int32Array;
}

/** Groups the first `users` codes of `set` (1 or 2 words a code) by value, in one pass of an
 *  open-addressing hash table. */
export function groupCodes(set: CodeSet, users: number): CodeGroups;
export function groupCodes(set: CodeSet, users: number, maxGroups: number): CodeGroups | null;
/** (`maxGroups`: give up, returning null, as soon as there are more groups than this: 'auto' then
 *  scans the users, and a table of mostly distinct codes is not grouped to the end for nothing.) */
export function groupCodes(set: CodeSet, users: number, maxGroups = Number.POSITIVE_INFINITY): CodeGroups | null {
  const { codes, words } = set;
  // at most maxGroups + 1 distinct codes are ever stored: the table at most half full
  const most = Math.min(users, maxGroups + 1);
  let cap = 16;
  while (cap < 2 * most) cap *= 2;
  const slots = new Int32Array(cap).fill(-1);
  const gcodes = new Uint32Array(most * words);
  const groupOf = new Int32Array(users);
  const size = new Int32Array(users + 1);
  let count = 0;
  for (let u = 0; u < users; u++) {
    const lo = codes[u * words]!;
    const hi = words === 2 ? codes[u * 2 + 1]! : 0;
    let h = (Math.imul(lo ^ Math.imul(hi, 0x85ebca77), 0x9e3779b1) >>> 0) & (cap - 1);
    let g = slots[h]!;
    while (g >= 0 && (gcodes[g * words] !== lo || (words === 2 && gcodes[g * 2 + 1] !== hi))) {
      h = (h + 1) & (cap - 1);
      g = slots[h]!;
    }
    if (g < 0) {
      if (count >= maxGroups) return null;
      g = count++;
      slots[h] = g;
      gcodes[g * words] = lo;
      if (words === 2) gcodes[g * 2 + 1] = hi;
    }
    groupOf[u] = g;
    size[g + 1]!++;
  }
  const start = new Int32Array(count + 1);
  for (let g = 0; g < count; g++) start[g + 1] = start[g]! + size[g + 1]!;
  const fill = start.slice(0, count);
  const grouped = new Int32Array(users);
  for (let u = 0; u < users; u++) grouped[fill[groupOf[u]!]!++] = u;
  return { codes: gcodes.subarray(0, count * words), count, start, users: grouped, groupOf };
}

/** knnGroups over `groups` (of `set`'s first `users` codes): writes the k best of every query into
 *  `out` (queries x k, best first). The queries go to the module in order of their group (queriesByGroup),
 *  so that the distances and boundary of a code are found once for all the queries that hold it. */
export function groupsScan(wasm: TiesExports, set: CodeSet, groups: CodeGroups, users: number, queries: Int32Array, k: number, tieSeed: number, out: Int32Array): void {
  const ng = groups.count;
  const nq = queries.length;
  const gcodes = 0;
  const gstart = align16(ng * set.words * 4 + 32);
  const gusers = align16(gstart + (ng + 1) * 4);
  const ugroup = align16(gusers + users * 4);
  const queriesAt = align16(ugroup + users * 4);
  const orderAt = align16(queriesAt + nq * 4);
  const outAt = align16(orderAt + nq * 4);
  const heap = align16(outAt + nq * k * 4);
  const dist = align16(heap + k * 12);
  const hist = align16(dist + ng + 32);
  const glist = align16(hist + (set.bits + 1) * 4);
  reserve(wasm, glist + (ng + 16) * 4);
  const buf = wasm.memory.buffer;
  new Uint32Array(buf, gcodes, ng * set.words).set(groups.codes);
  new Int32Array(buf, gstart, ng + 1).set(groups.start);
  new Int32Array(buf, gusers, users).set(groups.users);
  new Int32Array(buf, ugroup, users).set(groups.groupOf);
  new Int32Array(buf, queriesAt, nq).set(queries);
  queriesByGroup(queries, groups, new Int32Array(buf, orderAt, nq));
  wasm.knnGroups(gcodes, ng, gstart, gusers, ugroup, queriesAt, orderAt, nq, k, tieSeed | 0, set.bits, outAt, heap, dist, hist, glist, set.words - 1);
  out.set(new Int32Array(wasm.memory.buffer, outAt, nq * k));
}

/** The indices of `queries` by the group of their user (a counting sort, in query order within a group) into `order`. */
export function queriesByGroup(queries: Int32Array, groups: CodeGroups, order: Int32Array): void {
  const at = new Int32Array(groups.count + 1);
  for (let qi = 0; qi < queries.length; qi++) at[groups.groupOf[queries[qi]!]! + 1]!++;
  for (let g = 0; g < groups.count; g++) at[g + 1]! += at[g]!;
  for (let qi = 0; qi < queries.length; qi++) order[at[groups.groupOf[queries[qi]!]!]!++] = qi;
}

/** Where wasmScan laid out the codes, queries, answers, heap and distance bytes (knn.ts layout). */
export interface ScanLayout {
  codes: number;
  queries: number;
  out: number;
  heap: number;
  dist: number;
}

/** knnGather over the codes and queries wasmScan laid out at `at`, its list and histogram from
 *  `free` on: the k best of every query into the layout's out. */
export function gatherScan(wasm: TiesExports, set: CodeSet, users: number, nq: number, k: number, tieSeed: number, at: ScanLayout, free: number): void {
  const list = align16(free);
  const hist = align16(list + (users + 1) * 4);
  reserve(wasm, hist + (set.bits + 1) * 4);
  wasm.knnGather(at.codes, users, at.queries, nq, k, tieSeed | 0, set.bits, at.out, at.heap, at.dist, list, hist, set.words - 1);
}
