/**
 * Outputs of a results folder, built from its files only (no data, no recomputation):
 * figures/ (Vega-Lite specs, SVG, PNG), tables/ and index.html. `lshdp run`, `merge`, `plot`
 * and `report` all come through here.
 */
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { writeFileAtomic } from '../util/atomic.js';
import { readResultsFolder, uniqueInOrder, type ResultsFolder } from './read.js';
import { DEFAULT_THRESHOLD, type VlSpec } from './specs.js';
import { distanceWords, fig1Spec } from './nnFigure.js';
import { fig2Spec, fig2Series, type Fig2Metric } from './utilityFigure.js';
import { filterUtility, type UtilityFilter } from './filter.js';
import { inThisThread, type SvgRenderer } from './renderThreads.js';
import { RenderedFigures, specHash } from './rendered.js';
import { utilityTable } from './tables.js';
import { budgetsTable } from './budgetTables.js';
import { buildHtml, copyAssets, type PageOptions } from './html.js';
import type { FigureEntry } from './markup.js';

import { privacyFigureEntries } from './privacyFigures.js';
import { recommendFigureAt, recommendSpec } from './recommendFigure.js';
import { recommendTable } from './recommendTable.js';
import { attackFigureEntries } from './attackFigures.js';
import { matchedFigureEntries } from './matchedFigure.js';
import type { FrontierSlice } from './frontierFigure.js';
import { attackTable } from './attackTable.js';
import { marksOf, withReleaseMarks } from './releasable.js';
import { evaluationTable } from './evaluationTable.js';
import { optionalEvaluations } from '../evaluations/catalog.js';
import { RECOMMEND_FACTS } from '../evaluations/recommend/facts.js';
import { ATTACK_FACTS } from '../evaluations/attack/facts.js';
export { readResultsFolder } from './read.js';
export { withReleaseMarks } from './releasable.js';
export type { ResultsFolder, UtilityRow, NnDistanceRow, BudgetRecord } from './read.js';
export { utilityTable, type TableFormat } from './tables.js';
export { budgetsTable } from './budgetTables.js';
export { recommendTable } from './recommendTable.js';
export { fig1Spec } from './nnFigure.js';
export { fig2Spec } from './utilityFigure.js';
export { renderSvg, svgToPng } from './render.js';
export { filterUtility, type UtilityFilter } from './filter.js';

/** The files a figure can be written as: Vega-Lite spec, SVG, PNG (2× the SVG's size). */
export type FigureFormat = 'vl' | 'svg' | 'png';
export const FIGURE_FORMATS: FigureFormat[] = ['vl', 'svg', 'png'];
const EXTENSION: Record<FigureFormat, string> = { vl: 'vl.json', svg: 'svg', png: 'png' };

export interface OutputOptions {
  /** also write PNGs (default true); `formats` overrides it */
  png?: boolean;
  /** the files to write per figure (default vl, svg and, unless png is false, png) */
  formats?: FigureFormat[];
  /** no progress lines on stderr */
  quiet?: boolean;
}

export interface FigureOptions {
  /** keep only these utility rows (Fig. 2) and dimensions n (Fig. 1) */
  filter?: UtilityFilter;
  /** Fig. 2's y axis: utility loss (default) and/or recall */
  metrics?: Fig2Metric[];
  /** the attack figures' slice: the known share and the list length N to read (default: the evaluations' headline slices; the grid's nearest) */
  slice?: FrontierSlice;
}

/** A file-name-safe form of a data set name (names are free text in configs). */
export function slug(name: string): string {
  const s = name.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, '');
  return s === '' ? 'dataset' : s.slice(0, 80);
}

/**
 * The angular distance the run states its budgets at: budgets.csv's d when it has one value,
 * else the manifest's config.d, else the protocol default 0.1.
 */
export function thresholdOf(res: ResultsFolder): number {
  const ds = uniqueInOrder((res.budgets ?? []).map((b) => b.d));
  if (ds.length === 1) return ds[0];
  const cfg = res.manifest?.config as Record<string, unknown> | undefined;
  const d = cfg?.d ?? (cfg?.privacy as Record<string, unknown> | undefined)?.d;
  return typeof d === 'number' && d > 0 && d < 1 ? d : DEFAULT_THRESHOLD;
}

