import type { Combine } from './spec.js';
import { GrowableFloat64, GrowableInt32 } from './growable.js';
import { orderIds, type Interner } from './interning.js';
import { releaseArrays } from '../util/release.js';

/**
 * Combined (user, item) interactions after repeats are merged, as CSR by user: users and items
 * in id order ("numeric where numeric"), items ascending within a user.
 */
export interface Interactions {
  userIds: string[];
  itemIds: string[];
  userPtr: Int32Array; // users + 1
  itemIdx: Int32Array; // pairs
  values: Float64Array; // pairs
  /**
   * per pair, the time of the user's interaction with the item in epoch seconds (or the file's own
   * unit), present only when read for a recommendation split (docs/RECOMMEND.md): with `combine:
   * last` the time of the row kept, with `count` and `sum` the earliest of the pair's rows
   */
  times?: Float64Array; // pairs
  rowsRead: number;
  rowsSkipped: number;
  /** 1-based line numbers of the first skipped rows (at most MAX_SKIPPED_LINES) */
  skippedLines: number[];
}

export const MAX_SKIPPED_LINES = 10;

/**
 * Rows as readers collect them: interned (first-appearance) indices and a value, file order; and
 * each row's time only when asked for (`keepTimes`: a recommendation split), so that a run
 * without one stores and parses nothing more.
 */
export class RawRows {
  readonly user = new GrowableInt32();
  readonly item = new GrowableInt32();
  readonly value = new GrowableFloat64();
  readonly time: GrowableFloat64 | null;
  rowsRead = 0;
  rowsSkipped = 0;
  skippedLines: number[] = [];
  constructor(
    readonly users: Interner,
    readonly items: Interner,
    keepTimes = false,
  ) {
    this.time = keepTimes ? new GrowableFloat64() : null;
  }
  /** `t`: the row's time, stored when the rows keep times (readers parse it only then) */
  add(u: number, i: number, v: number, t = Number.NaN): void {
    this.user.push(u);
    this.item.push(i);
    this.value.push(v);
    this.time?.push(t);
  }
  /** Room for `rows` rows in all (see GrowableInt32.reserve). */
  reserve(rows: number): void {
    this.user.reserve(rows);
    this.item.reserve(rows);
    this.value.reserve(rows);
    this.time?.reserve(rows);
  }
  skip(line: number): void {
    this.rowsSkipped++;
    if (this.skippedLines.length < MAX_SKIPPED_LINES) this.skippedLines.push(line);
  }
}

/** Stable counting sort of `order` by key[order[p]] (keys in [0, buckets)). */
function countingSortBy(order: Int32Array, key: Int32Array, buckets: number): Int32Array<ArrayBuffer> {
  const start = new Int32Array(buckets + 1);
  for (let p = 0; p < order.length; p++) start[key[order[p]!]! + 1]!++;
  for (let b = 0; b < buckets; b++) start[b + 1]! += start[b]!;
  const out = new Int32Array(order.length);
  for (let p = 0; p < order.length; p++) {
    const r = order[p]!;
    out[start[key[r]!]!++] = r;
  }
  return out;
}

/**
 * The time of each combined pair, over the rows in pair order (`order`, file order within a pair):
 * with `last` the time of the last row (the row whose value is kept), with `count` and `sum` the
 * earliest (the user's first interaction with the item). `order` null: every row, in file order.
 */
function pairTimes(time: Float64Array, order: Int32Array | null, ur: Int32Array, ir: Int32Array, pairs: number, combine: Combine): Float64Array {
  const times = new Float64Array(pairs);
  const rows = order === null ? time.length : order.length;
  let q = -1;
  for (let p = 0; p < rows; p++) {
    const r = order === null ? p : order[p]!;
    const t = time[r]!;
    const s = order === null ? p - 1 : order[p - 1]!;
    if (p === 0 || ur[r] !== ur[s] || ir[r] !== ir[s]) times[++q] = t;
    else if (combine === 'last' || t < times[q]!) times[q] = t;
  }
  return times;
}

/**
 * The ranks written over the interned indices (-1 for the rows of dropped users). MovieLens files
 * are usually already sorted by user then item: then file order is the order. With every row kept
 * (`allKept`), that check and the count of distinct pairs come in the same pass (else `sorted`
 * true and `pairs` 0: the caller checks and counts its kept rows).
 */
