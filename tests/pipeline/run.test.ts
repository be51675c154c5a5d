import { describe, it, expect } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync, readdirSync, unlinkSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runExperiment } from '../../src/pipeline/run.js';
import { mergeShards } from '../../src/pipeline/merge.js';
import { UserError } from '../../src/util/errors.js';
import { fakeEngine, FAKE_CONFIG, type FakeEngine } from '../helpers/fakeEngine.js';

function setup(text = FAKE_CONFIG) {
  const dir = mkdtempSync(join(tmpdir(), 'lshdp-runner-'));
  const config = join(dir, 'fake.yaml');
  writeFileSync(config, text);
  return { dir, config };
}

/** FAKE_CONFIG: 4 exact cells + 24 trial cells of 7 results each (lsh; lshrr and laplsh at 3 xi). */
const CELLS = 4 + 24;
const PER_CELL = 7;
const TOTAL = 4 + 24 * PER_CELL;

async function run(config: string, out: string, extra: Partial<Parameters<typeof runExperiment>[0]> = {}) {
  const engine = (extra.engine as FakeEngine | undefined) ?? fakeEngine();
  const lines: string[] = [];
  const r = await runExperiment({ config, out, report: false, quiet: true, cacheDir: null, workerUrl: null, engine, log: (l) => lines.push(l), ...extra });
  const utility = existsSync(join(out, 'utility.csv')) ? readFileSync(join(out, 'utility.csv'), 'utf8') : '';
  return { r, engine, lines, utility };
}

