/**
 * The files beside the evaluations' (whose rows come from the walk of src/experiment/walk.ts):
 * nn_distances.csv and budgets.csv, rebuilt from the results store in canonical order
 * (docs/ARCHITECTURE.md), so their bytes never depend on how the cells were computed. Numbers
 * are written with String(x).
 */
import { csvField } from '../util/csv.js';
import type { ExperimentConfig } from './config/schema.js';
import type { MechanismInfo } from '../mechanisms/types.js';
import { BUDGET_RECORD_COLUMNS, DIRECTIONAL_BUDGET_COLUMNS, type BudgetRecord, type DirectionalBudgetRecord } from '../privacy/budget.js';
import { exactKey } from './grid.js';
import type { CellRecord, ExactRecord } from './records.js';
import { UserError } from '../util/errors.js';
import { NN_HEADER } from './columns.js';
import { accountantOf, csvNumber } from './walk.js';

export { meanSe, accountantOf } from './walk.js';
import { ACCOUNTANT_ROWS_MECHANISM, builtInFacts } from '../mechanisms/catalog.js';
import { OWN_BUDGET_COLUMNS, type OwnBudgetRecord } from '../mechanisms/ownBudget.js';

export { UTILITY_COLUMNS, UTILITY_HEADER, CONCENTRATION_COLUMNS, NN_COLUMNS, NN_HEADER } from './columns.js';
export const BUDGETS_HEADER = BUDGET_RECORD_COLUMNS.join(',');

/** A number as written in every CSV: shortest round-trip form; empty when absent; `inf` when unbounded (exact accountant). */
const num = csvNumber;
const bool = (x: boolean | null | undefined): string => (x === null || x === undefined ? '' : x ? 'true' : 'false');

function needExact(records: Map<string, CellRecord>, key: string): ExactRecord {
  const rec = records.get(key);
  if (rec?.kind !== 'exact') throw new UserError(`results store: cell ${key} is missing; run again to compute it`);
  return rec;
}

/** nn_distances.csv: the true 1-NN distance of every query user, per (dataset, n), users by index. */
export function nnDistancesCsv(cfg: ExperimentConfig, records: Map<string, CellRecord>): string {
  const lines = [NN_HEADER];
  for (const ds of cfg.datasets) {
    for (const n of cfg.dims) {
      const nn = needExact(records, exactKey(ds.name, n, cfg.recommend)).nn;
      if (!nn) throw new UserError(`results store: cell ${exactKey(ds.name, n, cfg.recommend)} has no 1-NN distances`);
      for (let i = 0; i < nn.users.length; i++) lines.push(`${ds.name},${n},${csvField(nn.users[i])},${String(nn.distances[i])}`);
    }
  }
  return lines.join('\n') + '\n';
}

/**
 * budgets.csv: the rows of `lshdp table budgets` for the accountants the run uses, in its
 * vocabulary. With directional mechanisms (vmf, purkayastha) in the run, their rows follow and
 * the header gains DIRECTIONAL_BUDGET_COLUMNS (LSHRR's rows say `lshrr` there); the columns that
 * do not apply to them (accountant, alpha, epsilon_bit, flip, fallback, unbounded, delta_hockey)
 * are empty. A run without them keeps the file's bytes.
 */
export function budgetsCsv(rows: readonly BudgetRecord[], directional: readonly DirectionalBudgetRecord[] = [], own: readonly OwnBudgetRecord[] = []): string {
  // the columns after LSHRR's: `mechanism` when other rows follow, then each kind's own (a run
  // without them keeps the file's bytes)
  const extra = directional.length > 0 || own.length > 0;
  const dirCols = directional.length > 0 ? DIRECTIONAL_BUDGET_COLUMNS.length : 0;
  const ownCols = own.length > 0 ? OWN_BUDGET_COLUMNS.length : 0;
  const blank = (m: number) => Array.from({ length: m }, () => '');
  const header = [BUDGETS_HEADER, ...(extra ? ['mechanism'] : []), ...(dirCols ? DIRECTIONAL_BUDGET_COLUMNS.slice(1) : []), ...(ownCols ? OWN_BUDGET_COLUMNS : [])];
  const lines = [header.join(',')];
  for (const r of rows) {
    const cells = BUDGET_RECORD_COLUMNS.map((c) => (typeof r[c] === 'boolean' ? bool(r[c] as boolean) : typeof r[c] === 'number' ? num(r[c] as number) : r[c] === null ? '' : String(r[c])));
    lines.push((extra ? [...cells, ACCOUNTANT_ROWS_MECHANISM, ...blank(dirCols ? dirCols - 1 : 0), ...blank(ownCols)] : cells).join(','));
  }
  for (const r of directional) {
    const fields: Partial<Record<(typeof BUDGET_RECORD_COLUMNS)[number], string>> = { d: num(r.d), delta: num(r.delta), kappa: num(r.kappa), xi: num(r.xi), epsilon_ldp: num(r.epsilon_ldp) };
    lines.push([...BUDGET_RECORD_COLUMNS.map((c) => fields[c] ?? ''), csvField(r.mechanism), num(r.concentration), r.concentration_metric, ...blank(ownCols)].join(','));
  }
  for (const r of own) {
    const fields: Partial<Record<(typeof BUDGET_RECORD_COLUMNS)[number], string>> = {
      accountant: r.accountant === null ? '' : csvField(r.accountant),
      d: num(r.d),
      delta: num(r.delta),
      kappa: num(r.kappa),
      xi: num(r.xi),
      epsilon_ldp: r.epsilon_ldp === null ? '' : num(r.epsilon_ldp),
      fallback: r.fallback === null ? '' : bool(r.fallback),
    };
    lines.push(
      [
        ...BUDGET_RECORD_COLUMNS.map((c) => fields[c] ?? ''),
        csvField(r.mechanism),
        ...blank(dirCols ? dirCols - 1 : 0),
        r.parameter,
        r.value === null ? '' : num(r.value),
        r.ldp_delta === null ? '' : num(r.ldp_delta),
      ].join(','),
    );
  }
  return lines.join('\n') + '\n';
}

/** The config's directional mechanisms (base names, config order) with the metric their concentration is private for. */
export function directionalMechanismsOf(cfg: ExperimentConfig, info: (name: string) => MechanismInfo): { name: string; metric: 'euclidean' | 'angle' }[] {
  const out = new Map<string, 'euclidean' | 'angle'>();
  for (const m of cfg.mechanisms) {
    const mi = info(m.name);
    if (mi.epsilonKind === 'concentration' && mi.concentrationMetric) out.set(m.name, mi.concentrationMetric);
  }
  return [...out].map(([name, metric]) => ({ name, metric }));
}

/** The accountants of a config's LSHRR-like entries (built-ins with accountant rows, and plugins), in config order; the paper's when none says (the paper's table). */
export function accountantsOf(cfg: ExperimentConfig): string[] {
  const rows = cfg.mechanisms.filter((m) => (builtInFacts(m.name)?.budgetRows ?? 'accountant') === 'accountant');
  const used = [...new Set(rows.map(accountantOf).filter((a): a is string => a !== null))];
  return used.length > 0 ? used : ['paper'];
}
