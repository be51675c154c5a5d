/*
 * JL + Gaussian noise (Kenthapadi, Korolova, Mironov, Mishra, "Privacy via the Johnson–Lindenstrauss
 * transform", J. Privacy and Confidentiality 5(1), 2013): a user's unit vector x is released as
 * y = W x + N(0, σ² I_κ), W = R/√κ with R the trial's κ × n Gaussian hyperplanes (rows r_j ~ N(0, I_n)).
 *
 * The loss of a pair. For two unit vectors x, x' and a fixed W, with v = W(x − x') and
 * y = W x + σ Z, the privacy loss is
 *   L = (‖y − W x'‖² − ‖y − W x‖²)/(2σ²) = ‖v‖²/(2σ²) + v·Z/σ ~ N(μ_W, 2μ_W),  μ_W = ‖v‖²/(2σ²).
 * Over the hyperplanes, R(x − x') = d_euc·G with G ~ N(0, I_κ) (rows of R are isotropic), so
 * ‖v‖² = d_euc²·χ²_κ/κ and μ = a·χ²_κ with a = d_euc²/(2σ²κ). Given the χ² value C,
 *   Pr[L > ξ | C] = Q((ξ − μ)/√(2μ)),  μ = a·C,  Q the standard normal upper tail,
 * and the accountant's tail is its average over C ~ χ²_κ: the probability of L > ξ over the public
 * hyperplanes and the noise together, as the paper's LSHRR accountants take it over the seeds and the
 * flips (paper Def. "PXDP"). The tail depends on (σ, d) only through σ/d_euc(d).
 *
 * Monotonicity (why bisection finds the one σ): h(μ) = (ξ − μ)/√(2μ) = ξ/√(2μ) − √(μ/2) is strictly
 * decreasing in μ for ξ ≥ 0, so Q(h(μ)) is strictly increasing in μ; μ = d_euc²C/(2σ²κ) is decreasing
 * in σ and increasing in d for every C, hence so is the average: the tail decreases in σ (from 1 at
 * σ → 0 to 0 at σ → ∞ when ξ > 0), increases in d, and decreases in ξ (h increases in ξ). So σ
 * decreases in ξ and in δ and increases in d.
 */
import { UserError } from '../util/errors.js';
import { euclideanFromAngular } from './distance.js';
import { checkKappa } from './kl.js';
import type { PrivacyParams } from './types.js';
// the special functions load at the first σ solved (src/vendor/stdlib.ts), so that a worker thread
// (which loads every mechanism's code) and the commands that solve nothing do not pay for them
import { chisquareLogpdf, erfcinv, normalLogcdf } from '../vendor/stdlib.js';
import { createRequire } from 'node:module';

// ml-matrix (the spectral norm) loads at first use too
const require = createRequire(import.meta.url);

import { JL_GAUSSIAN_GUARANTEES, type JlGaussianGuarantee } from './accountantNames.js';

export { JL_GAUSSIAN_GUARANTEES, type JlGaussianGuarantee };

function checkXi(xi: number): void {
  if (!(Number.isFinite(xi) && xi >= 0)) throw new UserError(`privacy: xi must be a finite number >= 0, got ${xi}`);
}
// unlike LSHRR's accountants (which need d < 1 for their α), d = 1 is allowed: the farthest pair
function checkDistance(d: number): void {
  if (!(d > 0 && d <= 1)) throw new UserError(`privacy: d must be in (0, 1], got ${d}`);
}
function checkDelta(delta: number): void {
  if (!(delta > 0 && delta < 1)) throw new UserError(`privacy: delta must be in (0, 1), got ${delta}`);
}
function checkSigma(sigma: number): void {
  if (!(sigma > 0)) throw new RangeError(`jl-gaussian: sigma must be > 0 (Infinity allowed), got ${sigma}`);
}

/** ln of an absolute mass below which a piece of the integral is dropped: e^−750 underflows doubles. */
const NEGLIGIBLE_LOG = -750;
/** The coarse scan's step in t = ln C, and the drop (in nats) below its maximum that bounds the range. */
const SCAN_STEP = 0.25;
const SCAN_DROP = 80;
/** The trapezoid's widest step, and its stop: two successive halvings agree to this relative change. */
const FIRST_STEP = 0.05;
const CONVERGED = 1e-9;
const MAX_HALVINGS = 12;
/** ln Γ(s) ≥ this for s ≥ 1 (Γ's minimum on the positive axis, 0.8856 at 1.4616). */
const LN_GAMMA_MIN = Math.log(0.8856);

