import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lshdp, ROOT } from '../helpers/cli.js';

/**
 * A plugin may import from 'lshdp' (docs/EXTENDING.md): the library entry loads no module with a
 * top-level await (the figure renderer loads with the first figure), so such a plugin loads where
 * plugins load synchronously, the config's parse and the worker threads.
 */
const dir = mkdtempSync(join(tmpdir(), 'lshdp-plugin-library-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const PLUGIN = join(ROOT, 'tests', 'fixtures', 'plugins', 'rr-from-lshdp.mjs');

function rows(out: string): Record<string, string>[] {
  const [head, ...lines] = readFileSync(join(out, 'utility.csv'), 'utf8').trim().split('\n');
  const cols = head!.split(',');
  return lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [cols[i]!, v])));
}

describe('a plugin that imports lshdp', () => {
  it('runs end to end in lshdp run with two worker threads, its accounting the library’s', () => {
    writeFileSync(
      join(dir, 'library.yaml'),
      [
        'name: library',
        'seed: 3',
        'datasets:',
        '  - { name: synth, format: synthetic, preset: small, users: 200, items: 300, ratings: 6000 }',
        'dims: [50]',
        'queries: 60',
        'k: [1, 5]',
        'kappa: [8, 16]',
        'trials: 2',
        'privacy: { d: 0.2, delta: 0.01, xi: [1, 10] }',
        `mechanisms: [exact, { name: lshrr, accountant: exact }, { module: ${JSON.stringify(PLUGIN)}, label: mine }]`,
        '',
      ].join('\n'),
    );
    const log = join(dir, 'threads.txt');
    const out = join(dir, 'out');
    const r = lshdp(['run', 'library.yaml', '--out', out, '--threads', '2', '--no-report', '--cache-dir', join(dir, 'cache'), '--quiet'], { cwd: dir, env: { LSHDP_TEST_PLUGIN_LOG: log } });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    // its encode ran in the worker threads (thread ids above 0), where it was loaded by require()
    expect(existsSync(log)).toBe(true);
    const threads = new Set(readFileSync(log, 'utf8').trim().split('\n').map(Number));
    expect([...threads].some((t) => t > 0)).toBe(true);
    // epsilon_bit, epsilon_ldp and fallback from the library's exact accountant: the built-in's
    const all = rows(out);
    const account = (x: Record<string, string>) => [x.kappa, x.k, x.xi, x.epsilon_bit, x.epsilon_ldp, x.fallback];
    const mine = all.filter((x) => x.mechanism === 'mine');
    expect(mine.length).toBe(8);
    expect(mine.map(account)).toEqual(all.filter((x) => x.mechanism === 'lshrr').map(account));
    for (const x of mine) expect(Number(x.utility_loss_mean)).toBeGreaterThan(0);
  });
});
