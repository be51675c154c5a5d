import { UserError } from '../util/errors.js';
import { sharedFloat64, sharedInt32 } from '../util/shared.js';
import type { Center } from './spec.js';
import type { Interactions } from './interactions.js';
import type { UserVectors } from './types.js';

/**
 * A vector length n above the items the data set has: the key that asked for it (a config's
 * `dims`, inspect's `--dims`) is the caller's to name, with the file (src/machinery/load.ts).
 */
export class TooFewItemsError extends UserError {
  constructor(
    readonly dataset: string,
    readonly n: number,
    /** what was counted ("items", "items with a training interaction") and the count as said */
    readonly counted: string,
    readonly count: string,
  ) {
    super(`${dataset}: n = ${n} exceeds the number of ${counted} (${count})`);
  }
}

/**
 * Item ranking of protocol §2.1: by number of distinct users (after combining repeats, one pair =
 * one user), ties by smaller id in the id order (= smaller item index, since items are ordered).
 * Returns item indices, most popular first.
 */
export function rankItems(inter: Interactions): Int32Array {
  const nItems = inter.itemIds.length;
  const count = new Int32Array(nItems);
  const it = inter.itemIdx;
  for (let p = 0; p < it.length; p++) count[it[p]!]!++;
  const order = Array.from({ length: nItems }, (_, i) => i);
  order.sort((a, b) => count[b]! - count[a]! || a - b);
  return Int32Array.from(order);
}

/** Mean of every combined value of every user (the `global` centre). */
export function globalMean(inter: Interactions): number {
  let s = 0;
  for (let p = 0; p < inter.values.length; p++) s += inter.values[p]!;
  return inter.values.length ? s / inter.values.length : 0;
}

/**
 * Top-n user vectors (protocol §2): column j = ranking[j]; `user` centring subtracts the mean of
 * ALL the user's combined values (every item, not only the n kept); unseen = 0; users whose kept
 * vector is all zero are dropped (counted); rows scaled to unit length; users in id order.
 * Zeros after centring are not stored (they equal "unseen"). A value counts as zero when it is
 * within CENTRED_ZERO_TOL (relative) of the shift: the mean is a rounded floating-point number, so a
 * rating equal to the user's mean in exact arithmetic (0.1, 0.2, 0.3 → mean 0.2) can leave a residue
 * like 3e-17, which scaling to unit length would blow up into a meaningless ±1.
 */
/** Relative size below which a centred value is rounding residue, not a rating difference. */
export const CENTRED_ZERO_TOL = 1e-12;

/** The centred value, or exactly 0 when it is rounding residue of the shift. */
function centred(value: number, shift: number): number {
  const v = value - shift;
  return Math.abs(v) <= CENTRED_ZERO_TOL * (Math.abs(value) + Math.abs(shift)) ? 0 : v;
}

/**
 * Pass 1 over the interactions: each user's centring shift (`user`: the mean of ALL the user's
 * combined values, summed in order) and its stored values at the columns of `colOf` (-1: not kept),
 * their total and the users with at least one, so the CSR arrays are allocated once.
 */
function shiftsAndCounts(inter: Interactions, colOf: Int32Array, center: Center): { shift: Float64Array; nnzOf: Int32Array; nnz: number; kept: number } {
  const { userPtr, itemIdx, values } = inter;
  const nUsers = inter.userIds.length;
  const gMean = center === 'global' ? globalMean(inter) : 0;
  const shift = new Float64Array(nUsers);
  const nnzOf = new Int32Array(nUsers);
  let nnz = 0;
  let kept = 0;
  for (let u = 0; u < nUsers; u++) {
    const a = userPtr[u]!;
    const b = userPtr[u + 1]!;
    let sh = 0;
    if (center === 'global') sh = gMean;
    else if (center === 'user') {
      let s = 0;
      for (let p = a; p < b; p++) s += values[p]!;
      sh = s / (b - a);
    }
    shift[u] = sh;
    let k = 0;
    for (let p = a; p < b; p++) if (colOf[itemIdx[p]!]! >= 0 && centred(values[p]!, sh) !== 0) k++;
    nnzOf[u] = k;
    nnz += k;
    if (k > 0) kept++;
  }
  return { shift, nnzOf, nnz, kept };
}

