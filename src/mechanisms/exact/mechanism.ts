import type { Mechanism } from '../types.js';
import { NO_EPSILON } from '../common.js';
import { EXACT_FACTS } from './facts.js';

/** The reference: true angular neighbours, no code (evaluated by exactRows in src/experiment/trial.ts). */
export const exactMechanism: Mechanism = {
  ...EXACT_FACTS,
  epsilon: () => ({ ...NO_EPSILON }),
};