/**
 * Pr[L > ξ] for a pair of unit vectors at angular distance d, over the hyperplanes W and the noise
 * N(0, σ²): E over C ~ χ²_κ of Q((ξ − μ)/√(2μ)), μ = d_euc(d)²·(C/κ)/(2σ²) (file comment).
 * σ = Infinity (the release is noise alone) gives 0: the loss is then 0.
 *
 * Quadrature. In t = ln C the integrand e^{φ(t)}, φ(t) = ln f_χ²(e^t) + t + ln Q(h(a e^t)), is smooth
 * and decays at both ends (like C^{κ/2} below, e^{−C/2} above), so the trapezoid rule on it converges
 * geometrically as the step halves. Where the mass is: Q(h) rises with C and the χ² density falls, so
 * for small δ the mass sits in the χ² upper tail, far from κ; for large σ it sits further out. The
 * range is found rather than guessed: (1) hard bounds outside which the mass is below e^−750 (above:
 * Chernoff's Pr[χ²_κ ≥ κ(1+u)] ≤ exp(−κ(u − ln(1+u))/2); below: Pr[χ²_κ ≤ C]·Q(h(aC)) ≤ e^−750, with
 * Pr[χ²_κ ≤ C] ≤ (C/2)^{κ/2}/Γ(κ/2 + 1)); (2) a scan of φ at steps of 0.25 in t, keeping the span
 * from the first to the last scan point within 80 nats of the largest, one step wider on each side
 * (φ's peak is never narrower than 0.02 in t — 1/√(−φ'') there, measured over κ from 1 to 1024,
 * d ∈ {0.01, 1}, ξ ≤ 1000 and σ from half to twice the solutions for δ from 1e-12 — so the scan point
 * nearest the peak, at most 0.125 away, is within 0.5·(0.125/0.02)² ≈ 20 nats of its top);
 * (3) the trapezoid on that span from step 0.05, halved until two results agree to 1e-9 relative
 * (the error of the last is then far smaller). ln Q comes from @stdlib's normal logcdf (erfcx in the
 * far tail), so no factor underflows before the sum is scaled by e^{max φ}.
 */
export function jlGaussianTail(sigma: number, xi: number, kappa: number, d: number): number {
  checkSigma(sigma);
  checkXi(xi);
  checkKappa(kappa);
  checkDistance(d);
  if (sigma === Infinity) return 0;
  const dEuc = euclideanFromAngular(d);
  const a = (dEuc * dEuc) / (2 * sigma * sigma * kappa);
  if (!(a > 0)) return 0; // σ so large that μ underflows: no signal, no loss
  if (a === Infinity) return 1; // σ so small that μ overflows: the loss is infinite
  const phi = (t: number): number => {
    const c = Math.exp(t);
    const mu = a * c;
    if (!(c > 0 && mu > 0 && c < Infinity)) return -Infinity;
    const h = (xi - mu) / Math.sqrt(2 * mu);
    return chisquareLogpdf(c, kappa) + t + normalLogcdf(-h, 0, 1);
  };

  // (1) hard bounds. Above: κ(1 + u) with κ(u − ln(1+u))/2 ≥ 750 (u − ln(1+u) increases in u).
  const need = (-2 * NEGLIGIBLE_LOG) / kappa;
  let u = need;
  while (u - Math.log1p(u) < need) u *= 1.25;
  const tHi = Math.log(kappa * (1 + u));
  // Below: ln[(C/2)^{κ/2}/Γ(κ/2+1)] + ln Q(h(aC)) increases in t; bisect for a t where it is < −750,
  // never below t = −700 (e^t would underflow; the χ² mass below e^−700 is < e^−349 for κ ≥ 1).
  const lowerMass = (t: number): number => Math.min(0, (kappa / 2) * (t - Math.LN2) - LN_GAMMA_MIN) + normalLogcdf(-(xi - a * Math.exp(t)) / Math.sqrt(2 * a * Math.exp(t)), 0, 1);
  let tLo = -700;
  if (lowerMass(tLo) < NEGLIGIBLE_LOG) {
    let hi = tHi;
    if (lowerMass(hi) < NEGLIGIBLE_LOG) return 0; // the whole mass is below e^−750
    for (let i = 0; i < 60 && hi - tLo > 1e-3; i++) {
      const mid = (tLo + hi) / 2;
      if (lowerMass(mid) < NEGLIGIBLE_LOG) tLo = mid;
      else hi = mid;
    }
  }
  if (!(tLo < tHi)) return 0;

  // (2) the coarse scan
  const steps = Math.max(8, Math.ceil((tHi - tLo) / SCAN_STEP));
  const scanStep = (tHi - tLo) / steps;
  const scan = new Float64Array(steps + 1);
  let top = -Infinity;
  for (let i = 0; i <= steps; i++) {
    scan[i] = phi(tLo + i * scanStep);
    if (scan[i]! > top) top = scan[i]!;
  }
  if (top === -Infinity) return 0;
  let first = 0;
  while (scan[first]! < top - SCAN_DROP) first++;
  let last = steps;
  while (scan[last]! < top - SCAN_DROP) last--;
  const ta = tLo + Math.max(0, first - 1) * scanStep;
  const tb = tLo + Math.min(steps, last + 1) * scanStep;

  // (3) the trapezoid, scaled by e^{top}, halving the step until it settles
  const f = (t: number): number => Math.exp(phi(t) - top);
  let n = Math.max(16, Math.ceil((tb - ta) / FIRST_STEP));
  let h = (tb - ta) / n;
  let sum = (f(ta) + f(tb)) / 2;
  for (let i = 1; i < n; i++) sum += f(ta + i * h);
  let estimate = sum * h;
  for (let halving = 0; halving < MAX_HALVINGS; halving++) {
    let mids = 0;
    for (let i = 0; i < n; i++) mids += f(ta + (i + 0.5) * h);
    sum += mids;
    n *= 2;
    h /= 2;
    const next = sum * h;
    const settled = Math.abs(next - estimate) <= CONVERGED * next;
    estimate = next;
    if (settled) break;
  }
  return Math.min(1, estimate * Math.exp(top));
}

