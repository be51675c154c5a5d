/**
 * The final CSVs, rebuilt from the results store in canonical order (docs/ARCHITECTURE.md), so
 * their bytes never depend on how the cells were computed. Numbers are written with String(x).
 */
import { csvField } from '../util/csv.js';
import type { ExperimentConfig, MechanismEntry } from './config/schema.js';
import type { MechanismInfo } from '../mechanisms/types.js';
import { BUDGET_RECORD_COLUMNS, DIRECTIONAL_BUDGET_COLUMNS, type BudgetRecord, type DirectionalBudgetRecord } from '../privacy/budget.js';
import { exactKey, resultSpecs, trialKey } from './grid.js';
import type { CellRecord, ExactRecord, StoredResult, TrialRecord } from './records.js';
import { UserError } from '../util/errors.js';
import { CONCENTRATION_COLUMNS, NN_HEADER, UTILITY_HEADER } from './columns.js';
import { ACCOUNTANT_ROWS_MECHANISM } from '../mechanisms/catalog.js';

export { UTILITY_COLUMNS, UTILITY_HEADER, CONCENTRATION_COLUMNS, NN_COLUMNS, NN_HEADER } from './columns.js';
export const BUDGETS_HEADER = BUDGET_RECORD_COLUMNS.join(',');

/**
 * Mean and standard error (sample sd / sqrt(m)), summed in the given order. With one value the
 * standard error is unknown: null (written as an empty field, "n/a" in tables), never 0.
 */
export function meanSe(values: readonly number[]): { mean: number; se: number | null } {
  const m = values.length;
  let sum = 0;
  for (const v of values) sum += v;
  const mean = sum / m;
  if (m < 2) return { mean, se: null };
  let ss = 0;
  for (const v of values) ss += (v - mean) * (v - mean);
  return { mean, se: Math.sqrt(ss / (m - 1)) / Math.sqrt(m) };
}

/** A number as written in every CSV: shortest round-trip form; empty when absent; `inf` when unbounded (exact accountant). */
const num = (x: number | null | undefined): string => (x === null || x === undefined ? '' : x === Infinity ? 'inf' : String(x));
const bool = (x: boolean | null | undefined): string => (x === null || x === undefined ? '' : x ? 'true' : 'false');

function needExact(records: Map<string, CellRecord>, key: string): ExactRecord {
  const rec = records.get(key);
  if (rec?.kind !== 'exact') throw new UserError(`results store: cell ${key} is missing; run again to compute it`);
  return rec;
}

function needTrial(records: Map<string, CellRecord>, key: string): TrialRecord {
  const rec = records.get(key);
  if (rec?.kind !== 'trial') throw new UserError(`results store: cell ${key} is missing; run again to compute it`);
  return rec;
}

/** The stored result `id` of a trial record with the value of `k`. */
function needValue(rec: TrialRecord, id: string, k: number): { result: StoredResult; loss: number; recall: number } {
  const result = rec.results[id];
  const v = result?.values[String(k)];
  if (!v) throw new UserError(`results store: cell ${rec.key} has no result ${id} for k=${k}; run again to compute it`);
  return { result, loss: v[0], recall: v[1] };
}

/** One trial value per (entry, xi, k) of a (dataset, n, kappa): what utility.csv averages and the claims test. */
export interface EntryValues {
  entry: MechanismEntry;
  xi: number | null;
  k: number;
  /** per trial, in trial order */
  loss: number[];
  recall: number[];
  eps: StoredResult['eps'];
}

/** The per-trial values of every (code entry, xi, k) of one (dataset, n, kappa), in utility.csv order (k, entry, xi). */
export function entryValues(cfg: ExperimentConfig, records: Map<string, CellRecord>, info: (name: string) => MechanismInfo, dataset: string, n: number, kappa: number): EntryValues[] {
  const out: EntryValues[] = [];
  const trials: TrialRecord[] = [];
  for (let t = 0; t < cfg.trials; t++) trials.push(needTrial(records, trialKey(dataset, n, kappa, t, cfg.recommend)));
  const expansion = resultSpecs(cfg.mechanisms, cfg.privacy.xi, info);
  for (const k of cfg.k) {
    for (const { entry, xi, spec } of expansion) {
      const vals = trials.map((tr) => needValue(tr, spec.id, k));
      out.push({ entry, xi, k, loss: vals.map((v) => v.loss), recall: vals.map((v) => v.recall), eps: vals[0].result.eps });
    }
  }
  return out;
}

