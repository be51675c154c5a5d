import type { UserVectors } from '../data/types.js';
import type { Rng } from '../random/rng.js';
import { fillNormal } from '../random/samplers.js';
import { wasmProject } from '../kernels/releases.js';
import type { CodeSet } from './codes.js';
import { freshFloat64, type Float64Alloc } from '../util/bufferPool.js';
import type { TrialMinHash } from './minHash.js';

/** Hyperplanes of one (data set, n, kappa, trial), shared by lsh, lshrr and laplsh. */
export interface TrialHashing {
  kappa: number;
  n: number;
  /** kappa x n, row-major: row j is hyperplane r_j ~ N(0, I_n) */
  planes: Float64Array;
  /** users x kappa, row-major: r_j . x_i of the clean vectors */
  projections: Float64Array;
  /** the clean LSH codes (packSigns of projections), computed once per trial and shared; read-only
   *  for mechanisms (they copy before adding noise). Computed on demand when absent. */
  codes?: CodeSet;
  /** MinHash families only (jaccard): the public tables and every user's argmin item per position,
   *  from the same AES stream as `codes`, for the private MinHash mechanisms (src/lsh/minHash.ts).
   *  Absent for other families and for a hashing read back from a trial's kept setup (only the
   *  fields above are kept there): a mechanism that needs it must then say so, not guess. */
  minHash?: TrialMinHash;
}

/**
 * kappa random hyperplane normals r_j ~ N(0, I_n), row-major kappa x n (row j is r_j).
 * The random-projection LSH of the paper (Sect. 3.2, protocol §4).
 */
export function drawHyperplanes(rng: Rng, kappa: number, n: number): Float64Array {
  if (!Number.isInteger(kappa) || kappa < 1) throw new RangeError(`kappa must be a positive integer, got ${kappa}`);
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`n must be a positive integer, got ${n}`);
  const planes = new Float64Array(kappa * n);
  fillNormal(rng, planes);
  return planes;
}

/**
 * Projections r_j . x_i of every user onto every hyperplane: users x kappa, row-major.
 * O(nnz * kappa): the planes are first transposed to n x kappa so the inner loop over j reads one
 * contiguous row per stored entry of the CSR matrix. Runs in WebAssembly (two columns per f64x2
 * multiply and add, the same doubles) when it is available.
 */
export function projectAll(vectors: UserVectors, planes: Float64Array, kappa: number, opts: { kernel?: 'auto' | 'js'; alloc?: Float64Alloc } = {}): Float64Array {
  const n = vectors.n;
  if (planes.length !== kappa * n) {
    throw new RangeError(`planes has ${planes.length} entries, expected kappa*n = ${kappa}*${n}`);
  }
  const users = vectors.rowPtr.length - 1;
  const byColumn = new Float64Array(n * kappa);
  for (let j = 0; j < kappa; j++) {
    for (let c = 0; c < n; c++) byColumn[c * kappa + j] = planes[j * n + c];
  }
  // zero-filled (the JS loop adds into it)
  const out = (opts.alloc ?? freshFloat64)(users * kappa);
  const { rowPtr, colIdx, values } = vectors;
  if (opts.kernel !== 'js' && wasmProject(rowPtr, colIdx, values, byColumn, kappa, out)) return out; // same doubles, 2 per op
  for (let i = 0; i < users; i++) {
    const base = i * kappa;
    for (let p = rowPtr[i]; p < rowPtr[i + 1]; p++) {
      const off = colIdx[p] * kappa;
      const v = values[p];
      for (let j = 0; j < kappa; j++) out[base + j] += byColumn[off + j] * v;
    }
  }
  return out;
}
