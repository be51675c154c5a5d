// The long tier (npm run test:full): SIGKILL at random points and resume (the SIGINT/SIGTERM paths stay in the fast tier).
import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeRng } from '../../src/random/rng.js';
import { scratch, runIn, runAndSignal, cellCount, temporaries, CLI_CELLS } from '../helpers/experiment.js';

const read = (p: string) => readFileSync(p, 'utf8');

describe('lshdp run survives interruptions (long tier)', () => {
  it('SIGKILL at seeded random points, then resume: utility.csv byte-identical to an uninterrupted run', async () => {
    const { dir, config } = scratch();
    const base = runIn(dir, ['run', config, '--out', 'base', '--threads', '1', '--no-report', '--no-cache']);
    expect(base.status).toBe(0);
    const rng = makeRng('kill-points');
    const args = ['run', config, '--out', 'k', '--threads', '2', '--no-report', '--no-cache'];
    let killedMidRun = 0;
    let target = 0;
    for (let round = 0; round < 3; round++) {
      // the next kill point: somewhere after the cells already stored, before the last one
      const have = cellCount(join(dir, 'k'));
      target = Math.min(CLI_CELLS - 1, have + 1 + Math.floor(rng() * 4));
      const r = await runAndSignal(dir, args, join(dir, 'k'), target, 'SIGKILL');
      if (r.signal === 'SIGKILL') {
        killedMidRun++;
        expect(cellCount(join(dir, 'k'))).toBeLessThanOrEqual(CLI_CELLS);
      } else expect(r.code).toBe(0);
    }
    expect(killedMidRun).toBeGreaterThan(0);
    const resumed = runIn(dir, args);
    expect(resumed.status).toBe(0);
    expect(resumed.stderr).toMatch(/resuming: reusing \d+ of 86 results, computing \d+/);
    expect(read(join(dir, 'k', 'utility.csv'))).toBe(read(join(dir, 'base', 'utility.csv')));
    expect(read(join(dir, 'k', 'nn_distances.csv'))).toBe(read(join(dir, 'base', 'nn_distances.csv')));
    expect(temporaries(join(dir, 'k'))).toEqual([]);
  });
});