/**
 * z = Φ⁻¹(1 − δ) = √2·erfc⁻¹(2δ). Not @stdlib's normal quantile: it goes through erf⁻¹(2δ − 1), which
 * loses the digits of a small δ to the cancellation (at δ = 1e-12, z is off by 3e-6 and Q(z) by 2e-5).
 */
function upperQuantile(delta: number): number {
  return Math.SQRT2 * erfcinv(2 * delta);
}

/**
 * The Gaussian noise σ for a release whose input moves the mean by at most `sensitivity` (an ℓ2
 * sensitivity Δ), such that Pr[L > ξ] ≤ δ over the noise for every such pair: with μ = Δ²/(2σ²) the
 * worst loss is N(μ, 2μ), and Q((ξ − μ)/√(2μ)) = δ solves to Δ/σ = √(z² + 2ξ) − z, z = Φ⁻¹(1 − δ)
 * (a probabilistic-DP bound; it implies (ξ, δ)-DP). Used by the `every-w` (Δ = σ_max(W)·d_euc(d)) and
 * `ldp` (Δ = 2σ_max(W)) guarantees. ξ = 0 gives Infinity. Returns σ.
 */
export function gaussianSigmaForSensitivity(sensitivity: number, xi: number, delta: number): number {
  if (!(Number.isFinite(sensitivity) && sensitivity > 0)) throw new RangeError(`jl-gaussian: the sensitivity must be finite and > 0, got ${sensitivity}`);
  checkXi(xi);
  checkDelta(delta);
  if (xi === 0) return Infinity;
  const z = upperQuantile(delta);
  const root = Math.sqrt(z * z + 2 * xi);
  // √(z² + 2ξ) − z without cancellation when z > 0 (δ < 1/2)
  const ratio = z > 0 ? (2 * xi) / (root + z) : root - z;
  return sensitivity / ratio;
}

/**
 * The inverse of gaussianSigmaForSensitivity: the smallest ξ with Pr[L > ξ] ≤ δ for a pair that moves
 * the mean by `sensitivity` under noise σ, ξ = r²/2 + z·r with r = Δ/σ (0 at least; 0 when σ = ∞).
 * The LDP equivalent of `every-w` is this at Δ = 2σ_max(W), which does not depend on W (r scales with σ_max).
 */
export function gaussianXiForSensitivity(sensitivity: number, sigma: number, delta: number): number {
  if (!(Number.isFinite(sensitivity) && sensitivity > 0)) throw new RangeError(`jl-gaussian: the sensitivity must be finite and > 0, got ${sensitivity}`);
  checkSigma(sigma);
  checkDelta(delta);
  const r = sensitivity / sigma;
  return Math.max(0, (r * r) / 2 + upperQuantile(delta) * r);
}

