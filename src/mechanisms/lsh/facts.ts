/**
 * Vanilla random-projection LSH: the plain facts of the unit (src/mechanisms/types.ts `Mechanism` for what each means),
 * without its code, so the catalog, `lshdp mechanisms` and a run's currency check (its algorithm
 * version) read them without loading a sampler, kernel or accountant. The code (mechanism.ts)
 * spreads them into its Mechanism.
 */
import { declareFacts } from '../types.js';

export const LSH_FACTS = declareFacts({
  name: 'lsh',
  description: 'vanilla random-projection LSH, no noise (non-private baseline)',
  kind: 'code',
  usesKappa: true,
  usesXi: false,
  cleanIsLshCode: true,
  roles: ['clean-lsh'],
});