function rankInPlace(u: Int32Array, it: Int32Array, userRank: Int32Array, itemRank: Int32Array, allKept: boolean): { sorted: boolean; pairs: number } {
  let sorted = true;
  let pairs = 0;
  if (!allKept) {
    for (let r = 0; r < u.length; r++) {
      u[r] = userRank[u[r]!]!;
      it[r] = itemRank[it[r]!]!;
    }
    return { sorted, pairs };
  }
  let lastU = -1;
  let lastI = -1;
  for (let r = 0; r < u.length; r++) {
    const a = userRank[u[r]!]!;
    const b = itemRank[it[r]!]!;
    u[r] = a;
    it[r] = b;
    if (a !== lastU || b !== lastI) {
      pairs++;
      if (a < lastU || (a === lastU && b < lastI)) sorted = false;
      lastU = a;
      lastI = b;
    }
  }
  return { sorted, pairs };
}

/**
 * Merge repeated (user, item) rows: `last` keeps the value of the last row in file order, `sum`
 * adds values in file order, `count` counts rows. `keepUser` (by interned index) drops users.
 * Sorting is two stable counting sorts (by item, then by user): O(rows), no object per row; rows
 * already in (user, item) order, as MovieLens files come, are not sorted nor indexed.
 * The rows are consumed: their arrays are rewritten with the ranks in place of the interned
 * indices, then handed back (src/util/release.ts), so the caller must not read them again.
 */
export function combineRows(rows: RawRows, combine: Combine, keepUser?: Uint8Array): Interactions {
  const n = rows.user.length;
  const u = rows.user.view();
  const it = rows.item.view();
  const val = rows.value.view();
  const userPresent = new Uint8Array(rows.users.size);
  const itemPresent = new Uint8Array(rows.items.size);
  let kept = 0;
  for (let r = 0; r < n; r++) {
    if (keepUser && !keepUser[u[r]!]) continue;
    userPresent[u[r]!] = 1;
    itemPresent[it[r]!] = 1;
    kept++;
  }
  const users = orderIds(rows.users, userPresent);
  const items = orderIds(rows.items, itemPresent);
  // ranks in place of interned indices (rows of dropped users get -1 and are left out below)
  const ur = u;
  const ir = it;
  const userRank = users.rank;
  const itemRank = items.rank;
  let { sorted, pairs } = rankInPlace(u, it, userRank, itemRank, kept === n);
  // the rows in pair order: null while that is file order with every row kept
  let order: Int32Array<ArrayBuffer> | null = null;
  if (kept < n) {
    order = new Int32Array(kept);
    for (let r = 0, k = 0; r < n; r++) if (ur[r]! >= 0) order[k++] = r;
    for (let p = 1; p < kept && sorted; p++) {
      const a = order[p - 1]!;
      const b = order[p]!;
      if (ur[b]! < ur[a]! || (ur[b] === ur[a] && ir[b]! < ir[a]!)) sorted = false;
    }
  }
  const temporary: Int32Array[] = [];
  if (!sorted) {
    if (order === null) {
      order = new Int32Array(kept);
      for (let r = 0; r < kept; r++) order[r] = r;
    }
    temporary.push(order);
    order = countingSortBy(order, ir, items.ids.length);
    temporary.push(order);
    order = countingSortBy(order, ur, users.ids.length);
  }
  if (order !== null) temporary.push(order);

  const userPtr = new Int32Array(users.ids.length + 1);
  // count distinct pairs first (unless counted above) so the outputs are allocated once at their exact size
  let lastU = -1;
  let lastI = -1;
  if (order !== null) {
    pairs = 0;
    for (let p = 0; p < kept; p++) {
      const r = order[p]!;
      if (ur[r] !== lastU || ir[r] !== lastI) pairs++;
      lastU = ur[r]!;
      lastI = ir[r]!;
    }
  }
  const itemIdx = new Int32Array(pairs);
  const values = new Float64Array(pairs);
  let q = -1;
  lastU = -1;
  lastI = -1;
  for (let p = 0; p < kept; p++) {
    const r = order === null ? p : order[p]!;
    const v = val[r]!;
    if (ur[r] !== lastU || ir[r] !== lastI) {
      q++;
      lastU = ur[r]!;
      lastI = ir[r]!;
      itemIdx[q] = lastI;
      userPtr[lastU + 1]!++;
      values[q] = combine === 'count' ? 1 : v;
    } else if (combine === 'last') values[q] = v;
    else if (combine === 'sum') values[q]! += v;
    else values[q]! += 1;
  }
  for (let k = 0; k < users.ids.length; k++) userPtr[k + 1]! += userPtr[k]!;
  const times = rows.time ? pairTimes(rows.time.view(), order, ur, ir, pairs, combine) : null;
  releaseArrays([rows.user.data, rows.item.data, rows.value.data, rows.time?.data, ...temporary]);
  return {
    userIds: users.ids,
    itemIds: items.ids,
    userPtr,
    itemIdx,
    values,
    ...(times ? { times } : {}),
    rowsRead: rows.rowsRead,
    rowsSkipped: rows.rowsSkipped,
    skippedLines: rows.skippedLines,
  };
}
