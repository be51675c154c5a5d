import type { DatasetSpec } from '../../data/spec.js';
import type { LoadedDataset } from '../../data/types.js';
import { loadDataset, type LoadOptions } from '../../data/load.js';
import { UserError } from '../../util/errors.js';
import type { LshFamily, MetricName } from './types.js';
import { angularFamily } from './angular.js';
import { jaccardFamily } from './jaccard.js';

export type { LshFamily, MetricName, QueryDistance } from './types.js';
export { angularFamily } from './angular.js';
export { jaccardFamily, minHashTables, minHashCodes, itemSetVectors, type MinHashTables } from './jaccard.js';

/** Every family, the paper's (angular) first. */
export const FAMILIES: readonly LshFamily[] = [angularFamily, jaccardFamily];
export const METRICS: readonly MetricName[] = FAMILIES.map((f) => f.name);

/** The family of a metric name (`metric:` in configs, `--metric` on the command line). */
export function getFamily(metric: string, where = 'metric'): LshFamily {
  const f = FAMILIES.find((x) => x.name === metric);
  if (!f) throw new UserError(`${where}: unknown metric ${JSON.stringify(metric)} (known: ${METRICS.join(', ')})`);
  return f;
}

/**
 * Loads a data set as the family reads it: `loadDataset` of the family's data spec (jaccard: the
 * values before centring), then the family's user data per n (jaccard: the item sets).
 */
export async function loadFamilyData(family: LshFamily, spec: DatasetSpec, dims: number[], opts: LoadOptions = {}): Promise<LoadedDataset> {
  const loaded = await loadDataset(family.dataSpec(spec), dims, opts);
  const vectors = new Map([...loaded.vectors].map(([n, v]) => [n, family.prepare(v)] as const));
  return { summary: loaded.summary, vectors };
}
