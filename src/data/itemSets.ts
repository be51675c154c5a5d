/**
 * Each kept user's item set among the n items, before any centring (config `infer`,
 * docs/ATTACKS.md "Attribute inference"): the items the user interacted with, as the Jaccard sets
 * and the recommendation split define them.
 *
 * - With a recommendation split: the training items (RecommendData.trainCol, centred-zero ones
 *   included), since the vectors are the training vectors.
 * - Vectors built without centring (`center: none`, and every Jaccard run): their support is the
 *   item set already.
 * - Centred vectors: centring stores no zero, so a rating equal to the user's mean leaves the
 *   vector's support. The item sets are then the support of the same data set read without
 *   centring (the `uncentred` view: same items, same columns), row by row for the centred
 *   vectors' users.
 */
import type { ItemSets, RecommendData, UserVectors } from './types.js';

/** The item sets of the rows of `vectors` (see above); `uncentred` is needed only for centred vectors without a split. */
export function itemSetsOf(vectors: UserVectors, how: { centred: boolean; recommend?: RecommendData; uncentred?: UserVectors }): ItemSets {
  const { n } = vectors;
  if (how.recommend) return { rowPtr: how.recommend.trainPtr, colIdx: how.recommend.trainCol, n };
  if (!how.centred) return { rowPtr: vectors.rowPtr, colIdx: vectors.colIdx, n };
  const raw = how.uncentred;
  if (!raw) throw new RangeError(`${vectors.dataset} at n=${n}: centred vectors need the uncentred view for their item sets`);
  if (raw.n !== n || raw.itemIds.some((id, j) => id !== vectors.itemIds[j])) throw new RangeError(`${vectors.dataset} at n=${n}: the uncentred view has other columns than the vectors`);
  const rowOf = new Map(raw.userIds.map((id, r) => [id, r]));
  const users = vectors.userIds.length;
  const rowPtr = new Int32Array(users + 1);
  const rows = vectors.userIds.map((id) => {
    const r = rowOf.get(id);
    // every user kept after centring has a non-zero entry, so it is kept without centring too
    if (r === undefined) throw new RangeError(`${vectors.dataset} at n=${n}: user ${id} is missing from the uncentred view`);
    return r;
  });
  rows.forEach((r, u) => {
    rowPtr[u + 1] = rowPtr[u]! + (raw.rowPtr[r + 1]! - raw.rowPtr[r]!);
  });
  const colIdx = new Int32Array(rowPtr[users]!);
  rows.forEach((r, u) => {
    colIdx.set(raw.colIdx.subarray(raw.rowPtr[r]!, raw.rowPtr[r + 1]!), rowPtr[u]!);
  });
  return { rowPtr, colIdx, n };
}
