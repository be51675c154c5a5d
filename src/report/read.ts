/**
 * Reading a finished results folder (docs/ARCHITECTURE.md, "Output files"). The report never
 * recomputes anything: every figure and table is built from these files alone. Missing files are
 * `null` (a partial folder still gets a partial report); malformed ones are one-line user errors.
 */
import type { BudgetRow } from '../privacy/budget.js';
import { readFileSync, existsSync, statSync } from 'node:fs';
import { join, basename } from 'node:path';
import Papa from 'papaparse';
import { UserError, fileError } from '../util/errors.js';
import type { DatasetSummary } from '../data/types.js';

export interface UtilityRow {
  dataset: string;
  n: number;
  kappa: number | null;
  k: number;
  mechanism: string;
  xi: number | null;
  epsilon: number | null;
  trials: number;
  queries: number;
  lossMean: number;
  lossSe: number | null;
  recallMean: number | null;
  recallSe: number | null;
  ldpEpsilon: number | null;
  fallback: boolean | null;
}

export interface NnDistanceRow {
  dataset: string;
  n: number;
  user: string;
  nn1: number;
}

/** One row of budgets.csv: privacy's `BudgetRow`. */
export type BudgetRowLike = BudgetRow;

export interface ResultsFolder {
  dir: string;
  /** run name: manifest.name, else the folder's name */
  name: string;
  utility: UtilityRow[] | null;
  nnDistances: NnDistanceRow[] | null;
  budgets: BudgetRowLike[] | null;
  datasets: DatasetSummary[] | null;
  /** read defensively: any JSON object */
  manifest: Record<string, unknown> | null;
}

export const UTILITY_COLUMNS = [
  'dataset', 'n', 'kappa', 'k', 'mechanism', 'xi', 'epsilon', 'trials', 'queries',
  'utility_loss_mean', 'utility_loss_se', 'recall_mean', 'recall_se', 'ldp_epsilon', 'fallback',
] as const;
export const NN_COLUMNS = ['dataset', 'n', 'user', 'nn1_distance'] as const;
export const BUDGET_COLUMNS = ['d', 'delta', 'kappa', 'xi', 'alpha', 'epsilon', 'ldp_budget', 'fallback'] as const;

/** A parsed CSV: rows as column → cell, with their 1-based line numbers for error messages. */
interface Table {
  file: string;
  rows: { line: number; cell: (col: string) => string }[];
}

function readCsv(file: string, required: readonly string[]): Table {
  const text = readFileSync(file, 'utf8');
  const parsed = Papa.parse<string[]>(text, { header: false, skipEmptyLines: 'greedy' });
  const bad = parsed.errors.find((e) => e.type !== 'Delimiter');
  if (bad) throw fileError(file, (bad.row ?? 0) + 1, `malformed CSV: ${bad.message}`);
  const [header, ...data] = parsed.data;
  if (!header) throw fileError(file, 1, 'empty file (expected a header line)');
  const index = new Map(header.map((h, i) => [h.trim(), i]));
  const missing = required.filter((c) => !index.has(c));
  if (missing.length) throw fileError(file, 1, `missing column(s) ${missing.join(', ')} in the header`);
  return {
    file,
    rows: data.map((cells, i) => {
      const line = i + 2;
      if (cells.length !== header.length) {
        throw fileError(file, line, `expected ${header.length} fields, found ${cells.length}`);
      }
      return { line, cell: (col: string) => (cells[index.get(col)!] ?? '').trim() };
    }),
  };
}

function num(t: Table, row: Table['rows'][number], col: string): number {
  const s = row.cell(col);
  const v = Number(s);
  if (s === '' || !Number.isFinite(v)) throw fileError(t.file, row.line, `column ${col}: "${s}" is not a number`);
  return v;
}

function optNum(t: Table, row: Table['rows'][number], col: string): number | null {
  return row.cell(col) === '' ? null : num(t, row, col);
}

function optBool(t: Table, row: Table['rows'][number], col: string): boolean | null {
  const s = row.cell(col);
  if (s === '') return null;
  if (s === 'true') return true;
  if (s === 'false') return false;
  throw fileError(t.file, row.line, `column ${col}: "${s}" is not true/false`);
}

function str(t: Table, row: Table['rows'][number], col: string): string {
  const s = row.cell(col);
  if (s === '') throw fileError(t.file, row.line, `column ${col}: empty`);
  return s;
}

