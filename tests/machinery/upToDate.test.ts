import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { outputsKey, OUTPUTS_KEY_FILE } from '../../src/machinery/upToDate.js';
import { CLI_CONFIG, runInProc, scratch } from '../helpers/experiment.js';

const inputs = () => ({
  lshdp: '1',
  algorithm: 'a',
  configHash: 'c',
  exactHashes: new Map([['exact_x', 'e1']]),
  resultHashes: new Map([
    [
      'trial_x',
      new Map([
        ['lsh', 'h1'],
        ['lshrr_xi1', 'h2'],
      ]),
    ],
  ]),
  summaries: [{ users: 3 }],
  report: true,
  png: true,
});

describe('outputs staleness key', () => {
  it('changes with any result hash, the config, the versions and the flags, not with map order', () => {
    const base = outputsKey(inputs());
    const reordered = inputs();
    reordered.resultHashes = new Map([
      [
        'trial_x',
        new Map([
          ['lshrr_xi1', 'h2'],
          ['lsh', 'h1'],
        ]),
      ],
    ]);
    expect(outputsKey(reordered)).toBe(base);
    const changes: ((i: ReturnType<typeof inputs>) => void)[] = [
      (i) => i.resultHashes.get('trial_x')!.set('lsh', 'h1b'),
      (i) => i.exactHashes.set('exact_x', 'e2'),
      (i) => i.resultHashes.set('trial_y', new Map([['lsh', 'h3']])),
      (i) => (i.configHash = 'c2'),
      (i) => (i.lshdp = '2'),
      (i) => (i.algorithm = 'b'),
      (i) => (i.summaries = [{ users: 4 }]),
      (i) => (i.report = false),
      (i) => (i.png = false),
    ];
    const keys = changes.map((change) => {
      const i = inputs();
      change(i);
      return outputsKey(i);
    });
    expect(new Set([base, ...keys]).size).toBe(changes.length + 1);
  });

  it('a run that reuses everything leaves the folder as it is; a missing output, --force or a new result rebuilds', async () => {
    // one dimension, k and kappa: what is checked (reused, rebuilt, recomputed) is the same on any grid
    const small = CLI_CONFIG.replace('trials: 3', 'trials: 1').replace('dims: [40, 80]', 'dims: [40]').replace('k: [1, 5]', 'k: [1]').replace('kappa: [8, 16]', 'kappa: [8]');
    expect(small).not.toBe(CLI_CONFIG.replace('trials: 3', 'trials: 1'));
    const { dir, config } = scratch(small);
    const args = ['run', config, '--out', 'r', '--threads', '1', '--no-report', '--no-cache'];
    const first = await runInProc(dir, args);
    expect(first.status, first.stderr).toBe(0);
    expect(existsSync(join(dir, 'r', OUTPUTS_KEY_FILE))).toBe(true);
    const mtime = (f: string) => statSync(join(dir, 'r', f)).mtimeMs;
    const before = { utility: readFileSync(join(dir, 'r', 'utility.csv'), 'utf8'), t: mtime('utility.csv'), m: mtime('manifest.json') };
    const again = await runInProc(dir, args);
    expect(again.status).toBe(0);
    expect(again.stderr).toMatch(/r is up to date \(all \d+ results reused/);
    expect(mtime('utility.csv')).toBe(before.t);
    expect(mtime('manifest.json')).toBe(before.m);
    // a deleted output is rebuilt, to the same bytes
    rmSync(join(dir, 'r', 'utility.csv'));
    const rebuilt = await runInProc(dir, args);
    expect(rebuilt.stderr).toMatch(/wrote r \(0 results computed/);
    expect(readFileSync(join(dir, 'r', 'utility.csv'), 'utf8')).toBe(before.utility);
    // --force recomputes and rewrites
    const forced = await runInProc(dir, [...args, '--force']);
    expect(forced.stderr).toMatch(/wrote r \([1-9][\d,]* results computed/);
    // a grown grid computes its new results and rewrites the outputs
    writeFileSync(join(dir, config), small.replace('xi: [0, 2, 10]', 'xi: [0, 2, 10, 20]'));
    const grown = await runInProc(dir, args);
    expect(grown.stderr).toMatch(/wrote r \([1-9][\d,]* results computed/);
    expect(readFileSync(join(dir, 'r', 'utility.csv'), 'utf8')).not.toBe(before.utility);
  });
});

describe('the quick key (checked before anything is loaded)', () => {
  it('a current folder is found current without reading its inputs; a touched input, a lost cell or output, --force go the long way', async () => {
    const { copyFileSync, mkdtempSync, utimesSync, unlinkSync, readdirSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const { ROOT } = await import('../helpers/cli.js');
    const dir = mkdtempSync(join(tmpdir(), 'lshdp-quick-'));
    const data = join(dir, 'ratings.csv');
    copyFileSync(join(ROOT, 'tests/fixtures/data/ratings.csv'), data);
    // a whole-second time, so it can be set again exactly below
    const when = Math.floor(Date.now() / 1000) - 60;
    utimesSync(data, when, when);
    writeFileSync(
      join(dir, 'c.yaml'),
      `name: quick\nseed: 3\ndatasets:\n  - { name: tiny, format: movielens-csv, path: ratings.csv }\ndims: [4]\nqueries: 0\nk: [1]\nkappa: [8]\ntrials: 2\nprivacy: { d: 0.1, delta: 0.01, xi: [0, 5] }\nmechanisms: [exact, lsh, lshrr, laplsh]\n`,
    );
    const args = ['run', 'c.yaml', '--out', 'out', '--threads', '1', '--no-report', '--no-cache'];
    const run = async (extra: string[] = []) => {
      const r = await runInProc(dir, [...args, ...extra]);
      expect(r.status, r.stderr).toBe(0);
      return r.stderr;
    };
    const utility = () => readFileSync(join(dir, 'out', 'utility.csv'), 'utf8');
    await run();
    const first = utility();
    expect((JSON.parse(readFileSync(join(dir, 'out', OUTPUTS_KEY_FILE), 'utf8')) as { results?: number }).results).toBeGreaterThan(0);
    expect(await run()).toMatch(/resuming: reusing ([\d,]+) of \1 results, computing 0 .*\n.*out is up to date/s);
    // Proof that the quick way reads no input: other ratings of the same size and time go
    // unnoticed (the documented limit of a key of sizes and times)...
    const { size } = statSync(data);
    const other = readFileSync(data, 'utf8').replace('4.0', '1.0');
    expect(other.length).toBe(readFileSync(data, 'utf8').length);
    writeFileSync(data, other);
    utimesSync(data, when, when);
    expect(statSync(data).size).toBe(size);
    expect(await run()).toMatch(/out is up to date/);
    expect(utility()).toBe(first);
    // ...while a touched input goes the long way, which reads it and recomputes what it changes
    const later = new Date(Date.now() + 5000);
    utimesSync(data, later, later);
    expect(await run()).toMatch(/wrote out \([1-9][\d,]* results computed/);
    expect(await run()).toMatch(/out is up to date/);
    // a lost cell is recomputed, a lost output rebuilt; --force recomputes everything
    const cell = readdirSync(join(dir, 'out', 'cells')).find((f) => f.startsWith('trial_'))!;
    unlinkSync(join(dir, 'out', 'cells', cell));
    expect(await run()).toMatch(/wrote out \([1-9][\d,]* results computed/);
    rmSync(join(dir, 'out', 'budgets.csv'));
    expect(await run()).toMatch(/wrote out \(0 results computed/);
    expect(existsSync(join(dir, 'out', 'budgets.csv'))).toBe(true);
    expect(await run(['--force'])).toMatch(/wrote out \([1-9][\d,]* results computed/);
  });
});
