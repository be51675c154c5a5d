/**
 * Attribute inference in a run (config `infer`, docs/ATTACKS.md): added to a finished grid it
 * computes only itself; it grows by aux, resumes, shards and merges, and gives the same bytes on
 * two worker threads; `status` counts it; its baselines come first in infer.csv.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { mergeShards } from '../../src/pipeline/merge.js';
import { readEvaluationValues } from '../../src/machinery/readFolder.js';
import type { InferTrialValue } from '../../src/experiment/trialValues.js';
import { folderStatus } from '../../src/machinery/status.js';
import { ROOT } from '../helpers/cli.js';
import { filesOf, runQuiet, scratchConfig, withoutTimes } from '../helpers/pipeline.js';

const WORKER = join(ROOT, 'dist', 'machinery', 'worker.js');

/** A small real grid (synthetic ratings, centred: the item sets come from the uncentred view). */
const GRID = `name: inf
seed: 4
datasets:
  - { name: a, format: synthetic, preset: small }
dims: [30]
queries: 20
k: [1, 5]
kappa: [8, 12]
trials: 2
privacy: { d: 0.1, delta: 0.01, xi: [0, 5] }
mechanisms: [exact, lsh, lshrr, rappor]
`;

const scratch = (text: string) => scratchConfig(text, 'inf.yaml');
const run = runQuiet;
/** The files of one folder (not recursive), compute times aside. */
const files = (dir: string) => withoutTimes(new Map([...filesOf(dir)].filter(([k]) => !k.includes('/'))));

