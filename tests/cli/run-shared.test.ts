import { describe, it, expect } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { ROOT, SHARED_DATA } from '../helpers/cli.js';
import { loadConfig } from '../../src/experiment/config.js';
import { scratch, runInProc } from '../helpers/experiment.js';

const RATINGS = join(SHARED_DATA, 'movielens-latest-small', 'ratings.csv');
const present = existsSync(RATINGS) && existsSync(join(SHARED_DATA, 'foursquare-tsmc2014-nyc', 'checkins.tsv'));
if (!present) console.log(`skipping the shared-data run tests: ${SHARED_DATA} (movielens-latest-small, foursquare-tsmc2014-nyc) not found`);

describe.skipIf(!present)('lshdp run on the shared real data', () => {
  it('the shared configs find their files from the project root', async () => {
    for (const f of ['shared-movielens-small.yaml', 'shared-tsmc.yaml']) {
      expect(() => loadConfig(join(ROOT, 'configs', f), { checkFiles: true }), f).not.toThrow();
    }
  });

  it('runs MovieLens latest-small and records the input hash in the manifest', async () => {
    const { dir, config } = scratch(`name: ml-small
seed: 5
datasets:
  - { name: ml, format: movielens-csv, path: ${JSON.stringify(RATINGS)}, center: user }
dims: [100]
queries: 50
k: [1, 5]
kappa: [10]
trials: 2
privacy: { xi: [1, 10] }
mechanisms: [exact, lsh, lshrr]
`);
    const r = await runInProc(dir, ['run', config, '--out', 'out', '--no-report', '--threads', '2']);
    expect(r.status, r.stderr).toBe(0);
    const manifest = JSON.parse(readFileSync(join(dir, 'out', 'manifest.json'), 'utf8'));
    const sha = createHash('sha256').update(readFileSync(RATINGS)).digest('hex');
    expect(manifest.inputs).toEqual([expect.objectContaining({ dataset: 'ml', sha256: sha })]);
    expect(manifest.users[0].kept + manifest.users[0].dropped).toBeLessThanOrEqual(610);
    expect(
      readFileSync(join(dir, 'out', 'nn_distances.csv'), 'utf8')
        .trimEnd()
        .split('\n'),
    ).toHaveLength(51);
    expect(
      readFileSync(join(dir, 'out', 'utility.csv'), 'utf8')
        .trimEnd()
        .split('\n'),
    ).toHaveLength(1 + 2 + 2 * (1 + 2));
  });
});
