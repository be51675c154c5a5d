/**
 * Attribute inference from released codes (config `infer`, docs/ATTACKS.md, "Attribute
 * inference"): an adversary who knows an auxiliary group's item sets and the public hash functions
 * ranks a target's items from the target's released code alone; auc and prec10 in infer.csv, with
 * the `prior` (the auxiliary group's popularity alone) and `null` (a random code) baselines. Its
 * per-trial values have a store folder of their own, so that adding it to a finished grid leaves
 * the cell records' bytes as they are.
 */
import type { EvaluationFacts } from '../types.js';

export const INFER_FACTS = {
  name: 'infer',
  title: 'Attribute inference',
  block: 'infer',
  docs: 'docs/ATTACKS.md',
  file: 'infer.csv',
  store: 'infer',
  columns: {
    dataset: 'str',
    n: 'num',
    kappa: 'optNum',
    mechanism: 'str',
    base: 'optStr',
    accountant: 'optStr',
    xi: 'optNum',
    aux: 'num',
    k: 'num',
    auc_mean: 'num',
    auc_se: 'optNum',
    prec10_mean: 'num',
    prec10_se: 'optNum',
    trials: 'num',
    targets: 'num',
  },
  axes: ['aux'],
  headline: { aux: 0.5 },
  metrics: [
    { name: 'auc', stem: 'auc', label: 'AUC', better: 'higher' },
    { name: 'prec10', stem: 'prec10', label: 'prec@10', better: 'higher' },
  ],
  settings: ['base', 'accountant', 'k', 'targets'],
} as const satisfies EvaluationFacts;