describe('runner (in-process, fake engine)', () => {
  it('computes every result once, then resumes without recomputing, with identical bytes', async () => {
    const { dir, config } = setup();
    const out = join(dir, 'out');
    const a = await run(config, out);
    expect(a.r).toMatchObject({ total: TOTAL, computed: TOTAL, reused: 0, cellsComputed: CELLS });
    expect(a.engine.calls.trial).toBe(24);
    for (const f of ['utility.csv', 'nn_distances.csv', 'budgets.csv', 'datasets.json', 'manifest.json', 'config.yaml']) expect(existsSync(join(out, f)), f).toBe(true);
    const b = await run(config, out);
    expect(b.r).toMatchObject({ computed: 0, reused: TOTAL });
    expect(b.engine.calls.trial).toBe(0);
    expect(b.lines[0]).toBe(`resuming: reusing ${TOTAL} of ${TOTAL} results, computing 0 (use --force to recompute all)`);
    expect(b.utility).toBe(a.utility);
    const f = await run(config, out, { force: true });
    expect(f.r).toMatchObject({ computed: TOTAL, reused: 0 });
    expect(f.utility).toBe(a.utility);
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
    expect(manifest.grid).toHaveLength(CELLS);
    expect(manifest.grid[1].seeds.planes).toMatch(/^[0-9a-f]{32}$/);
    expect(Object.keys(manifest.grid[1].results)).toHaveLength(PER_CELL);
    expect(manifest.config.name).toBe('fake');
  });

  it('recomputes exactly the missing, torn and stale results', async () => {
    const { dir, config } = setup();
    const out = join(dir, 'out');
    const a = await run(config, out);
    const cells = join(out, 'cells');
    unlinkSync(join(cells, 'trial_a_n5_kappa4_t0.json'));
    writeFileSync(join(cells, 'trial_b_n8_kappa6_t2.json'), '{"format":2,"key":"trial_b_n8_ka'); // torn
    const path = join(cells, 'trial_a_n8_kappa6_t1.json');
    const rec = JSON.parse(readFileSync(path, 'utf8'));
    const someId = Object.keys(rec.results)[2];
    rec.results[someId].hash = 'stale';
    writeFileSync(path, JSON.stringify(rec));
    writeFileSync(join(cells, '.lshdp-tmp-999-x.json'), 'left by a killed run');
    const b = await run(config, out);
    expect(b.r).toMatchObject({ computed: 2 * PER_CELL + 1, reused: TOTAL - 2 * PER_CELL - 1 });
    expect(b.engine.calls.results).toBe(2 * PER_CELL + 1);
    expect(b.utility).toBe(a.utility);
    expect(readdirSync(cells).filter((f) => f.startsWith('.'))).toEqual([]);
  });

  it('never reuses results when the input data changed', async () => {
    const { dir, config } = setup();
    const out = join(dir, 'out');
    await run(config, out);
    const engine = fakeEngine();
    const load = engine.loadDataset;
    engine.loadDataset = async (spec, dims, o) => {
      const ds = await load(spec, dims, o);
      ds.summary.inputs = [{ path: 'x', sha256: 'changed', bytes: 1 }];
      return ds;
    };
    const b = await run(config, out, { engine });
    expect(b.r.computed).toBe(TOTAL);
  });

  it('refuses a folder of a config with another name unless --force', async () => {
    const { dir, config } = setup();
    const out = join(dir, 'out');
    const a = await run(config, out);
    const other = join(dir, 'other.yaml');
    writeFileSync(other, FAKE_CONFIG.replace('name: fake', 'name: other').replace('trials: 3', 'trials: 2'));
    await expect(run(other, out)).rejects.toThrow(new UserError(`${out} belongs to the config named "fake", not "other"; use --out DIR, or --force to replace its results`));
    expect(readFileSync(join(out, 'utility.csv'), 'utf8')).toBe(a.utility);
    const b = await run(other, out, { force: true });
    expect(b.r.computed).toBe(4 + 16 * PER_CELL);
    expect(readdirSync(join(out, 'cells'))).toHaveLength(4 + 16);
  });

  it('a sweep grown axis by axis equals the grown grid run at once, byte for byte, computing only the new results', async () => {
    const { dir } = setup();
    const small = `name: grow
seed: 3
datasets:
  - { name: a, format: synthetic, preset: small }
dims: [5]
queries: 10
k: [1]
kappa: [4]
trials: 2
privacy: { d: 0.1, delta: 0.01, xi: [0, 1] }
mechanisms: [exact, lsh, lshrr]
`;
    // each step grows one axis; the expected count of new results follows from the grid
    const steps: { edit: (t: string) => string; expect: number; says: RegExp }[] = [
      { edit: (t) => t.replace('xi: [0, 1]', 'xi: [0, 1, 2]'), expect: 2 * 1, says: /^config changed since the last run: xi \+\[2\]; reusing 7 of 9 results, computing 2$/ },
      { edit: (t) => t.replace('kappa: [4]', 'kappa: [4, 6]'), expect: 2 * 4, says: /kappa \+\[6\]/ },
      { edit: (t) => t.replace('k: [1]', 'k: [1, 3]'), expect: 2 * 2 * 4 + 1, says: /k \+\[3\]/ },
      { edit: (t) => t.replace('trials: 2', 'trials: 3'), expect: 2 * 4, says: /trials 2 → 3/ },
      { edit: (t) => t.replace('dims: [5]', 'dims: [5, 8]'), expect: 1 + 2 * 3 * 4, says: /dims \+\[8\]/ },
      { edit: (t) => t.replace('mechanisms: [exact, lsh, lshrr]', 'mechanisms: [exact, lsh, lshrr, laplsh]'), expect: 2 * 2 * 3 * 3, says: /mechanisms \+\[laplsh\]/ },
      {
        edit: (t) => t.replace('  - { name: a, format: synthetic, preset: small }', '  - { name: a, format: synthetic, preset: small }\n  - { name: b, format: synthetic, preset: small }'),
        expect: 2 + 2 * 2 * 3 * 7,
        says: /datasets \+\[b\]/,
      },
    ];
    const path = join(dir, 'grow.yaml');
    let text = small;
    writeFileSync(path, text);
    const out = join(dir, 'grown');
    await run(path, out);
    for (const step of steps) {
      text = step.edit(text);
      writeFileSync(path, text);
      const r = await run(path, out);
      expect(r.r.computed, text).toBe(step.expect);
      expect(r.lines[0]).toMatch(step.says);
    }
    const once = await run(path, join(dir, 'once'));
    const grown = await run(path, out);
    expect(grown.r.computed).toBe(0);
    expect(grown.utility).toBe(once.utility);
    expect(readFileSync(join(out, 'nn_distances.csv'), 'utf8')).toBe(readFileSync(join(dir, 'once', 'nn_distances.csv'), 'utf8'));
    // shrinking reuses everything and leaves rows out, as a run of the smaller grid would
    writeFileSync(path, small);
    const shrunk = await run(path, out);
    expect(shrunk.r.computed).toBe(0);
    const fresh = await run(path, join(dir, 'small-once'));
    expect(shrunk.utility).toBe(fresh.utility);
  });

  it('a change that alters results recomputes exactly those', async () => {
    const { dir, config } = setup();
    const out = join(dir, 'out');
    await run(config, out);
    const cases: [string, (t: string) => string, number][] = [
      // d and delta change what xi means for lshrr and laplsh (6 results per trial cell), never lsh or exact
      ['delta', (t) => t.replace('delta: 0.01', 'delta: 0.02'), 24 * 6],
      // options of one entry: its results only
      ['laplsh options', (t) => t.replace('mechanisms: [exact, lsh, lshrr, laplsh]', 'mechanisms: [exact, lsh, lshrr, {name: laplsh, sampler: direct}]'), 24 * 3],
      // a second entry of one mechanism under its own label: its identity (laplsh, sampler direct)
      // was computed by the case above and kept, so nothing is computed: identity is content, not label
      ['second laplsh entry', (t) => t.replace('mechanisms: [exact, lsh, lshrr, laplsh]', 'mechanisms: [exact, lsh, lshrr, laplsh, {name: laplsh, sampler: direct, label: laplsh-direct}]'), 0],
      // the queries fix every answer
      ['queries', (t) => t.replace('queries: 10', 'queries: 9'), TOTAL],
      ['seed', (t) => t.replace('seed: 3', 'seed: 4'), TOTAL],
    ];
    for (const [what, edit, expected] of cases) {
      writeFileSync(config, edit(FAKE_CONFIG));
      const r = await run(config, out);
      expect(r.r.computed, what).toBe(expected);
      // and back: the old results were kept, nothing to compute... except where they were replaced
      writeFileSync(config, FAKE_CONFIG);
      await run(config, out);
    }
  });

  it('refuses a results folder of the old store format with one line; --force recomputes', async () => {
    const { dir, config } = setup();
    const out = join(dir, 'out');
    await run(config, out);
    const cells = join(out, 'cells');
    for (const f of readdirSync(cells)) unlinkSync(join(cells, f));
    writeFileSync(join(cells, 'exact_a_n5.json'), JSON.stringify({ format: 1, key: 'exact_a_n5', kind: 'exact', hash: 'h', queries: 10, rows: [], ms: 0 }));
    await expect(run(config, out)).rejects.toThrow(/holds results of an older lshdp \(results store format 1\); they cannot be reused.*--force/);
    const r = await run(config, out, { force: true });
    expect(r.r.computed).toBe(TOTAL);
  });

  it('--dry-run says what would be computed and reused, and writes nothing', async () => {
    const { dir, config } = setup();
    const out = join(dir, 'out');
    const lines: string[] = [];
    const d = await runExperiment({ config, out, report: false, quiet: true, cacheDir: null, workerUrl: null, engine: fakeEngine(), dryRun: true, log: (l) => lines.push(l) });
    expect(d.computed).toBe(0);
    expect(existsSync(out)).toBe(false);
    expect(lines.join('\n')).toMatch(new RegExp(`${TOTAL} results: 0 reused, ${TOTAL} to compute in ${CELLS} cells`));
    await run(config, out);
    writeFileSync(config, FAKE_CONFIG.replace('xi: [0, 1, 2]', 'xi: [0, 1, 2, 5]'));
    const lines2: string[] = [];
    await runExperiment({ config, out, report: false, quiet: true, cacheDir: null, workerUrl: null, engine: fakeEngine(), dryRun: true, log: (l) => lines2.push(l) });
    expect(lines2.join('\n')).toMatch(new RegExp(`${TOTAL + 48} results: ${TOTAL} reused, 48 to compute in 24 cells`));
  });

  it('--set overrides are validated like the file, and the effective config reruns as is', async () => {
    const { dir, config } = setup();
    const out = join(dir, 'out');
    const a = await run(config, out, { overrides: ['kappa=[4]', 'privacy.xi=[0, 1]', 'trials=2'] });
    expect(a.r.total).toBe(4 + 2 * 2 * 2 * 5);
    const again = await run(join(out, 'config.yaml'), out);
    expect(again.r.computed).toBe(0);
    expect(again.utility).toBe(a.utility);
    await expect(run(config, out, { overrides: ['trials=0'] })).rejects.toThrow(/^--set trials=0: trials: must be >= 1, got number 0$/);
    await expect(run(config, out, { overrides: ['trials'] })).rejects.toThrow(/--set trials: expected KEY=VALUE/);
  });

  it('one trial: the standard errors are unknown (empty), not 0', async () => {
    const { dir, config } = setup(FAKE_CONFIG.replace('trials: 3', 'trials: 1'));
    const a = await run(config, join(dir, 'out'));
    const rows = a.utility
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split(','));
    const header = a.utility.split('\n')[0].split(',');
    const se = header.indexOf('utility_loss_se');
    expect(rows.every((r) => r[se] === '')).toBe(true);
  });

  it('shards cover the grid once and merge to the unsharded bytes', async () => {
    const { dir, config } = setup();
    const full = await run(config, join(dir, 'full'));
    const shardDirs = [1, 2, 3].map((i) => join(dir, `s${i}`));
    let mine = 0;
    for (let i = 0; i < 3; i++) {
      const r = await runExperiment({ config, out: shardDirs[i], shard: { index: i + 1, count: 3 }, report: false, quiet: true, cacheDir: null, workerUrl: null, engine: fakeEngine() });
      expect(existsSync(join(shardDirs[i], 'utility.csv'))).toBe(false);
      expect(r.mine).toBeGreaterThan(0);
      mine += r.mine;
    }
    expect(mine).toBe(TOTAL);
    const engine = fakeEngine();
    await expect(mergeShards(shardDirs.slice(0, 2), { out: join(dir, 'bad'), report: false, engine, quiet: true })).rejects.toThrow(/cells are missing/);
    expect(existsSync(join(dir, 'bad'))).toBe(false);
    await mergeShards(shardDirs, { out: join(dir, 'merged'), report: false, engine, quiet: true });
    expect(readFileSync(join(dir, 'merged', 'utility.csv'), 'utf8')).toBe(full.utility);
    expect(readFileSync(join(dir, 'merged', 'nn_distances.csv'), 'utf8')).toBe(readFileSync(join(dir, 'full', 'nn_distances.csv'), 'utf8'));
  });

  it('rejects k not below the number of users, before writing anything', async () => {
    const { dir, config } = setup(FAKE_CONFIG.replace('k: [1, 3]', 'k: [1, 30]'));
    const out = join(dir, 'out');
    await expect(run(config, out)).rejects.toThrow(/k: 30 must be below the number of users of data set "a" at n=5 \(30\)/);
    expect(existsSync(out)).toBe(false);
  });
});
