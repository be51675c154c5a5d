import { describe, it, expect } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync, readdirSync, unlinkSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runExperiment } from '../../../src/experiment/machinery/runner.js';
import { mergeShards } from '../../../src/experiment/machinery/merge.js';
import { UserError } from '../../../src/util/errors.js';
import { fakeEngine, FAKE_CONFIG } from '../fakeEngine.js';

function setup(text = FAKE_CONFIG) {
  const dir = mkdtempSync(join(tmpdir(), 'lshdp-runner-'));
  const config = join(dir, 'fake.yaml');
  writeFileSync(config, text);
  return { dir, config };
}

const TOTAL = 4 + 24; // exact cells + trial cells of FAKE_CONFIG

async function run(config: string, out: string, extra: Partial<Parameters<typeof runExperiment>[0]> = {}) {
  const engine = extra.engine ?? fakeEngine();
  const lines: string[] = [];
  const r = await runExperiment({ config, out, report: false, quiet: true, cacheDir: null, workerUrl: null, engine, log: (l) => lines.push(l), ...extra });
  return { r, engine, lines, utility: readFileSync(join(out, 'utility.csv'), 'utf8') };
}

describe('runner (in-process, fake engine)', () => {
  it('computes every cell once, then resumes without recomputing, with identical bytes', async () => {
    const { dir, config } = setup();
    const out = join(dir, 'out');
    const a = await run(config, out);
    expect(a.r).toMatchObject({ total: TOTAL, computed: TOTAL, reused: 0 });
    expect(a.engine.calls.trial).toBe(24);
    for (const f of ['utility.csv', 'nn_distances.csv', 'budgets.csv', 'datasets.json', 'manifest.json']) expect(existsSync(join(out, f)), f).toBe(true);
    const b = await run(config, out);
    expect(b.r).toMatchObject({ computed: 0, reused: TOTAL });
    expect(b.engine.calls.trial).toBe(0);
    expect(b.lines[0]).toMatch(/^resuming: 28 of 28 cells already finished; computing 0/);
    expect(b.utility).toBe(a.utility);
    const f = await run(config, out, { force: true });
    expect(f.r).toMatchObject({ computed: TOTAL, reused: 0 });
    expect(f.utility).toBe(a.utility);
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
    expect(manifest.grid).toHaveLength(TOTAL);
    expect(manifest.grid[1].seeds.planes).toMatch(/^[0-9a-f]{32}$/);
    expect(manifest.config.name).toBe('fake');
  });

  it('recomputes exactly the missing, torn and stale cells', async () => {
    const { dir, config } = setup();
    const out = join(dir, 'out');
    const a = await run(config, out);
    const cells = join(out, 'cells');
    unlinkSync(join(cells, 'trial_a_n5_kappa4_t0.json'));
    writeFileSync(join(cells, 'trial_b_n8_kappa6_t2.json'), '{"format":1,"key":"trial_b_n8_ka'); // torn
    const rec = JSON.parse(readFileSync(join(cells, 'trial_a_n8_kappa6_t1.json'), 'utf8'));
    writeFileSync(join(cells, 'trial_a_n8_kappa6_t1.json'), JSON.stringify({ ...rec, hash: 'stale' }));
    writeFileSync(join(cells, '.lshdp-tmp-999-x.json'), 'left by a killed run');
    const b = await run(config, out);
    expect(b.r).toMatchObject({ computed: 3, reused: TOTAL - 3 });
    expect(b.engine.calls.trial).toBe(3);
    expect(b.utility).toBe(a.utility);
    expect(readdirSync(cells).filter((f) => f.startsWith('.'))).toEqual([]);
  });

  it('never reuses cells when the input data changed', async () => {
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

  it('refuses a folder written by another config unless --force', async () => {
    const { dir, config } = setup();
    const out = join(dir, 'out');
    const a = await run(config, out);
    const other = join(dir, 'other.yaml');
    writeFileSync(other, FAKE_CONFIG.replace('name: fake', 'name: other').replace('trials: 3', 'trials: 2'));
    await expect(run(other, out)).rejects.toThrow(new UserError(`${out} was written by another config (name fake); use --out DIR or --force`));
    expect(readFileSync(join(out, 'utility.csv'), 'utf8')).toBe(a.utility);
    const b = await run(other, out, { force: true });
    expect(b.r.computed).toBe(4 + 16);
    expect(readdirSync(join(out, 'cells'))).toHaveLength(4 + 16);
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
