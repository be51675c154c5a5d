import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { outputsKey, OUTPUTS_KEY_FILE } from '../../../src/experiment/machinery/upToDate.js';
import { CLI_CONFIG, runInProc, scratch } from '../../helpers/experiment.js';

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
    const { dir, config } = scratch(CLI_CONFIG.replace('trials: 3', 'trials: 1'));
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
    writeFileSync(join(dir, config), CLI_CONFIG.replace('trials: 3', 'trials: 1').replace('xi: [0, 2, 10]', 'xi: [0, 2, 10, 20]'));
    const grown = await runInProc(dir, args);
    expect(grown.stderr).toMatch(/wrote r \([1-9][\d,]* results computed/);
    expect(readFileSync(join(dir, 'r', 'utility.csv'), 'utf8')).not.toBe(before.utility);
  });
});
