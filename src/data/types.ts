/**
 * Normalized user vectors for one data set and one dimension n, as a CSR matrix over typed arrays.
 * Row i is user `userIds[i]` (ascending, numeric where numeric); column j is item `itemIds[j]`
 * (the j-th most popular item). Every row has unit Euclidean length and at least one non-zero.
 * Column indices within a row are ascending.
 */
export interface UserVectors {
  dataset: string;
  n: number;
  userIds: string[];
  itemIds: string[];
  rowPtr: Int32Array; // length users + 1
  colIdx: Int32Array; // length nnz
  values: Float64Array; // length nnz
  /** users whose vector was all zero after centring (dropped, not in userIds) */
  dropped: number;
}

export interface PerDimSummary {
  n: number;
  usersKept: number;
  usersDropped: number;
  meanNnz: number;
  itemIds: string[];
}

export interface DatasetSummary {
  name: string;
  format: string;
  /** input files and their SHA-256 (the cache key and the manifest's provenance) */
  inputs: { path: string; sha256: string; bytes: number }[];
  rowsRead: number;
  /** rows skipped as malformed with skip_bad_rows (0 otherwise) */
  rowsSkipped: number;
  /** 1-based line numbers of the first (at most 10) skipped rows */
  skippedLines: number[];
  users: number;
  items: number;
  /** (user, item) pairs after combining repeats */
  interactions: number;
  center: string;
  perDim: PerDimSummary[];
}

export interface LoadedDataset {
  summary: DatasetSummary;
  /** one entry per requested n */
  vectors: Map<number, UserVectors>;
}
