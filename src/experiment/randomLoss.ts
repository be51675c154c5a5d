/**
 * u_rand: the exact expected utility loss of k neighbours drawn uniformly at random without
 * replacement from the query's other users — the floor that "utility retained" measures from
 * (src/stats/retained.ts). A uniformly random other user of query q has expected distance
 * D̄_q = Σ_{u≠q} d(q, u) / (users − 1), and so has the mean of k of them drawn without replacement
 * (each draw is marginally uniform). The exact k-NN pass sees every distance and keeps D̄_q
 * (ExactKnn.meanDistance); the loss is then averaged as the utility loss is
 * (src/experiment/utility.ts evaluateAnswerSets): per query D̄_q − (Σ of its k true distances)/k,
 * summed over the queries in their order, divided by their count.
 */
import type { ExactKnn } from '../knn/angular.js';

/** u_rand per k (string keys, as the records keep k), over the queries of `truth`. */
export function randomLoss(truth: ExactKnn, ks: readonly number[]): Record<string, number> {
  const means = truth.meanDistance;
  if (!means) throw new RangeError('the exact neighbours carry no mean distances (ExactKnn.meanDistance): u_rand needs them');
  const Q = means.length;
  if (Q === 0) throw new RangeError('no queries to evaluate');
  if (truth.indices.length !== Q * truth.k) throw new RangeError(`truth has ${truth.indices.length / truth.k} queries, mean distances ${Q}`);
  const out: Record<string, number> = {};
  for (const k of ks) {
    if (!Number.isInteger(k) || k < 1 || k > truth.k) throw new RangeError(`u_rand: k = ${k} outside 1..${truth.k}`);
    let sum = 0;
    for (let qi = 0; qi < Q; qi++) {
      let td = 0;
      for (let i = 0, t0 = qi * truth.k; i < k; i++) td += truth.distances[t0 + i]!;
      sum += means[qi]! - td / k;
    }
    out[String(k)] = sum / Q;
  }
  return out;
}

/** Whether a stored u_rand (an exact record's `random`) holds every k of `ks`. */
export function holdsRandomLoss(stored: unknown, ks: readonly number[]): boolean {
  if (stored === null || typeof stored !== 'object') return false;
  const byK = stored as Record<string, unknown>;
  return ks.every((k) => typeof byK[String(k)] === 'number');
}
