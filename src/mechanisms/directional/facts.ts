/**
 * The directional mechanisms, von Mises–Fisher (vmf) and Purkayastha: the plain facts of the unit (src/mechanisms/types.ts `Mechanism` for what each means),
 * without its code, so the catalog, `lshdp mechanisms` and a run's currency check (its algorithm
 * version) read them without loading a sampler, kernel or accountant. The code (mechanism.ts)
 * spreads them into its Mechanism.
 */
import { declareFacts } from '../types.js';
import { SAMPLER_OPTION } from '../laplsh/facts.js';

export const VMF_FACTS = declareFacts({
  name: 'vmf',
  description: 'von Mises–Fisher direction around the vector (Euclidean-metric DP), then LSH',
  kind: 'code',
  usesKappa: true,
  usesXi: true,
  epsilonKind: 'concentration',
  noisesVector: true,
  concentrationMetric: 'euclidean',
  // The version of its own draws (Mechanism.algorithm): bump it when a change alters its numbers;
  // its stored results are recomputed, the other mechanisms' reused. History (LapLSH, VMF and
  // Purkayastha share their samplers): 2: the projected samplers use the Cholesky plane factor (was
  // U·S of the thin SVD); 3: their κ normals per user come from the ziggurat over xoshiro128++ (was
  // the polar method over seedrandom); 4: the draws that do not depend on ξ (LapLSH's directions and
  // Gamma(n, 1) radii, the directional mechanisms' orthogonal parts) are drawn once per trial and
  // shared by its ξ (common random numbers; MechanismContext.perTrial).
  algorithm: '4',
  optionSchema: { sampler: SAMPLER_OPTION },
  budgetRows: 'concentration',
  roles: ['directional-euclidean'],
});

export const PURKAYASTHA_FACTS = declareFacts({
  name: 'purkayastha',
  description: 'Purkayastha direction around the vector (angular-metric DP), then LSH',
  kind: 'code',
  usesKappa: true,
  usesXi: true,
  epsilonKind: 'concentration',
  noisesVector: true,
  concentrationMetric: 'angle',
  // the version's history: VMF_FACTS above
  algorithm: '4',
  optionSchema: { sampler: SAMPLER_OPTION },
  budgetRows: 'concentration',
  roles: ['directional-angular'],
});
