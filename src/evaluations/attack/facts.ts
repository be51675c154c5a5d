/**
 * The linkage attack (config `attack`, docs/ATTACKS.md): an adversary who knows a share of a
 * target's entries ranks every released code against the clean code of that partial profile;
 * reid@1 and reid@10 in attack.csv. Its per-trial values have a store folder of their own, so that
 * adding the attack to a finished grid leaves the cell records' bytes as they are.
 */
import type { EvaluationFacts } from '../types.js';

export const ATTACK_FACTS = {
  name: 'attack',
  title: 'Linkage attack',
  block: 'attack',
  docs: 'docs/ATTACKS.md',
  file: 'attack.csv',
  store: 'attack',
  columns: {
    dataset: 'str',
    n: 'num',
    kappa: 'num',
    mechanism: 'str',
    base: 'str',
    accountant: 'optStr',
    xi: 'optNum',
    known: 'num',
    reid1_mean: 'num',
    reid1_se: 'optNum',
    reid10_mean: 'num',
    reid10_se: 'optNum',
    trials: 'num',
    users: 'num',
    targets: 'num',
  },
  axes: ['known'],
  headline: { known: 0.5 },
  metrics: [
    { name: 'reid1', stem: 'reid1', label: 'reid@1', better: 'higher' },
    { name: 'reid10', stem: 'reid10', label: 'reid@10', better: 'higher' },
  ],
  settings: ['base', 'accountant', 'users', 'targets'],
} as const satisfies EvaluationFacts;
