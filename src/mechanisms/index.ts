export type { Mechanism, MechanismContext, MechanismInfo, MechanismRole } from './types.js';
export { findMechanism, getMechanism, hasRole, listMechanisms, mechanismInfo } from './registry.js';
export { flipBits, flipBitsOnGrid, randomizeAll, copyCodes } from './flips.js';
export { laplaceNoise, laplaceRadius, planeFactor, type LaplaceSampler } from './laplsh/mechanism.js';
export { DEFAULT_RAPPOR_HASHES } from './rappor/mechanism.js';