/**
 * Every figure of the folder, with unique file stems: `fig1-<dataset>`; `fig2-<dataset>` (utility
 * loss) and `recall-<dataset>` (recall), with `-k<k>` when the run has several k; every
 * mechanism label of a data set in its one Fig. 2 (per k), however many there are; with
 * recommend.csv, `ndcg-<dataset>`.
 * attack.csv, `reid-<dataset>` and `frontier-<dataset>`.
 */
export function figureEntries(res: ResultsFolder, opts: FigureOptions = {}): FigureEntry[] {
  const d = thresholdOf(res);
  // the run's distance (manifest's effective config: `metric: jaccard`, else the paper's angular)
  const words = distanceWords((res.manifest?.config as { metric?: unknown } | undefined)?.metric);
  const used = new Set<string>();
  const stem = (base: string) => {
    let s = base;
    for (let i = 2; used.has(s); i++) s = `${base}-${i}`;
    used.add(s);
    return s;
  };
  const filter = opts.filter ?? {};
  const out: FigureEntry[] = [];
  const nn = (res.nnDistances ?? []).filter((r) => !filter.n || filter.n.includes(r.n));
  for (const ds of uniqueInOrder(nn.map((r) => r.dataset))) {
    const id = stem(`fig1-${slug(ds)}`);
    out.push({
      id,
      title: `Fig. 1: ${ds}`,
      caption: `Fig. 1 (${ds}): distribution of the true 1-NN ${words.name} of the query users, one curve per dimension n; the dashed line marks ${words.symbol} = ${d} and the legend gives the share of users below it.`,
      spec: fig1Spec(ds, nn, d, words),
      svgPath: `figures/${id}.svg`,
    });
  }
  const all = res.utility ?? [];
  const rows = filterUtility(all, filter, join(res.dir, 'utility.csv'));
  for (const metric of opts.metrics ?? ['utility']) {
    for (const ds of uniqueInOrder(rows.map((r) => r.dataset))) {
      const allSeries = fig2Series(ds, all);
      const series = fig2Series(ds, rows);
      const ks = uniqueInOrder(rows.filter((r) => r.dataset === ds && r.base !== 'exact').map((r) => r.k));
      const kAll = uniqueInOrder(all.filter((r) => r.dataset === ds).map((r) => r.k));
      for (const k of ks) {
        // every mechanism of the data set in one figure, on the panels' shared axes
        const spec = fig2Spec(ds, rows, k, { d, metric, series, allSeries, words });
        if ((spec.data as { values: unknown[] }).values.length === 0) continue;
        const id = stem(`${metric === 'utility' ? 'fig2' : 'recall'}-${slug(ds)}${kAll.length > 1 ? `-k${k}` : ''}`);
        const what = metric === 'utility' ? 'utility loss' : `recall@${k}`;
        out.push({
          id,
          title: `Fig. 2: ${ds}, k = ${k}`,
          caption: `Fig. 2 (${ds}, k = ${k}): ${what} against the total privacy budget ξ (extended DP at ${words.symbol} = ${d}), one panel per κ and n, one curve per mechanism (${series.join(', ')}); mechanisms without privacy as dashed horizontal lines; ±1 standard error over trials.`,
          spec,
          svgPath: `figures/${id}.svg`,
        });
      }
    }
  }
  if ((opts.metrics ?? ['utility']).includes('utility')) for (const f of recommendFigureEntries(res, filter, d, words.symbol)) out.push({ ...f, id: stem(f.id) });
  // the accounting figures (per-bit ε and flip probability against ξ per accountant and κ) belong
  // to the whole folder, not to a filtered view of its utility rows
  const unfiltered = Object.values(opts.filter ?? {}).every((v) => v === undefined || v === null || (Array.isArray(v) && v.length === 0));
  if (unfiltered && (opts.metrics ?? ['utility']).includes('utility')) for (const f of privacyFigureEntries(res.budgets, d)) out.push({ ...f, id: stem(f.id) });
  // the linkage attack's (attack.csv): re-identification against ξ and the privacy–utility frontier
  if (unfiltered && (opts.metrics ?? ['utility']).includes('utility')) out.push(...attackFigureEntries(res, stem, slug, opts.slice));
  // utility retained at matched attack success (matched_curve.csv: a config with decide:)
  if (unfiltered && (opts.metrics ?? ['utility']).includes('utility')) out.push(...matchedFigureEntries(res, stem, slug));
  return out;
}

