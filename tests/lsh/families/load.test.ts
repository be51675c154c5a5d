import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { angularFamily, jaccardFamily, loadFamilyData } from '../../../src/lsh/families/index.js';

/** The Jaccard view of a data set: the items with a value ≠ 0 BEFORE centring, empty sets dropped. */
let dir = '';
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lshdp-sets-'));
  // user 1 rates every item alike: its centred vector is all zero (dropped by angular) but its set is {10, 20, 30}
  // user 2 has a 0 value (kept as an interaction, not in the set); user 3 rates only item 40 (not in the top 3)
  const rows = ['1,10,3,1', '1,20,3,2', '1,30,3,3', '2,10,5,4', '2,20,1,5', '2,30,0,6', '3,40,4,7', '4,10,2,8', '4,30,4,9', '5,20,4,10', '5,10,1,11'];
  writeFileSync(join(dir, 'r.csv'), ['userId,movieId,rating,timestamp', ...rows].join('\n') + '\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('loadFamilyData', () => {
  const spec = () => ({ name: 'r', format: 'movielens-csv' as const, path: join(dir, 'r.csv') });

  it('jaccard: the pre-centring supports over the top-n items, values 1/sqrt(|S|), empty sets dropped', async () => {
    const { vectors } = await loadFamilyData(jaccardFamily, spec(), [3], { cacheDir: null });
    const v = vectors.get(3)!;
    expect(v.itemIds).toEqual(['10', '20', '30']);
    expect(v.userIds).toEqual(['1', '2', '4', '5']); // 3 has none of the top 3 items
    const sets = v.userIds.map((_, i) => Array.from(v.colIdx.subarray(v.rowPtr[i]!, v.rowPtr[i + 1]!), (c) => v.itemIds[c]));
    expect(sets).toEqual([
      ['10', '20', '30'],
      ['10', '20'],
      ['10', '30'],
      ['10', '20'],
    ]);
    expect(Array.from(v.values.subarray(0, 3))).toEqual([1 / Math.sqrt(3), 1 / Math.sqrt(3), 1 / Math.sqrt(3)]);
    expect(v.dropped).toBe(1);
  });

  it('angular: the centred vectors (user 1, all ratings equal, is dropped)', async () => {
    const { vectors } = await loadFamilyData(angularFamily, spec(), [3], { cacheDir: null });
    expect(vectors.get(3)!.userIds).toEqual(['2', '4', '5']);
  });

  it('with a split, each family gets its training vectors and the same rows in recommend (jaccard supported)', async () => {
    // held out (last by time): 1 → 30, 2 → 30, 4 → 30, 5 → 10; user 3 has one item; training items 10, 20, 40
    const opts = { cacheDir: null, recommend: { split: 'last', holdout: 1 } as const, seed: 1 };
    const jac = await loadFamilyData(jaccardFamily, spec(), [2], opts);
    expect(jac.vectors.get(2)!.userIds).toEqual(['1', '2', '4', '5']);
    const j = jac.recommend!.get(2)!;
    expect(Array.from(j.trainPtr)).toEqual([0, 2, 4, 5, 6]);
    expect(Array.from(j.trainCol)).toEqual([0, 1, 0, 1, 0, 1]);
    expect(Array.from(j.heldPtr)).toEqual([0, 0, 0, 0, 1]);
    expect(Array.from(j.heldCol)).toEqual([0]);
    // centred: 1 (3, 3), 4 (2) and 5 (4) train on equal ratings only, so 2 is the one row
    const ang = await loadFamilyData(angularFamily, spec(), [2], opts);
    expect(ang.vectors.get(2)!.userIds).toEqual(['2']);
    expect(Array.from(ang.recommend!.get(2)!.trainCol)).toEqual([0, 1]);
    expect(ang.summary.recommend!.perDim).toEqual([{ n: 2, usersNoHeldItem: 3, usersZeroTraining: 1, usersEligible: 0 }]);
    expect(jac.summary.recommend!.perDim).toEqual([{ n: 2, usersNoHeldItem: 3, usersZeroTraining: 0, usersEligible: 1 }]);
  });
});
