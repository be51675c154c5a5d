import { describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recommendData, splitInteractions, splitProblem } from '../../src/data/split.js';
import { combineRows, RawRows, type Interactions } from '../../src/data/interactions.js';
import { StringInterner } from '../../src/data/interning.js';
import { buildVectors, rankItems } from '../../src/data/vectors.js';
import type { RecommendSplit } from '../../src/data/types.js';
import type { Combine } from '../../src/data/spec.js';

/**
 * Interactions written out by hand: users and items in the order given (already lshdp's id
 * order), each user's items ascending, value 1 unless given, and a time per pair.
 */
function hand(users: Record<string, Record<string, number | [number, number]>>, items: string[]): Interactions {
  const userIds = Object.keys(users);
  const userPtr = new Int32Array(userIds.length + 1);
  const itemIdx: number[] = [];
  const values: number[] = [];
  const times: number[] = [];
  userIds.forEach((u, k) => {
    const row = Object.entries(users[u]!).sort((a, b) => items.indexOf(a[0]) - items.indexOf(b[0]));
    for (const [item, tv] of row) {
      itemIdx.push(items.indexOf(item));
      const [t, v] = typeof tv === 'number' ? [tv, 1] : tv;
      times.push(t);
      values.push(v);
    }
    userPtr[k + 1] = itemIdx.length;
  });
  return { userIds, itemIds: items, userPtr, itemIdx: Int32Array.from(itemIdx), values: Float64Array.from(values), times: Float64Array.from(times), rowsRead: 0, rowsSkipped: 0, skippedLines: [] };
}

/** The held-out item ids of each user, and each user's training item ids. */
function heldOf(inter: Interactions, split: RecommendSplit, seed: number | string = 1, dataset = 'd'): { held: Record<string, string[]>; train: Record<string, string[]>; tooFew: number } {
  const s = splitInteractions(inter, split, { seed, dataset });
  const held: Record<string, string[]> = {};
  const train: Record<string, string[]> = {};
  inter.userIds.forEach((u, k) => {
    held[u] = Array.from(s.heldItem.subarray(s.heldPtr[k]!, s.heldPtr[k + 1]!), (i) => inter.itemIds[i]!);
    train[u] = Array.from(s.train.itemIdx.subarray(s.train.userPtr[k]!, s.train.userPtr[k + 1]!), (i) => s.train.itemIds[i]!);
  });
  return { held, train, tooFew: s.usersTooFew };
}

const LAST1: RecommendSplit = { split: 'last', holdout: 1 };
const LAST2: RecommendSplit = { split: 'last', holdout: 2 };

describe('split: last', () => {
  // a: s(1) q(3) p(5) r(5): p and r tie at 5, r is later in the id order; b has one item; c two
  const inter = hand({ a: { p: 5, q: 3, r: 5, s: 1 }, b: { p: 1 }, c: { q: 9, s: 2 } }, ['p', 'q', 'r', 's']);

  it('holds out the last item by time, ties later in the id order; a user with too few items keeps all', () => {
    const { held, train, tooFew } = heldOf(inter, LAST1);
    expect(held).toEqual({ a: ['r'], b: [], c: ['q'] });
    expect(train).toEqual({ a: ['p', 'q', 's'], b: ['p'], c: ['s'] });
    expect(tooFew).toBe(1);
  });
  it('holdout 2: the last two; a user with 2 items now has too few', () => {
    const { held, train, tooFew } = heldOf(inter, LAST2);
    expect(held).toEqual({ a: ['p', 'r'], b: [], c: [] });
    expect(train).toEqual({ a: ['q', 's'], b: ['p'], c: ['q', 's'] });
    expect(tooFew).toBe(2);
  });
  it('the training interactions keep only the items with a training pair (ids in order), values unchanged', () => {
    const s = splitInteractions(hand({ a: { p: [1, 2], q: [2, 3], r: [3, 4] }, b: { p: [1, 5], r: [9, 6] } }, ['p', 'q', 'r']), LAST1, { seed: 1, dataset: 'd' });
    // r is held out by both users: no training pair left, so it is no item of the training data
    expect(s.train.itemIds).toEqual(['p', 'q']);
    expect(Array.from(s.trainItemOf)).toEqual([0, 1, -1]);
    expect(Array.from(s.train.values)).toEqual([2, 3, 5]);
    expect(Array.from(s.train.userPtr)).toEqual([0, 2, 3]);
    expect(Array.from(s.heldItem)).toEqual([2, 2]);
  });
  it('the time of a repeated pair: combine last takes the row kept, count and sum the earliest', () => {
    // file order: (a, x) at 1, (a, y) at 5, (a, x) again at 10
    const rows = (): RawRows => {
      const r = new RawRows(new StringInterner(), new StringInterner(), true);
      const u = r.users as StringInterner;
      const i = r.items as StringInterner;
      r.add(u.intern('a'), i.intern('x'), 3, 1);
      r.add(u.intern('a'), i.intern('y'), 1, 5);
      r.add(u.intern('a'), i.intern('x'), 4, 10);
      return r;
    };
    const heldWith = (combine: Combine) => heldOf(combineRows(rows(), combine), LAST1).held.a;
    expect(heldWith('last')).toEqual(['x']); // x at 10 is after y at 5
    expect(heldWith('count')).toEqual(['y']); // x first met at 1
    expect(heldWith('sum')).toEqual(['y']);
  });
  it('refuses interactions read without times, and names the key for data without them', () => {
    const { times: _t, ...untimed } = inter;
    expect(() => splitInteractions(untimed, LAST1, { seed: 1, dataset: 'd' })).toThrow(/recommend\.split: last/);
    expect(splitProblem([{ name: 'g', format: 'synthetic', preset: 'small' }], LAST1)).toMatch(/^recommend\.split: last .* data set "g" \(format synthetic\) has no interaction times/);
    expect(splitProblem([{ name: 'i', format: 'interactions', path: 'x', user: 'u', item: 'i' }], LAST1)).toMatch(/"i" \(format interactions\)/);
    expect(splitProblem([{ name: 'i', format: 'interactions', path: 'x', user: 'u', item: 'i', time: 't' }], LAST1)).toBeNull();
    expect(splitProblem([{ name: 'g', format: 'synthetic', preset: 'small' }], { split: 'random', holdout: 1 })).toBeNull();
  });
});

