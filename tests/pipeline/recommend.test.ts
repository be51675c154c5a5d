/**
 * A run with `recommend` end to end, in this process, on the built-in synthetic data with
 * `split: random` (the split itself is tested in tests/data/split.test.ts): recommend.csv and its
 * per-trial values, the split in the cell keys, growth along N and ξ, shards and threads.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runExperiment } from '../../src/pipeline/run.js';
import { mergeShards } from '../../src/pipeline/merge.js';
import { loadRealEngine, type Engine } from '../../src/machinery/engine.js';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../helpers/cli.js';
import { readEvaluationValues } from '../../src/machinery/readFolder.js';
import type { RecommendTrialValue } from '../../src/experiment/trialValues.js';
import { folderStatus } from '../../src/machinery/status.js';
import { RECOMMEND_HEADER } from '../../src/experiment/columns.js';
import { sampleQueries } from '../../src/experiment/queries.js';

/** The built worker (npx tsc -p tsconfig.json): its cells get the split through setData, as the vectors. */
const WORKER = join(ROOT, 'dist', 'machinery', 'worker.js');

const config = (xi: number[], top: number[]) => `name: rec
seed: 5
datasets:
  - { name: a, format: synthetic, preset: small }
dims: [30]
queries: 40
k: [1, 5]
kappa: [8]
trials: 2
privacy: { d: 0.1, delta: 0.01, xi: [${xi.join(', ')}] }
mechanisms: [exact, lsh, lshrr, laplsh]
recommend: { split: random, holdout: 1, top: [${top.join(', ')}] }
`;

function scratch(text: string) {
  const dir = mkdtempSync(join(tmpdir(), 'lshdp-rec-'));
  const file = join(dir, 'rec.yaml');
  writeFileSync(file, text);
  return { dir, file };
}

async function run(file: string, out: string, engine: Engine, extra: Partial<Parameters<typeof runExperiment>[0]> = {}) {
  const r = await runExperiment({ config: file, out, report: false, quiet: true, cacheDir: null, workerUrl: null, engine, log: () => undefined, ...extra });
  const read = (f: string) => (existsSync(join(out, f)) ? readFileSync(join(out, f), 'utf8') : '');
  return { r, recommend: read('recommend.csv'), utility: read('utility.csv') };
}

const rows = (csv: string) =>
  csv
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.split(','));

