import type { Mechanism } from './types.js';
import { NO_EPSILON } from './common.js';

/** The reference: true angular neighbours, no code (evaluated by exactRows in src/experiment/trial.ts). */
export const exactMechanism: Mechanism = {
  name: 'exact',
  description: 'true angular k-NN (the reference: utility loss 0, recall 1)',
  kind: 'exact',
  usesKappa: false,
  usesXi: false,
  optionKeys: [],
  epsilon: () => ({ ...NO_EPSILON }),
};
