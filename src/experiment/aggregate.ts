/**
 * The final CSVs, rebuilt from the results store in canonical order (docs/ARCHITECTURE.md), so
 * their bytes never depend on how the cells were computed. Numbers are written with String(x).
 */
import type { ExperimentConfig } from './config.js';
import type { BudgetRow, CellRow, MechanismInfo } from './machinery/engine.js';
import { exactKey, trialKey } from './grid.js';
import type { CellRecord } from './machinery/store.js';
import { UserError } from '../util/errors.js';

export const UTILITY_HEADER =
  'dataset,n,kappa,k,mechanism,xi,epsilon,trials,queries,utility_loss_mean,utility_loss_se,recall_mean,recall_se,ldp_epsilon,fallback';
export const NN_HEADER = 'dataset,n,user,nn1_distance';
export const BUDGETS_HEADER = 'd,delta,kappa,xi,alpha,epsilon,ldp_budget,fallback';

/** Mean and standard error (sample sd / sqrt(m); 0 for one value), summed in the given order. */
export function meanSe(values: readonly number[]): { mean: number; se: number } {
  const m = values.length;
  let sum = 0;
  for (const v of values) sum += v;
  const mean = sum / m;
  if (m < 2) return { mean, se: 0 };
  let ss = 0;
  for (const v of values) ss += (v - mean) * (v - mean);
  return { mean, se: Math.sqrt(ss / (m - 1)) / Math.sqrt(m) };
}

const num = (x: number | null | undefined): string => (x === null || x === undefined ? '' : String(x));
const bool = (x: boolean | null | undefined): string => (x === null || x === undefined ? '' : x ? 'true' : 'false');

/** CSV field: quoted only when it must be (names are restricted, but user ids are free text). */
export function csvField(s: string): string {
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

function rowKey(mechanism: string, xi: number | null, k: number): string {
  return `${mechanism}|${xi === null ? '' : String(xi)}|${k}`;
}

function indexRows(rec: CellRecord): Map<string, CellRow> {
  const map = new Map<string, CellRow>();
  for (const r of rec.rows) map.set(rowKey(r.mechanism, r.xi, r.k), r);
  return map;
}

function need(records: Map<string, CellRecord>, key: string): CellRecord {
  const rec = records.get(key);
  if (!rec) throw new UserError(`results store: cell ${key} is missing; run again to compute it`);
  return rec;
}

/**
 * utility.csv: per (dataset, n) the exact rows (no kappa) first, then per kappa, k, mechanism
 * (config order), xi (config order) the mean and standard error over the trial cells.
 */
export function utilityCsv(cfg: ExperimentConfig, records: Map<string, CellRecord>, info: (name: string) => MechanismInfo): string {
  const lines = [UTILITY_HEADER];
  const code = cfg.mechanisms.filter((m) => info(m.name).kind === 'code');
  const hasExact = cfg.mechanisms.some((m) => info(m.name).kind === 'exact');
  for (const ds of cfg.datasets) {
    for (const n of cfg.dims) {
      const exact = need(records, exactKey(ds.name, n));
      const q = exact.queries;
      if (hasExact) {
        const rows = indexRows(exact);
        for (const k of cfg.k) {
          const r = rows.get(rowKey('exact', null, k));
          if (!r) throw new UserError(`results store: cell ${exact.key} has no exact row for k=${k}`);
          lines.push([ds.name, n, '', k, 'exact', '', '', 1, q, num(r.loss), 0, num(r.recall), 0, '', ''].join(','));
        }
      }
      for (const kappa of cfg.kappa) {
        const trials: Map<string, CellRow>[] = [];
        for (let t = 0; t < cfg.trials; t++) trials.push(indexRows(need(records, trialKey(ds.name, n, kappa, t))));
        for (const k of cfg.k) {
          for (const m of code) {
            const xis: (number | null)[] = info(m.name).usesXi ? cfg.privacy.xi : [null];
            for (const xi of xis) {
              const rows = trials.map((tr, t) => {
                const r = tr.get(rowKey(m.name, xi, k));
                if (!r) throw new UserError(`results store: cell ${trialKey(ds.name, n, kappa, t)} has no row for ${m.name} xi=${num(xi)} k=${k}`);
                return r;
              });
              const loss = meanSe(rows.map((r) => r.loss));
              const recall = meanSe(rows.map((r) => r.recall));
              const first = rows[0];
              lines.push(
                [ds.name, n, info(m.name).usesKappa ? kappa : '', k, m.name, num(xi), num(first.epsilon), cfg.trials, q, num(loss.mean), num(loss.se), num(recall.mean), num(recall.se), num(first.ldpEpsilon), bool(first.fallback)].join(','),
              );
            }
          }
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
      const nn = need(records, exactKey(ds.name, n)).nn;
      if (!nn) throw new UserError(`results store: cell ${exactKey(ds.name, n)} has no 1-NN distances`);
      for (let i = 0; i < nn.users.length; i++) lines.push(`${ds.name},${n},${csvField(nn.users[i])},${String(nn.distances[i])}`);
    }
  }
  return lines.join('\n') + '\n';
}

export function budgetsCsv(rows: readonly BudgetRow[]): string {
  const lines = [BUDGETS_HEADER];
  for (const r of rows) lines.push([num(r.d), num(r.delta), num(r.kappa), num(r.xi), num(r.alpha), num(r.epsilon), num(r.ldpBudget), bool(r.fallback)].join(','));
  return lines.join('\n') + '\n';
}
