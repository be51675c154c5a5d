/**
 * The exact angular k-NN's tiles (src/kernels/exact.wat): the dots of the JS inverted index of
 * src/knn/angular.ts exactKnn, bit for bit (tests/knn/angular.test.ts).
 */

import { align16, instance, reserve, type KernelMemory } from './instance.js';
import type { ScoredRows } from './shapes.js';

/** The exports of exact.wat. */
interface ExactExports extends KernelMemory {
  exactDots(cPtr: number, cUser: number, cVal: number, len: number, qCol: number, qVal: number, qn: number, dot: number, thr: number, cand: number): number;
  exactTile(rPtr: number, p0: number, rCol: number, rVal: number, len: number, n: number, cPtr: number, cUser: number, cVal: number): number;
}

/**
 * The most users of one tile: their places are u16 in the module, and their dots (8 bytes each)
 * should stay in the first-level cache while a query's postings are added into them.
 */
export const ANGULAR_TILE_USERS = 8192;

/**
 * The stored entries a tile of users is cut at (a user with more is a tile alone): the tile's
 * transposed rows (10 bytes an entry) are read again by every query, from the second-level cache.
 */
export const ANGULAR_TILE_NNZ = 65536;

/**
 * One block of queries against the users, tile by tile, in the module's memory (exact.wat
 * `exactDots`): `load` transposes a tile of users by column, `dots` computes one query's dots
 * against it into `dot` and lists in `cand` the tile's places whose dot is not below a threshold.
 */
export interface AngularTiles {
  /** the dots of the loaded tile's users (place j: user u0 + j) for the last query (a view of the module's memory) */
  readonly dot: Float64Array;
  /** the places the last `dots` found not below its threshold, ascending (a view of the module's memory) */
  readonly cand: Int32Array;
  /** Transposes users [u0, u1) (at most the maxUsers and maxNnz given) into the module. */
  load(u0: number, u1: number): void;
  /** Query `i` of the block against the loaded tile; returns the count of places in `cand`. */
  dots(i: number, thr: number): number;
}

/**
 * The tiles of `rows` for the block `queries`, or null when the kernel does not apply (no
 * WebAssembly, a tile over ANGULAR_TILE_USERS users, or a query's column out of range: the kernel
 * reads without bounds checks; `load` throws on a tile's). `maxNnz`: the most stored entries of any tile that will be loaded. Each
 * query's columns go in its row's order, so its dots are the sums of the JS pass (see exact.wat).
 */
export function wasmAngularTiles(rows: ScoredRows, queries: Int32Array, maxUsers: number, maxNnz: number): AngularTiles | null {
  const wasm = instance<ExactExports>();
  if (!wasm || maxUsers > ANGULAR_TILE_USERS) return null;
  const { n, rowPtr, colIdx, values } = rows;
  const nq = queries.length;
  const qPtr = new Int32Array(nq + 1);
  for (let i = 0; i < nq; i++) qPtr[i + 1] = qPtr[i]! + rowPtr[queries[i]! + 1]! - rowPtr[queries[i]!]!;
  const qnnz = qPtr[nq]!;
  // the doubles first, each part 16-aligned; the tile's rows as they are (rPtr, rCol, rVal), then
  // transposed by the module (cPtr, cUser, cVal)
  const qValAt = 0;
  const rValAt = align16(qnnz * 8);
  const cValAt = align16(rValAt + maxNnz * 8);
  const dotAt = align16(cValAt + maxNnz * 8);
  const qColAt = align16(dotAt + maxUsers * 8);
  const rColAt = align16(qColAt + qnnz * 4);
  const rPtrAt = align16(rColAt + maxNnz * 4);
  const cPtrAt = align16(rPtrAt + (maxUsers + 1) * 4);
  const cUserAt = align16(cPtrAt + (n + 1) * 4);
  const candAt = align16(cUserAt + maxNnz * 2);
  reserve(wasm, candAt + maxUsers * 4);
  const buf = wasm.memory.buffer;
  const qCol = new Int32Array(buf, qColAt, qnnz);
  const qVal = new Float64Array(buf, qValAt, qnnz);
  for (let i = 0; i < nq; i++) {
    const q = queries[i]!;
    const from = rowPtr[q]!;
    const count = rowPtr[q + 1]! - from;
    qCol.set(colIdx.subarray(from, from + count), qPtr[i]!);
    qVal.set(values.subarray(from, from + count), qPtr[i]!);
  }
  for (let i = 0; i < qnnz; i++) if (!(qCol[i]! >= 0 && qCol[i]! < n)) return null;
  const rPtr = new Int32Array(buf, rPtrAt, maxUsers + 1);
  const rCol = new Int32Array(buf, rColAt, maxNnz);
  const rVal = new Float64Array(buf, rValAt, maxNnz);
  let len = 0;
  return {
    dot: new Float64Array(buf, dotAt, maxUsers),
    cand: new Int32Array(buf, candAt, maxUsers),
    load(u0: number, u1: number): void {
      const p0 = rowPtr[u0]!;
      const p1 = rowPtr[u1]!;
      if (u1 - u0 > maxUsers || p1 - p0 > maxNnz) throw new RangeError(`wasmAngularTiles: tile ${u0}..${u1} over ${maxUsers} users or ${maxNnz} entries`);
      len = u1 - u0;
      rPtr.set(rowPtr.subarray(u0, u1 + 1));
      rCol.set(colIdx.subarray(p0, p1));
      rVal.set(values.subarray(p0, p1));
      if (wasm.exactTile(rPtrAt, p0, rColAt, rValAt, len, n, cPtrAt, cUserAt, cValAt) !== 0) {
        throw new RangeError(`wasmAngularTiles: a column of users ${u0}..${u1 - 1} is out of range 0..${n - 1}`);
      }
    },
    dots(i: number, thr: number): number {
      return wasm.exactDots(cPtrAt, cUserAt, cValAt, len, qColAt + qPtr[i]! * 4, qValAt + qPtr[i]! * 8, qPtr[i + 1]! - qPtr[i]!, dotAt, thr, candAt);
    },
  };
}
