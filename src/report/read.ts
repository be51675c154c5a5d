/**
 * Reading a finished results folder (docs/ARCHITECTURE.md, "Output files"). The report never
 * recomputes anything: every figure and table is built from these files alone. Missing files are
 * `null` (a partial folder still gets a partial report); malformed ones are one-line user errors.
 */
import { flipProbability } from '../privacy/rr.js';
import { summaryFromJson } from '../data/summaryJson.js';
import type { AttackCoordinates, RecommendCoordinates, ResultCoordinates } from '../experiment/trialValues.js';
import { columnsOf, type ColumnType, type EvaluationFacts } from '../evaluations/types.js';
import { evaluationFacts, optionalEvaluations } from '../evaluations/catalog.js';
import { RECOMMEND_FACTS } from '../evaluations/recommend/facts.js';
import { ATTACK_FACTS } from '../evaluations/attack/facts.js';
import { ATTACK_COLUMNS as WRITTEN_ATTACK_COLUMNS, NN_COLUMNS, RECOMMEND_COLUMNS as WRITTEN_RECOMMEND_COLUMNS, UTILITY_COLUMNS as WRITTEN_UTILITY_COLUMNS } from '../experiment/columns.js';

import { readFileSync, existsSync, statSync } from 'node:fs';
import { join, basename } from 'node:path';
import Papa from 'papaparse';
import { UserError, fileError } from '../util/errors.js';
import type { DatasetSummary } from '../data/types.js';
import { BUDGET_RECORD_COLUMNS, type BudgetRecord, type DirectionalBudgetRecord } from '../privacy/budget.js';
import { ACCOUNTANT_ROWS_MECHANISM, builtInFacts } from '../mechanisms/catalog.js';
import type { OwnBudgetRecord } from '../mechanisms/ownBudget.js';

/**
 * One row of utility.csv. Field names are the file's column names (docs/OUTPUTS.md), so a row
 * printed as JSON (`lshdp table utility --format json`) speaks the same vocabulary as the CSV.
 */
export interface UtilityRow extends ResultCoordinates {
  /** LSHRR's per-bit randomized-response ε */
  epsilon_bit: number | null;
  /** LapLSH's Laplace ε */
  epsilon_lap: number | null;
  /** the LDP-equivalent ε (κε for LSHRR, 2ε for LapLSH, ε for RAPPOR): comparable across mechanisms */
  epsilon_ldp: number | null;
  /** LSHRR: no α exists (d^κ ≥ δ), so ξ = κε; null where it does not apply */
  fallback: boolean | null;
  trials: number;
  queries: number;
  utility_loss_mean: number;
  /** standard error over trials; null when unknown (one trial) */
  utility_loss_se: number | null;
  recall_mean: number | null;
  recall_se: number | null;
  /** vmf, purkayastha: the concentration c (present when the file has the column) */
  concentration?: number | null;
  /** the distance c is private for: euclidean (vmf), angle (purkayastha) */
  concentration_metric?: string | null;
}

/**
 * One row of recommend.csv (config `recommend`, docs/RECOMMEND.md): mean ± se over trials of the
 * per-trial means over queries of HR@N, NDCG@N and item recall@N for one (data set, n, κ, k,
 * mechanism, ξ, N). The baselines: `exact` (κ and ξ empty) and `pop` (κ, k and ξ empty), one
 * trial each, their se empty. Field names are the file's column names.
 */
export interface RecommendRow extends RecommendCoordinates {
  hr_mean: number;
  hr_se: number | null;
  ndcg_mean: number;
  ndcg_se: number | null;
  item_recall_mean: number;
  item_recall_se: number | null;
  trials: number;
  queries: number;
  /** vmf, purkayastha: present when the file has the column, as in utility.csv */
  concentration?: number | null;
  concentration_metric?: string | null;
}

