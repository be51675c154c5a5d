/*
 * The release of JL + Gaussian noise (Kenthapadi et al. 2013; the accounting is
 * src/privacy/gaussian.ts): y_i = W x_i + σ·Z_i with W = R/√κ, from the projections R·x_i the trial
 * already holds. It lives here, in layer 0 beside the other samplers, because it needs only a uniform
 * source and the normal sampler: no accountant, no hashing; a mechanism (layer 4) calls it with the
 * σ its accountant gives.
 */
import type { Rng } from './rng.js';
import { fillZigguratNormals, zigguratState } from './ziggurat.js';

/** Fills `out` with standard normals from a xoshiro128++ state: fillZigguratNormals, or a twin with the same doubles. */
export type NormalFill = (state: Int32Array, out: Float64Array) => void;

/**
 * The released vectors, users × κ row-major: out[i·κ + j] = projections[i·κ + j]/(√κ·norm_i) + σ·Z_ij.
 *
 * - `projections` are R·x_i for the rows x_i of the data (TrialHashing.projections); `norms` their
 *   Euclidean norms (null: the rows are unit vectors already), so the signal is W·(x_i/‖x_i‖). A zero
 *   row (norm 0) has no direction and projects to 0: its signal is 0 (the release is its noise).
 * - The normals Z are drawn first, all users·κ of them in row-major order (user by user, coordinate
 *   by coordinate), by the ziggurat from one xoshiro128++ state seeded by `rng`: the output is a pure
 *   function of the rng's stream. `fill` may be the WebAssembly twin (mechanisms/common.ts
 *   fillFastNormals), which gives the same doubles.
 * - σ = Infinity (ξ = 0: no finite σ meets the condition) releases the noise alone at σ = 1, Z_ij.
 *   It is the limit of y/σ as σ → ∞, and neighbour rankings by Euclidean or angular distance do not
 *   change when every released vector is scaled by the same 1/σ, so any σ would rank alike. The same
 *   normals are drawn as at a finite σ, so the rng's stream is consumed alike.
 * - σ = 0 releases W x exactly (no privacy; the normals are drawn all the same).
 */
export function jlGaussianRelease(projections: Float64Array, norms: Float64Array | null, users: number, kappa: number, sigma: number, rng: Rng, fill: NormalFill = fillZigguratNormals): Float64Array {
  if (!(Number.isInteger(kappa) && kappa >= 1)) throw new RangeError(`jlGaussianRelease: kappa must be a positive integer, got ${kappa}`);
  if (!(Number.isInteger(users) && users >= 0)) throw new RangeError(`jlGaussianRelease: users must be a non-negative integer, got ${users}`);
  if (projections.length !== users * kappa) throw new RangeError(`jlGaussianRelease: projections has ${projections.length} entries, expected users*kappa = ${users}*${kappa}`);
  if (norms !== null && norms.length !== users) throw new RangeError(`jlGaussianRelease: norms has ${norms.length} entries, expected ${users}`);
  if (!(sigma >= 0)) throw new RangeError(`jlGaussianRelease: sigma must be >= 0 (Infinity allowed), got ${sigma}`);
  const out = new Float64Array(users * kappa);
  fill(zigguratState(rng), out);
  if (sigma === Infinity) return out;
  const invSqrtKappa = 1 / Math.sqrt(kappa);
  for (let i = 0; i < users; i++) {
    const norm = norms === null ? 1 : norms[i]!;
    if (!(norm >= 0 && norm < Infinity)) throw new RangeError(`jlGaussianRelease: norm of row ${i} must be finite and >= 0, got ${norm}`);
    const scale = norm === 0 ? 0 : invSqrtKappa / norm;
    const base = i * kappa;
    for (let j = 0; j < kappa; j++) out[base + j] = projections[base + j]! * scale + sigma * out[base + j]!;
  }
  return out;
}
