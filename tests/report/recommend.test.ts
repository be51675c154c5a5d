/**
 * The recommendations' presentation from recommend.csv alone: the reader, the "NDCG@10 against ξ"
 * figure (rows, spec, SVG and PNG), the table view in its four formats and the report's section,
 * end to end on a results folder whose recommend.csv is written by hand
 * (tests/fixtures/results/recommend: the small fixture's files plus recommend.csv; made-up
 * numbers, NDCG = r + (l − r)·g·(1 − e^(−ξ/5)) with r the random level, l LSH's and g a gain of
 * 1 for lshrr and 0.3 for laplsh; HR = 2·NDCG, item recall = 1.5·NDCG).
 */
import { describe, it, expect, beforeAll } from 'vitest';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../helpers/cli.js';
import { readRecommendCsv, readResultsFolder, RECOMMEND_COLUMNS, type RecommendRow } from '../../src/report/read.js';
import { recommendFigureAt, recommendFigureRows, recommendSpec } from '../../src/report/recommendFigure.js';
import { recommendTable, RECOMMEND_DISPLAY_COLUMNS } from '../../src/report/recommendTable.js';
import { buildOutputs, figureEntries } from '../../src/report/index.js';
import { renderSvg, svgToPng } from '../../src/report/render.js';
import { filterUtility } from '../../src/report/filter.js';
import { buildHtml } from '../../src/report/html.js';

const FIXTURE = join(ROOT, 'tests/fixtures/results/recommend');
const SMALL = join(ROOT, 'tests/fixtures/results/small');
const rows = () => readRecommendCsv(join(FIXTURE, 'recommend.csv'));

function copyOf(src: string): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'lshdp-recommend-')), 'r');
  cpSync(src, dir, { recursive: true });
  return dir;
}

/** The fixture's NDCG formula, written again here (not read from the file). */
function expectedNdcg(base: 'lshrr' | 'laplsh', kappa: number, k: number, xi: number, top: number): number {
  const lsh = 0.25 + 0.002 * kappa + 0.005 * (k === 10 ? 1 : 0) + 0.05 * (top === 20 ? 1 : 0);
  const random = 0.05 + 0.02 * (top === 20 ? 1 : 0);
  return random + (lsh - random) * (base === 'lshrr' ? 1 : 0.3) * (1 - Math.exp(-xi / 5));
}

describe('recommend.csv reader', () => {
  it('reads the issue columns: empty κ, k, ξ and se are null (the baselines)', () => {
    const all = rows();
    expect(all).toHaveLength(78);
    const pop = all.filter((r) => r.mechanism === 'pop');
    expect(pop.map((r) => [r.kappa, r.k, r.xi, r.ndcg_se, r.trials])).toEqual([
      [null, null, null, null, 1],
      [null, null, null, null, 1],
    ]);
    const exact = all.find((r) => r.mechanism === 'exact')!;
    expect([exact.kappa, exact.k, exact.xi]).toEqual([null, 5, null]);
    const one = all.find((r) => r.base === 'lshrr' && r.kappa === 10 && r.k === 10 && r.xi === 5 && r.top === 10)!;
    expect(one.ndcg_mean).toBeCloseTo(expectedNdcg('lshrr', 10, 10, 5, 10), 4);
    expect(one.accountant).toBe('paper');
    expect('concentration' in one).toBe(false);
  });

  it('reads the concentration columns when the file has them', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lshdp-recommend-csv-'));
    const file = join(dir, 'recommend.csv');
    writeFileSync(file, `${RECOMMEND_COLUMNS.join(',')},concentration,concentration_metric\nd,100,20,10,vmf,vmf,,5,10,0.5,0.01,0.3,0.01,0.4,0.01,3,40,12.5,euclidean\n`);
    const [r] = readRecommendCsv(file);
    expect(r.concentration).toBe(12.5);
    expect(r.concentration_metric).toBe('euclidean');
  });

  it('a missing column or a bad number is a one-line error naming the file and line', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lshdp-recommend-csv-'));
    const file = join(dir, 'recommend.csv');
    writeFileSync(file, 'dataset,n\nd,1\n');
    expect(() => readRecommendCsv(file)).toThrow(/recommend\.csv:1: missing column\(s\) kappa, k,/);
    writeFileSync(file, `${RECOMMEND_COLUMNS.join(',')}\nd,100,20,10,lshrr,lshrr,paper,5,10,x,0.01,0.3,0.01,0.4,0.01,3,40\n`);
    expect(() => readRecommendCsv(file)).toThrow(/recommend\.csv:2: column hr_mean: "x" is not a number/);
  });

  it('a results folder has recommend rows only when recommend.csv is there', () => {
    expect(readResultsFolder(FIXTURE).recommend).toHaveLength(78);
    expect(readResultsFolder(SMALL).recommend).toBeNull();
  });
});