/** recommend.csv's columns, in file order (the writer's, src/experiment/columns.ts; each a `RecommendRow` field; the directional mechanisms' two columns may follow). */
export const RECOMMEND_COLUMNS = WRITTEN_RECOMMEND_COLUMNS satisfies readonly (keyof RecommendRow)[];

export interface NnDistanceRow {
  dataset: string;
  n: number;
  user: string;
  nn1: number;
}

/** One row of budgets.csv (and of `lshdp table budgets`): privacy's record, named like the file's columns. */
export type { BudgetRecord, DirectionalBudgetRecord };

/**
 * One row of attack.csv (config `attack`, docs/ATTACKS.md): the linkage attack on the codes of one
 * (data set, n, κ, mechanism, ξ) by an adversary who knows the share `known` of each target's
 * non-zero entries. Field names are the file's columns.
 */
export interface AttackRow extends AttackCoordinates {
  reid1_mean: number;
  /** standard error over trials; null when unknown (one trial) */
  reid1_se: number | null;
  reid10_mean: number;
  reid10_se: number | null;
  trials: number;
  /** released codes ranked (N): chance is 1/N at rank 1, 10/N in the top 10 */
  users: number;
  targets: number;
  concentration?: number | null;
  concentration_metric?: string | null;
}

/** attack.csv's columns, in file order (issue 36; `concentration`, `concentration_metric` may follow). */
export const ATTACK_COLUMNS = WRITTEN_ATTACK_COLUMNS satisfies readonly (keyof AttackRow)[];

export interface ResultsFolder {
  dir: string;
  /** run name: manifest.name, else the folder's name */
  name: string;
  utility: UtilityRow[] | null;
  nnDistances: NnDistanceRow[] | null;
  budgets: BudgetRecord[] | null;
  /** budgets.csv's rows of the directional mechanisms (vmf, purkayastha); null without budgets.csv */
  directionalBudgets?: DirectionalBudgetRecord[] | null;
  /** budgets.csv's rows of the mechanisms with a parameter of their own (jl-gaussian's σ, …); null without budgets.csv */
  ownBudgets?: OwnBudgetRecord[] | null;
  datasets: DatasetSummary[] | null;
  /** recommend.csv's rows; null (or absent) for a folder without recommendations */
  /** attack.csv (config `attack`); null or absent without one */
  attack?: AttackRow[] | null;
  /** recommend.csv (config `recommend`); null or absent without one */
  recommend?: RecommendRow[] | null;
  /** read defensively: any JSON object */
  manifest: Record<string, unknown> | null;
  /** the mechanism labels that cannot be released (report/releasable.ts: withReleaseMarks) */
  unreleasable?: ReadonlySet<string>;
}

/** utility.csv's header, in file order (the writer's, src/experiment/aggregate.ts; each a `UtilityRow` field). */
export const UTILITY_COLUMNS = WRITTEN_UTILITY_COLUMNS satisfies readonly (keyof UtilityRow)[];
export { NN_COLUMNS };
/** budgets.csv's header, in file order (the same as `BudgetRecord`'s fields). */
export const BUDGET_COLUMNS = BUDGET_RECORD_COLUMNS;

/** Columns of the files written before the names were unified (read, never written). */
const LEGACY_UTILITY_COLUMNS = [
  'dataset',
  'n',
  'kappa',
  'k',
  'mechanism',
  'xi',
  'epsilon',
  'trials',
  'queries',
  'utility_loss_mean',
  'utility_loss_se',
  'recall_mean',
  'recall_se',
  'ldp_epsilon',
  'fallback',
] as const;
const LEGACY_BUDGET_COLUMNS = ['d', 'delta', 'kappa', 'xi', 'alpha', 'epsilon', 'ldp_budget', 'fallback'] as const;

/** A parsed CSV: rows as column → cell, with their 1-based line numbers for error messages. */
interface Table {
  file: string;
  header: Set<string>;
  rows: { line: number; cell: (col: string) => string }[];
}