describe('a run with recommend', () => {
  it('writes recommend.csv with the baselines, keys its cells by the split and reads back per-trial values', async () => {
    const engine = await loadRealEngine();
    const { dir, file } = scratch(config([0, 10], [2, 5]));
    const out = join(dir, 'out');
    const a = await run(file, out, engine);
    expect(readdirSync(join(out, 'cells')).sort()).toEqual(['exact_a_n30_rec-random-h1.json', 'trial_a_n30_kappa8_t0_rec-random-h1.json', 'trial_a_n30_kappa8_t1_rec-random-h1.json']);
    expect(JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')).utility_vectors).toBe('training');
    const lines = a.recommend.trim().split('\n');
    expect(lines[0]).toBe(RECOMMEND_HEADER);
    const body = rows(a.recommend);
    // exact: 2 k × 2 N, pop: 2 N, then per k (2), code entry × ξ (lsh, lshrr ×2, laplsh ×2) and N (2)
    expect(body).toHaveLength(4 + 2 + 2 * 5 * 2);
    const col = (name: string) => RECOMMEND_HEADER.split(',').indexOf(name);
    const exact = body.filter((r) => r[col('mechanism')] === 'exact');
    const pop = body.filter((r) => r[col('mechanism')] === 'pop');
    expect(exact.map((r) => [r[col('k')], r[col('top')]])).toEqual([
      ['1', '2'],
      ['1', '5'],
      ['5', '2'],
      ['5', '5'],
    ]);
    for (const r of [...exact, ...pop]) {
      expect([r[col('kappa')], r[col('xi')], r[col('hr_se')], r[col('ndcg_se')], r[col('trials')]]).toEqual(['', '', '', '', '1']);
    }
    expect(pop.map((r) => r[col('k')])).toEqual(['', '']);
    // the queries: the sampled users (40 of the rows) with a held-out item among the 30 items
    const split = (
      await engine.loadDataset({ name: 'a', format: 'synthetic', preset: 'small' } as never, [30], { cacheDir: null, recommend: { split: 'random', holdout: 1 }, seed: 5 })
    ).recommend!.get(30)!;
    const sampled = sampleQueries(split.heldPtr.length - 1, 40, 5, 'a', 30);
    const queries = Array.from(sampled).filter((u) => split.heldPtr[u + 1] > split.heldPtr[u]).length;
    expect(queries).toBeGreaterThan(0);
    expect(new Set(body.map((r) => r[col('queries')]))).toEqual(new Set([String(queries)]));
    expect(queries).toBeLessThan(40);
    // the lshrr rows have their 2 trials and an SE; NDCG <= HR and item recall <= HR
    const lshrr = body.filter((r) => r[col('mechanism')] === 'lshrr');
    for (const r of lshrr) {
      expect(r[col('trials')]).toBe('2');
      expect(r[col('ndcg_se')]).not.toBe('');
      expect(Number(r[col('ndcg_mean')])).toBeLessThanOrEqual(Number(r[col('hr_mean')]));
      expect(Number(r[col('item_recall_mean')])).toBeLessThanOrEqual(Number(r[col('hr_mean')]));
    }
    // per-trial values in file order: one per baseline row, two per mechanism row; means as in the file
    const { values } = readEvaluationValues<RecommendTrialValue>(out, 'recommend');
    expect(values).toHaveLength(6 + 20 * 2);
    expect(values[0]).toMatchObject({ mechanism: 'exact', k: 1, top: 2, trial: 0, kappa: null, xi: null, queries });
    const first = values.filter((v) => v.mechanism === 'lshrr' && v.xi === 10 && v.k === 5 && v.top === 5);
    const row = lshrr.find((r) => r[col('xi')] === '10' && r[col('k')] === '5' && r[col('top')] === '5')!;
    expect((first[0].ndcg + first[1].ndcg) / 2).toBe(Number(row[col('ndcg_mean')]));
    // lshdp status names the block and counts a result valid only with every (k, N)
    const status = folderStatus(out);
    expect(status.lines.join('\n')).toMatch(/recommend: split random, holdout 1, top \[2, 5\] \(cells keyed rec-random-h1/);
    expect(status.valid).toBe(status.expected);
    const cell = join(out, 'cells', 'trial_a_n30_kappa8_t0_rec-random-h1.json');
    const stored = JSON.parse(readFileSync(cell, 'utf8'));
    for (const r of Object.values(stored.results) as { rec: Record<string, Record<string, unknown>> }[]) delete r.rec['5']['5'];
    writeFileSync(cell, JSON.stringify(stored));
    expect(folderStatus(out).valid).toBe(status.expected - 5);
    // the run computes the 5 results again, to the same file; then a folder that lost its
    // recommend.csv is not up to date: a run that computes nothing writes it again
    const repaired = await run(file, out, engine);
    expect(repaired.r).toMatchObject({ computed: 5 });
    expect(repaired.recommend).toBe(a.recommend);
    unlinkSync(join(out, 'recommend.csv'));
    const again = await run(file, out, engine);
    expect(again.r).toMatchObject({ computed: 0 });
    expect(again.recommend).toBe(a.recommend);
  });

  it('grows along N and ξ computing only what is new, and shards and threads give the same bytes', async () => {
    const engine = await loadRealEngine();
    const { dir, file } = scratch(config([0, 10], [2]));
    const out = join(dir, 'out');
    const a = await run(file, out, engine);
    // a new N: every result lacks it (the answers are computed again), the exact cell too
    writeFileSync(file, config([0, 10], [2, 5]));
    const b = await run(file, out, engine);
    expect(b.r).toMatchObject({ reused: 0 });
    const fresh = await run(file, join(dir, 'fresh'), engine);
    expect(b.recommend).toBe(fresh.recommend);
    expect(b.utility).toBe(a.utility);
    // a new ξ: only its results (lshrr, laplsh × 2 trials)
    writeFileSync(file, config([0, 10, 20], [2, 5]));
    const c = await run(file, out, engine);
    expect(c.r).toMatchObject({ computed: 4 });
    const freshC = await run(file, join(dir, 'freshC'), engine);
    expect(c.recommend).toBe(freshC.recommend);
    // the same again: nothing to do
    expect((await run(file, out, engine)).r).toMatchObject({ computed: 0 });
    // two shards, merged; two worker threads
    const shards = [1, 2].map((i) => join(dir, `s${i}`));
    for (let i = 0; i < 2; i++) await run(file, shards[i], engine, { shard: { index: i + 1, count: 2 } });
    await mergeShards(shards, { out: join(dir, 'merged'), report: false, engine, quiet: true });
    expect(readFileSync(join(dir, 'merged', 'recommend.csv'), 'utf8')).toBe(c.recommend);
    if (existsSync(WORKER)) {
      const threaded = await run(file, join(dir, 'threads'), engine, { workerUrl: pathToFileURL(WORKER), threads: 2 });
      expect(threaded.recommend).toBe(c.recommend);
    } else console.log('recommend test: dist/ not built, the worker-thread run is skipped');
  });

  it('a config without recommend writes no recommend.csv and keys its cells as before', async () => {
    const engine = await loadRealEngine();
    const { dir, file } = scratch(config([0], [2]).replace(/recommend:.*\n/, ''));
    const out = join(dir, 'out');
    const a = await run(file, out, engine);
    expect(a.recommend).toBe('');
    expect(readdirSync(join(out, 'cells')).sort()).toEqual(['exact_a_n30.json', 'trial_a_n30_kappa8_t0.json', 'trial_a_n30_kappa8_t1.json']);
    expect(readFileSync(join(out, 'cells', 'trial_a_n30_kappa8_t0.json'), 'utf8')).not.toMatch(/"rec"/);
    expect(JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8')).utility_vectors).toBeUndefined();
    expect(() => readEvaluationValues<RecommendTrialValue>(out, 'recommend')).toThrow(/no recommend block/);
  });
});
