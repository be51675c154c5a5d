import { UserError } from '../../util/errors.js';
import { METRICS, type LshFamily } from './types.js';
import { angularFamily } from './angular.js';
import { jaccardFamily } from './jaccard.js';

export { METRICS, type LshFamily, type MetricName, type QueryDistance } from './types.js';
export { angularFamily } from './angular.js';
export { jaccardFamily, minHashTables, minHashCodes, minHashMinima, codesFromMinima, itemSetVectors, type MinHashTables, type TrialMinHash } from './jaccard.js';

/** Every family, the paper's (angular) first. */
export const FAMILIES: readonly LshFamily[] = [angularFamily, jaccardFamily];

/** The family of a metric name (`metric:` in configs, `--metric` on the command line). */
export function getFamily(metric: string, where = 'metric'): LshFamily {
  const f = FAMILIES.find((x) => x.name === metric);
  if (!f) throw new UserError(`${where}: unknown metric ${JSON.stringify(metric)} (known: ${METRICS.join(', ')})`);
  return f;
}

/**
 * Loads a data set as the family reads it (see ./load.ts). The readers are imported on first use,
 * so modules that only hash (worker threads) do not load them.
 */
export async function loadFamilyData(...args: Parameters<typeof import('./load.js').loadFamilyData>): ReturnType<typeof import('./load.js').loadFamilyData> {
  const { loadFamilyData: load } = await import('./load.js');
  return load(...args);
}
