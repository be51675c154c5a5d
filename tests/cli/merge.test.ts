import { describe, it, expect } from 'vitest';
import { readFileSync, existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { STACK_RE } from '../helpers/cli.js';
import { scratch, runInProc, cellCount, CLI_CELLS, CLI_CONFIG } from '../helpers/experiment.js';

const read = (p: string) => readFileSync(p, 'utf8');

describe('lshdp run --shard / lshdp merge', () => {
  it('3 shards with different --threads merge to the unsharded bytes; bad sets fail clearly', async () => {
    const { dir, config } = scratch();
    expect((await runInProc(dir, ['run', config, '--out', 'full', '--threads', '2', '--no-report'])).status).toBe(0);
    const threads = ['1', '2', '1'];
    let total = 0;
    for (let i = 1; i <= 3; i++) {
      const r = await runInProc(dir, ['run', config, '--out', `s${i}`, '--shard', `${i}/3`, '--threads', threads[i - 1], '--no-report']);
      expect(r.status).toBe(0);
      expect(r.stderr).toContain(`shard ${i}/3 done`);
      expect(existsSync(join(dir, `s${i}`, 'utility.csv'))).toBe(false);
      total += cellCount(join(dir, `s${i}`));
    }
    expect(total).toBe(CLI_CELLS);

    const m = await runInProc(dir, ['merge', 's1', 's2', 's3', '--out', 'merged', '--no-report']);
    expect(m.status).toBe(0);
    for (const f of ['utility.csv', 'nn_distances.csv', 'budgets.csv']) expect(read(join(dir, 'merged', f)), f).toBe(read(join(dir, 'full', f)));
    expect(JSON.parse(read(join(dir, 'merged', 'manifest.json'))).merged_from).toEqual(['s1', 's2', 's3']);

    // incomplete
    const inc = await runInProc(dir, ['merge', 's1', 's3', '--out', 'inc', '--no-report']);
    expect(inc.status).toBe(2);
    expect(inc.stderr).toMatch(/^lshdp: error: merge: \d+ of 14 cells are missing \(first: \S+ \(shard 2\/3\)/);
    expect(inc.stderr).not.toMatch(STACK_RE);
    expect(existsSync(join(dir, 'inc'))).toBe(false);
    // overlapping
    const dup = await runInProc(dir, ['merge', 's1', 's2', 's3', 'full', '--out', 'dup', '--no-report']);
    expect(dup.status).toBe(2);
    expect(dup.stderr).toMatch(/^lshdp: error: merge: cell \S+ is in both s\d and full; each cell must come from exactly one shard\n$/);
    // another config
    writeFileSync(join(dir, 'other.yaml'), CLI_CONFIG.replace('seed: 11', 'seed: 12'));
    expect((await runInProc(dir, ['run', 'other.yaml', '--out', 'o2', '--shard', '2/3', '--threads', '1', '--no-report'])).status).toBe(0);
    const mis = await runInProc(dir, ['merge', 's1', 'o2', 's3', '--out', 'mis', '--no-report']);
    expect(mis.status).toBe(2);
    expect(mis.stderr).toMatch(/^lshdp: error: o2 comes from another config than s1 \(config tiny \w+ vs tiny \w+\); merge only shards of one run\n$/);
    // not a results folder
    const not = await runInProc(dir, ['merge', 's1', 'nowhere', '--out', 'x', '--no-report']);
    expect(not.status).toBe(2);
    expect(not.stderr).toBe('lshdp: error: nowhere: not an lshdp results folder (no manifest.json; was its shard run to completion?)\n');
  });
});
