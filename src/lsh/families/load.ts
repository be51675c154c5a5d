import type { DatasetSpec } from '../../data/spec.js';
import type { LoadedDataset } from '../../data/types.js';
import { loadDataset, type LoadOptions } from '../../data/load.js';
import type { LshFamily } from './types.js';

/**
 * Loads a data set as the family reads it: `loadDataset` of the family's data spec (jaccard: the
 * values before centring), then the family's user data per n (jaccard: the item sets). Kept apart
 * from the families themselves so that worker threads, which only hash, never load the readers.
 * With a recommendation split (`opts.recommend`, `opts.seed`) the vectors are the training
 * vectors and `recommend` lists each n's training and held-out columns: `prepare` keeps the rows
 * and columns (jaccard: the same support), so they fit every family's user data.
 */
export async function loadFamilyData(family: LshFamily, spec: DatasetSpec, dims: number[], opts: LoadOptions = {}): Promise<LoadedDataset> {
  const loaded = await loadDataset(family.dataSpec(spec), dims, opts);
  const vectors = new Map([...loaded.vectors].map(([n, v]) => [n, family.prepare(v)] as const));
  return { summary: loaded.summary, vectors, ...(loaded.recommend ? { recommend: loaded.recommend } : {}) };
}
