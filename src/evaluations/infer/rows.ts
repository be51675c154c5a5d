/**
 * infer.csv's rows (docs/ATTACKS.md, docs/OUTPUTS.md) from the walk of src/experiment/walk.ts:
 * per (data set, n) the baselines first (`prior` per aux, then `null` per κ and aux), then per κ,
 * mechanism entry, ξ and aux the per-trial auc and prec10, read from the store folder of its own
 * (infer/<trial cell key>.json).
 */
import type { ExperimentConfig } from '../../experiment/config/schema.js';
import type { RowHooks, WalkedRow } from '../../experiment/walk.js';
import type { InferTrialValue } from '../../experiment/trialValues.js';
import { UserError } from '../../util/errors.js';
import { INFER_FACTS } from './facts.js';
import { baselineKey, inferEntryKey, NULL_BASELINE, PRIOR_BASELINE, type InferRecord, type StoredInfer } from './store.js';

/** A baseline's values over the trials' records of one κ. */
function baselineRow(cfg: ExperimentConfig, records: unknown[], name: string, at: { dataset: string; n: number; kappa: number | null; aux: number }): WalkedRow {
  const got = records.map((r) => {
    const rec = r as InferRecord;
    const e = rec.entries[baselineKey(name, at.aux)];
    if (!e) throw new UserError(`results store: ${INFER_FACTS.store}/${rec.key}.json has no ${name} baseline at aux=${at.aux}; run again to compute it`);
    return e;
  });
  return {
    dataset: at.dataset,
    n: at.n,
    kappa: at.kappa,
    k: null,
    at: { aux: at.aux },
    mechanism: name,
    base: '',
    accountant: null,
    xi: null,
    values: { auc: got.map((e) => e.auc), prec10: got.map((e) => e.prec10) },
    extra: { k: cfg.infer!.k, targets: got[0]!.targets },
    info: null,
    own: null,
  };
}

export const INFER_ROWS: RowHooks<InferRecord> = {
  facts: INFER_FACTS,
  noun: 'inference entry',
  point(record, id, { at }) {
    const e = record.entries[inferEntryKey(id, at.aux!)] as StoredInfer | undefined;
    return e ? { values: { auc: e.auc, prec10: e.prec10 }, extra: { k: e.k, targets: e.targets }, eps: e.eps } : undefined;
  },
  baselines(cfg, _exact, dataset, n, trialRecords) {
    const aux = cfg.infer!.aux;
    // prior has no κ (the same in every κ's records): read from the first
    const prior = aux.map((a) => baselineRow(cfg, trialRecords(cfg.kappa[0]!), PRIOR_BASELINE, { dataset, n, kappa: null, aux: a }));
    const nul = cfg.kappa.flatMap((kappa) => aux.map((a) => baselineRow(cfg, trialRecords(kappa), NULL_BASELINE, { dataset, n, kappa, aux: a })));
    return [...prior, ...nul];
  },
};

/** The per-trial values of infer.csv's rows, in file order. */
export function inferTrialValues(rows: readonly WalkedRow[]): InferTrialValue[] {
  return rows.flatMap((r) =>
    r.values.auc!.map((auc, trial) => ({
      dataset: r.dataset,
      n: r.n,
      kappa: r.kappa,
      mechanism: r.mechanism,
      base: r.base === '' ? null : r.base,
      accountant: r.accountant,
      xi: r.xi,
      aux: r.at.aux!,
      trial,
      auc,
      prec10: r.values.prec10![trial]!,
      k: r.extra.k as number,
      targets: r.extra.targets as number,
    })),
  );
}
