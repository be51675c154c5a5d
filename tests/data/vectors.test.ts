import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { loadDataset } from '../../src/data/load.js';
import { buildVectors, buildVectorsOfDims, rankItems } from '../../src/data/vectors.js';
import { combineRows, RawRows, type Interactions } from '../../src/data/interactions.js';
import { IntInterner, StringInterner } from '../../src/data/interning.js';
import type { Center } from '../../src/data/spec.js';
import type { UserVectors } from '../../src/data/types.js';
import { makeRng, type Rng } from '../../src/random/rng.js';
import { FIX } from './fixtures.js';

const ml = { name: 'ml', format: 'movielens-csv' as const, path: join(FIX, 'ratings.csv') };

/** Row i of the vectors as {itemId: value}. */
function rowOf(v: UserVectors, i: number): Record<string, number> {
  const out: Record<string, number> = {};
  for (let p = v.rowPtr[i]!; p < v.rowPtr[i + 1]!; p++) out[v.itemIds[v.colIdx[p]!]!] = v.values[p]!;
  return out;
}

describe('vectors on the MovieLens fixture (hand-computed)', () => {
  it('ranking: distinct users per item, ties by smaller numeric id; top-n are prefixes', async () => {
    const { vectors, summary } = await loadDataset(ml, [2, 3, 4], { cacheDir: null });
    // item 10: 4 users; items 3 and 9: 3 users each (3 < 9); item 7: 1 user
    expect(vectors.get(4)!.itemIds).toEqual(['10', '3', '9', '7']);
    expect(vectors.get(2)!.itemIds).toEqual(['10', '3']);
    expect(summary.perDim.map((d) => d.itemIds.length)).toEqual([2, 3, 4]);
    expect(summary.users).toBe(5);
    expect(summary.interactions).toBe(11);
  });

  it("center user: the mean of ALL the user's ratings (not only the kept ones); all-zero users dropped", async () => {
    const v = (await loadDataset(ml, [2], { cacheDir: null })).vectors.get(2)!;
    // u1: mean(4,2,3)=3 → item10: +1, item3: 0 → [1]
    // u2: mean 5 → item10: 0 → dropped; u4: mean 3 → item3: 0 → dropped; u10: one rating → 0 → dropped
    // u3: mean(1, 4.5, 3.5 (last of 2.0/3.5)) = 3 → item10: 1.5, item3: 0.5 → /sqrt(2.5)
    expect(v.userIds).toEqual(['1', '3']);
    expect(v.dropped).toBe(3);
    expect(rowOf(v, 0)).toEqual({ '10': 1 });
    const r = rowOf(v, 1);
    expect(r['10']).toBeCloseTo(1.5 / Math.sqrt(2.5), 15);
    expect(r['3']).toBeCloseTo(0.5 / Math.sqrt(2.5), 15);
    expect(Array.from(v.colIdx)).toEqual([0, 0, 1]);
    expect(Array.from(v.rowPtr)).toEqual([0, 1, 3]);
  });

  it('center global subtracts the mean of all combined ratings; none keeps raw values', async () => {
    const g = (await loadDataset({ ...ml, center: 'global' }, [2], { cacheDir: null })).vectors.get(2)!;
    const mu = 36 / 11; // (4+2+3)+(5+5)+(1+4.5+3.5)+(3+3)+2 over 11 pairs
    expect(g.userIds).toEqual(['1', '2', '3', '4', '10']);
    const u1 = [4 - mu, 3 - mu];
    const n1 = Math.hypot(...u1);
    expect(rowOf(g, 0)['10']).toBeCloseTo(u1[0]! / n1, 14);
    expect(rowOf(g, 0)['3']).toBeCloseTo(u1[1]! / n1, 14);
    expect(rowOf(g, 4)).toEqual({ '10': -1 }); // 2 - mu < 0
    const none = (await loadDataset({ ...ml, center: 'none' }, [2], { cacheDir: null })).vectors.get(2)!;
    expect(rowOf(none, 1)).toEqual({ '10': 1 }); // u2: 5 on item 10, item 3 unseen
    expect(rowOf(none, 3)).toEqual({ '3': 1 });
  });
});

