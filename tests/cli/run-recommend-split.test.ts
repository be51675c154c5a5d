import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lshdp, STACK_RE } from '../helpers/cli.js';
import { lshdpIn } from '../helpers/inproc.js';

/** A tiny run on generated data with a recommend block; cases change the data or the split. */
const CONFIG = `name: rec
seed: 1
datasets:
  - { name: synth, format: synthetic, preset: small }
dims: [20]
queries: 20
k: [1]
kappa: [4]
trials: 1
privacy: { d: 0.1, delta: 0.01, xi: [1] }
mechanisms: [exact, lsh]
recommend: { split: last, holdout: 1 }
`;

function folder(config: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'lshdp-rec-split-'));
  writeFileSync(join(dir, 'c.yaml'), config);
  writeFileSync(join(dir, 'visits.csv'), 'user,item,when\na,x,2012-04-03\na,y,2012-04-04\nb,x,2012-04-05\n');
  return dir;
}
const ARGS = ['run', 'c.yaml', '--quiet', '--out', 'results', '--cache-dir', 'cache', '--no-report'];

/** The built CLI in a child process (exit code, stderr as a user sees them). */
function run(config: string, args: string[] = []): { status: number | null; stderr: string; dir: string } {
  const dir = folder(config);
  const r = lshdp([...ARGS, ...args], { cwd: dir });
  return { status: r.status, stderr: r.stderr, dir };
}

/** The built CLI in this process (no start-up per call). */
async function runIn(config: string, args: string[] = []): Promise<{ status: number | null; stderr: string; dir: string }> {
  const dir = folder(config);
  const r = await lshdpIn([...ARGS, ...args], { cwd: dir });
  return { status: r.status, stderr: r.stderr, dir };
}

describe('lshdp run: recommend.split last needs times', () => {
  it('generated data: one config line naming recommend.split and the data set, before anything is read or written', () => {
    const r = run(CONFIG);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(
      /^lshdp: error: c\.yaml: recommend\.split: last orders each user's items by time, and data set "synth" \(format synthetic\) has no interaction times .*; use split: random\n$/,
    );
    expect(r.stderr).not.toMatch(STACK_RE);
    expect(existsSync(join(r.dir, 'results'))).toBe(false);
    expect(existsSync(join(r.dir, 'cache'))).toBe(false);
  });
  it('interactions without a time column: the same line; --set names itself as the source', async () => {
    const visits = CONFIG.replace('{ name: synth, format: synthetic, preset: small }', '{ name: visits, format: interactions, path: visits.csv, user: user, item: item }');
    const r = await runIn(visits);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^lshdp: error: c\.yaml: recommend\.split: last .*data set "visits" \(format interactions\) has no interaction times/);
    const set = await runIn(CONFIG.replace('split: last', 'split: random'), ['--set', 'recommend.split=last']);
    expect(set.status).toBe(2);
    expect(set.stderr).toMatch(/^lshdp: error: --set recommend\.split=last: recommend\.split: last orders/);
    expect(set.stderr.trim().split('\n')).toHaveLength(1);
  });
  it('a time column runs the split, and datasets.json says how many users each step left out', async () => {
    // 30 users, each visiting 2 to 7 of 12 places on distinct days
    const lines = ['user,item,when'];
    for (let u = 0; u < 30; u++) for (let k = 0; k < 2 + (u % 6); k++) lines.push(`u${u},p${(u * 5 + k * 7) % 12},2012-04-${String(1 + ((u + k * 3) % 28)).padStart(2, '0')}`);
    // lists no longer than the 8 items (longer ones would be cut, with a warning: tests/cli/recommendInput.test.ts)
    const timed = CONFIG.replace('{ name: synth, format: synthetic, preset: small }', '{ name: visits, format: interactions, path: many.csv, user: user, item: item, time: when }')
      .replace('dims: [20]', 'dims: [8]')
      .replace('holdout: 1 }', 'holdout: 1, top: [5] }');
    const dir = folder(timed);
    writeFileSync(join(dir, 'many.csv'), lines.join('\n') + '\n');
    const r = await lshdpIn(ARGS, { cwd: dir });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const [ds] = JSON.parse(readFileSync(join(dir, 'results', 'datasets.json'), 'utf8'));
    const rec = ds.recommend;
    expect(rec).toMatchObject({ split: 'last', holdout: 1, users_too_few_items: 0 });
    const [dim] = rec.per_dim;
    expect(dim.n).toBe(8);
    expect(rec.users_too_few_items + dim.users_no_held_item + dim.users_zero_training + dim.users_eligible).toBe(ds.users);
    expect(rec.held_out + rec.training).toBe(ds.interactions);
    expect(dim.users_eligible).toBeGreaterThan(0);
  });
});
