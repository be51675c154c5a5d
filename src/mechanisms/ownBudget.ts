/**
 * The budget rows of the mechanisms whose parameter is their own (`budgetRows: 'own'`: jl-gaussian's
 * σ, private MinHash's ε per position): one row per config entry (its label and options), d, ξ and
 * κ, as each unit's `budgetRow` states them. budgets.csv appends them after LSHRR's and the
 * directional mechanisms' rows (src/experiment/aggregate.ts), `lshdp table budgets --mechanism`
 * prints them.
 */
import type { Mechanism, OwnBudgetRow } from './types.js';

/** One own budget row at one grid point, with the entry's label. */
export interface OwnBudgetRecord extends OwnBudgetRow {
  /** the entry's label (its mechanism's name by default) */
  mechanism: string;
  d: number;
  delta: number;
  kappa: number;
  xi: number;
}

/** budgets.csv's columns of the own rows (after `mechanism`), in file order. */
export const OWN_BUDGET_COLUMNS = ['parameter', 'value', 'ldp_delta'] as const;

/** An entry whose mechanism has own budget rows. */
export interface OwnBudgetEntry {
  label: string;
  mechanism: Mechanism;
  options: Record<string, unknown>;
}

/**
 * The own rows: per entry (in the given order), d, ξ, κ, like the other budget rows. The unit's
 * budgetRow takes what its `epsilon` takes: the family's distance for a unit that reads it
 * (`budgetDistance: 'family'`), else the per-bit disagreement probability at d.
 */
export function ownBudgetRows(
  entries: readonly OwnBudgetEntry[],
  grid: { d: readonly number[]; kappa: readonly number[]; xi: readonly number[]; delta: number },
  disagreement: (d: number) => number = (x) => x,
): OwnBudgetRecord[] {
  const rows: OwnBudgetRecord[] = [];
  for (const e of entries) {
    if (!e.mechanism.budgetRow) continue;
    for (const d of grid.d) {
      const privacy = { d: e.mechanism.budgetDistance === 'family' ? d : disagreement(d), delta: grid.delta };
      for (const xi of grid.xi) {
        for (const kappa of grid.kappa) rows.push({ mechanism: e.label, d, delta: grid.delta, kappa, xi, ...e.mechanism.budgetRow(xi, kappa, privacy, e.options) });
      }
    }
  }
  return rows;
}