/**
 * "NDCG@10 against ξ" per data set of recommend.csv (`ndcg-<dataset>`), at k = 10 and N = 10 or
 * the grid's nearest (recommendFigureAt), after the same filters as Fig. 2 (the values a folder
 * lacks were checked against utility.csv); none for a folder without recommendations.
 */
function recommendFigureEntries(res: ResultsFolder, filter: UtilityFilter, d: number, symbol: string): FigureEntry[] {
  const rows = filterUtility(res.recommend ?? [], filter, null);
  return uniqueInOrder(rows.map((r) => r.dataset)).flatMap((ds) => {
    const at = recommendFigureAt(ds, rows);
    if (at === null) return [];
    const id = `ndcg-${slug(ds)}`;
    return [
      {
        id,
        title: `NDCG@${at.top}: ${ds}, k = ${at.k}`,
        caption: `Recommendations (${ds}, k = ${at.k}): NDCG@${at.top} of the top-${at.top} lists made from each mechanism's neighbours, against the total privacy budget ξ (extended DP at ${symbol} = ${d}), one panel per κ and n, one curve per mechanism; vanilla LSH, exact k-NN and the popularity baseline pop as dashed horizontal lines; ±1 standard error over trials.`,
        spec: recommendSpec(ds, rows, at, d, symbol),
        svgPath: `figures/${id}.svg`,
      },
    ];
  });
}

function log(opts: OutputOptions, msg: string): void {
  if (!opts.quiet) process.stderr.write(`${msg}\n`);
}

/**
 * The figures in the asked formats (default figures/<stem>.vl.json, .svg and, unless png is
 * false, .png) in `outDir` (default the folder's figures/). With `reuse` (a run's report), a
 * figure whose spec is the one its files there were rendered from keeps them, and the files written
 * are recorded (src/report/rendered.ts); without it (lshdp plot, lshdp report) every figure is
 * rendered, and a figure written drops out of that record.
 */
export async function writeFigures(res: ResultsFolder, opts: OutputOptions & FigureOptions & { outDir?: string; reuse?: boolean; renderer?: SvgRenderer } = {}): Promise<FigureEntry[]> {
  const figs = figureEntries(res, opts);
  const dir = opts.outDir ?? join(res.dir, 'figures');
  const formats = opts.formats ?? FIGURE_FORMATS.filter((f) => f !== 'png' || opts.png !== false);
  const rendered = new RenderedFigures(dir);
  const renderer = opts.renderer ?? inThisThread;
  const drawn = formats.includes('svg') || formats.includes('png');
  // which figures keep their files; on rendering threads every other figure's SVG is asked at once
  const todo = figs.map((f) => {
    const text = JSON.stringify(f.spec as VlSpec, null, 2) + '\n';
    const hash = specHash(text);
    const kept =
      opts.reuse === true &&
      rendered.current(
        f.id,
        hash,
        formats,
        formats.map((x) => `${f.id}.${EXTENSION[x]}`),
      );
    const svg = !kept && drawn && renderer.threaded ? renderer.render(f.spec) : null;
    svg?.catch(() => undefined); // awaited below, in order
    return { f, text, hash, kept, svg };
  });
  // a figure's PNG is made (on a thread where there is one) while the next figure's SVG renders;
  // its files are finished in the figures' order
  let finished: Promise<void> = Promise.resolve();
  const then = (finish: () => Promise<void>) => {
    finished = finished.then(finish);
    finished.catch(() => undefined); // awaited below
  };
  try {
    for (const { f, text, hash, kept, svg: asked } of todo) {
      const where = `${relative(res.dir, dir) || '.'}/${f.id}.{${formats.map((x) => EXTENSION[x]).join(',')}}`;
      if (kept) {
        then(async () => log(opts, `lshdp: kept ${where} (the same spec)`));
        continue;
      }
      await rendered.forget(f.id);
      if (formats.includes('vl')) await writeFileAtomic(join(dir, `${f.id}.vl.json`), text);
      let png: Promise<Uint8Array> | null = null;
      if (drawn) {
        const svg = await (asked ?? renderer.render(f.spec));
        if (formats.includes('svg')) await writeFileAtomic(join(dir, `${f.id}.svg`), svg);
        if (formats.includes('png')) png = renderer.png(svg);
        png?.catch(() => undefined); // awaited below, in order
      }
      then(async () => {
        if (png) await writeFileAtomic(join(dir, `${f.id}.png`), await png);
        if (opts.reuse) await rendered.record(f.id, hash, formats);
        log(opts, `lshdp: wrote ${where}`);
      });
    }
  } catch (e) {
    await renderer.drain();
    await finished.catch(() => undefined);
    throw e;
  }
  // every SVG is drawn: the PNGs no thread has started are made here, beside the threads
  await renderer.drain();
  await finished;
  if (figs.length === 0) log(opts, 'lshdp: no figure to write (no rows left after the filters)');
  removeRetired(dir, retiredFigureFiles(res, dir, figs));
  return figs;
}