/** The accountant column of an entry: its `accountant` option where the mechanism has accountants. */
export function accountantOf(m: MechanismEntry): string | null {
  return typeof m.options.accountant === 'string' ? m.options.accountant : null;
}

/**
 * utility.csv: per (dataset, n) the exact rows (no kappa) first, then per kappa, k, mechanism
 * entry (config order), xi (config order) the mean and standard error over the trials.
 */
export function utilityCsv(cfg: ExperimentConfig, records: Map<string, CellRecord>, info: (name: string) => MechanismInfo): string {
  const directional = cfg.mechanisms.some((m) => info(m.name).epsilonKind === 'concentration');
  const lines = [directional ? `${UTILITY_HEADER},${CONCENTRATION_COLUMNS.join(',')}` : UTILITY_HEADER];
  const extra = (mi: MechanismInfo | null, own: number | null) => (!directional ? [] : mi?.epsilonKind === 'concentration' ? [num(own), mi.concentrationMetric ?? ''] : ['', '']);
  const exactEntry = cfg.mechanisms.find((m) => info(m.name).kind === 'exact');
  for (const ds of cfg.datasets) {
    for (const n of cfg.dims) {
      const exact = needExact(records, exactKey(ds.name, n, cfg.recommend));
      const q = exact.queries;
      if (exactEntry) {
        for (const k of cfg.k) {
          const r = exact.rows.find((row) => row.k === k);
          if (!r) throw new UserError(`results store: cell ${exact.key} has no exact row for k=${k}; run again to compute it`);
          lines.push([ds.name, n, '', k, exactEntry.label, exactEntry.name, '', '', '', '', '', '', 1, q, num(r.loss), '', num(r.recall), '', ...extra(null, null)].join(','));
        }
      }
      for (const kappa of cfg.kappa) {
        for (const v of entryValues(cfg, records, info, ds.name, n, kappa)) {
          const mi = info(v.entry.name);
          const loss = meanSe(v.loss);
          const recall = meanSe(v.recall);
          const own = v.eps.epsilon;
          lines.push(
            [
              ds.name,
              n,
              mi.usesKappa ? kappa : '',
              v.k,
              v.entry.label,
              v.entry.name,
              accountantOf(v.entry) ?? '',
              num(v.xi),
              mi.epsilonKind === 'bit' ? num(own) : '',
              mi.epsilonKind === 'lap' ? num(own) : '',
              num(v.eps.ldpEpsilon),
              mi.hasFallback ? bool(v.eps.fallback) : '',
              cfg.trials,
              q,
              num(loss.mean),
              num(loss.se),
              num(recall.mean),
              num(recall.se),
              ...extra(mi, own),
            ].join(','),
          );
        }
      }
    }
  }
  return lines.join('\n') + '\n';
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
export function budgetsCsv(rows: readonly BudgetRecord[], directional: readonly DirectionalBudgetRecord[] = []): string {
  const extra = directional.length > 0;
  const lines = [extra ? `${BUDGETS_HEADER},${DIRECTIONAL_BUDGET_COLUMNS.join(',')}` : BUDGETS_HEADER];
  for (const r of rows) {
    const cells = BUDGET_RECORD_COLUMNS.map((c) => (typeof r[c] === 'boolean' ? bool(r[c] as boolean) : typeof r[c] === 'number' ? num(r[c] as number) : r[c] === null ? '' : String(r[c])));
    lines.push((extra ? [...cells, ACCOUNTANT_ROWS_MECHANISM, '', ''] : cells).join(','));
  }
  for (const r of directional) {
    const own: Partial<Record<(typeof BUDGET_RECORD_COLUMNS)[number], string>> = { d: num(r.d), delta: num(r.delta), kappa: num(r.kappa), xi: num(r.xi), epsilon_ldp: num(r.epsilon_ldp) };
    lines.push([...BUDGET_RECORD_COLUMNS.map((c) => own[c] ?? ''), csvField(r.mechanism), num(r.concentration), r.concentration_metric].join(','));
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

/** The accountants of a config's entries, in config order; the paper's when none says (the paper's table). */
export function accountantsOf(cfg: ExperimentConfig): string[] {
  const used = [...new Set(cfg.mechanisms.map(accountantOf).filter((a): a is string => a !== null))];
  return used.length > 0 ? used : ['paper'];
}
