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
