import type { DatasetSpec } from '../../data/spec.js';
import type { UserVectors } from '../../data/types.js';
import type { ExactKnn } from '../../knn/angular.js';
import type { CodeSet } from '../codes.js';
import type { TrialHashing } from '../hyperplanes.js';
import type { Float64Alloc } from '../../util/bufferPool.js';

/** The metrics lshdp has an LSH family for (config key `metric`). */
/** The LSH families' names (`metric:` in configs, `--metric`), the paper's first; FAMILIES (index.ts) holds them in this order. */
export const METRICS = ['angular', 'jaccard'] as const;
export type MetricName = (typeof METRICS)[number];

/** The distances of returned users to one query, for the utility loss: `distanceFrom(data)(query)`
 *  prepares the query once and returns the distance to any user. */
export type QueryDistance = (query: number) => (user: number) => number;

/**
 * An LSH family: what one metric needs to run every experiment and every accountant of lshdp.
 *
 * - `hash` draws kappa hash functions from `seed` (a public seed: `deriveSeed(runSeed, 'planes',
 *   dataset, n, kappa, trial)` in experiments) and returns every user's clean kappa-bit code.
 * - `disagreement(d)` is Pr[h(x) ≠ h(y)] for ONE bit when x, y are at distance d. Every accountant
 *   (paper, exact, theorem) only needs this probability: the bits of one user pair are independent
 *   given the pair, so the number of differing bits is Binomial(kappa, disagreement(d)).
 * - `distance`, `exactKnn`, `distanceFrom` are the metric itself (true neighbours, utility loss).
 *
 * A family works on `UserVectors` (CSR): angular reads the centred unit vectors, jaccard reads
 * only the support (the item set) of the vectors it `prepare`s.
 */
export interface LshFamily {
  readonly name: MetricName;
  readonly description: string;
  /** the data set as this family reads it (jaccard: the values before centring, `center: none`) */
  dataSpec(spec: DatasetSpec): DatasetSpec;
  /** the user data this family works on, from the vectors of `dataSpec` (jaccard: the item sets) */
  prepare(vectors: UserVectors): UserVectors;
  /** kappa hash functions from `seed`, applied to every user; `codes` is always set. `alloc` gives
   *  the users × κ projections their memory (a trial cell's pool; src/util/bufferPool.ts). */
  hash(data: UserVectors, kappa: number, seed: string, alloc?: Float64Alloc): TrialHashing & { codes: CodeSet };
  /** per-bit disagreement probability at distance d (angular: d; jaccard: d/2) */
  disagreement(d: number): number;
  /** distance between users i and j, in [0, 1] */
  distance(data: UserVectors, i: number, j: number): number;
  /** exact k nearest other users of each query, ties by smaller user index; `all`: also every
   *  query's distance to every user where the family can give it (ExactKnn.all); `means`: also
   *  each query's mean distance to the other users (ExactKnn.meanDistance, u_rand's; a family may give it unasked) */
  exactKnn(data: UserVectors, queries: Int32Array, k: number, options?: { all?: boolean; means?: boolean }): ExactKnn;
  /** the distance function the utility loss uses (bit-identical to `exactKnn`'s distances) */
  distanceFrom(data: UserVectors): QueryDistance;
  /** whether a mechanism needs the vectors themselves (laplsh) and so cannot run on this family */
  readonly vectorMechanisms: boolean;
}
