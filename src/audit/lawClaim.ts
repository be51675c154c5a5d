/**
 * A release-law row's samples summarized for its tests, and its claim in the units of its decisive
 * test (lawRows.ts has the rules).
 */
import type { ReleaseClaim } from '../mechanisms/releaseLaw.js';
import { gaussianSigmaForSensitivity, jlGaussianSigma, jlGaussianTail } from '../privacy/gaussian.js';
import { bucketExactEpsilon, bucketExactTail } from '../privacy/bucketRr.js';
import { laplaceFailingEpsilon, laplacePositionTail } from '../privacy/laplaceLoss.js';
import { clopperPearson } from '../stats/binomial.js';
import { UserError } from '../util/errors.js';
import { standardNormalCdf } from './lawStats.js';
import type { AuditPlan } from './types.js';
import type { LawRow, LawSamples } from './lawSampling.js';

/** What the tests read of a store. */
export interface Summary {
  /** the decisive statistic and its size: gaussian Σr² (n entries); laplace 2Σ|e| (df 2n); bary-rr
   *  the kept count. Over every entry for a gaussian law and an `ldp` claim (any pair: every position
   *  may differ), over the entries where the pair's clean releases differ for a `positions` claim
   *  (those carry its loss; a sampler cannot hide behind the others) */
  stat: number;
  n: number;
  /** the same over every entry (the law tests) */
  statAll: number;
  nAll: number;
  /** decisive entries per sample */
  perSample: number;
}

export function summarize(s: LawSamples, samples: number): Summary {
  const kind = s.law!.noise.kind;
  const every = kind === 'gaussian' || s.law!.claim.kind !== 'positions';
  let stat = 0;
  let n = 0;
  let statAll = 0;
  for (let i = 0; i < s.count; i++) {
    const v = kind === 'gaussian' ? s.residuals[i] ** 2 : kind === 'laplace' ? 2 * Math.abs(s.residuals[i]) : s.clean[i] === s.out[i] ? 1 : 0;
    statAll += v;
    if (every || s.differing[i]) {
      stat += v;
      n++;
    }
  }
  return { stat, n, statAll, nAll: s.count, perSample: n / Math.max(1, samples) };
}

/** |ln(q(b − 1)/(1 − q))|: the per-position loss of b-ary randomized response keeping at rate q. */
export function epsilonOfKeepRate(q: number, b: number): number {
  if (!(q > 0 && q < 1)) return Infinity;
  return Math.abs(Math.log(q) + Math.log(b - 1) - Math.log1p(-q));
}

/** The keep probability at per-position ε (≥ 1/b), and its mirror below 1/b with the same loss. */
export function keepAt(eps: number, b: number): { high: number; low: number } {
  if (eps === Infinity) return { high: 1, low: 0 };
  const e = Math.exp(-eps);
  return { high: 1 / (1 + (b - 1) * e), low: e / (b - 1 + e) };
}

/** The (1 − level) interval of the realized ε′ from k kept of n (two-sided Clopper–Pearson on q). */
export function keepEpsilonInterval(k: number, n: number, b: number, level: number): [number, number] {
  if (n === 0) return [0, Infinity];
  const [lo, hi] = clopperPearson(k, n, level);
  if (lo > 1 / b) return [epsilonOfKeepRate(lo, b), epsilonOfKeepRate(hi, b)];
  if (hi < 1 / b) return [epsilonOfKeepRate(hi, b), epsilonOfKeepRate(lo, b)];
  return [0, Math.max(epsilonOfKeepRate(lo, b), epsilonOfKeepRate(hi, b))];
}

/** Q((ξ − μ)/√(2μ)), μ = r²/2: the loss tail of a Gaussian release whose mean moves by r noise units. */
function sensitivityTail(ratio: number, xi: number): number {
  if (ratio === 0) return 0;
  const mu = (ratio * ratio) / 2;
  return standardNormalCdf(-(xi - mu) / Math.sqrt(2 * mu));
}

