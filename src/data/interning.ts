import { parseDecimal } from './lines.js';
/**
 * Id interning: each distinct user / item id gets a dense index in order of first appearance;
 * `orderIds` then ranks the ids "numeric where numeric" (numeric order when every id parses as a
 * finite number, else UTF-16 code-unit order), which is the order of users in the vectors and the
 * tie order of items.
 */

/** Integer ids (MovieLens): a typed lookup table indexed by the id, no Map and no string per row. */
export class IntInterner {
  private table = new Int32Array(1 << 16).fill(-1);
  private fallback: Map<number, number> | null = null;
  /** raw id of each dense index */
  raw: number[] = [];
  static readonly TABLE_LIMIT = 1 << 26;

  intern(id: number): number {
    if (id < IntInterner.TABLE_LIMIT) {
      if (id >= this.table.length) this.growTable(id);
      const got = this.table[id]!;
      if (got !== -1) return got;
      const idx = this.raw.length;
      this.table[id] = idx;
      this.raw.push(id);
      return idx;
    }
    this.fallback ??= new Map();
    const got = this.fallback.get(id);
    if (got !== undefined) return got;
    const idx = this.raw.length;
    this.fallback.set(id, idx);
    this.raw.push(id);
    return idx;
  }

  private growTable(id: number): void {
    let size = this.table.length;
    while (size <= id) size *= 2;
    const next = new Int32Array(Math.min(size, IntInterner.TABLE_LIMIT)).fill(-1);
    next.set(this.table);
    this.table = next;
  }

  get size(): number {
    return this.raw.length;
  }
  idString(idx: number): string {
    return String(this.raw[idx]);
  }
}

/** String ids (Foursquare venue ids, generic CSV columns). One Map entry per distinct id. */
export class StringInterner {
  private map = new Map<string, number>();
  raw: string[] = [];
  intern(id: string): number {
    const got = this.map.get(id);
    if (got !== undefined) return got;
    const idx = this.raw.length;
    this.map.set(id, idx);
    this.raw.push(id);
    return idx;
  }
  get(id: string): number | undefined {
    return this.map.get(id);
  }
  get size(): number {
    return this.raw.length;
  }
  idString(idx: number): string {
    return this.raw[idx]!;
  }
}

export type Interner = IntInterner | StringInterner;

function isNumericId(s: string): boolean {
  return Number.isFinite(parseDecimal(s));
}

/** UTF-16 code-unit order (what `<` does on strings), independent of locale. */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Order the ids whose `present` flag is set (all when omitted). Returns `rank` (dense index →
 * position in the order, -1 when absent) and the ids in order.
 */
export function orderIds(interner: Interner, present?: Uint8Array): { rank: Int32Array; ids: string[] } {
  const n = interner.size;
  const chosen: number[] = [];
  for (let i = 0; i < n; i++) if (!present || present[i]) chosen.push(i);
  if (interner instanceof IntInterner) {
    const raw = interner.raw;
    chosen.sort((a, b) => raw[a]! - raw[b]!);
  } else {
    const raw = interner.raw;
    let numeric = true;
    for (const i of chosen)
      if (!isNumericId(raw[i]!)) {
        numeric = false;
        break;
      }
    if (numeric) {
      const num = new Float64Array(n);
      for (const i of chosen) num[i] = Number(raw[i]!);
      // numeric order; equal numbers ("1" and "01") fall back to code-unit order so the order is total
      chosen.sort((a, b) => num[a]! - num[b]! || compareCodeUnits(raw[a]!, raw[b]!));
    } else {
      chosen.sort((a, b) => compareCodeUnits(raw[a]!, raw[b]!));
    }
  }
  const rank = new Int32Array(n).fill(-1);
  const ids = new Array<string>(chosen.length);
  for (let k = 0; k < chosen.length; k++) {
    rank[chosen[k]!] = k;
    ids[k] = interner.idString(chosen[k]!);
  }
  return { rank, ids };
}
