/**
 * Attribute inference's ranks (src/kernels/infer.wat): targetMetrics of
 * src/evaluations/infer/ranking.ts, bit for bit (tests/kernels/infer.test.ts).
 */

import { align16, newInstance, reserve, type KernelMemory } from './instance.js';

/** The exports of infer.wat. */
interface InferExports extends KernelMemory {
  inferRank(
    bits: number,
    W: number,
    P: number,
    take: number,
    todo: number,
    count: number,
    tPtr: number,
    tPlaces: number,
    nearest: number,
    out: number,
    planes: number,
    cnt: number,
    base: number,
    n: number,
    precAt: number,
  ): void;
  inferRank4(
    bits: number,
    W: number,
    take: number,
    todo: number,
    count: number,
    tPtr: number,
    tPlaces: number,
    nearest: number,
    out: number,
    planes: number,
    cnt: number,
    base: number,
    nbs: number,
    pairs: number,
    n: number,
    precAt: number,
  ): void;
}

/**
 * What the targets of one (trial, aux) hand the inference kernel once: each auxiliary user's items
 * as a bit set over prior places (aux index-major, `words64` little-endian u64 words a user, so
 * 2 · words64 u32 words), and the targets' item places one after another (target i's at
 * places[ptr[i] .. ptr[i + 1])).
 */
export interface InferKernelData {
  n: number;
  words64: number;
  auxBits: Uint32Array;
  ptr: Int32Array;
  places: Int32Array;
}

/**
 * The inference's own instance of the module (as the recommendations' one, below): its data stay in
 * its memory between the results of a trial, where the other kernels' calls would overwrite them.
 */
let inferWasm: { wasm: InferExports; loaded: InferKernelData | null } | null | undefined;

function inferInstance(): { wasm: InferExports; loaded: InferKernelData | null } | null {
  if (inferWasm === undefined) {
    const wasm = newInstance<InferExports>();
    inferWasm = wasm ? { wasm, loaded: null } : null;
  }
  return inferWasm;
}

/** The longest neighbour list the inference kernel takes (votes counted in at most 8 bit planes). */
export const INFER_MAX_TAKE = 255;

/**
 * Attribute inference's auc and prec@`precAt` of every target (out[2i], out[2i + 1]; NaN for a
 * target whose item set is empty or holds all n items) ranked from its first `take` neighbours
 * `nearest[i · take ..]` (aux indices): the doubles of src/evaluations/infer/ranking.ts
 * targetMetrics, counted from bit sets (see infer.wat, inferRank). With `todo`, only the targets
 * it lists (ascending), the j-th ranked from nearest[j · take ..]; the others' entries of `out` are
 * left as they are. Returns false when this kernel does not apply (no WebAssembly, or more than
 * INFER_MAX_TAKE neighbours).
 */
export function wasmInferRanks(data: InferKernelData, nearest: Int32Array, take: number, precAt: number, out: Float64Array, todo?: Int32Array): boolean {
  const own = inferInstance();
  if (!own || take > INFER_MAX_TAKE) return false;
  const { wasm } = own;
  const W = data.words64;
  const T = data.ptr.length - 1;
  const count = todo ? todo.length : T;
  // at most 15 neighbours: four planes in locals (inferRank4); more: P planes in memory
  const P = take <= 15 ? 4 : 32 - Math.clz32(take);
  const L = take + 1;
  const bitsAt = 0;
  const ptrAt = align16(data.auxBits.length * 4);
  const placesAt = align16(ptrAt + data.ptr.length * 4);
  const nearestAt = align16(placesAt + data.places.length * 4);
  const todoAt = align16(nearestAt + count * take * 4);
  const outAt = align16(todoAt + count * 4);
  const planesAt = align16(outAt + T * 16);
  const cntAt = align16(planesAt + W * P * 8);
  // inferRank4 keeps 16 levels a word (a shift to find them), inferRank take + 1
  const baseAt = align16(cntAt + W * Math.max(L, 16) * 4);
  const nbsAt = align16(baseAt + L * 4);
  // per word: the places of each pair of plane bits (see inferRank4)
  const pairsAt = align16(nbsAt + take * 4);
  reserve(wasm, pairsAt + W * 64 + 16);
  const buf = wasm.memory.buffer;
  if (own.loaded !== data) {
    new Uint32Array(buf, bitsAt, data.auxBits.length).set(data.auxBits);
    new Int32Array(buf, ptrAt, data.ptr.length).set(data.ptr);
    new Int32Array(buf, placesAt, data.places.length).set(data.places);
    own.loaded = data;
  }
  new Int32Array(buf, nearestAt, count * take).set(nearest.subarray(0, count * take));
  const list = new Int32Array(buf, todoAt, count);
  if (todo) list.set(todo);
  else for (let i = 0; i < T; i++) list[i] = i;
  if (take <= 15) wasm.inferRank4(bitsAt, W, take, todoAt, count, ptrAt, placesAt, nearestAt, outAt, planesAt, cntAt, baseAt, nbsAt, pairsAt, data.n, precAt);
  else wasm.inferRank(bitsAt, W, P, take, todoAt, count, ptrAt, placesAt, nearestAt, outAt, planesAt, cntAt, baseAt, data.n, precAt);
  const ranks = new Float64Array(wasm.memory.buffer, outAt, 2 * T);
  if (!todo) out.set(ranks);
  else
    for (const t of todo) {
      out[2 * t] = ranks[2 * t]!;
      out[2 * t + 1] = ranks[2 * t + 1]!;
    }
  return true;
}
