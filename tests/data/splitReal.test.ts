import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SHARED_DATA } from '../helpers/cli.js';
import { loadDataset } from '../../src/data/load.js';

const ML = join(SHARED_DATA, 'movielens-latest-small', 'ratings.csv');
if (!existsSync(ML)) console.log(`skipping the split on real data: ${ML} not found`);

interface Row {
  user: number;
  movie: number;
  rating: number;
  time: number;
}

/**
 * The temporal split written out plainly, from the protocol's words and no lshdp code: the last
 * row of a repeated (user, movie) in file order wins (its rating and its time); per user the movies
 * sorted by (time, movie id), the last `holdout` held out when the user has more than `holdout`.
 */
function plainSplit(text: string, holdout: number): { train: Map<number, Row[]>; held: Map<number, Row[]> } {
  const last = new Map<string, Row>();
  for (const line of text.split(/\r?\n/).slice(1)) {
    if (line === '') continue;
    const [user, movie, rating, time] = line.split(',').map(Number) as [number, number, number, number];
    last.set(`${user},${movie}`, { user, movie, rating, time });
  }
  const byUser = new Map<number, Row[]>();
  for (const r of last.values()) {
    if (!byUser.has(r.user)) byUser.set(r.user, []);
    byUser.get(r.user)!.push(r);
  }
  const train = new Map<number, Row[]>();
  const held = new Map<number, Row[]>();
  for (const [user, rows] of byUser) {
    rows.sort((a, b) => a.time - b.time || a.movie - b.movie);
    const cut = rows.length >= holdout + 1 ? rows.length - holdout : rows.length;
    train.set(user, rows.slice(0, cut));
    held.set(user, rows.slice(cut));
  }
  return { train, held };
}

/** The n movies with the most training users, ties by smaller id. */
function plainTopN(train: Map<number, Row[]>, n: number): number[] {
  const users = new Map<number, number>();
  for (const rows of train.values()) for (const r of rows) users.set(r.movie, (users.get(r.movie) ?? 0) + 1);
  return [...users.entries()]
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, n)
    .map(([m]) => m);
}

describe.skipIf(!existsSync(ML))('the temporal split on ml-latest-small against a plain implementation', () => {
  for (const holdout of [1, 3]) {
    it(`holdout ${holdout}: items, training and held-out columns, and the users each step leaves out`, async () => {
      const plain = plainSplit(readFileSync(ML, 'utf8'), holdout);
      const dims = [100, 500];
      const ds = await loadDataset({ name: 'ml', format: 'movielens-csv', path: ML }, dims, { cacheDir: null, recommend: { split: 'last', holdout }, seed: 1 });
      const rec = ds.summary.recommend!;
      const users = [...plain.train.keys()].sort((a, b) => a - b);
      expect(rec.usersTooFew).toBe(users.filter((u) => plain.held.get(u)!.length === 0).length);
      expect(rec.heldOut).toBe(users.reduce((s, u) => s + plain.held.get(u)!.length, 0));
      expect(rec.training).toBe(users.reduce((s, u) => s + plain.train.get(u)!.length, 0));
      for (const n of dims) {
        const top = plainTopN(plain.train, n);
        const v = ds.vectors.get(n)!;
        expect(v.itemIds).toEqual(top.map(String));
        const col = new Map(top.map((m, j) => [m, j]));
        const data = ds.recommend!.get(n)!;
        const expected = { usersNoHeldItem: 0, usersZeroTraining: 0, usersEligible: 0 };
        const rows: number[] = [];
        const trainRows: number[][] = [];
        const heldRows: number[][] = [];
        for (const u of users) {
          const train = plain.train.get(u)!;
          const mean = train.reduce((s, r) => s + r.rating, 0) / train.length;
          // a row: some training movie among the n whose centred rating is not 0 (up to rounding)
          const isRow = train.some((r) => col.has(r.movie) && Math.abs(r.rating - mean) > 1e-12 * (Math.abs(r.rating) + Math.abs(mean)));
          const heldCols = plain.held
            .get(u)!
            .filter((r) => col.has(r.movie))
            .map((r) => col.get(r.movie)!)
            .sort((a, b) => a - b);
          if (plain.held.get(u)!.length > 0) {
            if (heldCols.length === 0) expected.usersNoHeldItem++;
            else if (!isRow) expected.usersZeroTraining++;
            else expected.usersEligible++;
          }
          if (!isRow) continue;
          rows.push(u);
          trainRows.push(
            train
              .filter((x) => col.has(x.movie))
              .map((x) => col.get(x.movie)!)
              .sort((a, b) => a - b),
          );
          heldRows.push(heldCols);
        }
        expect(v.userIds).toEqual(rows.map(String));
        const lists = (ptr: Int32Array, cols: Int32Array) => Array.from({ length: ptr.length - 1 }, (_, r) => Array.from(cols.subarray(ptr[r]!, ptr[r + 1]!)));
        expect(lists(data.trainPtr, data.trainCol)).toEqual(trainRows);
        expect(lists(data.heldPtr, data.heldCol)).toEqual(heldRows);
        expect(rec.perDim.find((d) => d.n === n)).toEqual({ n, ...expected });
      }
    });
  }
});
