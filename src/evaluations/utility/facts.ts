/**
 * The utility loss of the paper (Sect. 6): the k nearest neighbours each mechanism's codes give,
 * scored against the exact ones (docs/OUTPUTS.md, utility.csv). Every run evaluates it.
 */
import type { EvaluationFacts } from '../types.js';

export const UTILITY_FACTS = {
  name: 'utility',
  title: 'Utility',
  block: null,
  docs: 'docs/OUTPUTS.md',
  file: 'utility.csv',
  store: 'cells',
  columns: {
    dataset: 'str',
    n: 'num',
    kappa: 'optNum',
    k: 'num',
    mechanism: 'str',
    base: 'str',
    accountant: 'optStr',
    xi: 'optNum',
    epsilon_bit: 'optNum',
    epsilon_lap: 'optNum',
    epsilon_ldp: 'optNum',
    fallback: 'optBool',
    trials: 'num',
    queries: 'num',
    utility_loss_mean: 'num',
    utility_loss_se: 'optNum',
    recall_mean: 'optNum',
    recall_se: 'optNum',
  },
  axes: ['k'],
  headline: { k: 10 },
  metrics: [
    { name: 'utility', stem: 'utility_loss', label: 'utility loss', better: 'lower' },
    { name: 'recall', stem: 'recall', label: 'recall', better: 'higher' },
  ],
  settings: ['base', 'accountant', 'epsilon_bit', 'epsilon_lap', 'epsilon_ldp', 'fallback', 'queries'],
} as const satisfies EvaluationFacts;
