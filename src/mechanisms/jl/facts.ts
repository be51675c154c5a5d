/**
 * JL + Gaussian noise (jl-gaussian): the plain facts of the unit (src/mechanisms/types.ts
 * `Mechanism` for what each means), without its code, so the catalog, `lshdp mechanisms` and a
 * run's currency check read them without loading the accountant or the sampler. The code
 * (mechanism.ts) spreads them into its Mechanism.
 */
import { declareFacts, type OptionSpec } from '../types.js';
import { JL_GAUSSIAN_GUARANTEES } from '../../privacy/accountantNames.js';

/** The `guarantee` option: which statement σ is solved for (docs/PRIVACY.md "jl-gaussian"). */
export const GUARANTEE_OPTION = {
  type: 'choice',
  values: JL_GAUSSIAN_GUARANTEES,
  default: 'expected',
  noun: 'a guarantee',
} as const satisfies OptionSpec;

export const JL_GAUSSIAN_FACTS = declareFacts({
  name: 'jl-gaussian',
  description: 'random projection W·x with Gaussian noise (Kenthapadi et al. 2013), released as reals',
  kind: 'code',
  usesKappa: true,
  usesXi: true,
  release: 'reals',
  // the release is a function of the whole vector (its projections): a family with vectors only,
  // and the audit's pairs keep every coordinate
  noisesVector: true,
  // The version of its own draws (Mechanism.algorithm): bump it when a change alters its numbers.
  algorithm: '1',
  optionSchema: { guarantee: GUARANTEE_OPTION },
  budgetRows: 'own',
  ldpNote: 'for jl-gaussian the ξ at which the same σ meets its condition for the farthest pair (d = 1), with the same δ',
  roles: ['gaussian-projection'],
});
