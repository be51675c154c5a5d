import type { Mechanism, MechanismContext, OwnBudgetRow } from '../types.js';
import type { EpsilonInfo, PrivacyParams } from '../../privacy/types.js';
import type { UserVectors } from '../../data/types.js';
import type { RealSet } from '../../lsh/releases.js';
import type { ReleaseLaw } from '../releaseLaw.js';
import { checkOptionKeys } from '../options.js';
import { fillFastNormals, userCount } from '../common.js';
import { jlGaussianAccount, spectralNorm } from '../../privacy/gaussian.js';
import { euclideanFromAngular } from '../../privacy/distance.js';
import type { JlGaussianGuarantee } from '../../privacy/accountantNames.js';
import { jlGaussianRelease } from '../../random/jlGaussian.js';
import { UserError } from '../../util/errors.js';
import { didYouMean } from '../../util/didYouMean.js';
import { GUARANTEE_OPTION, JL_GAUSSIAN_FACTS } from './facts.js';

/** The entry's `guarantee` (default `expected`), or a one-line error naming the mechanism. */
function guaranteeOf(options: Record<string, unknown> | undefined): JlGaussianGuarantee {
  const g = options?.guarantee ?? GUARANTEE_OPTION.default;
  if (typeof g === 'string' && (GUARANTEE_OPTION.values as readonly string[]).includes(g)) return g as JlGaussianGuarantee;
  const near = typeof g === 'string' ? didYouMean(g, GUARANTEE_OPTION.values, '"') : null;
  throw new UserError(`mechanism jl-gaussian: option guarantee must be one of ${GUARANTEE_OPTION.values.join(', ')}, got ${JSON.stringify(g)}${near ? ` (did you mean ${near}?)` : ''}`);
}

/**
 * σ of the `expected` guarantee, or σ in units of σ_max(W) for `every-w` and `ldp` (their σ is
 * proportional to the trial's σ_max(W); a unit σ_max gives the factor). Solving σ costs a few
 * milliseconds (a quadrature inside a bisection) and every trial cell asks it again: kept per
 * (guarantee, ξ, κ, d, δ).
 */
const solved = new Map<string, { sigma: number; ldpEpsilon: number }>();
function solve(guarantee: JlGaussianGuarantee, xi: number, kappa: number, privacy: PrivacyParams): { sigma: number; ldpEpsilon: number } {
  const key = `${guarantee}|${xi}|${kappa}|${privacy.d}|${privacy.delta}`;
  let s = solved.get(key);
  if (!s) {
    const a = jlGaussianAccount(guarantee, xi, kappa, privacy, guarantee === 'expected' ? undefined : 1);
    s = { sigma: a.sigma, ldpEpsilon: a.ldpEpsilon };
    solved.set(key, s);
  }
  return s;
}

/** The Euclidean norm of every row (in stored order): the release scales each vector to unit length. */
function rowNorms(vectors: UserVectors): Float64Array {
  const users = vectors.rowPtr.length - 1;
  const out = new Float64Array(users);
  for (let i = 0; i < users; i++) {
    let s = 0;
    for (let p = vectors.rowPtr[i]!; p < vectors.rowPtr[i + 1]!; p++) s += vectors.values[p]! * vectors.values[p]!;
    out[i] = Math.sqrt(s);
  }
  return out;
}

/** σ_max(W) of the trial's planes (once per trial where the cell shares draws). */
function sigmaMaxOf(ctx: MechanismContext): number {
  const { planes, kappa, n } = ctx.hashing;
  const compute = () => spectralNorm(planes, kappa, n);
  return ctx.perTrial ? ctx.perTrial('sigma-max', compute) : compute();
}

