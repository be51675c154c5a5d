/*
 * Accountants of the private MinHash mechanisms (docs/PRIVACY.md "Private MinHash"): each turns a
 * total budget ξ at Jaccard distance d with failure probability δ into the per-position ε'.
 *
 * - bucket MinHash (minhash-bucket): the argmin item's public bucket among b, then b-ary randomized
 *   response (src/privacy/bucketRr.ts). Per-position disagreement p = d·(1 − 1/b).
 * - noisy MinHash (minhash-noisy): the 1-bit MinHash value plus Laplace(1/ε') noise. Per-position
 *   disagreement p = d/2 (the jaccard family's `disagreement`).
 * Accountants:
 * - paper: lshrrEpsilon at d := p, ε' = ξ/(κ(p + α)) with κ·KL(p + α ‖ p) = ln(1/δ) (fallback ξ/κ).
 *   Valid for both: a position's loss is at most ε' in absolute value (b-ary RR's likelihood
 *   ratios lie in [e^−ε', e^ε']; Laplace of scale 1/ε' on values 1 apart likewise) and zero where
 *   the two inputs' symbols agree, so L ≤ ε'·D with D ~ Bin(κ, p) over the public hash functions.
 * - exact (bucket only): the largest ε' with Pr[ε'(N₊ − N₋) > ξ] ≤ δ under the trinomial law
 *   (bucketExactEpsilon); unbounded when (1 − p)^κ ≥ 1 − δ.
 * - ldp: ε' = ξ/κ (the largest double ≤ ξ/κ), pure ξ-LDP for any two inputs: the SISAP 2020
 *   paper's own guarantee.
 *
 * Which d. The config's d is a Jaccard distance, and src/privacy/onFamily.ts hands built-in
 * mechanisms the family's `disagreement(d)` = d/2 instead, which is right for noisy MinHash but not
 * for bucket MinHash (p = d(1 − 1/b)). These functions therefore take the Jaccard distance itself,
 * under a name (`jaccardDistance`) a PrivacyParams `{d, delta}` does not have, and convert it
 * themselves: a mechanism wires them with `budgetDistance: 'family'` (onFamily then passes the
 * config's d unchanged) as `{ jaccardDistance: privacy.d, delta: privacy.delta }`. Wired without it,
 * privacy.d would already be d/2 and must not be passed as a Jaccard distance.
 */
import { UserError } from '../util/errors.js';
import { didYouMean } from '../util/didYouMean.js';
import { MINHASH_BUCKET_ACCOUNTANTS, MINHASH_NOISY_ACCOUNTANTS, type MinHashBucketAccountant, type MinHashNoisyAccountant } from './accountantNames.js';
import { lshrrEpsilon } from './epsilon.js';
import { jumpPoint } from './exactLoss.js';
import { bucketExactEpsilon } from './bucketRr.js';
import { checkKappa, checkPrivacyParams } from './kl.js';
import type { EpsilonInfo } from './types.js';

export { MINHASH_BUCKET_ACCOUNTANTS, MINHASH_NOISY_ACCOUNTANTS, type MinHashBucketAccountant, type MinHashNoisyAccountant } from './accountantNames.js';

/** The budget axis of the private MinHash mechanisms: the Jaccard distance d (not a per-bit probability) and δ. */
export interface MinHashPrivacy {
  jaccardDistance: number;
  delta: number;
}

/** The default bucket count b of minhash-bucket. */
export const DEFAULT_BUCKETS = 4;

function checkXi(xi: number): void {
  if (!(Number.isFinite(xi) && xi >= 0)) throw new UserError(`privacy: xi must be a finite number >= 0, got ${xi}`);
}

function checkBucketCount(b: number): void {
  if (!(Number.isInteger(b) && b >= 2 && b <= 256)) throw new UserError(`privacy: buckets must be an integer in [2, 256], got ${b}`);
}

/** Bucket MinHash's per-position disagreement probability at Jaccard distance d: d·(1 − 1/b), computed as d(b − 1)/b. */
export function bucketDisagreement(jaccardDistance: number, b: number): number {
  checkBucketCount(b);
  return (jaccardDistance * (b - 1)) / b;
}

/** Noisy MinHash's per-position disagreement probability at Jaccard distance d: d/2 (the 1-bit MinHash bits differ). */
export function noisyDisagreement(jaccardDistance: number): number {
  return jaccardDistance / 2;
}

