/**
 * With recommendations (config `recommend`), the matched tables show NDCG@N at ξ* beside u*, with
 * the `pop` and `exact` baselines: N the grid's nearest to 10, at the cell's k.
 */
import type { RecommendTrialValue } from '../experiment/trialValues.js';
import { nearest } from '../util/nearest.js';

export const NDCG_TOP = 10;

export interface NdcgReader {
  /** the list length N */
  top: number;
  /** an entry's per-trial NDCG@N at one ξ, trials 0..m−1 (null when one is missing) */
  at(dataset: string, n: number, kappa: number, mechanism: string, xi: number, trials: number): number[] | null;
  /** the baselines' mean NDCG@N at (data set, n) (null where absent) */
  pop(dataset: string, n: number): number | null;
  exact(dataset: string, n: number): number | null;
}

const key = (...parts: (string | number | null)[]) => parts.join('\u0000');

/** The reader of a folder's recommendation values at k; null without any. */
export function ndcgReader(values: readonly RecommendTrialValue[], k: number): NdcgReader | null {
  if (values.length === 0) return null;
  const top = nearest(new Set(values.map((v) => v.top)), NDCG_TOP)!;
  const byKey = new Map<string, Map<number, number>>();
  const sums = new Map<string, { s: number; n: number }>();
  for (const v of values) {
    if (v.top !== top) continue;
    if (v.mechanism === 'pop' || (v.mechanism === 'exact' && v.k === k)) {
      const b = key(v.mechanism, v.dataset, v.n);
      const acc = sums.get(b) ?? { s: 0, n: 0 };
      sums.set(b, { s: acc.s + v.ndcg, n: acc.n + 1 });
      continue;
    }
    if (v.k !== k || v.xi === null) continue;
    const e = key(v.dataset, v.n, v.kappa, v.mechanism, v.xi);
    const m = byKey.get(e) ?? new Map<number, number>();
    byKey.set(e, m.set(v.trial, v.ndcg));
  }
  const mean = (b: string) => {
    const acc = sums.get(b);
    return acc ? acc.s / acc.n : null;
  };
  return {
    top,
    at(dataset, n, kappa, mechanism, xi, trials) {
      const m = byKey.get(key(dataset, n, kappa, mechanism, xi));
      if (!m) return null;
      const out: number[] = [];
      for (let t = 0; t < trials; t++) {
        const x = m.get(t);
        if (x === undefined) return null;
        out.push(x);
      }
      return out;
    },
    pop: (dataset, n) => mean(key('pop', dataset, n)),
    exact: (dataset, n) => mean(key('exact', dataset, n)),
  };
}
