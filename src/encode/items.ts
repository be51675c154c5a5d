import type { Interactions } from '../data/interactions.js';
import type { Center } from '../data/spec.js';
import type { UserVectors } from '../data/types.js';
import { buildVectors, rankItems } from '../data/vectors.js';
import { UserError } from '../util/errors.js';

/**
 * User vectors over a GIVEN item list (column j = items[j]), built exactly as the experiments
 * build them (src/data/vectors.ts buildVectors: same centring, same dropping, same scaling), so a
 * user's vector, and therefore its code, does not depend on which file it was read from. Items of
 * the list that the data never mention are empty columns; items the list lacks are ignored.
 */
export function vectorsForItems(inter: Interactions, items: readonly string[], center: Center, dataset: string): UserVectors {
  const index = new Map<string, number>();
  inter.itemIds.forEach((id, i) => {
    index.set(id, i);
  });
  const itemIds = [...inter.itemIds];
  const ranking = new Int32Array(items.length);
  items.forEach((id, j) => {
    let i = index.get(id);
    if (i === undefined) {
      i = itemIds.length; // no interaction refers to it: an empty column
      itemIds.push(id);
      index.set(id, i);
    }
    ranking[j] = i;
  });
  return buildVectors({ ...inter, itemIds }, ranking, items.length, center, dataset);
}

/** The n most popular items of the data (protocol §2.1 ranking), as ids. */
export function topItems(inter: Interactions, n: number, dataset: string): string[] {
  if (n > inter.itemIds.length) throw new UserError(`--dims: n = ${n} exceeds the number of items of ${dataset} (${inter.itemIds.length}); choose a smaller n`);
  return Array.from(rankItems(inter).subarray(0, n), (i) => inter.itemIds[i]!);
}
