/**
 * What the results store holds per grid cell (src/machinery/store.ts writes and reads
 * them as cells/<key>.json): the records are the science's own output, so the aggregation, the
 * claims and the reports read them without the machinery.
 */
import type { EpsilonInfo } from '../privacy/types.js';
import type { RecommendBaselines, RecommendByK } from '../evaluations/recommend/lists.js';
import type { CellRow } from './cellSpec.js';

export interface ExactRecord {
  format: number;
  key: string;
  kind: 'exact';
  hash: string;
  /** number of query users the rows average over */
  queries: number;
  /** the largest k the rows were computed for */
  kmax: number;
  rows: CellRow[];
  /** the true 1-NN distance of each query user, users ascending by index */
  nn: { users: string[]; distances: number[] };
  /** per k (string keys): u_rand, the exact expected utility loss of k neighbours drawn uniformly
   *  at random over the same queries (src/experiment/randomLoss.ts); a record without it is
   *  recomputed (EXACT_RECORD_REVISION) */
  random?: Record<string, number>;
  /** compute time in the thread that ran it, ms (0 when read from the k-NN cache); provenance only */
  ms: number;
  /** with `recommend`: the baselines `exact` (per k, per N) and `pop` (per N) over the queries */
  rec?: RecommendBaselines;
}

/** One result of a trial cell. */
export interface StoredResult {
  hash: string;
  base: string;
  options: Record<string, unknown>;
  xi: number | null;
  eps: EpsilonInfo;
  /** per k (as a string key): [utility loss, recall], means over the queries of this trial */
  values: Record<string, [number, number]>;
  /** with `recommend`: per k, per N (string keys), [HR, NDCG, item recall], means over the queries of this trial */
  rec?: RecommendByK;
  /** compute time, ms; provenance only */
  ms: number;
}

export interface TrialRecord {
  format: number;
  key: string;
  kind: 'trial';
  queries: number;
  results: Record<string, StoredResult>;
}

/** The exact record's fields: 2 adds `random`. A run's quick up-to-date key includes it, so a
 *  folder of an older lshdp goes the long way, which recomputes its exact cells (not its trials). */
export const EXACT_RECORD_REVISION = 2;

export type CellRecord = ExactRecord | TrialRecord;

export type { AttackRecord, StoredAttack } from '../evaluations/attack/records.js';