function parseCsv(file: string): { header: string[]; data: string[][] } {
  const text = readFileSync(file, 'utf8');
  const parsed = Papa.parse<string[]>(text, { header: false, skipEmptyLines: 'greedy' });
  const bad = parsed.errors.find((e) => e.type !== 'Delimiter');
  if (bad) throw fileError(file, (bad.row ?? 0) + 1, `malformed CSV: ${bad.message}`);
  const [header, ...data] = parsed.data;
  if (!header) throw fileError(file, 1, 'empty file (expected a header line)');
  return { header: header.map((h) => h.trim()), data };
}

/**
 * The CSV's rows, checked against the first column set the header holds in full (the current
 * names first, older names after); the index of that set tells the caller which one it was.
 */
function readCsv(file: string, accepted: readonly (readonly string[])[]): { table: Table; version: number } {
  const { header, data } = parseCsv(file);
  const index = new Map(header.map((h, i) => [h, i]));
  const version = accepted.findIndex((cols) => cols.every((c) => index.has(c)));
  if (version < 0) {
    const missing = accepted[0].filter((c) => !index.has(c));
    throw fileError(file, 1, `missing column(s) ${missing.join(', ')} in the header (docs/OUTPUTS.md lists the columns)`);
  }
  return {
    version,
    table: {
      file,
      header: new Set(header),
      rows: data.map((cells, i) => {
        const line = i + 2;
        if (cells.length !== header.length) {
          throw fileError(file, line, `expected ${header.length} fields, found ${cells.length}`);
        }
        return { line, cell: (col: string) => (index.has(col) ? (cells[index.get(col)!] ?? '').trim() : '') };
      }),
    },
  };
}

type Row = Table['rows'][number];

function num(t: Table, row: Row, col: string): number {
  const s = row.cell(col);
  // `inf` is how the writers spell an unbounded value (src/experiment/aggregate.ts): read it back
  if (s === 'inf') return Infinity;
  const v = Number(s);
  if (s === '' || !Number.isFinite(v)) throw fileError(t.file, row.line, `column ${col}: "${s}" is not a number`);
  return v;
}

function optNum(t: Table, row: Row, col: string): number | null {
  return row.cell(col) === '' ? null : num(t, row, col);
}

function optBool(t: Table, row: Row, col: string): boolean | null {
  const s = row.cell(col);
  if (s === '') return null;
  if (s === 'true') return true;
  if (s === 'false') return false;
  throw fileError(t.file, row.line, `column ${col}: "${s}" is not true/false`);
}

function str(t: Table, row: Row, col: string): string {
  const s = row.cell(col);
  if (s === '') throw fileError(t.file, row.line, `column ${col}: empty`);
  return s;
}

const optStr = (row: Row, col: string): string | null => (row.cell(col) === '' ? null : row.cell(col));

/**
 * utility.csv, in the current vocabulary. A file of an older lshdp (`epsilon`, `ldp_epsilon`, no
 * `base`/`accountant`) is read too, its columns mapped to the new names, so old runs re-plot.
 */
