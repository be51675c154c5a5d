/**
 * An evaluation that reads the released codes (tests/fixtures/evaluations/unique/: the share of
 * users whose released row equals no other user's, per result, in unique.csv, turned on by
 * `unique: {}`), added to the lists in process as src/evaluations/index.ts would list it, runs
 * end to end through the run's pipeline with its cells in this thread (worker threads load the
 * built list, which a test cannot add to; a unit listed in src/evaluations/index.ts is in it): its
 * measure gets every result's release, its value is stored in the trial records, and its file,
 * `table`, the report's tables/unique.md and `compare` follow. Its numbers are checked against
 * a closed form (LSHRR at ξ = 0 releases uniform codes) and a brute force over hand-made releases
 * of each kind.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, STACK_RE } from '../helpers/cli.js';
import { csvRecords as csv, runInProc, scratch } from '../helpers/experiment.js';
import type { Evaluation } from '../../src/evaluations/index.js';
import type { Measurement, InRecord } from '../../src/evaluations/measure.js';
import { packSymbols, type ReleaseSet } from '../../src/lsh/releases.js';
import { UNIQUE_FACTS } from '../fixtures/evaluations/unique/facts.js';
import { UNIQUE_ROWS, uniqueTrialValues } from '../fixtures/evaluations/unique/rows.js';
import { UNIQUE_MEASURE, UNIQUE_RECORD, uniqueShare } from '../fixtures/evaluations/unique/measure.js';
import { UNIQUE_BLOCK } from '../fixtures/evaluations/unique/config.js';

const TRIALS = 6;
const config = (seed: number, block = '\nunique: {}', trials = TRIALS) => `name: unique-${seed}
seed: ${seed}
datasets:
  - { name: synth, format: synthetic, preset: small }
dims: [40]
queries: 0
k: [1]
kappa: [8, 16]
trials: ${trials}
privacy: { d: 0.1, delta: 0.01, xi: [0, 10] }
mechanisms: [exact, lsh, lshrr, jl-gaussian]${block}
`;

const dist = (path: string) => import(pathToFileURL(join(ROOT, 'dist', path)).href);
const removals: (() => void)[] = [];
type Run = (o: { config: string; out: string; report: boolean; quiet: boolean; cacheDir: null; workerUrl: null; log: () => void }) => Promise<unknown>;
let runExperiment: Run;
/** `lshdp run CONFIG --out OUT --no-report --no-cache` of the built pipeline, its cells in this thread. */
const runHere = (dir: string, config: string, out: string) =>
  runExperiment({ config: join(dir, config), out: join(dir, out), report: false, quiet: true, cacheDir: null, workerUrl: null, log: () => undefined });

beforeAll(async () => {
  const evaluations = (await dist('evaluations/index.js')) as { registerEvaluation(e: Evaluation, block?: unknown): () => void };
  runExperiment = ((await dist('pipeline/run.js')) as { runExperiment: Run }).runExperiment;
  // the unit's line in the list, with its measurement and where its values are kept
  removals.push(
    evaluations.registerEvaluation(
      { facts: UNIQUE_FACTS, rows: UNIQUE_ROWS, trialValues: uniqueTrialValues, measure: UNIQUE_MEASURE as Measurement, readsKnn: false, store: UNIQUE_RECORD as InRecord },
      UNIQUE_BLOCK,
    ),
  );
});
afterAll(() => {
  for (const remove of removals.reverse()) remove();
});

/** The brute force: rows i with no j ≠ i equal to it in every position, over unpacked rows. */
function bruteUnique(rows: readonly (readonly number[])[]): number {
  const alone = rows.filter((r, i) => rows.every((s, j) => j === i || s.some((v, t) => !Object.is(v, r[t]))));
  return alone.length / rows.length;
}

describe('uniqueShare over each kind of release', () => {
  it('equals the brute force on bits, symbols and reals with duplicates', () => {
    // bits: 2 words a row (40 bits); rows 0 and 3 equal, row 1 differs from 0 only in the second word
    const bits: ReleaseSet = { codes: Uint32Array.from([5, 1, 5, 2, 7, 1, 5, 1, 9, 9]), bits: 40, words: 2 };
    expect(uniqueShare(bits)).toBe(
      bruteUnique([
        [5, 1],
        [5, 2],
        [7, 1],
        [5, 1],
        [9, 9],
      ]),
    );
    expect(uniqueShare(bits)).toBe(0.6);
    // symbols: 10 positions of an alphabet of 4 (2 bits each), users 1 and 2 equal
    const sym = [
      [0, 1, 2, 3, 0, 1, 2, 3, 0, 1],
      [3, 3, 3, 3, 3, 3, 3, 3, 3, 3],
      [3, 3, 3, 3, 3, 3, 3, 3, 3, 3],
      [3, 3, 3, 3, 3, 3, 3, 3, 3, 2],
    ];
    expect(uniqueShare(packSymbols(Uint8Array.from(sym.flat()), 4, 10, 4))).toBe(bruteUnique(sym));
    expect(bruteUnique(sym)).toBe(0.5);
    // reals: equal doubles only (0 and −0 are two releases), 3 dims
    const reals = [
      [0.5, 1, -2],
      [0.5, 1, -2],
      [0, 1, 2],
      [-0, 1, 2],
      [0.5, 1, -2.000000000000001],
    ];
    expect(uniqueShare({ kind: 'reals', dims: 3, values: Float64Array.from(reals.flat()) })).toBe(bruteUnique(reals));
    expect(bruteUnique(reals)).toBe(0.6);
  });
});