/** Independent reference: dense loops with Maps, written from the protocol text. */
function referenceVectors(rows: [string, string, number][], n: number, center: Center) {
  const last = new Map<string, Map<string, number>>();
  for (const [u, i, v] of rows) {
    if (!last.has(u)) last.set(u, new Map());
    last.get(u)!.set(i, v);
  }
  const numOrder = (a: string, b: string) => Number(a) - Number(b);
  const pop = new Map<string, number>();
  for (const m of last.values()) for (const i of m.keys()) pop.set(i, (pop.get(i) ?? 0) + 1);
  const items = [...pop.keys()].sort((a, b) => pop.get(b)! - pop.get(a)! || numOrder(a, b)).slice(0, n);
  const all = [...last.values()].flatMap((m) => [...m.values()]);
  const gmean = all.reduce((s, x) => s + x, 0) / all.length;
  const users = [...last.keys()].sort(numOrder);
  const out: { user: string; vec: number[] }[] = [];
  let dropped = 0;
  for (const u of users) {
    const m = last.get(u)!;
    const vals = [...m.values()];
    const shift = center === 'user' ? vals.reduce((s, x) => s + x, 0) / vals.length : center === 'global' ? gmean : 0;
    const vec = items.map((i) => (m.has(i) ? m.get(i)! - shift : 0));
    const norm = Math.sqrt(vec.reduce((s, x) => s + x * x, 0));
    if (norm === 0) dropped++;
    else out.push({ user: u, vec: vec.map((x) => x / norm) });
  }
  return { items, out, dropped };
}

function randomRows(rng: Rng, count: number, users: number, items: number): [string, string, number][] {
  const rows: [string, string, number][] = [];
  for (let r = 0; r < count; r++) {
    // skewed items so popularity ties and repeats both occur
    const i = Math.floor(items * rng() ** 2) * 3 + 1;
    rows.push([String(1 + Math.floor(rng() * users)), String(i), (1 + Math.floor(rng() * 10)) / 2]);
  }
  return rows;
}

function buildFrom(rows: [string, string, number][], n: number, center: Center): UserVectors {
  const raw = new RawRows(new IntInterner(), new IntInterner());
  for (const [u, i, v] of rows) raw.add((raw.users as IntInterner).intern(Number(u)), (raw.items as IntInterner).intern(Number(i)), v);
  const inter: Interactions = combineRows(raw, 'last');
  return buildVectors(inter, rankItems(inter), n, center, 'rand');
}

describe('vectors agree with an independent dense reference on random data', () => {
  for (const center of ['user', 'global', 'none'] as Center[]) {
    it(`center ${center}`, () => {
      const rng = makeRng(`vectors-${center}`);
      for (let rep = 0; rep < 5; rep++) {
        const rows = randomRows(rng, 3000, 150, 80);
        for (const n of [5, 20, 60]) {
          const got = buildFrom(rows, n, center);
          const ref = referenceVectors(rows, n, center);
          expect(got.itemIds).toEqual(ref.items);
          expect(got.dropped).toBe(ref.dropped);
          expect(got.userIds).toEqual(ref.out.map((o) => o.user));
          let worst = 0;
          let unsorted = 0;
          for (let r = 0; r < ref.out.length; r++) {
            const dense = new Array(n).fill(0);
            for (let p = got.rowPtr[r]!; p < got.rowPtr[r + 1]!; p++) {
              if (p > got.rowPtr[r]! && got.colIdx[p]! <= got.colIdx[p - 1]!) unsorted++;
              dense[got.colIdx[p]!] = got.values[p]!;
            }
            for (let j = 0; j < n; j++) worst = Math.max(worst, Math.abs(dense[j] - ref.out[r]!.vec[j]!));
          }
          expect(unsorted).toBe(0);
          expect(worst).toBeLessThan(1e-12);
        }
      }
    });
  }
  it('string ids order by UTF-16 code units when not all numeric', () => {
    const raw = new RawRows(new StringInterner(), new StringInterner());
    const si = raw.users as StringInterner;
    const ii = raw.items as StringInterner;
    for (const [u, i] of [
      ['b', 'Z'],
      ['B', 'a'],
      ['10', 'Z'],
      ['2', 'a'],
      ['é', 'b'],
    ])
      raw.add(si.intern(u!), ii.intern(i!), 1);
    const inter = combineRows(raw, 'count');
    expect(inter.userIds).toEqual(['10', '2', 'B', 'b', 'é']);
    // a and Z both have 2 users: tie → code-unit order, "Z" (0x5A) before "a" (0x61)
    expect(buildVectors(inter, rankItems(inter), 3, 'none', 's').itemIds).toEqual(['Z', 'a', 'b']);
  });
  it('n larger than the number of items is a clear error', async () => {
    await expect(loadDataset(ml, [5], { cacheDir: null })).rejects.toThrow(/n = 5 exceeds the number of items \(4\)/);
  });
});