describe('split: random', () => {
  const items = ['i0', 'i1', 'i2', 'i3', 'i4'];
  const many = (users: number) => {
    const rows: Record<string, Record<string, number>> = {};
    for (let u = 0; u < users; u++) rows[`u${u}`] = Object.fromEntries(items.map((i) => [i, 0]));
    return hand(rows, items);
  };
  const RANDOM1: RecommendSplit = { split: 'random', holdout: 1 };

  it('the same split on every call; another seed or data set name draws another one; needs no times', () => {
    const inter = many(50);
    const a = heldOf(inter, RANDOM1);
    expect(heldOf(inter, RANDOM1)).toEqual(a);
    expect(heldOf(inter, RANDOM1, 2)).not.toEqual(a);
    expect(heldOf(inter, RANDOM1, 1, 'other')).not.toEqual(a);
    const { times: _t, ...untimed } = inter;
    expect(heldOf(untimed, RANDOM1)).toEqual(a);
    expect(Object.values(a.held).every((h) => h.length === 1)).toBe(true);
  });
  it('drawn per user id: a user keeps its draw when other users come or go; users differ', () => {
    const inter = many(50);
    const all = heldOf(inter, { split: 'random', holdout: 2 }).held;
    const fewer = heldOf(many(20), { split: 'random', holdout: 2 }).held;
    for (const u of Object.keys(fewer)) expect(fewer[u]).toEqual(all[u]);
    expect(new Set(Object.values(all).map((h) => h.join())).size).toBeGreaterThan(5);
    expect(Object.values(all).every((h) => h.length === 2 && h[0]! < h[1]!)).toBe(true);
  });
  it('each item is held out with probability holdout / items (2,000 users, within 5 SE)', () => {
    const users = 2000;
    const { held } = heldOf(many(users), RANDOM1);
    const counts = new Map<string, number>();
    for (const h of Object.values(held)) counts.set(h[0]!, (counts.get(h[0]!) ?? 0) + 1);
    const se = Math.sqrt(users * 0.2 * 0.8);
    for (const i of items) expect(Math.abs((counts.get(i) ?? 0) - users * 0.2)).toBeLessThan(5 * se);
  });
});

