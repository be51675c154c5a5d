import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runExperiment } from '../../src/pipeline/run.js';
import { readRandomLoss } from '../../src/machinery/readFolder.js';
import { fakeEngine, FAKE_CONFIG } from '../helpers/fakeEngine.js';
import { withoutTimes } from '../helpers/pipeline.js';

async function run(config: string, out: string) {
  return runExperiment({ config, out, report: false, quiet: true, cacheDir: null, workerUrl: null, engine: fakeEngine(), log: () => undefined });
}

/** Every file of cells/, by name. */
const cellFiles = (out: string) => new Map(readdirSync(join(out, 'cells')).map((f) => [f, readFileSync(join(out, 'cells', f), 'utf8')]));

describe('u_rand in the exact records', () => {
  it('is stored per k, read per (data set, n, k), and a record without it recomputes that exact cell alone', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lshdp-urand-'));
    const config = join(dir, 'fake.yaml');
    writeFileSync(config, FAKE_CONFIG);
    const out = join(dir, 'out');
    await run(config, out);
    const exactPath = join(out, 'cells', 'exact_a_n5.json');
    const rec = JSON.parse(readFileSync(exactPath, 'utf8'));
    expect(Object.keys(rec.random)).toEqual(['1', '3']);
    const table = readRandomLoss(out);
    expect(table.rows.map((r) => `${r.dataset} ${r.n} ${r.k}`)).toEqual(['a 5 1', 'a 5 3', 'a 8 1', 'a 8 3', 'b 5 1', 'b 5 3', 'b 8 1', 'b 8 3']);
    expect(table.get('a', 5, 3)).toBe(rec.random['3']);
    expect(table.get('a', 5, 10)).toBeUndefined();
    // the fake engine's queries: mean distance 0.5 + (q % 5)/20 above neighbours at (j+1)/(k+1)/(1+q%7)
    expect(table.rows.every((r) => r.uRand > 0)).toBe(true);

    // an exact record of an older lshdp (no `random`): reported, then recomputed by a run, trials untouched
    const before = cellFiles(out);
    delete rec.random;
    writeFileSync(exactPath, JSON.stringify(rec));
    expect(() => readRandomLoss(out)).toThrow(/exact cell exact_a_n5: its record has no u_rand at k 1 \(computed by an older lshdp\); run the config again/);
    const again = await run(config, out);
    expect(again).toMatchObject({ computed: 1, cellsComputed: 1 });
    const after = cellFiles(out);
    expect([...after.keys()]).toEqual([...before.keys()]);
    // the recomputed record may differ only in its compute time (`ms`); every other file is untouched
    const afterNoTimes = withoutTimes(after);
    for (const [f, text] of withoutTimes(before)) expect(afterNoTimes.get(f), f).toBe(text);
    for (const [f, text] of before) if (f !== 'exact_a_n5.json') expect(after.get(f), f).toBe(text);
    expect(readRandomLoss(out).rows).toEqual(table.rows);
  });
});

describe('u_rand from a real run', () => {
  it('the real engine asks the exact pass for the mean distances: every exact record holds u_rand per k', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lshdp-urand-real-'));
    const config = join(dir, 'real.yaml');
    writeFileSync(
      config,
      'name: real\ndatasets: [{ name: a, format: synthetic, preset: small }]\ndims: [30]\nqueries: 20\nk: [1, 5]\nkappa: [8]\ntrials: 1\nprivacy: { xi: [1] }\nmechanisms: [exact, lsh]\n',
    );
    const out = join(dir, 'out');
    await runExperiment({ config, out, report: false, quiet: true, cacheDir: null, workerUrl: null, log: () => undefined });
    const rows = readRandomLoss(out).rows;
    expect(rows.map((r) => r.k)).toEqual([1, 5]);
    // random neighbours lose more than the true ones, and more at k 1 than at k 5
    expect(rows[0]!.uRand).toBeGreaterThan(rows[1]!.uRand);
    expect(rows[1]!.uRand).toBeGreaterThan(0);
  });
});
