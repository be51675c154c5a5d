/**
 * An evaluation is one unit: a small one (tests/fixtures/evaluations/miss/: the share of the true
 * neighbours an answer misses, 1 − recall@k, in miss.csv, turned on by `miss: {}`), written as a
 * folder of src/evaluations/ is and added to the lists as its lines in src/evaluations/index.ts
 * and src/claims/all.ts would add it, runs end to end through `lshdp run` (in process, so the
 * built CLI's lists are the ones it joins): its file, its claim, `lshdp compare` and `lshdp table`
 * work without another file naming it. Its numbers are checked against utility.csv's recall,
 * which the run writes independently.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, STACK_RE } from '../helpers/cli.js';
import { csvRecords as csv, runInProc, scratch } from '../helpers/experiment.js';
import type { Evaluation } from '../../src/evaluations/index.js';
import type { ClaimDefinition } from '../../src/claims/family.js';
import { MISS_FACTS } from '../fixtures/evaluations/miss/facts.js';
import { MISS_ROWS, missTrialValues } from '../fixtures/evaluations/miss/rows.js';
import { MISS_BLOCK } from '../fixtures/evaluations/miss/config.js';
import { lshFindsNeighbours } from '../fixtures/evaluations/miss/claim.js';

const config = (seed: number, block = '\nmiss: {}') => `name: miss-${seed}
seed: ${seed}
datasets:
  - { name: synth, format: synthetic, preset: small }
dims: [40]
queries: 30
k: [1, 5]
kappa: [8, 16]
trials: 3
privacy: { d: 0.1, delta: 0.01, xi: [0, 10] }
mechanisms: [exact, lsh, lshrr]${block}
`;

const dist = (path: string) => import(pathToFileURL(join(ROOT, 'dist', path)).href);
const removals: (() => void)[] = [];

beforeAll(async () => {
  const evaluations = (await dist('evaluations/index.js')) as { registerEvaluation(e: Evaluation, block?: unknown): () => void };
  const claims = (await dist('claims/all.js')) as { registerClaim(c: ClaimDefinition): () => void };
  // the unit's one line in each list
  removals.push(evaluations.registerEvaluation({ facts: MISS_FACTS, rows: MISS_ROWS, trialValues: missTrialValues }, MISS_BLOCK));
  removals.push(claims.registerClaim(lshFindsNeighbours));
});
afterAll(() => {
  for (const remove of removals.reverse()) remove();
});

describe('an evaluation added as one unit', () => {
  it('runs end to end: its file (1 − recall of utility.csv), its claim, compare and table', async () => {
    const { dir } = scratch(config(5), 'a.yaml');
    writeFileSync(join(dir, 'b.yaml'), config(6));
    const a = await runInProc(dir, ['run', 'a.yaml', '--out', 'a', '--threads', '2', '--no-report', '--no-cache']);
    expect(a.stderr).not.toMatch(STACK_RE);
    expect(a.status, a.stderr).toBe(0);
    const miss = csv(join(dir, 'a', 'miss.csv'));
    expect(Object.keys(miss[0]!)).toEqual(Object.keys(MISS_FACTS.columns));
    // utility.csv's code rows, matched on their coordinates: miss = 1 − recall (mean over trials of 1 − r, so within rounding)
    const utility = csv(join(dir, 'a', 'utility.csv')).filter((r) => r.kappa !== '');
    expect(miss.length).toBe(utility.length);
    const key = (r: Record<string, string>) => [r.n, r.kappa, r.k, r.mechanism, r.xi].join('|');
    const recall = new Map(utility.map((r) => [key(r), Number(r.recall_mean)]));
    for (const r of miss) {
      expect(Number(r.trials)).toBe(3);
      expect(Math.abs(Number(r.miss_mean) - (1 - recall.get(key(r))!))).toBeLessThan(1e-12);
    }
    // its claim, with the built-ins' (lsh at ξ-less rows finds neighbours on this grid)
    const claims = JSON.parse(readFileSync(join(dir, 'a', 'claims.json'), 'utf8')) as { claims: { id: string; verdict: string; cells_tested: number }[] };
    const own = claims.claims.find((c) => c.id === 'lsh-finds-neighbours');
    expect(own).toMatchObject({ verdict: 'supported', cells_tested: 4 });
    // lshdp table: the generic view of its file; the report writes it as tables/miss.md; --help names it
    const table = await runInProc(dir, ['table', 'miss', 'a']);
    expect(table.status).toBe(0);
    expect((await runInProc(dir, ['report', 'a', '--no-png'])).status).toBe(0);
    expect(readFileSync(join(dir, 'a', 'tables', 'miss.md'), 'utf8')).toBe(table.stdout);
    // (help wraps its lines: read as one)
    expect((await runInProc(dir, ['--help'])).stdout.replace(/\s+/g, ' ')).toContain(
      "table print the privacy-budget table, a utility-loss table or an evaluation's table (recommendations, linkage attack, attribute inference, missed neighbours)",
    );
    expect(table.stdout).toContain('missed share (mean ± se)');
    expect(table.stdout.trimEnd().split('\n').length).toBe(miss.length + 2);
    // lshdp compare: its file matched row by row beside utility.csv's
    const b = await runInProc(dir, ['run', 'b.yaml', '--out', 'b', '--threads', '1', '--no-report', '--no-cache']);
    expect(b.status).toBe(0);
    const cmp = await runInProc(dir, ['compare', 'a', 'b', '--metric', 'miss', '--format', 'json', '--all']);
    expect(cmp.stderr).not.toMatch(STACK_RE);
    const rows = (JSON.parse(cmp.stdout) as { rows: { metric: string }[]; files: Record<string, string> }).rows;
    expect(rows.length).toBe(miss.length);
    expect(rows.every((r) => r.metric === 'miss')).toBe(true);
  });

  it('is off without its block, and its block is checked like a built-in one', async () => {
    const { dir } = scratch(config(5, ''), 'c.yaml');
    const c = await runInProc(dir, ['run', 'c.yaml', '--out', 'c', '--threads', '1', '--no-report', '--no-cache']);
    expect(c.status).toBe(0);
    expect(existsSync(join(dir, 'c', 'miss.csv'))).toBe(false);
    writeFileSync(join(dir, 'd.yaml'), config(5, '\nmiss: { kk: 1 }'));
    const d = await runInProc(dir, ['run', 'd.yaml', '--out', 'd']);
    expect(d.status).toBe(2);
    expect(d.stderr).toMatch(/miss: unknown key "kk"|miss\.kk/);
  });
});

describe('docs/EXTENDING.md, "Your own evaluation"', () => {
  /** The ```ts snippet of the doc whose first line names `file`, without that line. */
  const snippet = (doc: string, file: string): string => {
    const at = doc.indexOf(`\`\`\`ts\n// ${file}\n`);
    expect(at, `a snippet named ${file}`).toBeGreaterThanOrEqual(0);
    const from = at + `\`\`\`ts\n// ${file}\n`.length;
    return doc.slice(from, doc.indexOf('\n```', from) + 1);
  };
  /** Import paths as the repo files they reach, the fixture's folder read as the unit's place in src/. */
  const reached = (code: string, from: string, place: Record<string, string>): string =>
    code.replace(/from '(\.[^']+)'/g, (_m, spec: string) => {
      const path = join(dirname(from), spec);
      return `from '${place[path] ?? path}'`;
    });
  it('shows the fixture’s files as they are, at their places in src/', () => {
    const doc = readFileSync(join(ROOT, 'docs', 'EXTENDING.md'), 'utf8');
    const fixture = 'tests/fixtures/evaluations/miss';
    const files: [string, string][] = [
      ['facts.ts', 'src/evaluations/miss/facts.ts'],
      ['rows.ts', 'src/evaluations/miss/rows.ts'],
      ['config.ts', 'src/evaluations/miss/config.ts'],
      ['claim.ts', 'src/claims/miss.ts'],
    ];
    const place = Object.fromEntries(files.map(([f, to]) => [join(fixture, f.replace(/\.ts$/, '.js')), to.replace(/\.ts$/, '.js')]));
    for (const [f, to] of files) {
      const own = readFileSync(join(ROOT, fixture, f), 'utf8');
      expect(reached(own, join(fixture, f), place), f).toBe(reached(snippet(doc, to), to, place));
    }
  });
  it('shows the measuring example (tests/fixtures/evaluations/unique/) as it is, at its places in src/', () => {
    const doc = readFileSync(join(ROOT, 'docs', 'EXTENDING.md'), 'utf8');
    const fixture = 'tests/fixtures/evaluations/unique';
    const files = ['facts.ts', 'measure.ts', 'rows.ts', 'config.ts'].map((f): [string, string] => [f, `src/evaluations/unique/${f}`]);
    const place = Object.fromEntries(files.map(([f, to]) => [join(fixture, f.replace(/\.ts$/, '.js')), to.replace(/\.ts$/, '.js')]));
    for (const [f, to] of files) {
      const own = readFileSync(join(ROOT, fixture, f), 'utf8');
      expect(reached(own, join(fixture, f), place), f).toBe(reached(snippet(doc, to), to, place));
    }
  });
});
