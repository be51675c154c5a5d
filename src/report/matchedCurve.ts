/**
 * matched_curve.csv (docs/OUTPUTS.md): the data of the figure "utility retained at matched attack
 * success" (matchedFigure.ts), written beside matched.csv for a config with a `decide:` block and
 * read back by the report, so re-plotting recomputes nothing. One row per (data set, n, κ, target
 * kind, T, entry): src/decide/curveRows.ts.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Papa from 'papaparse';
import type { DecideSettings } from '../experiment/config/decide.js';
import type { ExperimentConfig } from '../experiment/config/schema.js';
import { curveRows, type CurveRow } from '../decide/curveRows.js';
import type { FolderCells, Targets } from '../decide/read.js';
import { parseCsv, readCsv, num, optNum, str, optBool, type Table, type Row } from './csvTable.js';
import { fileError } from '../util/errors.js';
import { ATTACK_FACTS } from '../evaluations/attack/facts.js';

export const CURVE_FILE = 'matched_curve.csv';

/** matched_curve.csv's columns, in order (docs/OUTPUTS.md). */
export const CURVE_COLUMNS: readonly (keyof CurveRow)[] = [
  'dataset',
  'n',
  'kappa',
  'k',
  'known',
  'aux',
  'target_kind',
  'target',
  'config_target',
  'mechanism',
  'flag',
  'xi',
  'utility_loss',
  'retained',
  'retained_low',
  'retained_high',
  'retained_note',
  'trials',
];

/**
 * What the curve reads: a row of panels per attack the config runs (reid@1 with `attack`, the auc
 * advantage with `infer`), at the block's known, aux and k. The target values only name the kinds.
 */
export function curveTargets(config: ExperimentConfig, settings: DecideSettings): Targets | null {
  const reid = config.attack !== undefined && settings.known !== null;
  const auc = config.infer !== undefined && settings.aux !== null;
  if (!reid && !auc) return null;
  return { reid1: reid ? 1 : null, aucAdv: auc ? 1 : null, known: settings.known ?? 0.5, aux: settings.aux ?? 0.5, k: settings.k };
}

/** 1/N of the attacked users per (data set, n), from attack.csv's users column. */
function chanceOf(dir: string): (dataset: string, n: number) => number | null {
  const file = join(dir, ATTACK_FACTS.file);
  const users = new Map<string, number>();
  if (existsSync(file)) {
    const { header, data } = parseCsv(file);
    const [d, n, u] = ['dataset', 'n', 'users'].map((c) => header.indexOf(c));
    if (d >= 0 && n >= 0 && u >= 0) for (const r of data) users.set(`${r[d]}\u0000${Number(r[n])}`, Number(r[u]));
  }
  return (dataset, n) => {
    const x = users.get(`${dataset}\u0000${n}`);
    return x !== undefined && x > 0 ? 1 / x : null;
  };
}

const csvValue = (v: unknown): string => (v === null ? '' : String(v));

/** The file's text for a folder read with `curveTargets` (`folder`), at the block's targets. */
export function curveCsv(dir: string, folder: FolderCells, settings: DecideSettings): string {
  const rows = curveRows(folder, { reid1: settings.reid1, auc_adv: settings.auc_adv }, chanceOf(dir));
  return `${Papa.unparse({ fields: [...CURVE_COLUMNS], data: rows.map((r) => CURVE_COLUMNS.map((c) => csvValue(r[c]))) }, { newline: '\n' })}\n`;
}

/** matched_curve.csv of a folder, or null when it has none (a config without decide:). */
export function readCurve(dir: string): CurveRow[] | null {
  const file = join(dir, CURVE_FILE);
  if (!existsSync(file)) return null;
  const { table } = readCsv(file, [CURVE_COLUMNS as readonly string[]]);
  return table.rows.map((row) => rowOf(table, row));
}

function rowOf(t: Table, row: Row): CurveRow {
  const kind = str(t, row, 'target_kind');
  if (kind !== 'reid1' && kind !== 'auc_adv') throw fileError(t.file, row.line, `column target_kind: "${kind}" is not reid1 or auc_adv`);
  const flag = str(t, row, 'flag');
  if (flag !== 'none' && flag !== 'all' && flag !== 'interior') throw fileError(t.file, row.line, `column flag: "${flag}" is not none, all or interior`);
  return {
    dataset: str(t, row, 'dataset'),
    n: num(t, row, 'n'),
    kappa: num(t, row, 'kappa'),
    k: num(t, row, 'k'),
    known: optNum(t, row, 'known'),
    aux: optNum(t, row, 'aux'),
    target_kind: kind,
    target: num(t, row, 'target'),
    config_target: optBool(t, row, 'config_target') === true,
    mechanism: str(t, row, 'mechanism'),
    flag,
    xi: optNum(t, row, 'xi'),
    utility_loss: optNum(t, row, 'utility_loss'),
    retained: optNum(t, row, 'retained'),
    retained_low: optNum(t, row, 'retained_low'),
    retained_high: optNum(t, row, 'retained_high'),
    retained_note: row.cell('retained_note'),
    trials: num(t, row, 'trials'),
  };
}
