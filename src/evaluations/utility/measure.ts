/**
 * The utility loss's measurement (src/evaluations/measure.ts): every result's k-NN answer is taken
 * first and all are evaluated in one pass at the end of the cell (evaluateAnswerSets: a user
 * answering a query in several results has its distance computed once, the means are those of
 * evaluateAnswers), with every distance of the group when its exact neighbours bring them
 * (ExactKnn.all, angular), else the thread's memo. Its values are the `values` field of each result
 * of the trial cell records: per k, [utility loss, recall].
 */
import { evaluateAnswerSets, type AnswerSet, type DistanceMemo } from '../../experiment/utility.js';
import type { InRecord, MeasureCell, Measurement } from '../measure.js';

/** Per k (as a string key): [utility loss, recall], means over the queries of the trial. */
export type UtilityValues = Record<string, [number, number]>;

interface UtilityState {
  cell: MeasureCell;
  ids: string[];
  sets: AnswerSet[];
}

export const UTILITY_MEASURE: Measurement<true, UtilityState, UtilityValues> = {
  begin: (cell) => ({ cell, ids: [], sets: [] }),
  take(state, release) {
    if (!release.knn) throw new RangeError(`result ${release.id}: the utility loss needs a k-NN answer (no k asked)`);
    state.ids.push(release.id);
    state.sets.push(release.knn);
  },
  finish({ cell, ids, sets }) {
    const out = new Map<string, UtilityValues>();
    if (sets.length === 0) return out;
    const { vectors, queries, truth } = cell;
    const means = evaluateAnswerSets(vectors, queries, truth, sets, cell.family.distanceFrom(vectors), groupDistances(cell));
    ids.forEach((id, i) => {
      const m = means[i]!;
      const values: UtilityValues = {};
      sets[i]!.ks.forEach((k, t) => {
        values[String(k)] = [m.loss[t]!, m.recall[t]!];
      });
      out.set(id, values);
    });
    return out;
  },
};

/** Every distance of the group when its exact neighbours bring them (ExactKnn.all, angular), else the thread's memo, if any. */
function groupDistances(cell: MeasureCell): DistanceMemo | undefined {
  const { vectors, queries, truth, metric } = cell;
  if (metric === 'angular' && truth.all?.length === queries.length * (vectors.rowPtr.length - 1)) return { seen: null, known: truth.all };
  return cell.memo?.(vectors, queries, truth, metric);
}

/** Asked of every result with its k values; kept as the result's `values` (every k asked so far). */
export const UTILITY_RECORD: InRecord<true, UtilityValues> = {
  where: 'record',
  field: 'values',
  ask: () => true,
  holds: (stored, ks) => stored !== undefined && ks.every((k) => stored[String(k)] !== undefined),
  grow: () => true,
  keptKs: (stored) => Object.keys(stored).map(Number),
};
