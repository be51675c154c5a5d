import { accountEpsilon } from '../../src/privacy/accountants.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lshdp, ROOT, STACK_RE } from '../helpers/cli.js';
import { lshdpIn } from '../helpers/inproc.js';
import { jaccardFamily, loadFamilyData } from '../../src/lsh/families/index.js';
import { jaccardDistance } from '../../src/knn/jaccard.js';
import { sampleQueries } from '../../src/experiment/queries.js';

/** Plugins and runs of `lshdp run` with `module:` entries and `metric: jaccard` (CLI, worker threads). */
let dir = '';

const COPY = "export default { name: 'copy', usesXi: false, encode: ({ codes }) => codes };";
/** Returns the clean codes, except that it throws on kappa 8 (the cheaper cells, queued after kappa 16). */
const FLAKY = "export default { name: 'flaky', usesXi: false, encode: ({ codes, kappa }) => { if (kappa === 8) throw new Error('flaky gave up at kappa 8'); return codes; } };";

function config(name: string, mechanisms: string, extra = '', datasetExtra = ''): string {
  return [
    `name: ${name}`,
    'seed: 3',
    extra,
    'datasets:',
    `  - { name: synth, format: synthetic, preset: small, users: 200, items: 300, ratings: 6000${datasetExtra} }`,
    'dims: [50]',
    'queries: 60',
    'k: [1, 5]',
    'kappa: [8, 16]',
    'trials: 2',
    'privacy: { d: 0.2, delta: 0.01, xi: [1, 10] }',
    `mechanisms: ${mechanisms}`,
    '',
  ].join('\n');
}

function run(cfg: string, out: string, extra: string[] = []) {
  return lshdp(['run', cfg, '--out', out, '--threads', '2', '--no-report', '--cache-dir', join(dir, 'cache'), ...extra], { cwd: dir });
}

