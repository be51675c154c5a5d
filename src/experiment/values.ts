/**
 * The per-trial values of a whole grid's records, as the statistics read them (claims, compare):
 * the records of a results folder read back (src/machinery/readFolder.ts) or a run's in memory
 * give the same values. `dir` names the folder in errors.
 */
import { UserError } from '../util/errors.js';
import { mechanismInfo } from '../mechanisms/registry.js';
import { accountantOf, entryValues } from './aggregate.js';
import type { ExperimentConfig } from './config/schema.js';
import { exactKey } from './grid.js';
import { recommendRows } from './recommendRows.js';
import type { AttackTrialValue, NnDistance, RecommendTrialValue, TrialValue } from './trialValues.js';
import type { AttackRecord, CellRecord } from './records.js';
import { attackRows } from './attackCsv.js';

/**
 * The per-trial values and true 1-NN distances of a whole grid's records (a folder's, or a run's
 * in memory: the same records give the same values). `dir` names the folder in errors.
 */
export function trialValuesOf(config: ExperimentConfig, records: Map<string, CellRecord>, dir: string): { values: TrialValue[]; nn: NnDistance[] } {
  const values: TrialValue[] = [];
  const nn: NnDistance[] = [];
  const exactEntry = config.mechanisms.find((m) => mechanismInfo(m.name).kind === 'exact');
  for (const ds of config.datasets) {
    for (const n of config.dims) {
      const exact = records.get(exactKey(ds.name, n, config.recommend));
      if (exact?.kind !== 'exact') throw new UserError(`${dir}: cell ${exactKey(ds.name, n, config.recommend)} is missing; run the config again to complete the folder`);
      exact.nn.users.forEach((user, i) => {
        nn.push({ dataset: ds.name, n, user, distance: exact.nn.distances[i] });
      });
      if (exactEntry) {
        for (const k of config.k) {
          const row = exact.rows.find((r) => r.k === k);
          if (row) values.push({ dataset: ds.name, n, kappa: null, k, mechanism: exactEntry.label, base: exactEntry.name, accountant: null, xi: null, trial: 0, loss: row.loss, recall: row.recall });
        }
      }
      for (const kappa of config.kappa) {
        for (const v of entryValues(config, records, mechanismInfo, ds.name, n, kappa)) {
          const usesKappa = mechanismInfo(v.entry.name).usesKappa;
          v.loss.forEach((loss, trial) => {
            values.push({
              dataset: ds.name,
              n,
              kappa: usesKappa ? kappa : null,
              k: v.k,
              mechanism: v.entry.label,
              base: v.entry.name,
              accountant: accountantOf(v.entry),
              xi: v.xi,
              trial,
              loss,
              recall: v.recall[trial],
            });
          });
        }
      }
    }
  }
  return { values, nn };
}

/** The per-trial recommendation values of a whole grid's records, in recommend.csv order (baselines: trial 0). */
export function recommendValuesOf(config: ExperimentConfig, records: Map<string, CellRecord>): RecommendTrialValue[] {
  const values: RecommendTrialValue[] = [];
  for (const r of recommendRows(config, records, mechanismInfo)) {
    r.hr.forEach((hr, trial) => {
      values.push({
        dataset: r.dataset,
        n: r.n,
        kappa: r.kappa,
        k: r.k,
        mechanism: r.mechanism,
        base: r.base,
        accountant: r.accountant,
        xi: r.xi,
        top: r.top,
        trial,
        hr,
        ndcg: r.ndcg[trial],
        itemRecall: r.itemRecall[trial],
        queries: r.queries,
      });
    });
  }
  return values;
}

/** The per-trial attack values of a whole grid's attack records (a folder's, or a run's in memory: the same values). */
export function attackValuesOf(config: ExperimentConfig, records: Map<string, AttackRecord>): AttackTrialValue[] {
  return attackRows(config, records, mechanismInfo).flatMap((r) => r.values);
}