export function readUtilityCsv(file: string): UtilityRow[] {
  const { table: t, version } = readCsv(file, [UTILITY_COLUMNS, LEGACY_UTILITY_COLUMNS]);
  if (version === 1) {
    return t.rows.map((r) => {
      const mechanism = str(t, r, 'mechanism');
      const eps = optNum(t, r, 'epsilon');
      // a version-1 row's mechanism is its base; its unit says which columns it had
      const unit = builtInFacts(mechanism);
      return {
        dataset: str(t, r, 'dataset'),
        n: num(t, r, 'n'),
        kappa: optNum(t, r, 'kappa'),
        k: num(t, r, 'k'),
        mechanism,
        base: mechanism,
        accountant: unit?.accountants?.[0] ?? null,
        xi: optNum(t, r, 'xi'),
        // the old single `epsilon` column held the per-bit ε of LSHRR and the Laplace ε of LapLSH
        epsilon_bit: unit?.epsilonKind === 'bit' ? eps : null,
        epsilon_lap: unit?.epsilonKind === 'lap' ? eps : null,
        epsilon_ldp: optNum(t, r, 'ldp_epsilon'),
        ...measures(t, r),
      };
    });
  }
  return t.rows.map((r) => ({
    dataset: str(t, r, 'dataset'),
    n: num(t, r, 'n'),
    kappa: optNum(t, r, 'kappa'),
    k: num(t, r, 'k'),
    mechanism: str(t, r, 'mechanism'),
    base: str(t, r, 'base'),
    accountant: optStr(r, 'accountant'),
    xi: optNum(t, r, 'xi'),
    epsilon_bit: optNum(t, r, 'epsilon_bit'),
    epsilon_lap: optNum(t, r, 'epsilon_lap'),
    epsilon_ldp: optNum(t, r, 'epsilon_ldp'),
    ...measures(t, r),
    ...(t.header.has('concentration') ? { concentration: optNum(t, r, 'concentration'), concentration_metric: optStr(r, 'concentration_metric') } : {}),
  }));
}

/** The columns both vocabularies of utility.csv share, after the coordinates and epsilons. */
function measures(t: Table, r: Row) {
  return {
    fallback: optBool(t, r, 'fallback'),
    trials: num(t, r, 'trials'),
    queries: num(t, r, 'queries'),
    utility_loss_mean: num(t, r, 'utility_loss_mean'),
    utility_loss_se: optNum(t, r, 'utility_loss_se'),
    recall_mean: optNum(t, r, 'recall_mean'),
    recall_se: optNum(t, r, 'recall_se'),
  };
}

/** The value of one cell of an evaluation's file, read by its column's type (docs/OUTPUTS.md). */
function cellOf(t: Table, r: Row, col: string, type: ColumnType): string | number | boolean | null {
  switch (type) {
    case 'str':
      return str(t, r, col);
    case 'optStr':
      return optStr(r, col);
    case 'num':
      return num(t, r, col);
    case 'optNum':
      return optNum(t, r, col);
    case 'optBool':
      return optBool(t, r, col);
  }
}

/**
 * An evaluation's file (its columns and their types from its facts, src/evaluations/<name>/facts.ts),
 * rows named like the file's columns; `concentration` and `concentration_metric` when the file has them.
 */
export function readEvaluationCsv<R>(facts: EvaluationFacts, file: string): R[] {
  const { table: t } = readCsv(file, [columnsOf(facts)]);
  const columns = Object.entries(facts.columns);
  return t.rows.map((r) => {
    const row: Record<string, unknown> = {};
    for (const [col, type] of columns) row[col] = cellOf(t, r, col, type);
    if (t.header.has('concentration')) Object.assign(row, { concentration: optNum(t, r, 'concentration'), concentration_metric: optStr(r, 'concentration_metric') });
    return row as R;
  });
}

/** recommend.csv (docs/OUTPUTS.md); the concentration columns when the file has them. */
export function readRecommendCsv(file: string): RecommendRow[] {
  return readEvaluationCsv<RecommendRow>(RECOMMEND_FACTS, file);
}

/** An evaluation's file in a results folder; a folder without one is a one-line user error saying how to get it. */
export function readEvaluationOf<R>(facts: EvaluationFacts, dir: string): { file: string; rows: R[] } {
  const file = join(dir, facts.file);
  if (!existsSync(file)) {
    const how = facts.block === null ? `is ${dir} a results folder?` : `a run writes it when its config has ${/^[aeiou]/.test(facts.block) ? 'an' : 'a'} ${facts.block} block; ${facts.docs}`;
    throw new UserError(`${file}: not found (${how})`);
  }
  return { file, rows: facts.block === null ? (readUtilityCsv(file) as R[]) : readEvaluationCsv<R>(facts, file) };
}

/** The recommend.csv of a results folder; a folder without one is a one-line user error saying how to get it. */
export function readRecommendOf(dir: string): { file: string; rows: RecommendRow[] } {
  return readEvaluationOf<RecommendRow>(RECOMMEND_FACTS, dir);
}

