import { describe, it, expect } from 'vitest';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { runInProc, scratch } from '../helpers/experiment.js';

/** The real engine on the built-in synthetic data: a grid small enough for a few seconds. */
const BASE = `name: grow
seed: 5
datasets:
  - { name: synth, format: synthetic, preset: small }
dims: [40]
queries: 40
k: [1, 5]
kappa: [8, 16]
trials: 2
privacy: { d: 0.1, delta: 0.01, xi: [0, 2, 10] }
mechanisms: [exact, lsh, lshrr, laplsh]
`;

const read = (dir: string, out: string, file = 'utility.csv') => readFileSync(join(dir, out, file), 'utf8');

describe('growing a sweep (real engine, through the CLI)', () => {
  it('grown in steps (xi, then k, then a second lshrr entry) equals the grown grid run at once, byte for byte', async () => {
    const { dir } = scratch(BASE, 'grow.yaml');
    const run = async (args: string[]) => {
      const r = await runInProc(dir, ['run', 'grow.yaml', '--no-report', '--threads', '2', '--out', 'results/grow', ...args]);
      expect(r.status, r.stderr).toBe(0);
      return r.stderr;
    };
    await run([]);
    // one new xi: 2 kappa x 2 trials x (lshrr + laplsh) = 8 new results, the rest reused
    expect(await run(['--set', 'privacy.xi=[0, 2, 5, 10]'])).toMatch(/config changed since the last run: xi \+\[5\]; reusing 29 of 37 results, computing 8/);
    // a larger k: every code result gains k = 10 (ties are keyed, so k = 1 and 5 do not move)
    const before = read(dir, 'results/grow')
      .split('\n')
      .filter((l) => /,(1|5),/.test(l.split(',').slice(3, 4).join(',') + ','));
    await run(['--set', 'privacy.xi=[0, 2, 5, 10]', '--set', 'k=[1, 5, 10]']);
    const after = read(dir, 'results/grow');
    for (const line of before) expect(after).toContain(line);
    const grown = ['--set', 'privacy.xi=[0, 2, 5, 10]', '--set', 'k=[1, 5, 10]', '--set', 'mechanisms=[exact, lsh, lshrr, laplsh, {name: lshrr, accountant: exact, label: lshrr-exact}]'];
    expect(await run(grown)).toMatch(/mechanisms \+\[lshrr-exact\]; reusing \d+ of \d+ results, computing 16/);
    // the same grid at once, in a fresh folder
    const once = await runInProc(dir, ['run', 'grow.yaml', '--no-report', '--threads', '1', '--out', 'results/once', ...grown]);
    expect(once.status, once.stderr).toBe(0);
    expect(read(dir, 'results/grow')).toBe(read(dir, 'results/once'));
    expect(read(dir, 'results/grow', 'nn_distances.csv')).toBe(read(dir, 'results/once', 'nn_distances.csv'));
    const header = after.split('\n')[0].split(',');
    const rows = read(dir, 'results/grow')
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split(','));
    const exact = rows.filter((r) => r[header.indexOf('mechanism')] === 'lshrr-exact');
    expect(exact.length).toBeGreaterThan(0);
    expect(new Set(exact.map((r) => r[header.indexOf('accountant')]))).toEqual(new Set(['exact']));
  });

  it('one kappa per job, gathered into one folder, reruns the whole grid computing nothing', async () => {
    const { dir } = scratch(BASE, 'grow.yaml');
    for (const kappa of [8, 16]) {
      const r = await runInProc(dir, ['run', 'grow.yaml', '--no-report', '--set', `kappa=[${kappa}]`, '--out', `part${kappa}`]);
      expect(r.status, r.stderr).toBe(0);
    }
    mkdirSync(join(dir, 'merged', 'cells'), { recursive: true });
    for (const kappa of [8, 16]) {
      for (const f of readdirSync(join(dir, `part${kappa}`, 'cells'))) {
        if (!existsSync(join(dir, 'merged', 'cells', f))) copyFileSync(join(dir, `part${kappa}`, 'cells', f), join(dir, 'merged', 'cells', f));
      }
    }
    copyFileSync(join(dir, 'part8', 'lshdp-results.json'), join(dir, 'merged', 'lshdp-results.json'));
    const all = await runInProc(dir, ['run', 'grow.yaml', '--no-report', '--out', 'merged']);
    expect(all.status, all.stderr).toBe(0);
    expect(all.stderr).toMatch(/reusing 29 of 29 results, computing 0/);
    const fresh = await runInProc(dir, ['run', 'grow.yaml', '--no-report', '--out', 'fresh']);
    expect(fresh.status, fresh.stderr).toBe(0);
    expect(read(dir, 'merged')).toBe(read(dir, 'fresh'));
  });

  it('--dry-run prints the grid and the counts and writes nothing; status reports the folder', async () => {
    const { dir } = scratch(BASE, 'grow.yaml');
    const dry = await runInProc(dir, ['run', 'grow.yaml', '--dry-run', '--out', 'out']);
    expect(dry.status, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/29 results: 0 reused, 29 to compute in 5 cells/);
    expect(existsSync(join(dir, 'out'))).toBe(false);
    expect((await runInProc(dir, ['run', 'grow.yaml', '--no-report', '--out', 'out'])).status).toBe(0);
    writeFileSync(join(dir, 'grow.yaml'), BASE.replace('trials: 2', 'trials: 3'));
    const st = await runInProc(dir, ['status', 'out', 'grow.yaml']);
    expect(st.status, st.stderr).toBe(0);
    expect(st.stdout).toMatch(/results of this config: 29 of 29 present and valid/);
    expect(st.stdout).toMatch(/trials 2 → 3; reusing 29 of 43 results, computing 14/);
  });

  it('--dry-run names the recommend and attack blocks in its grid line; status counts each mechanism label apart (lshrr-exact is not lshrr)', async () => {
    const config = BASE.replace('kappa: [8, 16]', 'kappa: [8]').replace(
      'mechanisms: [exact, lsh, lshrr, laplsh]',
      'mechanisms: [exact, lsh, lshrr, {name: lshrr, accountant: exact, label: lshrr-exact}]\nrecommend: {split: random, holdout: 1, top: [5]}\nattack: {known: [0.5, 1], targets: 20}',
    );
    const { dir } = scratch(config, 'blocks.yaml');
    const dry = await runInProc(dir, ['run', 'blocks.yaml', '--dry-run', '--out', 'out']);
    expect(dry.status, dry.stderr).toBe(0);
    expect(dry.stdout.split('\n')[0]).toBe(
      'grid: datasets synth; n [40]; kappa [8]; k [1, 5]; xi [0, 2, 10]; trials 2; mechanisms exact, lsh, lshrr, lshrr-exact; recommend split random, holdout 1, top [5]; attack known [0.5, 1], targets 20',
    );
    writeFileSync(join(dir, 'grow.yaml'), BASE);
    const plain = await runInProc(dir, ['run', 'grow.yaml', '--dry-run', '--out', 'plain']);
    expect(plain.stdout.split('\n')[0]).not.toMatch(/recommend|attack/);
    expect((await runInProc(dir, ['run', 'blocks.yaml', '--no-report', '--out', 'out', '-q'])).status).toBe(0);
    const st = await runInProc(dir, ['status', 'out']);
    expect(st.status, st.stderr).toBe(0);
    // per trial cell: lsh once, lshrr and lshrr-exact once per ξ (3), over 2 trials
    expect(st.stdout).toMatch(/^ {2}mechanism: lsh 2\/2, lshrr 6\/6, lshrr-exact 6\/6$/m);
    const json = JSON.parse((await runInProc(dir, ['status', 'out', '--json'])).stdout) as { axes: { axis: string; value: string; valid: number; expected: number }[] };
    expect(json.axes.filter((a) => a.axis === 'mechanism').map((a) => a.value)).toEqual(['lsh', 'lshrr', 'lshrr-exact']);
  });
});
