/**
 * docs/OUTPUTS.md against the writers: every file a run (and a shard run) leaves in its folder is
 * listed there, and every column list there is the header the code writes or the keys it prints
 * (run, merge, report, table utility/budgets, compare, audit). The doc is parsed, not copied here.
 */
import { describe, it, expect, beforeAll } from 'vitest';
import { copyFileSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import Papa from 'papaparse';
import { ROOT } from '../helpers/cli.js';
import { scratch, runInProc } from '../helpers/experiment.js';
import { AUDIT_CSV_COLUMNS } from '../../src/audit/output.js';
import { ATTACK_COLUMNS } from '../../src/experiment/columns.js';
import { RECOMMEND_COLUMNS } from '../../src/experiment/columns.js';
import { evaluationFacts, optionalEvaluations } from '../../src/evaluations/catalog.js';
import { genericTableFile } from '../../src/report/index.js';
import { CURVE_COLUMNS } from '../../src/report/matchedCurve.js';
import { MATCHED_COLUMNS } from '../../src/report/matchedTable.js';
import { matchedRow } from '../helpers/matchedRows.js';

const DOC = readFileSync(join(ROOT, 'docs', 'OUTPUTS.md'), 'utf8').split('\n');

/** The first cells (backquotes removed) of the first table after the heading whose text is `heading`. */
function tableAfter(heading: string): string[] {
  const at = DOC.findIndex((l) => /^#+ /.test(l) && l.replace(/^#+ /, '').trim() === heading);
  if (at < 0) throw new Error(`docs/OUTPUTS.md: no heading "${heading}"`);
  let i = at + 1;
  while (i < DOC.length && !DOC[i].startsWith('|')) {
    if (/^#+ /.test(DOC[i])) throw new Error(`docs/OUTPUTS.md: no table under "${heading}"`);
    i++;
  }
  const names: string[] = [];
  for (i += 2; i < DOC.length && DOC[i].startsWith('|'); i++) {
    const first = DOC[i].split('|')[1].trim();
    const m = /^`([^`]+)`$/.exec(first);
    if (m) names.push(m[1]);
  }
  return names;
}

/** A documented path pattern as a regex: `<x>` any name, `[…]` optional, `{a,b}` either. */
function pathRegex(pattern: string): RegExp {
  let re = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '<') {
      i = pattern.indexOf('>', i);
      re += '[^/]+';
    } else if (c === '[') re += '(?:';
    else if (c === ']') re += ')?';
    else if (c === '{') re += '(?:';
    else if (c === '}') re += ')';
    else if (c === ',') re += '|';
    else re += c.replace(/[.*+?^$()|\\/]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => statSync(join(dir, f)).isFile())
    .map((f) => relative(dir, join(dir, f)).split('\\').join('/'))
    .sort();
}

const header = (file: string) => readFileSync(file, 'utf8').split('\n')[0].split(',');
const undocumented = (files: string[], patterns: string[]) => files.filter((f) => !patterns.some((p) => pathRegex(p).test(f)));

const CONFIG = `name: docs
seed: 5
datasets:
  - { name: synth, format: synthetic, preset: small }
dims: [40]
queries: 30
k: [1, 5]
kappa: [8]
trials: 2
privacy: { d: 0.1, delta: 0.01, xi: [0, 5] }
mechanisms: [exact, lsh, lshrr, { name: lshrr, accountant: exact, label: lshrr-exact }, laplsh]
`;

describe('docs/OUTPUTS.md matches what lshdp writes', () => {
  const utilityDoc = tableAfter('`utility.csv`');
  let dir: string;
  let run: string;

  beforeAll(async () => {
    ({ dir } = scratch(CONFIG, 'docs.yaml'));
    const r = await runInProc(dir, ['run', 'docs.yaml', '--out', 'r', '--no-png', '-q']);
    if (r.status !== 0) console.log(r.stderr);
    expect(r.status).toBe(0);
    const s = await runInProc(dir, ['run', 'docs.yaml', '--out', 'shard', '--shard', '1/2', '-q']);
    if (s.status !== 0) console.log(s.stderr);
    expect(s.status).toBe(0);
    run = join(dir, 'r');
  }, 240_000);

  it('the parser is not vacuous: the doc has the column lists and a pattern rejects other names', async () => {
    expect(utilityDoc).toContain('epsilon_ldp');
    expect(utilityDoc.length).toBeGreaterThan(10);
    expect(pathRegex('figures/fig2-<dataset>[-k<k>].{vl.json,svg}').test('figures/fig2-ml-k5.svg')).toBe(true);
    expect(pathRegex('figures/fig2-<dataset>[-k<k>].{vl.json,svg}').test('figures/fig2-ml.png')).toBe(false);
  });

  it('every file of a results folder and of a shard folder is listed', async () => {
    const files = filesUnder(run);
    for (const f of ['utility.csv', 'tables/utility-table.csv', 'index.html', 'claims.json']) expect(files).toContain(f);
    expect(undocumented(files, tableAfter('Results folder at a glance'))).toEqual([]);
    expect(undocumented(filesUnder(join(dir, 'shard')), tableAfter('Shard folder'))).toEqual([]);
  });

  it('every evaluation has its file and its tables/<name>.md listed, and the report writes that table', async () => {
    const glance = tableAfter('Results folder at a glance');
    for (const e of evaluationFacts()) {
      expect(glance, `docs/OUTPUTS.md: ${e.file}`).toContain(e.file);
      expect(glance, `docs/OUTPUTS.md: tables/${e.name}.md`).toContain(`tables/${e.name}.md`);
    }
    // each optional evaluation without a view of its own: its generic table, from its file
    for (const e of optionalEvaluations()) if (!['recommend', 'attack'].includes(e.name)) expect(genericTableFile(e.name)).toBe(`${e.name}.md`);
  });

  it("the run's CSV headers are the documented columns, in order", async () => {
    expect(header(join(run, 'utility.csv'))).toEqual(utilityDoc);
    expect(header(join(run, 'nn_distances.csv'))).toEqual(tableAfter('`nn_distances.csv`'));
    expect(header(join(run, 'budgets.csv'))).toEqual(tableAfter('`budgets.csv`'));
    expect(header(join(run, 'tables', 'utility-table.csv'))).toEqual(tableAfter('`tables/utility-table.csv`'));
  });

  it("attack.csv's columns are the documented ones, in order (its writer's header: tests/pipeline/attack.test.ts runs it)", () => {
    expect([...ATTACK_COLUMNS]).toEqual(tableAfter('`attack.csv`'));
  });

  it('the JSON files hold documented fields only', async () => {
    const datasets = JSON.parse(readFileSync(join(run, 'datasets.json'), 'utf8')) as Record<string, unknown>[];
    const dsDoc = tableAfter('`datasets.json`');
    for (const d of datasets) expect(Object.keys(d).filter((k) => !dsDoc.includes(k))).toEqual([]);
    const manifest = JSON.parse(readFileSync(join(run, 'manifest.json'), 'utf8')) as Record<string, unknown>;
    expect(Object.keys(manifest).filter((k) => !tableAfter('`manifest.json`').includes(k))).toEqual([]);
    const owner = JSON.parse(readFileSync(join(run, 'lshdp-results.json'), 'utf8')) as Record<string, unknown>;
    expect(Object.keys(owner).filter((k) => !tableAfter('`lshdp-results.json`').includes(k))).toEqual([]);
    const claims = JSON.parse(readFileSync(join(run, 'claims.json'), 'utf8')) as { claims: Record<string, unknown>[] };
    expect(claims.claims.length).toBeGreaterThan(0);
    for (const c of claims.claims) expect(Object.keys(c)).toEqual(tableAfter('`claims.json`'));
  });

  it('table utility and table budgets print the documented names (csv header, json keys)', async () => {
    const csv = await runInProc(dir, ['table', 'utility', run, '--format', 'csv']);
    expect(csv.stdout.split('\n')[0].split(',')).toEqual(tableAfter('`tables/utility-table.csv`'));
    const json = JSON.parse((await runInProc(dir, ['table', 'utility', run, '--format', 'json'])).stdout) as Record<string, unknown>[];
    for (const row of json) expect(Object.keys(row)).toEqual(utilityDoc);
    const budgetsDoc = tableAfter('`budgets.csv`');
    const bcsv = await runInProc(dir, ['table', 'budgets', '--accountant', 'paper,exact', '--format', 'csv']);
    expect(bcsv.stdout.split('\n')[0].split(',')).toEqual(budgetsDoc);
    const bjson = JSON.parse((await runInProc(dir, ['table', 'budgets', '--accountant', 'paper,exact', '--format', 'json'])).stdout) as Record<string, unknown>[];
    for (const row of bjson) expect(Object.keys(row)).toEqual(budgetsDoc);
    // with the directional mechanisms: their documented columns follow
    const withDirectional = [...budgetsDoc, ...tableAfter('`budgets.csv`: directional mechanisms')];
    const dcsv = await runInProc(dir, ['table', 'budgets', '--mechanism', 'lshrr,vmf,purkayastha', '--format', 'csv']);
    expect(dcsv.stdout.split('\n')[0].split(',')).toEqual(withDirectional);
    const djson = JSON.parse((await runInProc(dir, ['table', 'budgets', '--mechanism', 'lshrr,vmf', '--format', 'json'])).stdout) as Record<string, unknown>[];
    for (const row of djson) expect(Object.keys(row)).toEqual(withDirectional);
  });

  it('compare prints the documented columns (csv header, json row keys)', async () => {
    const doc = tableAfter('`lshdp compare DIR_A DIR_B`');
    const csv = await runInProc(dir, ['compare', run, run, '--format', 'csv', '--all']);
    expect(csv.status).toBe(0);
    expect(csv.stdout.split('\n')[0].split(',')).toEqual(doc);
    const json = JSON.parse((await runInProc(dir, ['compare', run, run, '--format', 'json', '--all'])).stdout) as { rows: Record<string, unknown>[] };
    expect(json.rows.length).toBeGreaterThan(0);
    for (const row of json.rows) expect(Object.keys(row)).toEqual(doc);
  });

  it('compare with recommend.csv and attack.csv prints the documented columns and then top, known, aux', async () => {
    const doc = [...tableAfter('`lshdp compare DIR_A DIR_B`'), ...tableAfter('`lshdp compare`: with recommend.csv, attack.csv or infer.csv')];
    expect(doc.slice(-3)).toEqual(['top', 'known', 'aux']);
    const full = join(ROOT, 'tests/fixtures/compare/full');
    const csv = await runInProc(dir, ['compare', full, full, '--format', 'csv', '--all']);
    expect(csv.status).toBe(0);
    expect(csv.stdout.split('\n')[0].split(',')).toEqual(doc);
    const json = JSON.parse((await runInProc(dir, ['compare', full, full, '--format', 'json', '--all'])).stdout) as { rows: Record<string, unknown>[]; files: unknown };
    expect(new Set(json.rows.map((r) => r.metric))).toEqual(new Set(['utility', 'recall', 'hr', 'ndcg', 'item_recall', 'reid1', 'reid10']));
    for (const row of json.rows) expect(Object.keys(row)).toEqual(doc);
    expect(json.files).toEqual({ 'utility.csv': 'both', 'recommend.csv': 'both', 'attack.csv': 'both' });
  });

  it('compare with matched.csv prints the documented columns and then the matched fields', async () => {
    const doc = [...tableAfter('`lshdp compare DIR_A DIR_B`'), ...tableAfter('`lshdp compare`: with recommend.csv, attack.csv or infer.csv'), ...tableAfter('`lshdp compare`: with matched.csv')];
    const folder = join(dir, 'with-matched');
    mkdirSync(folder, { recursive: true });
    copyFileSync(join(run, 'utility.csv'), join(folder, 'utility.csv'));
    const row = matchedRow({});
    writeFileSync(join(folder, 'matched.csv'), `${Papa.unparse({ fields: [...MATCHED_COLUMNS], data: [MATCHED_COLUMNS.map((c) => (row[c] === null ? '' : String(row[c])))] }, { newline: '\n' })}\n`);
    const csv = await runInProc(dir, ['compare', folder, folder, '--format', 'csv', '--all']);
    expect(csv.status).toBe(0);
    expect(csv.stdout.split('\n')[0].split(',')).toEqual(doc);
    const json = JSON.parse((await runInProc(dir, ['compare', folder, folder, '--format', 'json', '--all'])).stdout) as { rows: Record<string, unknown>[]; files: unknown };
    expect(json.rows.some((r) => r.metric === 'matched')).toBe(true);
    for (const r of json.rows) expect(Object.keys(r)).toEqual(doc);
    expect(json.files).toEqual({ 'utility.csv': 'both', 'matched.csv': 'both' });
  });

  it("recommend.csv's columns are the documented ones (its writer's header: tests/pipeline/recommend.test.ts)", async () => {
    expect([...RECOMMEND_COLUMNS]).toEqual(tableAfter('`recommend.csv`'));
  });

  it("matched_curve.csv's columns are the documented ones, in order (its writer's header: tests/report/matchedFigure.test.ts runs it)", () => {
    expect([...CURVE_COLUMNS]).toEqual(tableAfter('`matched_curve.csv`'));
  });

  it("audit.csv's columns are the documented ones", async () => {
    expect([...AUDIT_CSV_COLUMNS]).toEqual(tableAfter('`audit.csv`'));
  });

  it('the fixture results folder the report tests use is in the documented format', async () => {
    const fx = join(ROOT, 'tests/fixtures/results/small');
    expect(header(join(fx, 'utility.csv'))).toEqual(utilityDoc);
    expect(header(join(fx, 'nn_distances.csv'))).toEqual(tableAfter('`nn_distances.csv`'));
    expect(header(join(fx, 'budgets.csv'))).toEqual(tableAfter('`budgets.csv`'));
  });
});