describe('centring leaves no rounding residue', () => {
  it('drops a user whose kept rating equals the mean only up to floating-point rounding (0.1, 0.2, 0.3)', () => {
    // item 2 is rated by both users, so n = 1 keeps it; user 1's mean is 0.2 in exact arithmetic
    // but (0.1 + 0.2 + 0.3) / 3 = 0.20000000000000004 in doubles
    expect((0.1 + 0.2 + 0.3) / 3 - 0.2).not.toBe(0);
    const v = buildFrom(
      [
        ['1', '1', 0.1],
        ['1', '2', 0.2],
        ['1', '3', 0.3],
        ['2', '2', 1],
        ['2', '4', 2],
      ],
      1,
      'user',
    );
    expect(v.userIds).toEqual(['2']);
    expect(v.dropped).toBe(1);
    expect(Array.from(v.values)).toEqual([-1]);
  });
});

describe('vectors on shared memory', () => {
  it('are built on SharedArrayBuffers, so the worker threads read them without a copy', () => {
    const v = buildFrom(randomRows(makeRng('vectors-shared'), 500, 40, 30), 20, 'user');
    for (const a of [v.rowPtr, v.colIdx, v.values]) expect(a.buffer).toBeInstanceOf(SharedArrayBuffer);
  });
});

describe('the vectors of several n built at once', () => {
  const bits = (a: Int32Array | Float64Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
  function interOf(rows: [string, string, number][]): Interactions {
    const raw = new RawRows(new IntInterner(), new IntInterner());
    for (const [u, i, v] of rows) raw.add((raw.users as IntInterner).intern(Number(u)), (raw.items as IntInterner).intern(Number(i)), v);
    return combineRows(raw, 'last');
  }
  it('equal buildVectors of each n bit for bit, in the order asked, on shared memory', () => {
    const rng = makeRng('vectors-of-dims');
    for (const center of ['user', 'global', 'none'] as Center[]) {
      for (let rep = 0; rep < 6; rep++) {
        // ratings of tenths: means that leave rounding residue, users with no kept item at small n;
        // dense rows (columns read from bits) and, from rep 4, rows far sparser than n (sorted)
        const [count, users, items] = rep < 4 ? [2500, 120, 70] : [1800, 600, 2500];
        const rows = randomRows(rng, count, users, items).map(([u, i, v]) => [u, i, Math.floor(v * 10 * rng()) / 10] as [string, string, number]);
        const inter = interOf(rows);
        const ranking = rankItems(inter);
        const dims = [20, 1, 5, inter.itemIds.length, 60].filter((n) => n <= inter.itemIds.length);
        const got = buildVectorsOfDims(inter, ranking, dims, center, 'rand');
        expect([...got.keys()]).toEqual(dims);
        for (const n of dims) {
          const a = buildVectors(inter, ranking, n, center, 'rand');
          const b = got.get(n)!;
          expect(b.userIds).toEqual(a.userIds);
          expect(b.itemIds).toEqual(a.itemIds);
          expect(b.dropped).toBe(a.dropped);
          expect(b.n).toBe(n);
          expect(bits(b.rowPtr).equals(bits(a.rowPtr))).toBe(true);
          expect(bits(b.colIdx).equals(bits(a.colIdx))).toBe(true);
          expect(bits(b.values).equals(bits(a.values))).toBe(true);
          for (const x of [b.rowPtr, b.colIdx, b.values]) expect(x.buffer).toBeInstanceOf(SharedArrayBuffer);
        }
      }
    }
  });
  it('an n above the items is the error buildVectors gives', () => {
    const inter = interOf(randomRows(makeRng('vectors-of-dims-big'), 200, 20, 10));
    const items = inter.itemIds.length;
    expect(() => buildVectorsOfDims(inter, rankItems(inter), [2, items + 1], 'user', 'rand')).toThrow(`rand: n = ${items + 1} exceeds the number of items (${items})`);
  });
});