/**
 * Figure files an earlier lshdp wrote that this one never writes for the folder: one
 * `fig2-<dataset>` for all k, now `fig2-<dataset>-k<k>` when the run has several k; and the
 * `-part<i>` figures a data set with more than 7 mechanism labels was split into, now one figure.
 * Removed so a re-plotted folder does not keep a stale figure beside the new ones (never one
 * this run wrote).
 */
function retiredFigureFiles(res: ResultsFolder, dir: string, written: FigureEntry[]): string[] {
  const rows = res.utility ?? [];
  const datasets = uniqueInOrder(rows.map((r) => r.dataset));
  const oneForAllK = datasets
    .filter((ds) => uniqueInOrder(rows.filter((r) => r.dataset === ds).map((r) => r.k)).length > 1)
    .flatMap((ds) => FIGURE_FORMATS.map((f) => `fig2-${slug(ds)}.${EXTENSION[f]}`));
  const slugs = new Set(datasets.map(slug));
  const ids = new Set(written.map((f) => f.id));
  const parts = (existsSync(dir) ? readdirSync(dir) : []).filter((name) => {
    const m = /^(?:fig2|recall)-(.+?)(?:-k\d+)?-part\d+\.(?:vl\.json|svg|png)$/.exec(name);
    return m !== null && slugs.has(m[1]) && !ids.has(name.replace(/\.(?:vl\.json|svg|png)$/, ''));
  });
  // a folder that no longer has recommend.csv keeps no NDCG figure of an earlier run
  const ndcg = res.recommend ? [] : (existsSync(dir) ? readdirSync(dir) : []).filter((name) => /^ndcg-.+\.(?:vl\.json|svg|png)$/.test(name));
  return [...oneForAllK, ...parts, ...ndcg];
}

function removeRetired(dir: string, names: string[]): void {
  for (const name of names) rmSync(join(dir, name), { force: true });
}

/** The file names under tables/ (docs/OUTPUTS.md). */
export const TABLE_FILES = {
  utilityMd: 'utility.md',
  utilityTex: 'utility.tex',
  utilityCsv: 'utility-table.csv',
  budgetsMd: 'budgets.md',
  budgetsTex: 'budgets.tex',
  recommendMd: 'recommend.md',
  recommendTex: 'recommend.tex',
  recommendCsv: 'recommend-table.csv',
  attackMd: 'attack.md',
  attackTex: 'attack.tex',
} as const;

