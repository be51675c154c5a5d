import { createRequire } from 'node:module';
import type { Mechanism } from '../types.js';
import type { TrialHashing } from '../../lsh/hyperplanes.js';
import { freshFloat64, type Float64Alloc } from '../../util/bufferPool.js';
import type { Rng } from '../../random/rng.js';
import { checkOptionKeys, samplerOption, type NoiseSampler } from '../options.js';
import { randomizeAll } from '../flips.js';
import { cleanCodes, fillFastNormals, projectDirectDraws, transposed, userCount } from '../common.js';
import { zigguratState } from '../../random/ziggurat.js';
import { LAPLSH_FACTS } from './facts.js';
import { emptyCodes, packCombinedSigns } from '../../lsh/codes.js';
import { chiSquareSource, gammaSource, sphereSample } from '../../random/samplers.js';
import { laplshEpsilon } from '../../privacy/epsilon.js';
import { wasmLaplaceNoise } from '../../kernels/releases.js';

export type LaplaceSampler = NoiseSampler;

/**
 * LapLSH (paper Def. "LapLSH", protocol §4): every user's unit vector gets the multivariate Laplace
 * noise z = R·u (u uniform on the unit sphere of R^n, R ~ Gamma(n, scale 1/eps)), and x + z is
 * hashed with the trial's hyperplanes. Only W z matters (W the kappa x n plane matrix), so
 * sign(W(x+z)) = sign(Wx + Wz) reuses the clean projections Wx.
 *
 * Samplers (option `sampler`):
 * - direct: draws u in R^n, O(n·kappa) per user;
 * - projected (default): with u = g/|g|, g ~ N(0, I_n) and W = L Qᵀ (L the Cholesky factor of
 *   W Wᵀ, Q with orthonormal columns; planeFactor), w = Qᵀg ~ N(0, I_kappa) and |g|² = |w|² + c
 *   with c ~ chi²(n − kappa) independent of w, so W z = R / sqrt(|w|² + c) · L w exactly in
 *   distribution: O(kappa²/2) per user. Falls back to direct when n <= kappa (then there is no
 *   orthogonal complement).
 * The directions and Gamma(n, 1) radii are drawn once per trial and shared by its xi (common
 * random numbers, MechanismContext.perTrial): at each eps, W z = (radius / eps)·(W u), exactly the
 * law above at every eps; a trial's results at different xi are correlated, trials independent.
 * eps = 0 (xi = 0) is infinite noise; its limit is defined as uniformly random bits.
 */
export const laplshMechanism: Mechanism = {
  ...LAPLSH_FACTS,
  epsilon: (xi, _kappa, privacy) => laplshEpsilon(xi, privacy),
  encode(ctx, eps) {
    checkOptionKeys(LAPLSH_FACTS.name, ctx.options, LAPLSH_FACTS.optionKeys);
    const sampler = samplerOption('laplsh', ctx.options);
    const e = eps.epsilon;
    if (e === null || !(e >= 0)) throw new RangeError(`laplsh needs eps >= 0, got ${e}`);
    const { kappa, n } = ctx.hashing;
    const users = userCount(ctx);
    if (e === 0) {
      const codes = emptyCodes(users, kappa);
      randomizeAll(codes, ctx.rng);
      return codes;
    }
    if (e === Infinity) {
      const c = cleanCodes(ctx.hashing);
      return { codes: c.codes.slice(), bits: c.bits, words: c.words };
    }
    // the directions and radii are the trial's, shared by every eps (MechanismContext.perTrial)
    const projected = sampler === 'projected' && n > kappa;
    const draw = (rng: Rng, alloc?: Float64Alloc) => (projected ? projectedDraws : directDraws)(rng, ctx.hashing, users, alloc);
    const draws = ctx.perTrial ? ctx.perTrial(projected ? 'projected' : 'direct', draw) : draw(ctx.rng);
    // the signs of Wx + (radius / eps)·dir
    const scale = new Float64Array(users);
    for (let i = 0; i < users; i++) scale[i] = draws.radius[i] / e;
    return packCombinedSigns(ctx.hashing.projections, null, draws.dir, scale, kappa);
  },
};

/**
 * One draw of the n-dimensional Laplace noise z = R·u into `out`; returns R (= |z|). A library
 * function (the law of protocol §4 in R^n, tested on its radius: mean n/eps, variance n/eps²);
 * the mechanism itself draws only W u and the radius (directDraws, projectedDraws).
 */
export function laplaceNoise(rng: Rng, n: number, radius: () => number, out: Float64Array): number {
  sphereSample(rng, n, out);
  const r = radius();
  for (let c = 0; c < n; c++) out[c] *= r;
  return r;
}

/** The radius sampler of the multivariate Laplace mechanism: Gamma(shape n, scale 1/eps). */
export function laplaceRadius(rng: Rng, n: number, eps: number): () => number {
  return gammaSource(rng, n, 1 / eps);
}

/**
 * The noise of every user up to its 1/eps scale, the part LapLSH's draws share across the xi of a
 * trial: W z = (radius_i / eps)·dir_i with dir_i = W u_i (κ per user) and radius_i ~ Gamma(n, 1),
 * so Gamma(n, 1)/eps ~ Gamma(n, scale 1/eps), the law of protocol §4, at every eps.
 */
export interface LaplaceDraws {
  /** users × κ, row-major: W u of each user's direction u (uniform on the unit sphere of R^n) */
  dir: Float64Array;
  /** per user, Gamma(shape n, scale 1) */
  radius: Float64Array;
}

