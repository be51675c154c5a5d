/**
 * Top-N recommendations from each mechanism's neighbours, scored on held-out items (config
 * `recommend`, docs/RECOMMEND.md): HR@N, NDCG@N and item recall@N in recommend.csv, with the
 * `exact` and `pop` baselines.
 */
import type { EvaluationFacts } from '../types.js';

export const RECOMMEND_FACTS = {
  name: 'recommend',
  title: 'Recommendations',
  block: 'recommend',
  docs: 'docs/RECOMMEND.md',
  file: 'recommend.csv',
  store: 'cells',
  columns: {
    dataset: 'str',
    n: 'num',
    kappa: 'optNum',
    k: 'optNum',
    mechanism: 'str',
    base: 'str',
    accountant: 'optStr',
    xi: 'optNum',
    top: 'num',
    hr_mean: 'num',
    hr_se: 'optNum',
    ndcg_mean: 'num',
    ndcg_se: 'optNum',
    item_recall_mean: 'num',
    item_recall_se: 'optNum',
    trials: 'num',
    queries: 'num',
  },
  axes: ['k', 'top'],
  headline: { k: 10, top: 10 },
  metrics: [
    { name: 'hr', stem: 'hr', label: 'HR', better: 'higher' },
    { name: 'ndcg', stem: 'ndcg', label: 'NDCG', better: 'higher' },
    { name: 'item_recall', stem: 'item_recall', label: 'item recall', better: 'higher' },
  ],
  settings: ['base', 'accountant', 'queries'],
} as const satisfies EvaluationFacts;