/** tables/utility.{md,tex}, tables/utility-table.csv, tables/budgets.{md,tex} and tables/attack.{md,tex} for the files present. */
export async function writeTables(res: ResultsFolder, opts: OutputOptions = {}): Promise<void> {
  const dir = join(res.dir, 'tables');
  // the name this table had before utility-table.csv (it clashed with the top-level utility.csv)
  removeRetired(dir, ['utility.csv']);
  const marks = marksOf(res);
  if (res.utility) {
    await writeFileAtomic(join(dir, TABLE_FILES.utilityMd), utilityTable(res.utility, 'md', marks));
    await writeFileAtomic(join(dir, TABLE_FILES.utilityTex), utilityTable(res.utility, 'latex', marks));
    await writeFileAtomic(join(dir, TABLE_FILES.utilityCsv), utilityTable(res.utility, 'csv'));
    log(opts, `lshdp: wrote tables/${TABLE_FILES.utilityMd}, ${TABLE_FILES.utilityTex}, ${TABLE_FILES.utilityCsv}`);
  }
  // likewise its recommendation tables
  if (!res.recommend) removeRetired(dir, [TABLE_FILES.recommendMd, TABLE_FILES.recommendTex, TABLE_FILES.recommendCsv]);
  if (res.recommend) {
    await writeFileAtomic(join(dir, TABLE_FILES.recommendMd), recommendTable(res.recommend, 'md', marks));
    await writeFileAtomic(join(dir, TABLE_FILES.recommendTex), recommendTable(res.recommend, 'latex', marks));
    await writeFileAtomic(join(dir, TABLE_FILES.recommendCsv), recommendTable(res.recommend, 'csv'));
    log(opts, `lshdp: wrote tables/${TABLE_FILES.recommendMd}, ${TABLE_FILES.recommendTex}, ${TABLE_FILES.recommendCsv}`);
  }
  if (res.budgets) {
    await writeFileAtomic(join(dir, TABLE_FILES.budgetsMd), budgetsTable(res.budgets, 'md', res.directionalBudgets ?? [], res.ownBudgets ?? []));
    await writeFileAtomic(join(dir, TABLE_FILES.budgetsTex), budgetsTable(res.budgets, 'latex', res.directionalBudgets ?? [], res.ownBudgets ?? []));
    log(opts, `lshdp: wrote tables/${TABLE_FILES.budgetsMd}, ${TABLE_FILES.budgetsTex}`);
  }
  if (res.attack) {
    await writeFileAtomic(join(dir, TABLE_FILES.attackMd), attackTable(res.attack, 'md', false, marks));
    await writeFileAtomic(join(dir, TABLE_FILES.attackTex), attackTable(res.attack, 'latex', false, marks));
    log(opts, `lshdp: wrote tables/${TABLE_FILES.attackMd}, ${TABLE_FILES.attackTex}`);
  }
  // every other evaluation's file: tables/<name>.md, the generic view (`lshdp table <name>`)
  for (const facts of optionalEvaluations().filter((e) => !OWN_TABLES.includes(e.name))) {
    const rows = (res as unknown as Record<string, Record<string, unknown>[] | null | undefined>)[facts.name];
    const name = genericTableFile(facts.name);
    if (!rows) removeRetired(dir, [name]);
    else {
      await writeFileAtomic(join(dir, name), evaluationTable(facts, rows, 'md', marks));
      log(opts, `lshdp: wrote tables/${name}`);
    }
  }
}

/** The evaluations whose tables are written above by their own views (utility is always on). */
const OWN_TABLES: readonly string[] = [RECOMMEND_FACTS.name, ATTACK_FACTS.name];
/** tables/<name>.md of an evaluation without a view of its own (docs/OUTPUTS.md). */
export const genericTableFile = (name: string): string => `${name}.md`;

/**
 * index.html plus the local vega builds in assets/. The page shows the SVGs of figures/; with
 * `singleFile` it carries the specs and the vega builds inline instead, for mailing.
 */
export async function writeReport(res: ResultsFolder, figs: FigureEntry[], opts: OutputOptions & PageOptions = {}): Promise<void> {
  await copyAssets(res.dir);
  await writeFileAtomic(join(res.dir, 'index.html'), buildHtml(res, figs, { singleFile: opts.singleFile }));
  log(opts, `lshdp: wrote index.html (open it in a browser; works offline${opts.singleFile ? '; a single file, figures and scripts inline' : ''})`);
}

/** Everything: figures, tables and the HTML report of a results folder (`reuse`: a run's, which keeps the figures whose spec did not change: writeFigures). */
export async function buildOutputs(resultsDir: string, opts: { png?: boolean; quiet?: boolean; singleFile?: boolean; reuse?: boolean; renderer?: SvgRenderer } = {}): Promise<void> {
  const res = await withReleaseMarks(readResultsFolder(resultsDir));
  const figs = await writeFigures(res, opts);
  await writeTables(res, opts);
  await writeReport(res, figs, opts);
}