/**
 * The claim of a row in the units of its decisive test:
 * - gaussian: `required` ρ* (the least σ the claim allows over the declared σ) and the claim's tail
 *   at a ratio ρ;
 * - bary-rr, laplace: `allowed` ε* (ε′ beyond which the claim fails) and the tail at an ε′.
 */
export interface ClaimOf {
  /** the declared parameter: the precision (gaussian: the mechanism's own ε) or ε′ */
  declared: number;
  /** the largest parameter the claim allows (in the declared parameter's units) */
  allowed: number;
  /** Pr[L > ξ] under the claim at a parameter value */
  tailAt: (parameter: number) => number;
}

/** laplaceFailingEpsilon, kept per (ξ, κ, p, δ): a bisection of convolutions (about half a second),
 *  asked again by every repetition of the same row. */
const failing = new Map<string, number>();
function failingEpsilon(xi: number, kappa: number, p: number, delta: number): number {
  const key = `${xi}|${kappa}|${p}|${delta}`;
  let e = failing.get(key);
  if (e === undefined) {
    e = laplaceFailingEpsilon(xi, kappa, p, delta);
    failing.set(key, e);
  }
  return e;
}

export function claimOf(row: LawRow, s: LawSamples, plan: AuditPlan, pairDistance: number): ClaimOf {
  const law = s.law!;
  const { xi, kappa } = row;
  const delta = plan.delta;
  const claim: ReleaseClaim = law.claim;
  if (law.noise.kind === 'gaussian') {
    // the precision is the mechanism's own ε: its σ_declared = precision_declared/precision in ratio
    const declared = row.eps.epsilon!;
    const sigma = law.noise.sigma;
    if (claim.kind === 'jl-expected') {
      const sigmaMin = jlGaussianSigma(xi, kappa, { d: pairDistance, delta });
      return { declared, allowed: declared * (sigma / sigmaMin), tailAt: (precision) => jlGaussianTail((sigma * declared) / precision, xi, kappa, pairDistance) };
    }
    if (claim.kind === 'sensitivity') {
      // every sample's Δ_i/σ_i; the claim needs σ >= σ_min,i = Δ_i/r(ξ) for each: the worst sample decides
      const worst = s.worstRatio;
      const rXi = 1 / gaussianSigmaForSensitivity(1, xi, delta);
      return { declared, allowed: declared * (rXi / worst), tailAt: (precision) => sensitivityTail((worst * precision) / declared, xi) };
    }
    throw new UserError(`audit: mechanism ${row.mechanism.name} declares a gaussian law with a ${claim.kind} claim; a gaussian law claims jl-expected or sensitivity`);
  }
  const ldp = (declared: number): ClaimOf => ({ declared, allowed: xi / kappa, tailAt: (e) => (kappa * e > xi ? 1 : 0) });
  if (law.noise.kind === 'bary-rr') {
    const { alphabet: b, keep } = law.noise;
    const declared = epsilonOfKeepRate(keep, b);
    if (claim.kind === 'ldp') return ldp(declared);
    if (claim.kind === 'positions') {
      const p = claim.disagreement;
      return { declared, allowed: bucketExactEpsilon(xi, kappa, p, b, delta).epsilon, tailAt: (e) => bucketExactTail(kappa, p, b, e, xi) };
    }
  } else {
    const declared = 1 / law.noise.scale;
    if (claim.kind === 'ldp') return ldp(declared);
    if (claim.kind === 'positions') {
      const p = claim.disagreement;
      return { declared, allowed: failingEpsilon(xi, kappa, p, delta), tailAt: (e) => laplacePositionTail(kappa, p, e, xi).lower };
    }
  }
  throw new UserError(`audit: mechanism ${row.mechanism.name} declares a ${law.noise.kind} law with a ${claim.kind} claim; it claims positions or ldp`);
}