/**
 * JL + Gaussian noise (Kenthapadi, Korolova, Mironov, Mishra 2013; issue 42; docs/PRIVACY.md
 * "jl-gaussian"): the user's unit vector projected by W = R/√κ, R the trial's hyperplanes (the
 * ones LSH hashes with: TrialHashing.projections holds R·x), plus N(0, σ²) noise on each of the κ
 * coordinates, released as κ reals (src/lsh/releases.ts; neighbours by Euclidean distance).
 *
 * Its EpsilonInfo carries the noise's precision, not an ε: `epsilon` = 1/σ for `expected`, and
 * σ_max(W)/σ (σ in units of the trial's σ_max) for `every-w` and `ldp`. A precision grows with ξ
 * as an ε does, so that what is asked of every ε holds: ε = ∞ (the attacks' and the audit's clean
 * release) is σ = 0, the release W·x itself; ε = 0 (ξ = 0) is σ = ∞, the noise alone at σ = 1
 * (rankings are scale-free); an inflation ×2 is half the noise. `accountant` names the guarantee
 * (utility.csv's accountant column), `ldpEpsilon` the LDP equivalent (budgets.csv states its δ).
 */
export const jlGaussianMechanism: Mechanism = {
  ...JL_GAUSSIAN_FACTS,
  epsilon(xi, kappa, privacy, options): EpsilonInfo {
    const guarantee = guaranteeOf(options);
    const { sigma, ldpEpsilon } = solve(guarantee, xi, kappa, privacy);
    return { epsilon: 1 / sigma, ldpEpsilon, fallback: false, accountant: guarantee };
  },
  budgetRow(xi, kappa, privacy, options): OwnBudgetRow {
    const guarantee = guaranteeOf(options);
    const { sigma, ldpEpsilon } = solve(guarantee, xi, kappa, privacy);
    return {
      parameter: guarantee === 'expected' ? 'sigma' : 'sigma_per_sigma_max',
      value: sigma,
      epsilon_ldp: ldpEpsilon,
      ldp_delta: privacy.delta,
      accountant: guarantee,
      fallback: null,
      over: guarantee === 'expected' ? 'the public hash functions and the noise' : 'the noise, for every public hash function',
    };
  },
  /**
   * Each coordinate is N(0, σ²) around W·x/‖x‖ (the release at precision ∞), σ = 1/precision
   * (`expected`) or σ_max(W)/precision (`every-w`, `ldp`, σ_max of this hashing's planes). The claim
   * is the guarantee's: `expected` over W and the noise at the pair's distance (jl-expected); `every-w`
   * every pair within d for this W, ℓ2 sensitivity σ_max(W)·d_euc(d); `ldp` any two unit vectors,
   * sensitivity 2σ_max(W). Precision 0 (ξ = 0) releases the noise alone: no law around the clean
   * release (null).
   */
  releaseLaw(eps, ctx, privacy): ReleaseLaw | null {
    const guarantee = guaranteeOf(ctx.options);
    const precision = eps.epsilon;
    if (precision === null || !(precision > 0)) return null;
    if (guarantee === 'expected') return { noise: { kind: 'gaussian', sigma: 1 / precision }, claim: { kind: 'jl-expected' } };
    const sigmaMax = sigmaMaxOf(ctx);
    const sensitivity = guarantee === 'ldp' ? 2 * sigmaMax : sigmaMax * euclideanFromAngular(privacy.d);
    return { noise: { kind: 'gaussian', sigma: sigmaMax / precision }, claim: { kind: 'sensitivity', sensitivity } };
  },
  encode(ctx, eps): RealSet {
    checkOptionKeys('jl-gaussian', ctx.options, ['guarantee']);
    const guarantee = guaranteeOf(ctx.options);
    const precision = eps.epsilon;
    if (precision === null || !(precision >= 0)) throw new RangeError(`jl-gaussian needs a noise precision >= 0, got ${precision}`);
    const { kappa, projections } = ctx.hashing;
    const users = userCount(ctx);
    if (projections.length !== users * kappa) throw new UserError('mechanism jl-gaussian needs the projections of the vectors (metric angular)');
    const sigma = precision === Infinity ? 0 : precision === 0 ? Infinity : guarantee === 'expected' ? 1 / precision : sigmaMaxOf(ctx) / precision;
    // the vectors' norms are the trial's: once per trial where the cell shares draws, not per ξ
    const norms = ctx.perTrial ? ctx.perTrial('row-norms', () => rowNorms(ctx.vectors)) : rowNorms(ctx.vectors);
    const values = jlGaussianRelease(projections, norms, users, kappa, sigma, ctx.rng, fillFastNormals);
    return { kind: 'reals', dims: kappa, values };
  },
};