describe('attribute inference in a run', () => {
  it('added to a finished grid computes only itself (cells/ and utility.csv unchanged), grows by aux, and is counted by status', async () => {
    const { dir, config } = scratch(GRID);
    const out = join(dir, 'out');
    await run(config, out);
    const cells = files(join(out, 'cells'));
    const utility = readFileSync(join(out, 'utility.csv'), 'utf8');
    // 4 trial cells × (lsh + lshrr × 2 ξ + rappor × 2 ξ) = 20 results, one aux
    writeFileSync(config, `${GRID}infer: { aux: [0.5], k: 3 }\n`);
    expect((await run(config, out)).computed).toBe(20);
    expect(files(join(out, 'cells'))).toEqual(cells);
    expect(readFileSync(join(out, 'utility.csv'), 'utf8')).toBe(utility);
    const csv = readFileSync(join(out, 'infer.csv'), 'utf8').trim().split('\n');
    expect(csv[0]).toBe('dataset,n,kappa,mechanism,base,accountant,xi,aux,k,auc_mean,auc_se,prec10_mean,prec10_se,trials,targets');
    // prior (no κ), null per κ, then κ 8 and 12 × (lsh, lshrr × 2, rappor × 2)
    expect(csv.slice(1, 4).map((l) => l.split(',').slice(0, 9).join(','))).toEqual(['a,30,,prior,,,,0.5,3', 'a,30,8,null,,,,0.5,3', 'a,30,12,null,,,,0.5,3']);
    expect(csv).toHaveLength(1 + 3 + 2 * 5);
    for (const line of csv.slice(1)) {
      const [auc, prec] = [Number(line.split(',')[9]), Number(line.split(',')[11])];
      expect(auc).toBeGreaterThan(0);
      expect(auc).toBeLessThanOrEqual(1);
      expect(prec).toBeGreaterThanOrEqual(0);
      expect(prec).toBeLessThanOrEqual(1);
    }
    const { values } = readEvaluationValues<InferTrialValue>(out, 'infer');
    expect(values).toHaveLength(13 * 2);
    expect(values[0]).toMatchObject({ mechanism: 'prior', kappa: null, base: null, xi: null, aux: 0.5, k: 3, trial: 0 });
    // entries: the 20 results' and each cell's two baselines
    expect(folderStatus(out).own).toEqual({ infer: { valid: 28, expected: 28 } });
    expect(folderStatus(out).lines.join('\n')).toContain('infer: aux [0.5], k 3, targets 5,000; 28 of 28 entries present and valid');
    // the same again: nothing to do, the same bytes
    const text = readFileSync(join(out, 'infer.csv'), 'utf8');
    expect((await run(config, out)).computed).toBe(0);
    expect(readFileSync(join(out, 'infer.csv'), 'utf8')).toBe(text);
    // one more aux: only its entries; the old rows keep their bytes
    writeFileSync(config, `${GRID}infer: { aux: [0.5, 0.25], k: 3 }\n`);
    expect((await run(config, out)).computed).toBe(20);
    const grown = readFileSync(join(out, 'infer.csv'), 'utf8').trim().split('\n');
    for (const line of text.trim().split('\n')) expect(grown).toContain(line);
    // a damaged record is computed again, to the same bytes
    const one = readdirSync(join(out, 'infer'))[0]!;
    const rec = readFileSync(join(out, 'infer', one), 'utf8');
    writeFileSync(join(out, 'infer', one), rec.slice(0, 30));
    expect((await run(config, out)).computed).toBe(10);
    expect(readFileSync(join(out, 'infer', one), 'utf8').replace(/"ms":\d+/g, '')).toBe(rec.replace(/"ms":\d+/g, ''));
    // back to one aux: the other entries are kept until --prune
    writeFileSync(config, `${GRID}infer: { aux: [0.5], k: 3 }\n`);
    expect((await run(config, out)).computed).toBe(0);
    expect(folderStatus(out).unused).toBe(4 * (5 + 2));
    expect(folderStatus(out, { prune: true }).unused).toBe(4 * (5 + 2));
    expect(folderStatus(out).unused).toBe(0);
  });

  it('shards merged and two worker threads give the bytes of one run; a config without infer writes no infer file', async () => {
    const { dir, config } = scratch(`${GRID}infer: { aux: [0.5], k: 3, targets: 9 }\n`);
    await run(config, join(dir, 'full'));
    const full = readFileSync(join(dir, 'full', 'infer.csv'), 'utf8');
    const shards = [1, 2].map((i) => join(dir, `s${i}`));
    for (let i = 0; i < 2; i++) await run(config, shards[i]!, { shard: { index: i + 1, count: 2 } });
    expect(existsSync(join(shards[0]!, 'infer.csv'))).toBe(false);
    await mergeShards(shards, { out: join(dir, 'merged'), report: false, quiet: true });
    expect(readFileSync(join(dir, 'merged', 'infer.csv'), 'utf8')).toBe(full);
    expect(files(join(dir, 'merged', 'infer'))).toEqual(files(join(dir, 'full', 'infer')));
    // more kept users than infer.targets: 9 sampled targets (fewer where an item set is empty or full)
    const row = full.trim().split('\n')[1]!.split(',');
    expect(Number(row[14])).toBeLessThanOrEqual(9);
    expect(Number(row[14])).toBeGreaterThan(0);
    if (existsSync(WORKER)) {
      await run(config, join(dir, 'threads'), { workerUrl: pathToFileURL(WORKER), threads: 2 });
      expect(readFileSync(join(dir, 'threads', 'infer.csv'), 'utf8')).toBe(full);
    } else console.log('infer test: dist/ not built, the worker-thread run is skipped');
    const plain = scratch(GRID);
    await run(plain.config, join(plain.dir, 'out'));
    expect(existsSync(join(plain.dir, 'out', 'infer.csv'))).toBe(false);
    expect(existsSync(join(plain.dir, 'out', 'infer'))).toBe(false);
  });

  it("at ξ = 0 LSHRR releases uniform bits: its auc equals null's within 3 SE over 40 trials, while clean LSH leaks (the test can fail)", async () => {
    const { dir, config } = scratch(`name: inf0
seed: 5
datasets:
  - { name: a, format: synthetic, preset: small }
dims: [100]
queries: 20
k: [1]
kappa: [16]
trials: 40
privacy: { d: 0.1, delta: 0.01, xi: [0] }
mechanisms: [exact, lsh, lshrr]
infer: { aux: [0.5], k: 10, targets: 200 }
`);
    await run(config, join(dir, 'out'));
    const { values } = readEvaluationValues<InferTrialValue>(join(dir, 'out'), 'infer');
    const of = (mechanism: string) => values.filter((v) => v.mechanism === mechanism).map((v) => v.auc);
    const nul = of('null');
    expect(nul).toHaveLength(40);
    /** mean and standard error of the paired differences a − null over the trials */
    const paired = (a: number[]) => {
      const d = a.map((x, t) => x - nul[t]!);
      const mean = d.reduce((x, y) => x + y, 0) / d.length;
      const sd = Math.sqrt(d.reduce((x, y) => x + (y - mean) ** 2, 0) / (d.length - 1));
      return { mean, se: sd / Math.sqrt(d.length) };
    };
    const zero = paired(of('lshrr'));
    expect(Math.abs(zero.mean)).toBeLessThanOrEqual(3 * zero.se);
    const clean = paired(of('lsh'));
    expect(clean.mean).toBeGreaterThan(3 * clean.se);
  });

  it('a release of another width than the family code (a unary-encoding plugin) is attacked through its own release at ε = ∞, by both attacks', async () => {
    const plugin = join(ROOT, 'examples', 'mechanisms', 'lsh-oue.mjs');
    const { dir, config } = scratch(
      GRID.replace('mechanisms: [exact, lsh, lshrr, rappor]', `mechanisms: [exact, lsh, { module: ${plugin}, label: oue, block: 4 }]`) + 'attack: { known: [1] }\ninfer: { aux: [0.5], k: 3 }\n',
    );
    await run(config, join(dir, 'out'));
    for (const file of ['infer.csv', 'attack.csv']) {
      const rows = readFileSync(join(dir, 'out', file), 'utf8')
        .trim()
        .split('\n')
        .slice(1);
      const oue = rows.filter((l) => l.split(',')[3] === 'oue');
      expect(oue.length, file).toBe(2 * 2); // κ 8 and 12 × ξ 0 and 5
      for (const l of oue) expect(Number(l.split(',')[file === 'infer.csv' ? 9 : 8])).toBeGreaterThanOrEqual(0);
    }
  });

  it('a grid where no target holds some but not all items (n = 1) is a one-line error naming the block, not NaN in infer.csv', async () => {
    const { dir, config } = scratch(`${GRID.replace('dims: [30]', 'dims: [1]').replace('k: [1, 5]', 'k: [1]')}infer: { aux: [0.5] }\n`);
    await expect(run(config, join(dir, 'out'))).rejects.toThrow(/^infer: no target of data set "a" at n=1 \(trial 0, aux 0.5\) holds some but not all of the n items/);
    expect(existsSync(join(dir, 'out', 'infer.csv'))).toBe(false);
  });
});
