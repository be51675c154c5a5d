/**
 * The per-trial values of a whole grid's records, as the statistics read them (claims, compare):
 * the records of a results folder read back (src/machinery/readFolder.ts) or a run's in memory
 * give the same values, through the same walk as the evaluations' files (src/experiment/walk.ts).
 * `dir` names the folder in errors.
 */
import { UserError } from '../util/errors.js';
import { mechanismInfo } from '../mechanisms/registry.js';
import type { ExperimentConfig } from './config/schema.js';
import { exactKey } from './grid.js';
import type { NnDistance, TrialValue } from './trialValues.js';
import type { CellRecord } from './records.js';
import { walkRows, type StoredRecords, type WalkedRow } from './walk.js';
import { evaluation } from '../evaluations/index.js';
import { UTILITY_FACTS } from '../evaluations/utility/facts.js';

/**
 * The per-trial values of the evaluation `name` over a grid's records by store folder, in its file's
 * order. `walked`: the rows of the same records' walk by evaluation name, when the caller holds it
 * (a run that just wrote the files: src/machinery/outputs.ts), so the grid is not walked twice.
 */
export function evaluationValues<V>(name: string, config: ExperimentConfig, stores: StoredRecords, walked?: WalkedRows): V[] {
  const e = evaluation(name);
  return e.trialValues(walked?.get(name) ?? walkRows(config, stores, e.rows, mechanismInfo)) as V[];
}

/** The walked rows of a grid's records, by evaluation name. */
export type WalkedRows = ReadonlyMap<string, readonly WalkedRow[]>;

const cellsOnly = (records: ReadonlyMap<string, CellRecord>): StoredRecords => new Map([[UTILITY_FACTS.store, records]]);

/**
 * The per-trial values and true 1-NN distances of a whole grid's records (a folder's, or a run's
 * in memory: the same records give the same values). `dir` names the folder in errors.
 */
export function trialValuesOf(config: ExperimentConfig, records: Map<string, CellRecord>, dir: string, walked?: WalkedRows): { values: TrialValue[]; nn: NnDistance[] } {
  const nn: NnDistance[] = [];
  for (const ds of config.datasets) {
    for (const n of config.dims) {
      const exact = records.get(exactKey(ds.name, n, config.recommend));
      if (exact?.kind !== 'exact') throw new UserError(`${dir}: cell ${exactKey(ds.name, n, config.recommend)} is missing; run the config again to complete the folder`);
      exact.nn.users.forEach((user, i) => {
        nn.push({ dataset: ds.name, n, user, distance: exact.nn.distances[i] });
      });
    }
  }
  return { values: evaluationValues<TrialValue>(UTILITY_FACTS.name, config, cellsOnly(records), walked), nn };
}
