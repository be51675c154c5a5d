/**
 * Outputs of a results folder, built from its files only (no data, no recomputation):
 * figures/ (Vega-Lite specs, SVG, PNG), tables/ and index.html. `lshdp run`, `merge`, `plot`
 * and `report` all come through here.
 */
import { join } from 'node:path';
import { writeFileAtomic } from '../util/atomic.js';
import { readResultsFolder, uniqueInOrder, type ResultsFolder } from './read.js';
import { fig1Spec, fig2Spec, DEFAULT_THRESHOLD, type VlSpec } from './specs.js';
import { renderSvg, svgToPng } from './render.js';
import { utilityTable, budgetsTable } from './tables.js';
import { buildHtml, copyAssets, type FigureEntry } from './html.js';

export { readResultsFolder } from './read.js';
export type { ResultsFolder, UtilityRow, NnDistanceRow, BudgetRowLike } from './read.js';
export { utilityTable, budgetsTable, type TableFormat } from './tables.js';
export { fig1Spec, fig2Spec } from './specs.js';
export { renderSvg, svgToPng } from './render.js';

export interface OutputOptions {
  /** also write PNGs (default true) */
  png?: boolean;
  /** no progress lines on stderr */
  quiet?: boolean;
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

/** Every figure of the folder, with unique file stems (fig1-<dataset>, fig2-<dataset>). */
export function figureEntries(res: ResultsFolder): FigureEntry[] {
  const d = thresholdOf(res);
  const used = new Set<string>();
  const stem = (prefix: string, dataset: string) => {
    let s = `${prefix}-${slug(dataset)}`;
    for (let i = 2; used.has(s); i++) s = `${prefix}-${slug(dataset)}-${i}`;
    used.add(s);
    return s;
  };
  const out: FigureEntry[] = [];
  for (const ds of uniqueInOrder((res.nnDistances ?? []).map((r) => r.dataset))) {
    const id = stem('fig1', ds);
    out.push({
      id,
      title: `Fig. 1: ${ds}`,
      caption: `Fig. 1 (${ds}): distribution of the true 1-NN angular distance of the query users, one curve per dimension n; the dashed line marks d_θ = ${d} and the legend gives the share of users below it.`,
      spec: fig1Spec(ds, res.nnDistances!, d),
      svgPath: `figures/${id}.svg`,
    });
  }
  for (const ds of uniqueInOrder((res.utility ?? []).map((r) => r.dataset))) {
    const id = stem('fig2', ds);
    out.push({
      id,
      title: `Fig. 2: ${ds}`,
      caption: `Fig. 2 (${ds}): utility loss against the total privacy budget ξ (extended DP at d_θ = ${d}) for each κ; vanilla LSH as horizontal lines; ±1 standard error over trials.`,
      spec: fig2Spec(ds, res.utility!, d),
      svgPath: `figures/${id}.svg`,
    });
  }
  return out;
}

function log(opts: OutputOptions, msg: string): void {
  if (!opts.quiet) process.stderr.write(`${msg}\n`);
}

/** figures/<stem>.vl.json, .svg and (unless png: false) .png for every figure. */
export async function writeFigures(res: ResultsFolder, opts: OutputOptions = {}): Promise<FigureEntry[]> {
  const figs = figureEntries(res);
  const dir = join(res.dir, 'figures');
  for (const f of figs) {
    await writeFileAtomic(join(dir, `${f.id}.vl.json`), JSON.stringify(f.spec as VlSpec, null, 2) + '\n');
    const svg = await renderSvg(f.spec);
    await writeFileAtomic(join(dir, `${f.id}.svg`), svg);
    if (opts.png !== false) await writeFileAtomic(join(dir, `${f.id}.png`), svgToPng(svg));
    log(opts, `lshdp: wrote figures/${f.id}.{vl.json,svg${opts.png !== false ? ',png' : ''}}`);
  }
  return figs;
}

/** tables/utility.{md,tex,csv} and tables/budgets.{md,tex} for the files present. */
export async function writeTables(res: ResultsFolder, opts: OutputOptions = {}): Promise<void> {
  const dir = join(res.dir, 'tables');
  if (res.utility) {
    await writeFileAtomic(join(dir, 'utility.md'), utilityTable(res.utility, 'md'));
    await writeFileAtomic(join(dir, 'utility.tex'), utilityTable(res.utility, 'latex'));
    await writeFileAtomic(join(dir, 'utility.csv'), utilityTable(res.utility, 'csv'));
    log(opts, 'lshdp: wrote tables/utility.{md,tex,csv}');
  }
  if (res.budgets) {
    await writeFileAtomic(join(dir, 'budgets.md'), budgetsTable(res.budgets, 'md'));
    await writeFileAtomic(join(dir, 'budgets.tex'), budgetsTable(res.budgets, 'latex'));
    log(opts, 'lshdp: wrote tables/budgets.{md,tex}');
  }
}

/** index.html plus the local vega builds in assets/. */
export async function writeReport(res: ResultsFolder, figs: FigureEntry[], opts: OutputOptions = {}): Promise<void> {
  await copyAssets(res.dir);
  await writeFileAtomic(join(res.dir, 'index.html'), buildHtml(res, figs));
  log(opts, 'lshdp: wrote index.html (open it in a browser; works offline)');
}

/** Everything: figures, tables and the HTML report of a results folder. */
export async function buildOutputs(resultsDir: string, opts: { png?: boolean; quiet?: boolean } = {}): Promise<void> {
  const res = readResultsFolder(resultsDir);
  const figs = await writeFigures(res, opts);
  await writeTables(res, opts);
  await writeReport(res, figs, opts);
}