/** The utility.csv of a results folder; a folder without one is a one-line user error. */
export function readUtilityOf(dir: string): { file: string; rows: UtilityRow[] } {
  const file = join(dir, 'utility.csv');
  if (!existsSync(file)) throw new UserError(`${file}: not found (is ${dir} a results folder?)`);
  return { file, rows: readUtilityCsv(file) };
}

/** One evaluation's file as `compare` reads it: where it is and its rows (named like its columns). */
export interface ComparedFile {
  file: string;
  rows: Record<string, unknown>[];
}

/**
 * The result files `lshdp compare` reads, by evaluation name: utility.csv (required), and every
 * other evaluation's file where the folder has it (else null).
 */
export function readComparedFilesOf(dir: string): Record<string, ComparedFile | null> {
  const out: Record<string, ComparedFile | null> = {};
  for (const e of evaluationFacts()) {
    const present = e.block === null || existsSync(join(dir, e.file));
    out[e.name] = present ? readEvaluationOf<Record<string, unknown>>(e, dir) : null;
  }
  return out;
}

export function readNnDistancesCsv(file: string): NnDistanceRow[] {
  const { table: t } = readCsv(file, [NN_COLUMNS]);
  return t.rows.map((r) => ({
    dataset: str(t, r, 'dataset'),
    n: num(t, r, 'n'),
    user: r.cell('user'),
    nn1: num(t, r, 'nn1_distance'),
  }));
}

/** budgets.csv, in the current vocabulary; an older file (paper accountant only) is mapped to it. */
export function readBudgetsCsv(file: string): BudgetRecord[] {
  const { table: t, version } = readCsv(file, [BUDGET_COLUMNS, LEGACY_BUDGET_COLUMNS]);
  if (version === 1) {
    return t.rows.map((r) => {
      const eps = num(t, r, 'epsilon');
      return {
        accountant: 'paper',
        d: num(t, r, 'd'),
        delta: num(t, r, 'delta'),
        kappa: num(t, r, 'kappa'),
        xi: num(t, r, 'xi'),
        alpha: optNum(t, r, 'alpha'),
        epsilon_bit: eps,
        flip: flipProbability(eps),
        epsilon_ldp: num(t, r, 'ldp_budget'),
        fallback: optBool(t, r, 'fallback') ?? false,
        unbounded: false,
        delta_hockey: null,
      };
    });
  }
  // a run with directional mechanisms or mechanisms with a parameter of their own appends their
  // rows (mechanism column ≠ lshrr): read apart
  return t.rows
    .filter((r) => !isDirectionalRow(r) && !isOwnRow(r))
    .map((r) => ({
      accountant: str(t, r, 'accountant'),
      d: num(t, r, 'd'),
      delta: num(t, r, 'delta'),
      kappa: num(t, r, 'kappa'),
      xi: num(t, r, 'xi'),
      alpha: optNum(t, r, 'alpha'),
      epsilon_bit: optNum(t, r, 'epsilon_bit'),
      flip: num(t, r, 'flip'),
      epsilon_ldp: optNum(t, r, 'epsilon_ldp'),
      fallback: optBool(t, r, 'fallback') ?? false,
      unbounded: optBool(t, r, 'unbounded') ?? false,
      delta_hockey: optNum(t, r, 'delta_hockey'),
    }));
}

/** A row of a mechanism with its own parameter: its `parameter` cell names it (absent before such rows existed). */
const isOwnRow = (r: Row): boolean => r.cell('parameter') !== '';
const isDirectionalRow = (r: Row): boolean => r.cell('mechanism') !== '' && r.cell('mechanism') !== ACCOUNTANT_ROWS_MECHANISM && !isOwnRow(r);

