/**
 * The k-NN of real-valued releases (src/kernels/reals.wat): the JS loop of src/lsh/releases.ts,
 * bit for bit (tests/lsh/releaseKernels.test.ts).
 */

import { align16, instance, reserve, type KernelMemory } from './instance.js';
import { everyUserOnce } from './pairs.js';

/** The exports of reals.wat. */
interface RealExports extends KernelMemory {
  knnReal(
    vals: number,
    users: number,
    dims: number,
    queries: number,
    nq: number,
    k: number,
    seed: number,
    out: number,
    heaps: number,
    bounds: number,
    sizes: number,
    bases: number,
    scratch: number,
    sym: number,
  ): void;
}

/** How the reals kernel pairs its rows: 'auto' sums each pair once when every user is a query once. */
export type RealPairing = 'auto' | 'each' | 'once';

/** Options of wasmRealKnn (measurement and tests; the defaults are the measured best). */
export interface RealKnnOptions {
  pairing?: RealPairing;
}

/**
 * The k nearest of every query among `users` rows of `dims` doubles (row-major `values`) by the
 * squared Euclidean distance summed in float64 in coordinate order from 0, ties by the tie key, the
 * query excluded; best first into `out` (queries x k): the answer of src/lsh/releases.ts's JS loop
 * (the same doubles: lanes are users, each summing its terms in order). Rows are copied into the
 * module in groups of 8 users, coordinate-major (reals.wat `knnReal`). Returns false when the
 * kernel does not apply (no WebAssembly, no coordinates, or a value that is not finite: then an
 * infinite difference makes NaN, and the JS loop's order of NaN is the reference).
 */
export function wasmRealKnn(values: Float64Array, dims: number, users: number, queries: Int32Array, k: number, tieSeed: number, out: Int32Array, opts: RealKnnOptions = {}): boolean {
  const wasm = instance<RealExports>();
  if (!wasm || dims < 1) return false;
  const n = users * dims;
  for (let i = 0; i < n; i++) if (!Number.isFinite(values[i]!)) return false;
  const nq = queries.length;
  const pairing = opts.pairing ?? 'auto';
  const once = pairing === 'once' || (pairing === 'auto' && everyUserOnce(queries, users));
  if (once && !everyUserOnce(queries, users)) throw new RangeError('pairing once needs every user a query exactly once');
  const heaps = once ? users : 1;
  const groups = Math.ceil(users / 8);
  const vals = 0;
  const queriesAt = align16(groups * dims * 64);
  const outAt = align16(queriesAt + nq * 4);
  const heapAt = align16(outAt + (once ? users : nq) * k * 4);
  // a list: (k rounded up to even, plus a sentinel) distances and as many u64 users (reals.wat $rList)
  const boundsAt = align16(heapAt + heaps * (((k + 1) & ~1) + 1) * 16);
  const sizesAt = align16(boundsAt + groups * 8 * 8);
  const basesAt = align16(sizesAt + heaps * 4);
  const scratchAt = align16(basesAt + heaps * 4);
  reserve(wasm, scratchAt + 64);
  const buf = wasm.memory.buffer;
  // padding users: 1e300 makes every squared difference with a real row infinite (never within a finite bound)
  const rows = new Float64Array(buf, vals, groups * dims * 8).fill(1e300);
  for (let u = 0; u < users; u++) {
    const at = (u >>> 3) * dims * 8 + (u & 7);
    for (let j = 0; j < dims; j++) rows[at + j * 8] = values[u * dims + j]!;
  }
  // the padding users' bounds: never within (a distance is >= 0)
  new Float64Array(buf, boundsAt, groups * 8).fill(-1);
  new Int32Array(buf, queriesAt, nq).set(queries);
  wasm.knnReal(vals, users, dims, queriesAt, nq, k, tieSeed | 0, outAt, heapAt, boundsAt, sizesAt, basesAt, scratchAt, once ? 1 : 0);
  const answers = new Int32Array(wasm.memory.buffer, outAt, (once ? users : nq) * k);
  if (!once) out.set(answers);
  else for (let qi = 0; qi < nq; qi++) out.set(answers.subarray(queries[qi]! * k, (queries[qi]! + 1) * k), qi * k);
  return true;
}