/** Bisection in log x between lo (fails: tail > target) and hi (passes) to a relative 1e-9; returns hi. */
function logBisect(lo: number, hi: number, passes: (x: number) => boolean): number {
  while (hi / lo - 1 > 1e-9) {
    const mid = Math.sqrt(lo * hi);
    if (mid <= lo || mid >= hi) break;
    if (passes(mid)) hi = mid;
    else lo = mid;
  }
  return hi;
}

/**
 * The smallest x > 0 (relative 1e-9, on the passing side) where the monotone `passes` turns true,
 * from a first guess: bracketed by halving or doubling it, then bisected in log x.
 */
function smallestPassing(guess: number, passes: (x: number) => boolean): number {
  let hi = guess;
  let lo = hi;
  if (passes(hi)) {
    do lo /= 2;
    while (passes(lo) && lo > 0);
    hi = lo * 2;
  } else {
    do hi *= 2;
    while (!passes(hi));
    lo = hi / 2;
  }
  return logBisect(lo, hi, passes);
}

/**
 * Relative margin below δ that a returned σ or ξ must meet: far above the quadrature's error (≪ 1e-12
 * relative), so that another summation of the same tail cannot find the answer above δ.
 */
const SAFE = 1 - 1e-9;

/**
 * The `expected` guarantee: the smallest σ (to a relative 1e-9, on the safe side) with
 * jlGaussianTail(σ, ξ, κ, d) ≤ δ, i.e. Pr[L > ξ] ≤ δ over the hyperplanes and the noise for a pair at
 * angular distance d. Depends on κ, d, ξ and δ only (and is proportional to d_euc(d)). ξ = 0 gives
 * Infinity: Q(−√(μ/2)) > 1/2 > δ for every μ > 0, so no finite σ meets the condition.
 */
export function jlGaussianSigma(xi: number, kappa: number, privacy: PrivacyParams): number {
  checkXi(xi);
  checkKappa(kappa);
  checkDistance(privacy.d);
  checkDelta(privacy.delta);
  if (xi === 0) return Infinity;
  const { d, delta } = privacy;
  const target = delta * SAFE;
  const passes = (sigma: number) => jlGaussianTail(sigma, xi, kappa, d) <= target;
  // start from the closed form for ‖W u‖ = 1 (the mean of χ²_κ/κ), then bracket by factors of 2
  return smallestPassing(gaussianSigmaForSensitivity(euclideanFromAngular(d), xi, delta), passes);
}

/**
 * The LDP equivalent of the `expected` guarantee at noise σ: the smallest ξ' (relative 1e-9, safe side)
 * with jlGaussianTail(σ, ξ', κ, 1) ≤ δ. The tail increases with the distance, so the farthest pair
 * (d = 1, x' = −x) bounds every pair: for any two unit vectors Pr[L > ξ'] ≤ δ, δ over the public
 * hyperplanes and the noise, an (ξ', δ) statement of the same kind as the `expected` one (not a
 * guarantee for every W: an adversary who picks the pair after seeing W can do worse). 0 when σ = ∞.
 */
export function jlGaussianLdpEpsilon(sigma: number, kappa: number, delta: number): number {
  checkSigma(sigma);
  checkKappa(kappa);
  checkDelta(delta);
  if (sigma === Infinity) return 0;
  const target = delta * SAFE;
  const passes = (xi: number) => jlGaussianTail(sigma, xi, kappa, 1) <= target;
  if (passes(0)) return 0; // only for δ ≥ 1/2: the tail at ξ = 0 exceeds 1/2
  return smallestPassing(Math.max(gaussianXiForSensitivity(2, sigma, delta), Number.MIN_VALUE), passes);
}

// ml-matrix is loaded on first use, so importing the accountants does not pay for it

let mlMatrix: typeof import('ml-matrix') | undefined;

/**
 * σ_max(R/√κ), the largest singular value of the JL matrix W of the κ × n planes R (row-major): the
 * square root of the largest eigenvalue of the smaller Gram matrix (R Rᵀ when κ ≤ n, else Rᵀ R),
 * over κ. ml-matrix's symmetric eigen-solver is backward stable, so the result has a relative error
 * of a few ulps times the dimension (checked against its SVD to 1e-10).
 */
