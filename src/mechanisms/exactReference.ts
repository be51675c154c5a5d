import type { Mechanism } from './types.js';
import { NO_EPSILON } from './common.js';
import { BUILT_IN } from './catalog.js';

/** The reference: true angular neighbours, no code (evaluated by exactRows in src/experiment/trial.ts). */
export const exactMechanism: Mechanism = {
  ...BUILT_IN.exact,
  epsilon: () => ({ ...NO_EPSILON }),
};
