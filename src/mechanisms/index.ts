export type { Mechanism, MechanismContext } from './types.js';
export { getMechanism, listMechanisms } from './registry.js';
export { flipBits, randomizeAll, copyCodes } from './flips.js';
export { laplaceNoise, laplaceRadius, planeFactor, type LaplaceSampler } from './laplsh.js';
export { DEFAULT_RAPPOR_HASHES } from './rappor.js';
