import type { CodeSet } from '../lsh/codes.js';
import type { TrialHashing } from '../lsh/hyperplanes.js';
import type { EpsilonInfo } from '../privacy/types.js';
import type { MechanismContext } from './types.js';
import { packSigns } from '../lsh/codes.js';
import { wasmNormals } from '../lsh/wasm/kernel.js';
import { fillZigguratNormals } from '../random/ziggurat.js';

/**
 * Fill `out` with standard normals from a xoshiro128++ state (src/random/ziggurat.ts): in the
 * WebAssembly kernel, else by its JavaScript twin (the same doubles). The projected samplers draw
 * their κ normals per user this way, a chunk of users at a time.
 */
export function fillFastNormals(state: Int32Array, out: Float64Array): void {
  if (!wasmNormals(state, out)) fillZigguratNormals(state, out);
}

/** The clean LSH codes of a trial: the shared ones when the trial computed them, else packed now. */
export function cleanCodes(hashing: TrialHashing): CodeSet {
  const users = hashing.projections.length / hashing.kappa;
  return hashing.codes ?? packSigns(hashing.projections, users, hashing.kappa);
}

export function userCount(ctx: MechanismContext): number {
  return ctx.vectors.rowPtr.length - 1;
}

/** The EpsilonInfo of mechanisms without a privacy parameter (exact, lsh). */
export const NO_EPSILON: EpsilonInfo = Object.freeze({ epsilon: null, ldpEpsilon: null, fallback: false });
