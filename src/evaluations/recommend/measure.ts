/**
 * The recommendations' measurement (src/evaluations/measure.ts): what they ask of the data (the
 * queries are the sampled users with a held-out item among the n items; the vectors are the
 * training vectors, which the data side's split gives), the `exact` and `pop` baselines on the
 * exact record, and per trial cell the lists of every k from each result's one k-NN answer. Its
 * values are the `rec` field of each result of the trial cell records: per k, per N, [HR, NDCG,
 * item recall]. No memo of a cell's answers (RecommendMemo): on the shared MovieLens grid only 7%
 * of a cell's (query, answer row) pairs repeat, and keying them cost more than it saved (docs/SPEED.md).
 */
import { UserError } from '../../util/errors.js';
import type { ExactValues, GroupData, InRecord, MeasureCell, Measurement } from '../measure.js';
import { holdsEvery, recommendBaselines, recommendByK, recommendMeans, recommendQueries, storedTop, type RecommendBaselines, type RecommendByK } from './lists.js';
import { RECOMMEND_FACTS } from './facts.js';
import { splitSuffix } from '../../experiment/grid.js';
import type { RecommendConfig } from './config.js';

interface RecommendState {
  cell: MeasureCell;
  out: Map<string, RecommendByK>;
}

/** Asked with the list lengths N (ascending). */
export const RECOMMEND_MEASURE: Measurement<number[], RecommendState, RecommendByK> = {
  begin: (cell) => ({ cell, out: new Map() }),
  take({ cell, out }, release, top) {
    // a result asked without k (its other evaluations read only the codes) has no lists
    if (!release.knn) return;
    if (!cell.recommend) throw new RangeError('results asked with top need the recommendation data of the cell');
    const { answers, width, ks } = release.knn;
    // the recommendations of every k from the one answer (each k's neighbours are a prefix of it)
    out.set(release.id, recommendByK(recommendMeans(cell.vectors, cell.recommend, cell.queries, answers, width, ks, top)));
  },
  finish: ({ out }) => out,
};

const union = (a: readonly number[], b: readonly number[]) => [...new Set([...a, ...b])].sort((x, y) => x - y);
const topOf = (cfg: { recommend?: { top: number[] } }): number[] => cfg.recommend?.top ?? [];

/** Asked with the config's N values; kept as the result's `rec` (every N asked so far). */
export const RECOMMEND_RECORD: InRecord<number[], RecommendByK> = {
  where: 'record',
  field: 'rec',
  ask: topOf,
  holds: (stored, ks, top) => holdsEvery(stored, ks, top),
  grow: (stored, top) => union(top, storedTop(stored)),
};

/** The baselines of every (k, N) on the exact record. */
export const RECOMMEND_EXACT: ExactValues<RecommendBaselines> = {
  field: 'rec',
  compute: (data, queries, truth, ks, cfg) => recommendBaselines(data.vectors, splitOf(data), queries, truth.indices, truth.k, ks, topOf(cfg)),
  holds: (stored, ks, cfg) => stored !== undefined && holdsEvery(stored.exact, ks, topOf(cfg)) && topOf(cfg).every((N) => stored.pop[String(N)] !== undefined),
};

/** A group's queries: the sampled users with a held-out item among the n items. */
export function recommendGroupQueries(data: GroupData, sampled: Int32Array, at: { dataset: string; n: number }): Int32Array {
  const queries = recommendQueries(splitOf(data, at), sampled);
  if (queries.length === 0) throw new UserError(`${RECOMMEND_FACTS.block}: no query user of data set "${at.dataset}" at n=${at.n} has a held-out item among the n items`);
  return queries;
}

function splitOf(data: GroupData, at?: { dataset: string; n: number }) {
  if (!data.recommend) throw new Error(`data set "${at?.dataset ?? data.vectors.dataset}" at n=${at?.n ?? data.vectors.n} was loaded without its recommendation split`);
  return data.recommend;
}

/** The block's settings in words (`--dry-run`, `lshdp status`), and what the split changes elsewhere. */
export function describeRecommend(r: RecommendConfig): { settings: string; note: string } {
  return {
    settings: `split ${r.split}, holdout ${r.holdout}, top [${r.top.join(', ')}]`,
    note: `cells keyed ${splitSuffix(r).slice(1)}: vectors and utility.csv on the training interactions; recommend.csv`,
  };
}