/** The rows of budgets.csv's mechanisms with a parameter of their own (src/mechanisms/ownBudget.ts); [] for a file without them. */
export function readOwnBudgetsCsv(file: string): OwnBudgetRecord[] {
  const { table: t } = readCsv(file, [BUDGET_COLUMNS, LEGACY_BUDGET_COLUMNS]);
  if (!t.header.has('parameter')) return [];
  return t.rows.filter(isOwnRow).map((r) => ({
    mechanism: str(t, r, 'mechanism'),
    d: num(t, r, 'd'),
    delta: num(t, r, 'delta'),
    kappa: num(t, r, 'kappa'),
    xi: num(t, r, 'xi'),
    parameter: str(t, r, 'parameter'),
    value: optNum(t, r, 'value'),
    epsilon_ldp: optNum(t, r, 'epsilon_ldp'),
    ldp_delta: optNum(t, r, 'ldp_delta'),
    accountant: r.cell('accountant') === '' ? null : str(t, r, 'accountant'),
    fallback: optBool(t, r, 'fallback'),
  }));
}

/** The directional mechanisms' rows of budgets.csv (vmf, purkayastha); [] for a file without them. */
export function readDirectionalBudgetsCsv(file: string): DirectionalBudgetRecord[] {
  const { table: t } = readCsv(file, [BUDGET_COLUMNS, LEGACY_BUDGET_COLUMNS]);
  if (!t.header.has('mechanism')) return [];
  return t.rows.filter(isDirectionalRow).map((r) => {
    const metric = str(t, r, 'concentration_metric');
    if (metric !== 'euclidean' && metric !== 'angle') throw fileError(t.file, r.line, `column concentration_metric: "${metric}" is not euclidean or angle`);
    return {
      mechanism: str(t, r, 'mechanism'),
      d: num(t, r, 'd'),
      delta: num(t, r, 'delta'),
      kappa: num(t, r, 'kappa'),
      xi: num(t, r, 'xi'),
      concentration: num(t, r, 'concentration'),
      concentration_metric: metric,
      epsilon_ldp: num(t, r, 'epsilon_ldp'),
    };
  });
}

/** attack.csv, every column; `concentration` and `concentration_metric` when the file has them. */
export function readAttackCsv(file: string): AttackRow[] {
  return readEvaluationCsv<AttackRow>(ATTACK_FACTS, file);
}

/** The attack.csv of a results folder; a folder without one is a one-line user error. */
export function readAttackOf(dir: string): { file: string; rows: AttackRow[] } {
  return readEvaluationOf<AttackRow>(ATTACK_FACTS, dir);
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
  // datasets.json is snake_case (lshdp 0.1 wrote camelCase; both are read)
  return (v as Parameters<typeof summaryFromJson>[0][]).map(summaryFromJson);
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
  const name = [manifest?.name, cfgName].find((v): v is string => typeof v === 'string' && v !== '') ?? basename(dir.replace(/[\\/]+$/, ''));
  return {
    dir,
    name,
    utility: utilityFile ? readUtilityCsv(utilityFile) : null,
    nnDistances: nnFile ? readNnDistancesCsv(nnFile) : null,
    budgets: budgetsFile ? readBudgetsCsv(budgetsFile) : null,
    directionalBudgets: budgetsFile ? readDirectionalBudgetsCsv(budgetsFile) : null,
    ownBudgets: budgetsFile ? readOwnBudgetsCsv(budgetsFile) : null,
    datasets: datasetsFile ? readDatasetsJson(datasetsFile) : null,
    ...optionalCsvs(at),
    manifest,
  };
}

/** The files of the optional evaluations (recommend.csv, attack.csv…), by evaluation name; null where the folder has none. */
function optionalCsvs(at: (f: string) => string | null): Partial<ResultsFolder> {
  const out: Record<string, unknown> = {};
  for (const e of optionalEvaluations()) {
    const file = at(e.file);
    out[e.name] = file ? readEvaluationCsv(e, file) : null;
  }
  return out;
}

export { uniqueInOrder } from '../util/unique.js';
