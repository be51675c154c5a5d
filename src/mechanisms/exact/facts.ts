/**
 * The exact reference (true neighbours, no code): the plain facts of the unit (src/mechanisms/types.ts `Mechanism` for what each means),
 * without its code, so the catalog, `lshdp mechanisms` and a run's currency check (its algorithm
 * version) read them without loading a sampler, kernel or accountant. The code (mechanism.ts)
 * spreads them into its Mechanism.
 */
import { declareFacts } from '../types.js';

export const EXACT_FACTS = declareFacts({
  name: 'exact',
  description: 'true angular k-NN (the reference: utility loss 0, recall 1)',
  kind: 'exact',
  usesKappa: false,
  usesXi: false,
});
