/**
 * utility.csv's rows (docs/OUTPUTS.md) from the walk of src/experiment/walk.ts: per (data set, n)
 * the exact rows first (the true neighbours scored by the same code: loss 0, recall 1, one
 * "trial"), then each result's mean utility loss and recall per k over the trials, with what its
 * ξ meant (the ε columns of its mechanism's kind).
 */
import type { ExperimentConfig } from '../../experiment/config/schema.js';
import type { CellRecord } from '../../experiment/records.js';
import { exactKey } from '../../experiment/grid.js';
import type { RowHooks, WalkedRow } from '../../experiment/walk.js';
import type { TrialValue } from '../../experiment/trialValues.js';
import { mechanismInfo } from '../../mechanisms/registry.js';
import { UserError } from '../../util/errors.js';
import { UTILITY_FACTS } from './facts.js';

/** The exact rows of a (data set, n): one per k, from its exact cell (a missing cell is an error, with or without an exact entry). */
function exactRows(cfg: ExperimentConfig, record: unknown, dataset: string, n: number): WalkedRow[] {
  const exact = record as CellRecord | undefined;
  if (exact?.kind !== 'exact') throw new UserError(`results store: cell ${exactKey(dataset, n, cfg.recommend)} is missing; run again to compute it`);
  const entry = cfg.mechanisms.find((m) => mechanismInfo(m.name).kind === 'exact');
  if (!entry) return [];
  return cfg.k.map((k) => {
    const r = exact.rows.find((row) => row.k === k);
    if (!r) throw new UserError(`results store: cell ${exact.key} has no exact row for k=${k}; run again to compute it`);
    return {
      dataset,
      n,
      kappa: null,
      k,
      at: {},
      mechanism: entry.label,
      base: entry.name,
      accountant: null,
      xi: null,
      values: { utility_loss: [r.loss], recall: [r.recall] },
      extra: { queries: exact.queries },
      info: null,
      own: null,
    };
  });
}

export const UTILITY_ROWS: RowHooks<CellRecord> = {
  facts: UTILITY_FACTS,
  noun: 'value',
  point(rec, id, { k }) {
    if (rec.kind !== 'trial') return undefined;
    const result = rec.results[id];
    const v = result?.values[String(k)];
    return v ? { values: { utility_loss: v[0], recall: v[1] }, extra: { queries: rec.queries }, eps: result.eps } : undefined;
  },
  baselines: exactRows,
  // the ε its ξ meant, in the column of its mechanism's kind; the fallback where LSHRR's accountant has one
  rowExtra: (mi, eps) => ({
    epsilon_bit: mi.epsilonKind === 'bit' ? eps.epsilon : null,
    epsilon_lap: mi.epsilonKind === 'lap' ? eps.epsilon : null,
    epsilon_ldp: eps.ldpEpsilon,
    fallback: mi.hasFallback ? eps.fallback : null,
  }),
};

/** The per-trial values of utility.csv's rows (exact rows: trial 0), in file order. */
export function utilityTrialValues(rows: readonly WalkedRow[]): TrialValue[] {
  return rows.flatMap((r) =>
    r.values.utility_loss!.map((loss, trial) => ({
      dataset: r.dataset,
      n: r.n,
      kappa: r.kappa,
      k: r.k!,
      mechanism: r.mechanism,
      base: r.base,
      accountant: r.accountant,
      xi: r.xi,
      trial,
      loss,
      recall: r.values.recall![trial]!,
    })),
  );
}
