import type { EpsilonInfo, PrivacyParams } from './types.js';
import { UserError } from '../util/errors.js';
import { euclideanFromAngular } from './distance.js';
import { checkKappa, checkPrivacyParams, solveAlpha } from './kl.js';

function checkXi(xi: number): void {
  if (!(Number.isFinite(xi) && xi >= 0)) throw new UserError(`privacy: xi must be a finite number >= 0, got ${xi}`);
}

/**
 * LSHRR (protocol §5): the per-bit eps giving total budget xi at angular distance d with failure
 * delta, eps = xi / (kappa (d + alpha)); its LDP equivalent is kappa·eps. When no alpha exists
 * (d^kappa >= delta) the pure LDP bound xi = kappa·eps is used and `fallback` is set.
 * xi = 0 gives eps = 0 (uniformly random bits).
 */
export function lshrrEpsilon(xi: number, kappa: number, privacy: PrivacyParams): EpsilonInfo {
  checkXi(xi);
  checkKappa(kappa);
  checkPrivacyParams(privacy.d, privacy.delta);
  const alpha = solveAlpha(kappa, privacy.d, privacy.delta);
  if (alpha === null) return { epsilon: xi / kappa, ldpEpsilon: xi, fallback: true };
  const epsilon = xi / (kappa * (privacy.d + alpha));
  return { epsilon, ldpEpsilon: kappa * epsilon, fallback: false };
}

/**
 * LapLSH (protocol §5): xi = eps·d_euc(d), so eps = xi / d_euc(d).
 * LDP equivalent 2·eps: the Laplace mechanism is eps·d_euc-XDP, and any two unit vectors are at
 * Euclidean distance at most 2, so restricted to unit vectors it is 2eps-LDP.
 */
export function laplshEpsilon(xi: number, privacy: PrivacyParams): EpsilonInfo {
  checkXi(xi);
  checkPrivacyParams(privacy.d, privacy.delta);
  const epsilon = xi / euclideanFromAngular(privacy.d);
  return { epsilon, ldpEpsilon: 2 * epsilon, fallback: false };
}

/**
 * von Mises–Fisher (Weggenmann & Kerschbaum 2021): density ∝ exp(c·x·z) on the sphere. The
 * normaliser does not depend on x, and the log-ratio at x and x' is c·(x − x')·z ≤ c·‖x − x'‖₂
 * (Cauchy–Schwarz, ‖z‖ = 1), so it is (c·d₂)-private for the Euclidean distance, with δ = 0 for
 * every pair and every hash function (LSH is post-processing). Budget ξ at angular distance d:
 * c = ξ / d_euc(d). LDP equivalent 2c (unit vectors are at most 2 apart).
 */
export function vmfConcentration(xi: number, privacy: PrivacyParams): EpsilonInfo {
  checkXi(xi);
  checkPrivacyParams(privacy.d, privacy.delta);
  const c = xi / euclideanFromAngular(privacy.d);
  return { epsilon: c, ldpEpsilon: 2 * c, fallback: false };
}

/**
 * Purkayastha (Weggenmann & Kerschbaum 2021): density ∝ exp(−c·θ(x, z)), θ the angle in radians.
 * By the triangle inequality of angles, θ(x', z) ≤ θ(x, z) + θ(x, x'), so it is (c·θ)-private,
 * δ = 0. At angular distance d (θ = π·d): c = ξ / (π·d). LDP equivalent π·c (angles are at most π).
 */
export function purkayasthaConcentration(xi: number, privacy: PrivacyParams): EpsilonInfo {
  checkXi(xi);
  checkPrivacyParams(privacy.d, privacy.delta);
  const c = xi / (Math.PI * privacy.d);
  return { epsilon: c, ldpEpsilon: Math.PI * c, fallback: false };
}
