/**
 * LapLSH: the plain facts of the unit (src/mechanisms/types.ts `Mechanism` for what each means),
 * without its code, so the catalog, `lshdp mechanisms` and a run's currency check (its algorithm
 * version) read them without loading a sampler, kernel or accountant. The code (mechanism.ts)
 * spreads them into its Mechanism.
 */
import { declareFacts, type OptionSpec } from '../types.js';

/** How a mechanism that noises the vector draws the noise (LapLSH's option, and the directional
 *  mechanisms'): through the κ projections (the default) or in R^n. */
export const SAMPLER_OPTION = {
  type: 'choice',
  values: ['projected', 'direct'],
  default: 'projected',
  noun: 'a sampler',
} as const satisfies OptionSpec;

export const LAPLSH_FACTS = declareFacts({
  name: 'laplsh',
  description: 'multivariate Laplace noise on the vector, then LSH',
  kind: 'code',
  usesKappa: true,
  usesXi: true,
  epsilonKind: 'lap',
  cleanIsLshCode: true,
  noisesVector: true,
  // The version of its own draws (Mechanism.algorithm): bump it when a change alters its numbers;
  // its stored results are recomputed, the other mechanisms' reused. History (LapLSH, VMF and
  // Purkayastha share their samplers): 2: the projected samplers use the Cholesky plane factor (was
  // U·S of the thin SVD); 3: their κ normals per user come from the ziggurat over xoshiro128++ (was
  // the polar method over seedrandom); 4: the draws that do not depend on ξ (LapLSH's directions and
  // Gamma(n, 1) radii, the directional mechanisms' orthogonal parts) are drawn once per trial and
  // shared by its ξ (common random numbers; MechanismContext.perTrial).
  algorithm: '4',
  optionSchema: { sampler: SAMPLER_OPTION },
  ldpNote: '2·ε_Lap for LapLSH',
  roles: ['laplace-vector'],
});