export function spectralNorm(planes: Float64Array, kappa: number, n: number): number {
  if (!(Number.isInteger(kappa) && kappa >= 1)) throw new RangeError(`spectralNorm: kappa must be a positive integer, got ${kappa}`);
  if (!(Number.isInteger(n) && n >= 1)) throw new RangeError(`spectralNorm: n must be a positive integer, got ${n}`);
  if (planes.length !== kappa * n) throw new RangeError(`spectralNorm: planes has ${planes.length} entries, expected kappa*n = ${kappa}*${n}`);
  const byRows = kappa <= n;
  const m = byRows ? kappa : n;
  // the Gram matrix, exactly symmetric (each entry computed once)
  const gram: number[][] = Array.from({ length: m }, () => new Array<number>(m).fill(0));
  for (let p = 0; p < m; p++) {
    for (let q = 0; q <= p; q++) {
      let s = 0;
      if (byRows) for (let c = 0; c < n; c++) s += planes[p * n + c]! * planes[q * n + c]!;
      else for (let j = 0; j < kappa; j++) s += planes[j * n + p]! * planes[j * n + q]!;
      gram[p]![q] = s;
      gram[q]![p] = s;
    }
  }
  mlMatrix ??= require('ml-matrix') as typeof import('ml-matrix');
  const { Matrix, EigenvalueDecomposition } = mlMatrix;
  const eig = new EigenvalueDecomposition(new Matrix(gram), { assumeSymmetric: true });
  let top = 0;
  for (const v of eig.realEigenvalues) if (v > top) top = v;
  return Math.sqrt(top / kappa);
}

/** What one ξ means for jl-gaussian under a guarantee. */
export interface JlGaussianAccount {
  /** the noise standard deviation per coordinate (Infinity at ξ = 0: the release is noise alone) */
  sigma: number;
  /** the LDP equivalent (see jlGaussianLdpEpsilon, gaussianXiForSensitivity); an (ε, δ) statement, not pure LDP */
  ldpEpsilon: number;
  /** the ℓ2 sensitivity σ was computed from (every-w, ldp); null for expected */
  sensitivity: number | null;
}

/**
 * σ and the LDP equivalent of budget ξ under a guarantee:
 * - `expected`: σ = jlGaussianSigma (δ over W and the noise), ε_LDP = jlGaussianLdpEpsilon(σ, κ, δ);
 * - `every-w`: Δ = σ_max(W)·d_euc(d), σ = gaussianSigmaForSensitivity(Δ, ξ, δ): for the given W, every
 *   pair at distance ≤ d has Pr[L > ξ] ≤ δ over the noise; ε_LDP = gaussianXiForSensitivity(2σ_max, σ, δ);
 * - `ldp`: Δ = 2σ_max(W), any two unit vectors: (ξ, δ)-LDP over the noise, ε_LDP = ξ.
 * `sigmaMax` (spectralNorm of the trial's planes) is required by every-w and ldp; σ is then per trial.
 */
export function jlGaussianAccount(guarantee: JlGaussianGuarantee, xi: number, kappa: number, privacy: PrivacyParams, sigmaMax?: number): JlGaussianAccount {
  checkXi(xi);
  checkKappa(kappa);
  checkDistance(privacy.d);
  checkDelta(privacy.delta);
  if (guarantee === 'expected') {
    const sigma = jlGaussianSigma(xi, kappa, privacy);
    return { sigma, ldpEpsilon: jlGaussianLdpEpsilon(sigma, kappa, privacy.delta), sensitivity: null };
  }
  if (!(guarantee === 'every-w' || guarantee === 'ldp')) throw new UserError(`jl-gaussian: guarantee must be one of ${JL_GAUSSIAN_GUARANTEES.join(', ')}, got ${guarantee}`);
  if (!(sigmaMax !== undefined && Number.isFinite(sigmaMax) && sigmaMax > 0)) throw new RangeError(`jl-gaussian: guarantee ${guarantee} needs the planes' spectral norm sigmaMax > 0, got ${sigmaMax}`);
  const sensitivity = guarantee === 'ldp' ? 2 * sigmaMax : sigmaMax * euclideanFromAngular(privacy.d);
  const sigma = gaussianSigmaForSensitivity(sensitivity, xi, privacy.delta);
  const ldpEpsilon = guarantee === 'ldp' ? xi : sigma === Infinity ? 0 : gaussianXiForSensitivity(2 * sigmaMax, sigma, privacy.delta);
  return { sigma, ldpEpsilon, sensitivity };
}
