/**
 * The MovieLens twin on the real file: `lshdp data add` of the shared ratings.csv (its SHA-256
 * matches the registry's pin) into a scratch data folder, then the twin gives the shared config's
 * results byte for byte (same file, data set name and grid; a smaller grid here to stay quick).
 */
import { describe, it, expect } from 'vitest';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, SHARED_DATA } from '../helpers/cli.js';
import { runInProc } from '../helpers/experiment.js';

const RATINGS = join(SHARED_DATA, 'movielens-latest-small', 'ratings.csv');
const present = existsSync(RATINGS);
if (!present) console.log(`skipping the registry twin on the shared data: ${RATINGS} not found`);

const GRID = ['--set', 'dims=[50, 100]', '--set', 'kappa=[10, 20]', '--set', 'trials=3', '--set', 'privacy.xi=[1, 5]'];

describe.skipIf(!present)('shared-movielens-small-registry.yaml on the real latest-small', () => {
  it('runs after lshdp data add and gives the shared config’s results byte for byte', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lshdp-twin-'));
    const add = await runInProc(dir, ['data', 'add', 'movielens-latest-small', RATINGS, '--data-dir', 'store']);
    expect(add.status, add.stderr).toBe(0);
    expect(add.stderr).toMatch(/verified: SHA-256 of every file as pinned/);
    const common = ['--no-report', '--no-cache', '-q', ...GRID];
    const twin = await runInProc(dir, ['run', join(ROOT, 'configs', 'shared-movielens-small-registry.yaml'), '--data-dir', 'store', '-o', 'twin', ...common]);
    expect(twin.status, twin.stderr).toBe(0);
    const shared = await runInProc(dir, ['run', join(ROOT, 'configs', 'shared-movielens-small.yaml'), '-o', 'shared', ...common]);
    expect(shared.status, shared.stderr).toBe(0);
    for (const f of ['utility.csv', 'nn_distances.csv', 'budgets.csv', 'claims.json']) {
      expect(readFileSync(join(dir, 'twin', f), 'utf8'), f).toBe(readFileSync(join(dir, 'shared', f), 'utf8'));
    }
  });
});
