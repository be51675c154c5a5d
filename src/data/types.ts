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
  /** with a recommendation split (config `recommend`): the split and how many users each step left out */
  recommend?: RecommendSummary;
}

/**
 * What a recommendation split did to a data set (datasets.json `recommend`). Every user falls in
 * exactly one of: too few items (usersTooFew), and per n: no held-out item among the n items,
 * an all-zero training vector, or eligible as a query; the four add up to `users`.
 */
export interface RecommendSummary {
  split: RecommendSplit['split'];
  holdout: number;
  /** users with fewer than holdout + 1 distinct items: every item trains, none is held out; never queries */
  usersTooFew: number;
  /** (user, item) pairs held out, and left for training */
  heldOut: number;
  training: number;
  /** items with at least one training pair (the items the n are chosen among) */
  trainingItems: number;
  perDim: RecommendDimSummary[];
}

/** Per n, of the users with enough items: the ones each next step leaves out, and those left. */
export interface RecommendDimSummary {
  n: number;
  /** no held-out item among the n items (nothing to recommend them that could be scored) */
  usersNoHeldItem: number;
  /** of the rest: an all-zero training vector (neither a query nor a neighbour; not a row) */
  usersZeroTraining: number;
  /** the rest: a non-zero training vector and a held-out item among the n items (the possible queries) */
  usersEligible: number;
}

export interface LoadedDataset {
  summary: DatasetSummary;
  /** one entry per requested n (with a recommendation split: the training vectors) */
  vectors: Map<number, UserVectors>;
  /** with a recommendation split (config `recommend`, docs/RECOMMEND.md): per n, the items beside the training vectors */
  recommend?: Map<number, RecommendData>;
  /** with an evaluation that reads item sets (config `infer`): per n, each kept user's item set */
  items?: Map<number, ItemSets>;
}

/** How a recommendation run splits each user's distinct items (config `recommend`). */
export interface RecommendSplit {
  split: 'last' | 'random';
  holdout: number;
}

/**
 * Per n, what a recommendation run needs beside the training vectors, as two CSR matrices whose
 * rows are the rows of the (training) UserVectors of that n and whose columns are its columns
 * (its n items): row u of `train` lists every column user u interacted with in training, also
 * one whose centred value is 0 (which the vector omits); row u of `held` lists u's held-out items
 * among the n items. Columns ascending within a row.
 */
/**
 * Each kept user's item set among the n items before any centring (config `infer`): row u (the
 * vectors' row u) holds the columns, ascending, of colIdx[rowPtr[u] .. rowPtr[u + 1]). With a
 * recommendation split, the training items.
 */
export interface ItemSets {
  rowPtr: Int32Array;
  colIdx: Int32Array;
  /** the number of items (columns) */
  n: number;
}

/** What a (data set, n) group carries beside its vectors, for the evaluations that read it (shared with the worker threads). */
export interface GroupExtras {
  /** with a recommendation split: the training and held-out columns */
  recommend?: RecommendData;
  /** with an evaluation that reads them (attribute inference): the item sets */
  items?: ItemSets;
}

export interface RecommendData {
  trainPtr: Int32Array; // users + 1
  trainCol: Int32Array;
  heldPtr: Int32Array; // users + 1
  heldCol: Int32Array;
}