describe('recommendData: the training and held-out columns of the vector rows', () => {
  // p q r s t u; held out (last by time): a r, b s, c r, e s, f p, g q, h q; d has one item
  const inter = hand(
    {
      a: { p: 1, q: 2, r: 3 },
      b: { p: 1, q: 2, s: 3 },
      c: { p: 1, r: 2 },
      d: { u: 1 },
      e: { t: 1, s: 2 },
      f: { q: 1, p: 2 },
      g: { r: 1, p: 2, q: 3 },
      h: { t: 1, q: 2 },
    },
    ['p', 'q', 'r', 's', 't', 'u'],
  );
  const parts = splitInteractions(inter, LAST1, { seed: 1, dataset: 'd' });
  const ranking = rankItems(parts.train);
  const at = (n: number) => {
    const v = buildVectors(parts.train, ranking, n, 'none', 'd');
    return { v, ...recommendData(parts, ranking, v, 1) };
  };

  it('items are chosen over the training pairs only: s, held out by two users, is no item', () => {
    // training users per item: p a b c g = 4, q a b f = 3, t e h = 2, r g = 1, u d = 1; s none
    expect(parts.train.itemIds).toEqual(['p', 'q', 'r', 't', 'u']);
    expect(at(5).v.itemIds).toEqual(['p', 'q', 't', 'r', 'u']);
    expect(() => buildVectors(parts.train, ranking, 6, 'none', 'd')).toThrow(/exceeds/);
  });
  it('n = 2: rows, their training and held-out columns, and who each step leaves out', () => {
    const { v, data, dim } = at(2);
    expect(v.userIds).toEqual(['a', 'b', 'c', 'f', 'g']); // d (u), e (t) and h (t) have no training item among p, q
    expect(Array.from(data.trainPtr)).toEqual([0, 2, 4, 5, 6, 7]);
    expect(Array.from(data.trainCol)).toEqual([0, 1, 0, 1, 0, 1, 0]);
    expect(Array.from(data.heldPtr)).toEqual([0, 0, 0, 0, 1, 2]);
    expect(Array.from(data.heldCol)).toEqual([0, 1]);
    // too few: d; no held item among p, q: a (r), b (s), c (r), e (s); all-zero training vector: h; eligible: f, g
    expect(dim).toEqual({ n: 2, usersNoHeldItem: 4, usersZeroTraining: 1, usersEligible: 2 });
    expect(parts.usersTooFew + dim.usersNoHeldItem + dim.usersZeroTraining + dim.usersEligible).toBe(inter.userIds.length);
  });
  it('n = 3 (p, q, t): h trains on t and becomes eligible', () => {
    const { v, data, dim } = at(3);
    expect(v.userIds).toEqual(['a', 'b', 'c', 'e', 'f', 'g', 'h']);
    expect(Array.from(data.heldCol)).toEqual([0, 1, 1]);
    expect(Array.from(data.trainCol)).toEqual([0, 1, 0, 1, 0, 2, 1, 0, 2]);
    expect(dim).toEqual({ n: 3, usersNoHeldItem: 4, usersZeroTraining: 0, usersEligible: 3 });
  });
  it('an item popular in held-out data but rare in training ranks by its training users', () => {
    // c: 4 users in all, but held out by 3 of them; b: 2 training users; a: 3 (and held out by 2)
    const popular = hand(
      { u1: { a: 1, c: 2 }, u2: { a: 1, c: 2 }, u3: { a: 1, c: 2 }, u4: { b: 2, c: 1 }, u5: { a: 2, b: 1 }, u6: { a: 2, b: 1 } },
      ['a', 'b', 'c'],
    );
    expect(Array.from(rankItems(popular), (i) => popular.itemIds[i])).toEqual(['a', 'c', 'b']); // without a split
    const s = splitInteractions(popular, LAST1, { seed: 1, dataset: 'd' });
    const rk = rankItems(s.train);
    expect(buildVectors(s.train, rk, 2, 'none', 'd').itemIds).toEqual(['a', 'b']);
  });
  it('a training item whose centred value is 0 is in the training row, not in the vector', () => {
    // x rates p 2, q 4, r 3 (mean 3: r centres to 0), then s last; y gives r, p, q a rating too
    const rated = hand({ x: { p: [1, 2], q: [2, 4], r: [3, 3], s: [4, 1] }, y: { p: [1, 1], q: [2, 5], r: [3, 4] } }, ['p', 'q', 'r', 's']);
    const s = splitInteractions(rated, LAST1, { seed: 1, dataset: 'd' });
    const rk = rankItems(s.train);
    const v = buildVectors(s.train, rk, 3, 'user', 'd');
    const { data } = recommendData(s, rk, v, 1);
    expect(v.itemIds).toEqual(['p', 'q', 'r']);
    expect(Array.from(v.colIdx.subarray(v.rowPtr[0]!, v.rowPtr[1]!))).toEqual([0, 1]);
    expect(Array.from(data.trainCol.subarray(data.trainPtr[0]!, data.trainPtr[1]!))).toEqual([0, 1, 2]);
  });
});

