/**
 * The shapes the kernels read, stated here by shape and not imported, so that src/kernels/ sits
 * below every layer that calls it (docs/ARCHITECTURE.md).
 */

/** Packed bit codes, one row of `words` 32-bit words per user (lsh/codes.ts `CodeSet`). */
export interface CodeSet {
  codes: Uint32Array;
  bits: number;
  words: number;
}

/** A user-vectors matrix as the recommendation scoring and the exact k-NN read it (data/types.ts `UserVectors`). */
export interface ScoredRows {
  /** the number of item columns */
  n: number;
  rowPtr: Int32Array;
  colIdx: Int32Array;
  values: Float64Array;
}