describe('the NDCG figure', () => {
  it('is at k = 10 and N = 10 when the grid has them, else the largest k and the smallest N', () => {
    expect(recommendFigureAt('ml-small', rows())).toEqual({ k: 10, top: 10 });
    const shifted = rows().map((r): RecommendRow => ({ ...r, k: r.k === 10 ? 7 : r.k, top: r.top === 10 ? 15 : r.top }));
    expect(recommendFigureAt('ml-small', shifted)).toEqual({ k: 7, top: 15 });
    expect(recommendFigureAt('other', rows())).toBeNull();
  });

  it('has one curve per mechanism with ξ per (κ, n) panel, LSH as a rule in its κ row, exact and pop as rules in every κ row', () => {
    const data = recommendFigureRows('ml-small', rows(), 10, 10);
    const curves = data.filter((r) => r.kind === 'curve');
    // lshrr and laplsh × κ 10, 20 × ξ 0, 1, 5, 20
    expect(curves).toHaveLength(16);
    expect(new Set(curves.map((r) => r.mechanism))).toEqual(new Set(['lshrr', 'laplsh']));
    const rules = data.filter((r) => r.kind === 'baseline').map((r) => `${r.mechanism} ${r.kappa}`);
    expect(rules.sort()).toEqual(['exact κ = 10', 'exact κ = 20', 'lsh κ = 10', 'lsh κ = 20', 'pop κ = 10', 'pop κ = 20']);
    const pop = data.find((r) => r.mechanism === 'pop')!;
    expect([pop.value, pop.lo, pop.hi, pop.se]).toEqual([0.12, 0.12, 0.12, null]);
    const one = data.find((r) => r.mechanism === 'lshrr' && r.kappa === 'κ = 20' && r.xi === 20)!;
    expect(one.value).toBeCloseTo(expectedNdcg('lshrr', 20, 10, 20, 10), 4);
    expect(one.hi - one.value).toBeCloseTo(0.003, 12);
    expect(one.panel).toBe('κ = 20, n = 100');
  });

  it('renders to SVG and PNG with its title, the ξ axis and every mechanism in the legend', async () => {
    const spec = recommendSpec('ml-small', rows(), { k: 10, top: 10 }, 0.1);
    expect((spec.title as { text: string }).text).toBe('ml-small: NDCG@10 of the recommendations against ξ (k = 10)');
    const svg = await renderSvg(spec);
    for (const word of ['NDCG@10', 'total privacy budget ξ', 'lshrr', 'laplsh', 'lsh (dashed line)', 'exact (dashed line)', 'pop (dashed line)', 'κ = 10, n = 100']) expect(svg).toContain(word);
    const png = svgToPng(svg);
    expect(Buffer.from(png.subarray(1, 4)).toString()).toBe('PNG');
  });

  it('follows the plot filters: only the asked mechanisms, baselines without κ or k kept', () => {
    const kept = filterUtility(rows(), { mechanisms: ['lshrr', 'pop'], kappa: [20], k: [10] }, null);
    expect(new Set(kept.map((r) => `${r.mechanism} ${r.kappa} ${r.k}`))).toEqual(new Set(['pop null null', 'lshrr 20 10']));
  });
});

describe('the recommendations table', () => {
  it('md: one row per recommend.csv row, mean ± se, n/a for the baselines, with notes', () => {
    const md = recommendTable(rows(), 'md');
    const lines = md.split('\n').filter((l) => l.startsWith('| ml-small'));
    expect(lines).toHaveLength(78);
    expect(lines).toContain('| ml-small | 100 | – | – | pop | – | 10 | 1 | 40 | 0.24 ± n/a | 0.12 ± n/a | 0.18 ± n/a |');
    // NDCG 0.05 + 0.225·(1 − e^−1) = 0.1922, se 0.003 to two significant digits: four decimals
    expect(expectedNdcg('lshrr', 10, 10, 5, 10)).toBeCloseTo(0.1922, 4);
    expect(lines).toContain('| ml-small | 100 | 10 | 10 | lshrr | 5 | 10 | 5 | 40 | 0.3845 ± 0.0050 | 0.1922 ± 0.0030 | 0.2883 ± 0.0040 |');
    expect(md).toContain('n/a: standard error unknown');
  });

  it("csv: every recommend.csv column at full precision, then the display columns; json: the file's rows", () => {
    const csv = recommendTable(rows(), 'csv').trim().split('\n');
    expect(csv[0].split(',')).toEqual([...RECOMMEND_COLUMNS, ...RECOMMEND_DISPLAY_COLUMNS]);
    expect(csv).toHaveLength(79);
    const file = readFileSync(join(FIXTURE, 'recommend.csv'), 'utf8').trim().split('\n');
    // the file's own cells come first, unchanged
    for (let i = 1; i < file.length; i++) expect(csv[i].startsWith(`${file[i]},`)).toBe(true);
    expect(JSON.parse(recommendTable(rows(), 'json'))).toEqual(rows());
  });

  it('latex: escaped names, ± as math, -- for missing values', () => {
    const tex = recommendTable(rows(), 'latex');
    expect(tex).toContain('\\begin{tabular}{lrrrlrrrrrrr}');
    expect(tex).toContain('ml-small & 100 & -- & -- & pop & -- & 10 & 1 & 40 & 0.24 $\\pm$ n/a');
  });
});