/** dir = W u, u drawn in R^n: O(n·κ) per user. */
export function directDraws(rng: Rng, hashing: TrialHashing, users: number, alloc: Float64Alloc = freshFloat64): LaplaceDraws {
  const { kappa, n } = hashing;
  const radius = new Float64Array(users);
  const gamma = gammaSource(rng, n, 1);
  const dir = projectDirectDraws(hashing, users, alloc(users * kappa), (i, u) => {
    sphereSample(rng, n, u);
    radius[i] = gamma();
  });
  return { dir, radius };
}

// ml-matrix is loaded on first use, so commands that only list mechanisms do not pay for it.
const require = createRequire(import.meta.url);
let mlMatrix: typeof import('ml-matrix') | undefined;

/**
 * The plane factor L (kappa x kappa, row-major, lower triangular): the Cholesky factor of the Gram
 * matrix, L Lᵀ = W Wᵀ. Then W = L Qᵀ with Q = (L⁻¹W)ᵀ, whose kappa columns are orthonormal
 * (QᵀQ = L⁻¹WWᵀL⁻ᵀ = I), so for g ~ N(0, I_n), w = Qᵀg ~ N(0, I_kappa) and W g = L w: any factor
 * F with F Fᵀ = W Wᵀ serves (lshdp ≤ 0.1+algo3 used U·S of the thin SVD), and the triangular one
 * costs half the products per user and a fraction of the SVD to compute.
 */
export function planeFactor(planes: Float64Array, kappa: number, n: number): Float64Array {
  // the Gram matrix, exactly symmetric (each entry computed once)
  const gram: number[][] = Array.from({ length: kappa }, () => new Array<number>(kappa).fill(0));
  for (let a = 0; a < kappa; a++) {
    const ra = a * n;
    for (let b = 0; b <= a; b++) {
      const rb = b * n;
      let s = 0;
      for (let c = 0; c < n; c++) s += planes[ra + c] * planes[rb + c];
      gram[a][b] = s;
      gram[b][a] = s;
    }
  }
  mlMatrix ??= require('ml-matrix') as typeof import('ml-matrix');
  const { Matrix, CholeskyDecomposition } = mlMatrix;
  const chol = new CholeskyDecomposition(new Matrix(gram));
  // Gaussian planes with n > kappa have full rank with probability 1
  if (!chol.isPositiveDefinite()) throw new RangeError(`planeFactor: the ${kappa} x ${n} planes are not of full rank`);
  const L = chol.lowerTriangularMatrix;
  const f = new Float64Array(kappa * kappa);
  for (let a = 0; a < kappa; a++) for (let b = 0; b <= a; b++) f[a * kappa + b] = L.get(a, b);
  return f;
}

/** The factor of each trial's planes, computed once for all xi of the trial (the factorization
 *  was 8% of trial-cell time when recomputed per xi, as an SVD); dropped with the planes. */
const factors = new WeakMap<Float64Array, Float64Array>();
export function cachedPlaneFactor(planes: Float64Array, kappa: number, n: number): Float64Array {
  let us = factors.get(planes);
  if (!us) {
    us = planeFactor(planes, kappa, n);
    factors.set(planes, us);
  }
  return us;
}

/** dir = W u through the κ-dimensional projection of the direction (see the mechanism): O(κ²/2) per user. */
export function projectedDraws(rng: Rng, hashing: TrialHashing, users: number, alloc: Float64Alloc = freshFloat64): LaplaceDraws {
  const { kappa, n, planes } = hashing;
  const us = cachedPlaneFactor(planes, kappa, n);
  // zero-filled: the kernel adds into it
  const dir = alloc(users * kappa);
  const radius = new Float64Array(users);
  const gamma = gammaSource(rng, n, 1);
  const rest = chiSquareSource(rng, n - kappa);
  // the kappa normals per user from the fast generator, seeded from the trial's noise source
  const normals = zigguratState(rng);
  // Users go by chunks: the chunk's normals, each user's radius and chi-square, then the
  // kappa x kappa products of the chunk in WebAssembly (the same doubles) or in the JS loop below.
  const chunk = Math.min(users, NOISE_CHUNK);
  const ws = new Float64Array(chunk * kappa);
  const scales = new Float64Array(chunk);
  const usT = transposed(us, kappa, kappa);
  for (let start = 0; start < users; start += chunk) {
    const m = Math.min(chunk, users - start);
    fillFastNormals(normals, ws.subarray(0, m * kappa));
    for (let t = 0; t < m; t++) {
      const base = t * kappa;
      let w2 = 0;
      for (let b = 0; b < kappa; b++) w2 += ws[base + b] * ws[base + b];
      radius[start + t] = gamma();
      scales[t] = 1 / Math.sqrt(w2 + rest());
    }
    const part = dir.subarray(start * kappa, (start + m) * kappa);
    // part is still the zeros alloc gave
    if (wasmLaplaceNoise(usT, ws, scales, m, kappa, part, true, true)) continue;
    for (let t = 0; t < m; t++) {
      const base = t * kappa;
      for (let a = 0; a < kappa; a++) {
        const row = a * kappa;
        let s = 0;
        // the factor is lower triangular: b > a adds nothing
        for (let b = 0; b <= a; b++) s += us[row + b] * ws[base + b];
        part[base + a] += scales[t] * s;
      }
    }
  }
  return { dir, radius };
}

/** Users per chunk of projectedDraws. */
const NOISE_CHUNK = 4096;
