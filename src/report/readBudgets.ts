/**
 * budgets.csv read back (docs/OUTPUTS.md): the accountants' rows in the current vocabulary (an
 * older file, paper accountant only, mapped to it), the directional mechanisms' rows and those of
 * the mechanisms with a parameter of their own.
 */
import { flipProbability } from '../privacy/rr.js';
import { BUDGET_RECORD_COLUMNS, type BudgetRecord, type DirectionalBudgetRecord } from '../privacy/budget.js';
import { ACCOUNTANT_ROWS_MECHANISM } from '../mechanisms/catalog.js';
import type { OwnBudgetRecord } from '../mechanisms/ownBudget.js';
import { fileError } from '../util/errors.js';
import { num, optBool, optNum, readCsv, str, type Row } from './csvTable.js';

/** budgets.csv's header, in file order (the same as `BudgetRecord`'s fields). */
export const BUDGET_COLUMNS = BUDGET_RECORD_COLUMNS;

/** Columns of the files written before the names were unified (read, never written). */
const LEGACY_BUDGET_COLUMNS = ['d', 'delta', 'kappa', 'xi', 'alpha', 'epsilon', 'ldp_budget', 'fallback'] as const;

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
