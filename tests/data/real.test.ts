import { describe, expect, it } from 'vitest';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { SHARED_DATA } from '../helpers/cli.js';
import { loadDataset } from '../../src/data/load.js';

const ML = join(SHARED_DATA, 'movielens-latest-small', 'ratings.csv');
const TSMC = join(SHARED_DATA, 'foursquare-tsmc2014-nyc', 'checkins.tsv');
if (!existsSync(ML)) console.log(`skipping the MovieLens real-data tier: ${ML} not found`);
if (!existsSync(TSMC)) console.log(`skipping the TSMC real-data tier: ${TSMC} not found`);

// Expected numbers cross-checked with an independent pandas-free Python script (csv module, dicts):
// last rating per (user, movie), top-n by distinct users (ties: smaller id), user-mean centring.
describe.skipIf(!existsSync(ML))('real data: MovieLens ml-latest-small', () => {
  it('610 users; kept/dropped and chosen items per n', async () => {
    const { summary } = await loadDataset({ name: 'ml-small', format: 'movielens-csv', path: ML }, [100, 500, 1000], { cacheDir: null });
    expect(summary.rowsRead).toBe(100836);
    expect(summary.users).toBe(610);
    expect(summary.items).toBe(9724);
    expect(summary.inputs[0]!.sha256).toBe('aa289ca83157595d0df6aea1be6a4ded676ddc4385472e8313a8ed9805352646');
    expect(summary.perDim.map((d) => [d.n, d.usersKept, d.usersDropped])).toEqual([
      [100, 592, 18],
      [500, 608, 2],
      [1000, 609, 1],
    ]);
    expect(summary.perDim[0]!.meanNnz).toBeCloseTo(27.217905405405407, 12);
    expect(summary.perDim[2]!.itemIds.slice(0, 10)).toEqual(['356', '318', '296', '593', '2571', '260', '480', '110', '589', '527']);
  });
});

describe.skipIf(!existsSync(TSMC))('real data: Foursquare TSMC NYC as interactions', () => {
  it('reads the shared TSV with combine: count', async () => {
    const { summary } = await loadDataset({ name: 'tsmc', format: 'interactions', path: TSMC, delimiter: '\t', user: 'user_id', item: 'poi_id', combine: 'count', center: 'none' }, [100], {
      cacheDir: null,
    });
    expect(summary.rowsRead).toBe(147938);
    expect(summary.users).toBe(1083);
    expect(summary.items).toBe(5135);
  });
});
