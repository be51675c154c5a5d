import { describe, expect, it } from 'vitest';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../helpers/cli.js';
import { runInProc } from '../helpers/experiment.js';

// the built module, as the CLI runs it: its rerun key needs the build's stamp (dist/machinery/worker.bundle.cjs)
type RerunModule = typeof import('../../src/machinery/rerun.js');
const built = (): Promise<RerunModule> => import(/* @vite-ignore */ pathToFileURL(join(ROOT, 'dist', 'machinery', 'rerun.js')).href);

const CONFIG = `name: rerun\nseed: 3\ndatasets:\n  - { name: tiny, format: movielens-csv, path: ratings.csv }\ndims: [4]\nqueries: 0\nk: [1]\nkappa: [8]\ntrials: 2\nprivacy: { d: 0.1, delta: 0.01, xi: [0, 5] }\nmechanisms: [exact, lsh, lshrr, laplsh]\n`;

describe('the rerun key (a current folder answered before the config is parsed)', () => {
  it('answers for the same config, flags and folder only; any change of them, of an input, a cell or an output goes the long way', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lshdp-rerun-'));
    const data = join(dir, 'ratings.csv');
    copyFileSync(join(ROOT, 'tests/fixtures/data/ratings.csv'), data);
    // a whole-second time, so it can be set again exactly below
    const when = Math.floor(Date.now() / 1000) - 60;
    utimesSync(data, when, when);
    writeFileSync(join(dir, 'c.yaml'), CONFIG);
    const flags = ['--threads', '1', '--no-report', '--no-cache'];
    const run = async (extra: string[] = []) => {
      const r = await runInProc(dir, ['run', 'c.yaml', '--out', 'out', ...flags, ...extra]);
      expect(r.status, r.stderr).toBe(0);
      return r.stderr;
    };
    await run();
    const keyFile = join(dir, 'out', '.lshdp-outputs.json');
    const record = () => JSON.parse(readFileSync(keyFile, 'utf8')) as { results: number; rerun?: { key: string; inputs: string[]; evaluated: string[] } };
    expect(record().rerun?.inputs).toEqual([data]);
    expect(record().rerun?.evaluated).toEqual(['utility.csv']);
    const results = record().results;

    const { currentByRerunKey } = await built();
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      const args = { config: 'c.yaml', outDir: 'out', overrides: [] as string[], skipBadRows: false, report: false, png: true };
      const current = (a: Partial<typeof args> = {}) => currentByRerunKey({ ...args, ...a }, null);
      expect(current()).toBe(results);
      // the arguments that decide the effective config or the outputs
      expect(current({ overrides: ['trials=2'] })).toBeNull();
      expect(current({ report: true })).toBeNull();
      expect(current({ png: false })).toBeNull();
      expect(current({ skipBadRows: true })).toBeNull();
      expect(current({ outDir: './out/' })).toBe(results); // the same folder
      // the config's bytes: a comment is a change here (the long way then finds the outputs current)
      writeFileSync(join(dir, 'c.yaml'), `${CONFIG}# a comment\n`);
      expect(current()).toBeNull();
      writeFileSync(join(dir, 'c.yaml'), CONFIG);
      expect(current()).toBe(results);
      // a touched input, a lost output or cell, a rewritten owner file
      const later = new Date(Date.now() + 5000);
      utimesSync(data, later, later);
      expect(current()).toBeNull();
      utimesSync(data, when, when);
      expect(current()).toBe(results);
      const owner = join(dir, 'out', 'lshdp-results.json');
      writeFileSync(owner, readFileSync(owner, 'utf8') + ' ');
      expect(current()).toBeNull();
    } finally {
      process.chdir(cwd);
    }
    // the long way records the key again, and says what the quick way says, line for line
    expect(await run()).toMatch(/out is up to date/);
    const quickLines = (await run()).split('\n');
    const rerunLines = (await run()).split('\n');
    expect(rerunLines).toEqual(quickLines);
    rmSync(join(dir, 'out', 'budgets.csv'));
    expect(await run()).toMatch(/wrote out \(0 results computed/);
    const cell = readdirSync(join(dir, 'out', 'cells')).find((f) => f.startsWith('trial_'))!;
    rmSync(join(dir, 'out', 'cells', cell));
    expect(await run()).toMatch(/wrote out \([1-9][\d,]* results computed/);
    expect(await run()).toMatch(/out is up to date/);
  });
});
