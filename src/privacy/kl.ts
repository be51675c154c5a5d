import { UserError } from '../util/errors.js';

/**
 * KL divergence between Bernoulli(a) and Bernoulli(b):
 * a ln(a/b) + (1-a) ln((1-a)/(1-b)), with 0·ln 0 = 0. The logs are taken as log1p of the
 * relative difference so that KL(b+alpha || b) keeps its accuracy for small alpha.
 */
export function klBernoulli(a: number, b: number): number {
  const first = a === 0 ? 0 : a * Math.log1p((a - b) / b);
  const second = a === 1 ? 0 : (1 - a) * Math.log1p((b - a) / (1 - b));
  return first + second;
}

/** Checks the (d, delta) of the budget axis; they come from configs, hence UserError. */
export function checkPrivacyParams(d: number, delta: number): void {
  if (!(d > 0 && d < 1)) throw new UserError(`privacy: d must be in (0, 1), got ${d}`);
  if (!(delta > 0 && delta < 1)) throw new UserError(`privacy: delta must be in (0, 1), got ${delta}`);
}

export function checkKappa(kappa: number): void {
  if (!(Number.isInteger(kappa) && kappa >= 1)) throw new UserError(`privacy: kappa must be a positive integer, got ${kappa}`);
}

/**
 * The alpha of the tighter bound (protocol §5): the alpha in (0, 1 - d) with
 * kappa·KL(d + alpha || d) = ln(1/delta), or null when none exists.
 *
 * KL(d + alpha || d) is strictly increasing in alpha on (0, 1 - d) (its derivative is
 * ln((d+alpha)/d) - ln((1-d-alpha)/(1-d)) > 0), runs from 0 to KL(1 || d) = ln(1/d), so a root
 * exists iff kappa·ln(1/d) > ln(1/delta), i.e. iff d^kappa < delta (compared in logs, so it
 * cannot underflow). The root is found by bisection down to adjacent doubles.
 */
export function solveAlpha(kappa: number, d: number, delta: number): number | null {
  checkKappa(kappa);
  checkPrivacyParams(d, delta);
  const target = -Math.log(delta) / kappa;
  if (-Math.log(d) <= target) return null;
  let lo = 0;
  let hi = 1 - d;
  for (let iter = 0; iter < 2000; iter++) {
    const mid = lo + (hi - lo) / 2;
    if (mid <= lo || mid >= hi) break;
    if (klBernoulli(d + mid, d) < target) lo = mid;
    else hi = mid;
  }
  // the end whose equation residual is smaller
  return Math.abs(klBernoulli(d + lo, d) - target) <= Math.abs(klBernoulli(d + hi, d) - target) ? lo : hi;
}