export function readUtilityCsv(file: string): UtilityRow[] {
  const t = readCsv(file, UTILITY_COLUMNS);
  return t.rows.map((r) => ({
    dataset: str(t, r, 'dataset'),
    n: num(t, r, 'n'),
    kappa: optNum(t, r, 'kappa'),
    k: num(t, r, 'k'),
    mechanism: str(t, r, 'mechanism'),
    xi: optNum(t, r, 'xi'),
    epsilon: optNum(t, r, 'epsilon'),
    trials: num(t, r, 'trials'),
    queries: num(t, r, 'queries'),
    lossMean: num(t, r, 'utility_loss_mean'),
    lossSe: optNum(t, r, 'utility_loss_se'),
    recallMean: optNum(t, r, 'recall_mean'),
    recallSe: optNum(t, r, 'recall_se'),
    ldpEpsilon: optNum(t, r, 'ldp_epsilon'),
    fallback: optBool(t, r, 'fallback'),
  }));
}

export function readNnDistancesCsv(file: string): NnDistanceRow[] {
  const t = readCsv(file, NN_COLUMNS);
  return t.rows.map((r) => ({
    dataset: str(t, r, 'dataset'),
    n: num(t, r, 'n'),
    user: r.cell('user'),
    nn1: num(t, r, 'nn1_distance'),
  }));
}

export function readBudgetsCsv(file: string): BudgetRowLike[] {
  const t = readCsv(file, BUDGET_COLUMNS);
  return t.rows.map((r) => ({
    d: num(t, r, 'd'),
    delta: num(t, r, 'delta'),
    kappa: num(t, r, 'kappa'),
    xi: num(t, r, 'xi'),
    alpha: optNum(t, r, 'alpha'),
    epsilon: num(t, r, 'epsilon'),
    ldpBudget: num(t, r, 'ldp_budget'),
    fallback: optBool(t, r, 'fallback') ?? false,
  }));
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw fileError(file, undefined, `not valid JSON (${(e as Error).message.split('\n')[0]})`);
  }
}

function readDatasetsJson(file: string): DatasetSummary[] {
  const v = readJson(file);
  if (!Array.isArray(v)) throw fileError(file, undefined, 'expected a JSON array of data set summaries');
  v.forEach((d, i) => {
    if (typeof d !== 'object' || d === null || typeof (d as { name?: unknown }).name !== 'string') {
      throw fileError(file, undefined, `entry ${i}: expected an object with a string "name"`);
    }
  });
  return v as DatasetSummary[];
}

/** Read every known file of a results folder; at least one of the CSVs must be present. */
export function readResultsFolder(dir: string): ResultsFolder {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new UserError(`${dir}: not a results folder (no such directory)`);
  const at = (f: string): string | null => (existsSync(join(dir, f)) ? join(dir, f) : null);
  const utilityFile = at('utility.csv');
  const nnFile = at('nn_distances.csv');
  const budgetsFile = at('budgets.csv');
  const datasetsFile = at('datasets.json');
  const manifestFile = at('manifest.json');
  if (!utilityFile && !nnFile) {
    throw new UserError(`${dir}: not a results folder (neither utility.csv nor nn_distances.csv found)`);
  }
  let manifest: Record<string, unknown> | null = null;
  if (manifestFile) {
    const m = readJson(manifestFile);
    if (typeof m !== 'object' || m === null || Array.isArray(m)) throw fileError(manifestFile, undefined, 'expected a JSON object');
    manifest = m as Record<string, unknown>;
  }
  // manifest.name, else the config's name, else the folder's name
  const cfgName = (manifest?.config as { name?: unknown } | undefined)?.name;
  const name = [manifest?.name, cfgName].find((v): v is string => typeof v === 'string' && v !== '') ??
    basename(dir.replace(/[\\/]+$/, ''));
  return {
    dir,
    name,
    utility: utilityFile ? readUtilityCsv(utilityFile) : null,
    nnDistances: nnFile ? readNnDistancesCsv(nnFile) : null,
    budgets: budgetsFile ? readBudgetsCsv(budgetsFile) : null,
    datasets: datasetsFile ? readDatasetsJson(datasetsFile) : null,
    manifest,
  };
}

/** Distinct values in first-seen order (files are written in config order, which we keep). */
export function uniqueInOrder<T>(xs: Iterable<T>): T[] {
  return [...new Set(xs)];
}