export function buildVectors(inter: Interactions, ranking: Int32Array, n: number, center: Center, dataset: string): UserVectors {
  const nItems = inter.itemIds.length;
  if (!Number.isInteger(n) || n < 1) throw new UserError(`${dataset}: n must be a positive integer, got ${n}`);
  if (n > nItems) throw new TooFewItemsError(dataset, n, 'items', String(nItems));
  const colOf = new Int32Array(nItems).fill(-1);
  for (let j = 0; j < n; j++) colOf[ranking[j]!] = j;
  const { userPtr, itemIdx, values } = inter;
  const nUsers = inter.userIds.length;
  const { shift, nnzOf, nnz, kept } = shiftsAndCounts(inter, colOf, center);
  // on shared memory: the worker threads read them as they are (src/util/shared.ts)
  const rowPtr = sharedInt32(kept + 1);
  const colIdx = sharedInt32(nnz);
  const vals = sharedFloat64(nnz);
  const userIds = new Array<string>(kept);
  const dense = new Float64Array(n);
  let row = 0;
  let q = 0;
  for (let u = 0; u < nUsers; u++) {
    if (nnzOf[u] === 0) continue;
    const sh = shift[u]!;
    const start = q;
    for (let p = userPtr[u]!, e = userPtr[u + 1]!; p < e; p++) {
      const c = colOf[itemIdx[p]!]!;
      const v = centred(values[p]!, sh);
      if (c >= 0 && v !== 0) {
        dense[c] = v;
        colIdx[q++] = c;
      }
    }
    const cols = colIdx.subarray(start, q);
    cols.sort(); // typed-array sort is numeric
    let ss = 0;
    for (let p = start; p < q; p++) ss += dense[colIdx[p]!]! ** 2;
    const norm = Math.sqrt(ss);
    for (let p = start; p < q; p++) vals[p] = dense[colIdx[p]!]! / norm;
    userIds[row] = inter.userIds[u]!;
    rowPtr[++row] = q;
  }
  const itemIds = new Array<string>(n);
  for (let j = 0; j < n; j++) itemIds[j] = inter.itemIds[ranking[j]!]!;
  return { dataset, n, userIds, itemIds, rowPtr, colIdx, values: vals, dropped: nUsers - kept };
}

/**
 * The vectors of several n at once, each equal to buildVectors' for its n (the same numbers bit
 * for bit), for the cost of about one. The columns of an n are the first n of the ranking, so
 * every smaller n's row is the largest n's row cut to its columns below n: the largest n's rows
 * are built in one walk of the interactions (each user's shift computed once), their centred
 * values kept unscaled and their columns ascending, and each smaller n is cut from them (the
 * same values in the same order, hence the same sum of squares); the largest n is scaled last, in
 * place. `dims` must be distinct, each at most the number of items (the caller checks).
 */
