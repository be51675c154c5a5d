import type { Combine } from './spec.js';
import { GrowableFloat64, GrowableInt32 } from './growable.js';
import { orderIds, type Interner } from './interning.js';

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
 * earliest (the user's first interaction with the item).
 */
function pairTimes(time: Float64Array, order: Int32Array, ur: Int32Array, ir: Int32Array, pairs: number, combine: Combine): Float64Array {
  const times = new Float64Array(pairs);
  let q = -1;
  for (let p = 0; p < order.length; p++) {
    const r = order[p]!;
    const t = time[r]!;
    if (p === 0 || ur[r] !== ur[order[p - 1]!] || ir[r] !== ir[order[p - 1]!]) times[++q] = t;
    else if (combine === 'last' || t < times[q]!) times[q] = t;
  }
  return times;
}

/**
 * Merge repeated (user, item) rows: `last` keeps the value of the last row in file order, `sum`
 * adds values in file order, `count` counts rows. `keepUser` (by interned index) drops users.
 * Sorting is two stable counting sorts (by item, then by user): O(rows), no object per row.
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
  const ur = new Int32Array(n);
  const ir = new Int32Array(n);
  let order: Int32Array<ArrayBuffer> = new Int32Array(kept);
  for (let r = 0, k = 0; r < n; r++) {
    ur[r] = users.rank[u[r]!]!;
    ir[r] = items.rank[it[r]!]!;
    if (keepUser && !keepUser[u[r]!]) continue;
    order[k++] = r;
  }
  // MovieLens files are usually already sorted by user then item: then file order is the order
  let sorted = true;
  for (let p = 1; p < kept && sorted; p++) {
    const a = order[p - 1]!;
    const b = order[p]!;
    if (ur[b]! < ur[a]! || (ur[b] === ur[a] && ir[b]! < ir[a]!)) sorted = false;
  }
  if (!sorted) {
    order = countingSortBy(order, ir, items.ids.length);
    order = countingSortBy(order, ur, users.ids.length);
  }

  const userPtr = new Int32Array(users.ids.length + 1);
  // count distinct pairs first so the outputs are allocated once at their exact size
  let pairs = 0;
  for (let p = 0; p < kept; p++) {
    const r = order[p]!;
    if (p === 0 || ur[r] !== ur[order[p - 1]!] || ir[r] !== ir[order[p - 1]!]) pairs++;
  }
  const itemIdx = new Int32Array(pairs);
  const values = new Float64Array(pairs);
  let q = -1;
  for (let p = 0; p < kept; p++) {
    const r = order[p]!;
    const v = val[r]!;
    if (p === 0 || ur[r] !== ur[order[p - 1]!] || ir[r] !== ir[order[p - 1]!]) {
      q++;
      itemIdx[q] = ir[r]!;
      userPtr[ur[r]! + 1]!++;
      values[q] = combine === 'count' ? 1 : v;
    } else if (combine === 'last') values[q] = v;
    else if (combine === 'sum') values[q]! += v;
    else values[q]! += 1;
  }
  for (let k = 0; k < users.ids.length; k++) userPtr[k + 1]! += userPtr[k]!;
  return {
    userIds: users.ids,
    itemIds: items.ids,
    userPtr,
    itemIdx,
    values,
    ...(rows.time ? { times: pairTimes(rows.time.view(), order, ur, ir, pairs, combine) } : {}),
    rowsRead: rows.rowsRead,
    rowsSkipped: rows.rowsSkipped,
    skippedLines: rows.skippedLines,
  };
}