describe('loadDataset with a split', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lshdp-split-'));
  it('numeric item ids tie in numeric order; the summary counts add up to the users', async () => {
    const f = join(dir, 'ratings.csv');
    // user 1 rates 2 and 10 at the same second: 10 is later in numeric order (not in text order)
    writeFileSync(f, 'userId,movieId,rating,timestamp\n1,2,4.0,7\n1,10,2.0,7\n1,3,3.0,1\n2,3,5.0,1\n2,2,1.0,2\n2,10,3.0,3\n3,3,1.0,1\n');
    const { loadDataset } = await import('../../src/data/load.js');
    const ds = await loadDataset({ name: 'ml', format: 'movielens-csv', path: f }, [2], { cacheDir: null, recommend: LAST1, seed: 1 });
    // held out: user 1 → 10, user 2 → 10; user 3 has one item; training: 3 by 1, 2, 3; 2 by 1, 2
    expect(ds.vectors.get(2)!.itemIds).toEqual(['3', '2']);
    expect(ds.summary.recommend).toEqual({
      split: 'last',
      holdout: 1,
      usersTooFew: 1,
      heldOut: 2,
      training: 5,
      trainingItems: 2,
      perDim: [{ n: 2, usersNoHeldItem: 2, usersZeroTraining: 0, usersEligible: 0 }],
    });
    expect(ds.summary.interactions).toBe(7);
    expect(ds.recommend!.get(2)!.heldCol.length).toBe(0);
  });
});

describe('the vector cache with a split', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lshdp-split-cache-'));
  const cacheDir = join(dir, 'cache');
  const f = join(dir, 'ratings.csv');
  writeFileSync(f, 'userId,movieId,rating,timestamp\n1,1,4.0,1\n1,2,2.0,2\n1,3,5.0,3\n2,1,5.0,1\n2,3,1.0,2\n2,2,3.0,3\n3,2,1.0,1\n3,3,4.0,2\n3,1,2.0,3\n');
  const spec = { name: 'ml', format: 'movielens-csv', path: f };
  const reads = () => {
    const labels: string[] = [];
    return { labels, progress: { start: (l: string) => void labels.push(l), increment() {}, update() {}, stop() {} } };
  };
  const files = () => Object.fromEntries(readdirSync(cacheDir).map((x) => [x, readFileSync(join(cacheDir, x)).toString('base64')]));

  it('keys on the split, keeps the files of loads without one, and gives back the same split data', async () => {
    const { loadDataset } = await import('../../src/data/load.js');
    const plain = await loadDataset(spec, [2], { cacheDir });
    const before = files();
    const r1 = reads();
    const split = await loadDataset(spec, [2], { cacheDir, recommend: LAST1, seed: 1, progress: r1.progress });
    expect(r1.labels.length).toBeGreaterThan(0);
    const after = files();
    for (const [name, bytes] of Object.entries(before)) if (name.endsWith('.vec')) expect(after[name]).toBe(bytes);
    expect(Object.keys(after).filter((x) => x.endsWith('.vec')).length).toBe(2);
    const r2 = reads();
    const again = await loadDataset(spec, [2], { cacheDir, recommend: LAST1, seed: 1, progress: r2.progress });
    expect(r2.labels).toEqual([]);
    expect(again.summary).toEqual(split.summary);
    expect(again.recommend).toEqual(split.recommend);
    expect(again.vectors).toEqual(split.vectors);
    const r3 = reads();
    const plainAgain = await loadDataset(spec, [2], { cacheDir, progress: r3.progress });
    expect(r3.labels).toEqual([]);
    expect(plainAgain.summary).toEqual(plain.summary);
    expect(plainAgain.summary.recommend).toBeUndefined();
    expect(plainAgain.recommend).toBeUndefined();
  });
  it('split: random keys on the run seed (and needs one); holdout changes the key', async () => {
    const { loadDataset } = await import('../../src/data/load.js');
    const random = { split: 'random', holdout: 1 } as const;
    await loadDataset(spec, [2], { cacheDir, recommend: random, seed: 1 });
    for (const opts of [
      { recommend: random, seed: 2 },
      { recommend: { split: 'last', holdout: 2 } as const, seed: 1 },
    ]) {
      const r = reads();
      await loadDataset(spec, [2], { cacheDir, ...opts, progress: r.progress });
      expect(r.labels.length).toBeGreaterThan(0);
    }
    await expect(loadDataset(spec, [2], { cacheDir, recommend: random })).rejects.toThrow(/recommend\.split: random draws from the run's seed/);
    await expect(loadDataset({ name: 'g', format: 'synthetic', preset: 'small' }, [2], { cacheDir, recommend: LAST1, seed: 1 })).rejects.toThrow(/^recommend\.split: last .*"g" \(format synthetic\)/);
  });
});