function rows(out: string): Record<string, string>[] {
  const [head, ...lines] = readFileSync(join(dir, out, 'utility.csv'), 'utf8')
    .trim()
    .split('\n');
  const cols = head!.split(',');
  return lines.map((l) => Object.fromEntries(l.split(',').map((v, i) => [cols[i]!, v])));
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lshdp-plugin-run-'));
  writeFileSync(join(dir, 'copy.mjs'), COPY);
  writeFileSync(join(dir, 'flaky.mjs'), FLAKY);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('plugins in lshdp run', () => {
  it('a plugin returning the clean codes reproduces the lsh rows exactly; the OUE example runs in the workers', () => {
    const oue = join(ROOT, 'examples', 'mechanisms', 'lsh-oue.mjs');
    writeFileSync(join(dir, 'same.yaml'), config('same', `[exact, lsh, { module: ./copy.mjs, label: mine }, { module: ${JSON.stringify(oue)}, block: 2 }]`));
    const r = run('same.yaml', 'same');
    expect(r.stderr).not.toMatch(/error/);
    expect(r.status).toBe(0);
    const all = rows('same');
    const lsh = all.filter((x) => x.mechanism === 'lsh');
    const mine = all.filter((x) => x.mechanism === 'mine');
    expect(lsh.length).toBe(4); // kappa 8, 16 x k 1, 5
    expect(mine.map((x) => x.base)).toEqual(['copy', 'copy', 'copy', 'copy']);
    const numbers = (x: Record<string, string>) => [x.kappa, x.k, x.utility_loss_mean, x.utility_loss_se, x.recall_mean, x.recall_se];
    expect(mine.map(numbers)).toEqual(lsh.map(numbers));
    const oueRows = all.filter((x) => x.mechanism === 'lsh-oue');
    expect(oueRows.length).toBe(8);
    for (const x of oueRows) {
      expect(Number(x.epsilon_bit)).toBeGreaterThan(0);
      expect(x.fallback).toMatch(/^(true|false)$/);
    }
  });

  it('a plugin that throws mid-run ends the run with its message and keeps the finished results', () => {
    writeFileSync(join(dir, 'flaky.yaml'), config('flaky', '[exact, lsh, { module: ./flaky.mjs }]'));
    const r = run('flaky.yaml', 'flaky');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/lshdp: error: mechanism module .*flaky\.mjs: encode failed: flaky gave up at kappa 8/);
    expect(r.stderr).not.toMatch(STACK_RE);
    expect(existsSync(join(dir, 'flaky', 'utility.csv'))).toBe(false);
    const cells = readdirSync(join(dir, 'flaky', 'cells'), { recursive: true }).map(String);
    expect(cells.some((f) => /kappa16/.test(f))).toBe(true);
    // fixed: the finished cells are reused; the edited module (new SHA-256) is a new identity
    writeFileSync(join(dir, 'flaky.mjs'), FLAKY.replace("throw new Error('flaky gave up at kappa 8')", 'return codes'));
    const again = run('flaky.yaml', 'flaky');
    expect(again.status).toBe(0);
    expect(again.stderr).toMatch(/wrote .*\(\d+ results computed, [1-9]\d* reused\)/);
  });

  it('an edited plugin invalidates its results only', () => {
    writeFileSync(join(dir, 'edit.mjs'), COPY);
    writeFileSync(join(dir, 'edit.yaml'), config('edit', '[exact, lsh, { module: ./edit.mjs }]'));
    expect(run('edit.yaml', 'edit').status).toBe(0);
    const same = run('edit.yaml', 'edit');
    expect(same.stderr).toMatch(/is up to date \(all \d+ results reused/);
    writeFileSync(join(dir, 'edit.mjs'), `${COPY}\n// edited\n`);
    const edited = run('edit.yaml', 'edit');
    expect(edited.status).toBe(0);
    // 2 kappa x 2 trials of the plugin's one result are recomputed; lsh and exact are reused
    expect(edited.stderr).toMatch(/\(4 results computed, \d+ reused\)/);
  });
});

describe('metric: jaccard in lshdp run', () => {
  it('runs lsh, lshrr, rappor and a plugin on item sets; budgets state d, accounted at d/2; exact rows loss 0', async () => {
    writeFileSync(join(dir, 'jac.yaml'), config('jac', '[exact, lsh, lshrr, rappor, { module: ./copy.mjs }]', 'metric: jaccard'));
    const r = run('jac.yaml', 'jac');
    expect(r.status).toBe(0);
    const all = rows('jac');
    expect(all.filter((x) => x.mechanism === 'exact').map((x) => x.utility_loss_mean)).toEqual(['0', '0']);
    const num = (x: Record<string, string>) => [x.kappa, x.k, x.utility_loss_mean, x.recall_mean];
    expect(all.filter((x) => x.mechanism === 'copy').map(num)).toEqual(all.filter((x) => x.mechanism === 'lsh').map(num));
    const budgets = readFileSync(join(dir, 'jac', 'budgets.csv'), 'utf8')
      .trim()
      .split('\n')
      .slice(1);
    // the d column is the config's Jaccard distance; the per-bit epsilon is the accountant's at d/2
    const header = readFileSync(join(dir, 'jac', 'budgets.csv'), 'utf8')
      .split('\n')[0]
      .split(',');
    for (const b of budgets) {
      const f = b.split(',');
      expect(f[header.indexOf('d')]).toBe('0.2');
      const kappa = Number(f[header.indexOf('kappa')]);
      const xi = Number(f[header.indexOf('xi')]);
      expect(Number(f[header.indexOf('epsilon_bit')])).toBe(accountEpsilon(f[header.indexOf('accountant')], { xi, kappa, p: 0.1, delta: 0.01 }).epsilonBit);
    }
    // nn_distances.csv holds each query's true 1-NN Jaccard distance (brute force over the item sets)
    const nn = readFileSync(join(dir, 'jac', 'nn_distances.csv'), 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split(','));
    expect(nn.length).toBe(60);
    const { vectors } = await loadFamilyData(jaccardFamily, { name: 'synth', format: 'synthetic', preset: 'small', users: 200, items: 300, ratings: 6000 }, [50], { cacheDir: join(dir, 'cache') });
    const sets = vectors.get(50)!;
    const users = sets.userIds.length;
    const queries = sampleQueries(users, 60, 3, 'synth', 50);
    queries.forEach((q, i) => {
      let best = Infinity;
      for (let u = 0; u < users; u++) if (u !== q) best = Math.min(best, jaccardDistance(sets, q, u));
      expect(nn[i]![2]).toBe(sets.userIds[q]);
      expect(Number(nn[i]![3])).toBe(best);
    });
    // one thread, another folder: byte-identical outputs (plugins included)
    expect(lshdp(['run', 'jac.yaml', '--out', 'jac1', '--threads', '1', '--no-report', '--cache-dir', join(dir, 'cache1')], { cwd: dir }).status).toBe(0);
    for (const f of ['utility.csv', 'nn_distances.csv', 'budgets.csv']) expect(readFileSync(join(dir, 'jac1', f), 'utf8')).toBe(readFileSync(join(dir, 'jac', f), 'utf8'));
    // the angular run of the same data gives other exact neighbours' distances
    writeFileSync(join(dir, 'ang.yaml'), config('ang', '[exact, lsh]'));
    // no plugin in this run: in this process (worker threads of the built CLI included)
    expect((await lshdpIn(['run', 'ang.yaml', '--out', 'ang', '--threads', '2', '--no-report', '--cache-dir', join(dir, 'cache')], { cwd: dir })).status).toBe(0);
    const nnAng = readFileSync(join(dir, 'ang', 'nn_distances.csv'), 'utf8');
    expect(nnAng).not.toBe(readFileSync(join(dir, 'jac', 'nn_distances.csv'), 'utf8'));
  });

  const bad: [string, string, string, RegExp, string?][] = [
    ['laplsh on jaccard', '[exact, laplsh]', 'metric: jaccard', /mechanisms\[1\]: laplsh adds noise to vectors and cannot run with metric jaccard/],
    ['center on jaccard', '[exact, lsh]', 'metric: jaccard', /datasets\[0\]\.center: metric jaccard reads the item sets before centring/, ', center: user'],
    ['unknown metric', '[exact, lsh]', 'metric: cosine', /metric: must be one of "angular", "jaccard", got string "cosine"/],
    ['missing module', '[exact, { module: ./nope.mjs }]', '', /mechanisms\[1\]\.module: mechanism module \.\/nope\.mjs: no such file/],
    ['module without encode', '[exact, { module: ./noencode.mjs }]', '', /mechanisms\[1\]\.module: mechanism module \.\/noencode\.mjs: lacks an encode function/],
    ['unknown plugin option', '[exact, { module: ./copy.mjs, block: 3 }]', '', /mechanisms\[1\]\.block: plugin copy \(\.\/copy\.mjs\) has no option "block"/],
    ['name and module', '[exact, { module: ./copy.mjs, name: lsh }]', '', /mechanisms\[1\]: give either name .* or module/],
  ];
  // Refused while the config is checked, before any cell runs: in this process (no plugin's encode
  // is ever registered or called), as `run` would give it in a child.
  for (const [name, mechs, extra, re, datasetExtra] of bad) {
    it(`config error, one line, nothing written: ${name}`, async () => {
      writeFileSync(join(dir, 'noencode.mjs'), "export default { name: 'x', usesXi: false };");
      writeFileSync(join(dir, 'bad.yaml'), config('bad', mechs, extra, datasetExtra));
      const r = await lshdpIn(['run', 'bad.yaml', '--out', 'bad', '--threads', '2', '--no-report', '--cache-dir', join(dir, 'cache')], { cwd: dir });
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(re);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(existsSync(join(dir, 'bad'))).toBe(false);
    });
  }
});