export function buildVectorsOfDims(inter: Interactions, ranking: Int32Array, dims: readonly number[], center: Center, dataset: string): Map<number, UserVectors> {
  const nItems = inter.itemIds.length;
  for (const n of dims) if (!Number.isInteger(n) || n < 1 || n > nItems) return new Map(dims.map((n) => [n, buildVectors(inter, ranking, n, center, dataset)]));
  const out = new Map<number, UserVectors>();
  if (dims.length === 0) return out;
  const top = Math.max(...dims);
  const colOf = new Int32Array(nItems).fill(-1);
  for (let j = 0; j < top; j++) colOf[ranking[j]!] = j;
  const { userPtr, itemIdx, values } = inter;
  const nUsers = inter.userIds.length;
  // pass 1 over the interactions: each user's shift and non-zeros at the largest n
  const { shift, nnzOf, nnz, kept } = shiftsAndCounts(inter, colOf, center);
  // pass 2: the largest n's rows, columns ascending, values centred and not yet scaled
  const rowPtr = sharedInt32(kept + 1);
  const colIdx = sharedInt32(nnz);
  const vals = sharedFloat64(nnz);
  const userOf = new Int32Array(kept);
  const dense = new Float64Array(top);
  // a row's columns as bits, read out in ascending order: cheaper than a sort where the row is
  // not much sparser than the bit words (n = 1000: 32 words against 78 columns a row on average)
  const words = (top + 31) >>> 5;
  const bits = new Int32Array(words);
  let row = 0;
  let q = 0;
  for (let u = 0; u < nUsers; u++) {
    const k = nnzOf[u]!;
    if (k === 0) continue;
    const sh = shift[u]!;
    const start = q;
    const byBits = words <= 8 * k;
    for (let p = userPtr[u]!, e = userPtr[u + 1]!; p < e; p++) {
      const c = colOf[itemIdx[p]!]!;
      const v = centred(values[p]!, sh);
      if (c >= 0 && v !== 0) {
        dense[c] = v;
        if (byBits) bits[c >>> 5]! |= 1 << (c & 31);
        else colIdx[q++] = c;
      }
    }
    if (byBits) {
      for (let w = 0; w < words; w++) {
        let b = bits[w]!;
        if (b === 0) continue;
        bits[w] = 0;
        while (b !== 0) {
          const low = b & -b;
          colIdx[q++] = (w << 5) + 31 - Math.clz32(low);
          b ^= low;
        }
      }
    } else colIdx.subarray(start, q).sort();
    for (let p = start; p < q; p++) vals[p] = dense[colIdx[p]!]!;
    userOf[row] = u;
    rowPtr[++row] = q;
  }
  const itemIdsOf = (n: number): string[] => {
    const ids = new Array<string>(n);
    for (let j = 0; j < n; j++) ids[j] = inter.itemIds[ranking[j]!]!;
    return ids;
  };
  // each smaller n: the rows cut to columns below n, then scaled
  for (const n of dims) if (n !== top) out.set(n, { dataset, n, itemIds: itemIdsOf(n), ...cutRows(rowPtr, colIdx, vals, n, (r) => inter.userIds[userOf[r]!]!, nUsers) });
  const userIds = new Array<string>(kept);
  for (let r = 0; r < kept; r++) {
    scaleRow(vals, rowPtr[r]!, rowPtr[r + 1]!);
    userIds[r] = inter.userIds[userOf[r]!]!;
  }
  out.set(top, { dataset, n: top, userIds, itemIds: itemIdsOf(top), rowPtr, colIdx, values: vals, dropped: nUsers - kept });
  // in the order asked
  return new Map(dims.map((n) => [n, out.get(n)!]));
}

/**
 * The unscaled rows of a larger n cut to the columns below `n` and scaled (a row left empty drops
 * its user): the users' ids (`userId` of a row), the CSR on shared memory, and the users dropped of `users`.
 */
function cutRows(
  rowPtr: Int32Array,
  colIdx: Int32Array,
  vals: Float64Array,
  n: number,
  userId: (row: number) => string,
  users: number,
): Pick<UserVectors, 'userIds' | 'rowPtr' | 'colIdx' | 'values' | 'dropped'> {
  const kept = rowPtr.length - 1;
  let m = 0;
  let rows = 0;
  for (let r = 0; r < kept; r++) {
    const a = m;
    for (let p = rowPtr[r]!, e = rowPtr[r + 1]!; p < e && colIdx[p]! < n; p++) m++;
    if (m > a) rows++;
  }
  const ptr = sharedInt32(rows + 1);
  const cols = sharedInt32(m);
  const scaled = sharedFloat64(m);
  const userIds = new Array<string>(rows);
  let at = 0;
  let i = 0;
  for (let r = 0; r < kept; r++) {
    const start = at;
    for (let p = rowPtr[r]!, e = rowPtr[r + 1]!; p < e && colIdx[p]! < n; p++) {
      cols[at] = colIdx[p]!;
      scaled[at++] = vals[p]!;
    }
    if (at === start) continue;
    scaleRow(scaled, start, at);
    userIds[i] = userId(r);
    ptr[++i] = at;
  }
  return { userIds, rowPtr: ptr, colIdx: cols, values: scaled, dropped: users - rows };
}

/** A row's values over its length, as buildVectors scales them (the squares summed in column order). */
function scaleRow(vals: Float64Array, start: number, end: number): void {
  let ss = 0;
  for (let p = start; p < end; p++) ss += vals[p]! ** 2;
  const norm = Math.sqrt(ss);
  for (let p = start; p < end; p++) vals[p] = vals[p]! / norm;
}