/** An accountant name among `known`, or a one-line UserError naming `where` with a did-you-mean. */
export function parseMinHashAccountant<T extends string>(name: unknown, known: readonly T[], where: string): T {
  if (typeof name === 'string' && (known as readonly string[]).includes(name)) return name as T;
  const guess = typeof name === 'string' ? didYouMean(name, known, '"') : null;
  throw new UserError(`${where}: unknown accountant ${JSON.stringify(name)}${guess ? ` (did you mean ${guess}?)` : ''}; known: ${known.join(', ')}`);
}

function checkArgs(xi: number, kappa: number, privacy: MinHashPrivacy): void {
  checkXi(xi);
  checkKappa(kappa);
  checkPrivacyParams(privacy.jaccardDistance, privacy.delta);
}

/** The pure-LDP accountant: ε' the largest double ≤ ξ/κ, so κε' ≤ ξ exactly; LDP equivalent ξ. */
function ldpEpsilon(xi: number, kappa: number, accountant: string): EpsilonInfo {
  return { epsilon: jumpPoint(xi, kappa), ldpEpsilon: xi, fallback: false, accountant };
}

/**
 * The per-position ε' of bucket MinHash with b buckets for budget ξ at Jaccard distance
 * `privacy.jaccardDistance` with failure δ, under `accountant` (paper, exact, ldp; default paper).
 * Returns epsilon = ε', ldpEpsilon = κ·ε' (ξ for ldp and for paper's fallback), fallback (paper: no
 * α exists; exact: its ε' is the pure LDP one), accountant, unbounded (exact only: ε' = Infinity).
 */
export function minhashBucketEpsilon(xi: number, kappa: number, privacy: MinHashPrivacy, buckets: number, accountant: string = 'paper'): EpsilonInfo {
  const name = parseMinHashAccountant<MinHashBucketAccountant>(accountant, MINHASH_BUCKET_ACCOUNTANTS, 'mechanism minhash-bucket: option accountant');
  checkArgs(xi, kappa, privacy);
  const p = bucketDisagreement(privacy.jaccardDistance, buckets);
  switch (name) {
    case 'paper':
      return { ...lshrrEpsilon(xi, kappa, { d: p, delta: privacy.delta }), accountant: name };
    case 'ldp':
      return ldpEpsilon(xi, kappa, name);
    case 'exact': {
      const r = cachedBucketExact(xi, kappa, p, buckets, privacy.delta);
      if (r.unbounded) return { epsilon: Infinity, ldpEpsilon: Infinity, fallback: false, accountant: name, unbounded: true };
      const fallback = xi > 0 && r.epsilon === jumpPoint(xi, kappa);
      return { epsilon: r.epsilon, ldpEpsilon: kappa * r.epsilon, fallback, accountant: name, unbounded: false };
    }
  }
}

/** Memo of the exact search (a run asks for the same (ξ, κ, p, b, δ) once per cell). */
const EXACT_CACHE = new Map<string, ReturnType<typeof bucketExactEpsilon>>();
function cachedBucketExact(xi: number, kappa: number, p: number, b: number, delta: number): ReturnType<typeof bucketExactEpsilon> {
  const key = `${xi}|${kappa}|${p}|${b}|${delta}`;
  let r = EXACT_CACHE.get(key);
  if (!r) {
    r = bucketExactEpsilon(xi, kappa, p, b, delta);
    if (EXACT_CACHE.size > 10_000) EXACT_CACHE.clear();
    EXACT_CACHE.set(key, r);
  }
  return r;
}

/**
 * The per-position ε' (the Laplace noise has scale 1/ε') of noisy MinHash for budget ξ at Jaccard
 * distance `privacy.jaccardDistance` with failure δ, under `accountant` (paper, ldp; default
 * paper). No exact accountant: the loss of a disagreeing position is continuous in [−ε', ε'].
 * Returns the EpsilonInfo shape of minhashBucketEpsilon.
 */
export function minhashNoisyEpsilon(xi: number, kappa: number, privacy: MinHashPrivacy, accountant: string = 'paper'): EpsilonInfo {
  const name = parseMinHashAccountant<MinHashNoisyAccountant>(accountant, MINHASH_NOISY_ACCOUNTANTS, 'mechanism minhash-noisy: option accountant');
  checkArgs(xi, kappa, privacy);
  if (name === 'ldp') return ldpEpsilon(xi, kappa, name);
  const p = noisyDisagreement(privacy.jaccardDistance);
  return { ...lshrrEpsilon(xi, kappa, { d: p, delta: privacy.delta }), accountant: name };
}