describe('end to end: a results folder with recommend.csv', () => {
  let dir: string;
  beforeAll(async () => {
    dir = copyOf(FIXTURE);
    await buildOutputs(dir, { png: true, quiet: true });
  }, 120_000);

  it('writes the NDCG figure (spec, SVG, PNG) and the recommendation tables', () => {
    for (const ext of ['vl.json', 'svg', 'png']) expect(existsSync(join(dir, 'figures', `ndcg-ml-small.${ext}`))).toBe(true);
    const spec = JSON.parse(readFileSync(join(dir, 'figures', 'ndcg-ml-small.vl.json'), 'utf8'));
    expect(spec.data.values.length).toBe(recommendFigureRows('ml-small', rows(), 10, 10).length);
    expect(readFileSync(join(dir, 'tables', 'recommend.md'), 'utf8')).toBe(recommendTable(rows(), 'md'));
    expect(readFileSync(join(dir, 'tables', 'recommend.tex'), 'utf8')).toBe(recommendTable(rows(), 'latex'));
    expect(readFileSync(join(dir, 'tables', 'recommend-table.csv'), 'utf8')).toBe(recommendTable(rows(), 'csv'));
  });

  it('the report has the Recommendations section, linking the figure, after the utility table', () => {
    const html = readFileSync(join(dir, 'index.html'), 'utf8');
    expect(html).toContain('<section id="recommend">');
    expect(html).toContain('<a href="#ndcg-ml-small">NDCG@10: ml-small, k = 10</a>');
    expect(html).toContain('id="recommend-table"');
    expect(html.indexOf('<section id="utility">')).toBeLessThan(html.indexOf('<section id="recommend">'));
    // every row of the file is a row of the table: 78, more than a screen, so collapsed, its rows
    // (JSON) built when opened, with the summary and the files that hold it in full first
    const rows = /<script type="application\/json" id="recommend-table-rows">(.*?)<\/script>/s.exec(html);
    expect(JSON.parse(rows![1]).rows).toHaveLength(78);
    expect(html).toMatch(/<p class="table-summary">78 rows over data set \(1\), n \(\d+\), κ \(\d+\), k \(\d+\), mechanism \(\d+\), ξ \(\d+\), N \(\d+\)\. \(in full: <a href="recommend.csv">/);
    expect(html).toContain('<details class="long-table" id="recommend-table-details"><summary>Show all 78 rows');
  });

  it('a folder without recommend.csv has neither the figure, the tables nor the section', async () => {
    const plain = copyOf(SMALL);
    await buildOutputs(plain, { png: false, quiet: true });
    expect(existsSync(join(plain, 'figures', 'ndcg-ml-small.svg'))).toBe(false);
    expect(existsSync(join(plain, 'tables', 'recommend.md'))).toBe(false);
    expect(readFileSync(join(plain, 'index.html'), 'utf8')).not.toContain('<section id="recommend">');
    expect(figureEntries(readResultsFolder(plain)).some((f) => f.id.startsWith('ndcg-'))).toBe(false);
    rmSync(plain, { recursive: true, force: true });
  });

  it('names from the data are escaped in the section, the links and the embedded spec', () => {
    const evil = '<img src=x onerror=alert(1)>';
    const res = readResultsFolder(dir);
    res.recommend = res.recommend!.map((r) => ({ ...r, dataset: evil, mechanism: r.mechanism === 'lshrr' ? `${evil}-m` : r.mechanism }));
    const html = buildHtml(res, figureEntries(res));
    expect(html).not.toContain(evil);
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;-m');
  });

  it('rebuilt without recommend.csv, the folder keeps no NDCG figure or recommendation table of before', async () => {
    const again = copyOf(FIXTURE);
    await buildOutputs(again, { png: false, quiet: true });
    expect(existsSync(join(again, 'figures', 'ndcg-ml-small.svg'))).toBe(true);
    rmSync(join(again, 'recommend.csv'));
    await buildOutputs(again, { png: false, quiet: true });
    for (const f of ['figures/ndcg-ml-small.svg', 'figures/ndcg-ml-small.vl.json', 'tables/recommend.md', 'tables/recommend.tex', 'tables/recommend-table.csv'])
      expect(existsSync(join(again, f))).toBe(false);
    expect(existsSync(join(again, 'figures', 'fig2-ml-small.svg'))).toBe(true);
    rmSync(again, { recursive: true, force: true });
  });

  it("a recommendation claim's badge links to its data set's NDCG figure", async () => {
    const claim = { id: 'recommend-beats-pop', dataset: 'ml-small', verdict: 'supported', statement: 's', cells_tested: 2, cells_for: 1, cells_against: 0, detail: 'd' };
    writeFileSync(join(dir, 'claims.json'), JSON.stringify({ claims: [claim] }));
    await buildOutputs(dir, { png: false, quiet: true });
    const html = readFileSync(join(dir, 'index.html'), 'utf8');
    expect(html).toMatch(/<a class="claim-badge"[^>]*href="#ndcg-ml-small">supported<\/a>/);
  });
});