describe('an evaluation that reads the releases, added as one unit', () => {
  it('runs end to end: its values in the trial records, its file, table, report table and compare', async () => {
    const { dir } = scratch(config(5), 'a.yaml');
    await runHere(dir, 'a.yaml', 'a');
    const rows = csv(join(dir, 'a', 'unique.csv'));
    expect(Object.keys(rows[0]!)).toEqual(Object.keys(UNIQUE_FACTS.columns));
    // per κ: lsh once, lshrr and jl-gaussian at each ξ (exact releases no codes: no row)
    expect(rows.map((r) => `${r.kappa} ${r.mechanism} ${r.xi}`)).toEqual(
      [8, 16].flatMap((kappa) => [`${kappa} lsh `, `${kappa} lshrr 0`, `${kappa} lshrr 10`, `${kappa} jl-gaussian 0`, `${kappa} jl-gaussian 10`]),
    );
    expect(rows.every((r) => Number(r.trials) === TRIALS)).toBe(true);
    // the value lives in each result of the trial records, one per trial
    const cells = readdirSync(join(dir, 'a', 'cells')).filter((f) => f.startsWith('trial') || f.includes('_t'));
    const stored = cells.flatMap((f) => Object.values((JSON.parse(readFileSync(join(dir, 'a', 'cells', f), 'utf8')) as { results?: Record<string, { unique?: number }> }).results ?? {}));
    expect(stored.length).toBeGreaterThan(0);
    expect(stored.every((r) => typeof r.unique === 'number' && r.unique >= 0 && r.unique <= 1)).toBe(true);
    // reals with Gaussian noise: no two users release the same doubles
    for (const r of rows.filter((r) => r.mechanism === 'jl-gaussian')) expect(Number(r.unique_mean)).toBe(1);
    // LSHRR at ξ = 0 releases N uniform κ-bit codes: E[share] = q = (1 − 1/M)^(N−1), M = 2^κ, and the
    // share's variance is [N q (1 − q) + N (N − 1) (P2 − q²)] / N², P2 = (1 − 1/M)(1 − 2/M)^(N−2) (two
    // given users both alone); the mean of the trials within 4 of its standard deviations
    const users = (JSON.parse(readFileSync(join(dir, 'a', 'cells', readdirSync(join(dir, 'a', 'cells')).find((f) => f.startsWith('exact'))!), 'utf8')) as { nn: { users: string[] } }).nn.users.length;
    expect(users).toBeGreaterThan(50);
    for (const kappa of [8, 16]) {
      const M = 2 ** kappa;
      const q = (1 - 1 / M) ** (users - 1);
      const p2 = (1 - 1 / M) * (1 - 2 / M) ** (users - 2);
      const sd = Math.sqrt((users * q * (1 - q) + users * (users - 1) * (p2 - q * q)) / users ** 2 / TRIALS);
      const r = rows.find((x) => x.mechanism === 'lshrr' && x.xi === '0' && Number(x.kappa) === kappa)!;
      expect(Math.abs(Number(r.unique_mean) - q), `κ ${kappa}: ${r.unique_mean} against ${q} ± ${sd}`).toBeLessThanOrEqual(4 * sd + 1e-12);
    }
    // lshdp table: the generic view of its file; the report writes it as tables/unique.md
    const table = await runInProc(dir, ['table', 'unique', 'a']);
    expect(table.status, table.stderr).toBe(0);
    expect(table.stdout).toContain('share singled out (mean ± se)');
    expect((await runInProc(dir, ['report', 'a', '--no-png'])).status).toBe(0);
    expect(readFileSync(join(dir, 'a', 'tables', 'unique.md'), 'utf8')).toBe(table.stdout);
    // a rerun with nothing new reuses every value (the record holds it)
    const before = readFileSync(join(dir, 'a', 'unique.csv'), 'utf8');
    const again = (await runHere(dir, 'a.yaml', 'a')) as { computed: number };
    expect(again.computed).toBe(0);
    expect(readFileSync(join(dir, 'a', 'unique.csv'), 'utf8')).toBe(before);
    // lshdp compare: its file matched row by row (a folder against itself: every row pairs)
    const cmp = await runInProc(dir, ['compare', 'a', 'a', '--metric', 'unique', '--format', 'json', '--all']);
    expect(cmp.stderr).not.toMatch(STACK_RE);
    const cmpRows = (JSON.parse(cmp.stdout) as { rows: { metric: string }[] }).rows;
    expect(cmpRows.length).toBe(rows.length);
    expect(cmpRows.every((r) => r.metric === 'unique')).toBe(true);
  });

  it('is off without its block (no file, no `unique` field); added later, the cells lacking it are computed again to the same utility', async () => {
    const { dir } = scratch(config(5, '', 1), 'c.yaml');
    await runHere(dir, 'c.yaml', 'c');
    expect(existsSync(join(dir, 'c', 'unique.csv'))).toBe(false);
    const any = readdirSync(join(dir, 'c', 'cells')).map((f) => readFileSync(join(dir, 'c', 'cells', f), 'utf8'));
    expect(any.some((s) => s.includes('"unique"'))).toBe(false);
    // the block added later: the trial results lacking the field are computed again, the same utility
    const utility = readFileSync(join(dir, 'c', 'utility.csv'), 'utf8');
    writeFileSync(join(dir, 'c.yaml'), config(5, undefined, 1));
    const grown = (await runHere(dir, 'c.yaml', 'c')) as { computed: number; reused: number };
    expect(grown.computed).toBeGreaterThan(0);
    expect(readFileSync(join(dir, 'c', 'utility.csv'), 'utf8')).toBe(utility);
    expect(csv(join(dir, 'c', 'unique.csv')).length).toBe(10);
  });
});
