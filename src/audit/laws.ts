/**
 * Exact laws the audit tests samples against, and the goodness-of-fit test it uses.
 *
 * - `scoreLaw`: the law of S = 2A − D for per-bit randomized response on LSH codes (LSHRR): the
 *   pair's codes differ in D ~ Bin(κ, p) bits, each kept with probability 1 − q, A of them kept.
 * - `hammingLawOfAngle`: the law of the Hamming distance between the code of a released direction z
 *   and the clean code of x, for κ Gaussian hyperplanes drawn afresh: given the angle θ between x
 *   and z each bit differs with probability θ/π independently, so the law is the mixture of
 *   Bin(κ, θ/π) over the angle's law (Simpson's rule on [0, π]).
 * - The two-sided Kolmogorov–Smirnov distance with the Dvoretzky–Kiefer–Wolfowitz–Massart bound
 *   Pr[sup |F_n − F| ≥ t] ≤ 2·exp(−2nt²) as its p-value: valid at every n and for discrete laws
 *   (where it is conservative), no asymptotic table needed. Its one-sided half, Pr[sup (F_n − F) ≥ t]
 *   ≤ exp(−2nt²) (Massart 1990, for exp(−2nt²) ≤ ½), tests a direction: samples stochastically
 *   smaller than the law (a directional release more concentrated than claimed).
 */
import { logBinomialPmf } from '../privacy/exactLoss.js';
import { binomialCdf } from '../vendor/stdlib.js';

function binomialPmfs(n: number, prob: number): Float64Array {
  const out = new Float64Array(n + 1);
  if (prob <= 0) out[0] = 1;
  else if (prob >= 1) out[n] = 1;
  else {
    const lp = Math.log(prob);
    const l1p = Math.log1p(-prob);
    for (let k = 0; k <= n; k++) out[k] = Math.exp(logBinomialPmf(k, n, lp, l1p));
  }
  return out;
}

/** Pr[S = s] at index s + κ, s = −κ..κ, for disagreement p and flip probability q. */
export function scoreLaw(kappa: number, p: number, q: number): Float64Array {
  const law = new Float64Array(2 * kappa + 1);
  const dLaw = binomialPmfs(kappa, p);
  for (let d = 0; d <= kappa; d++) {
    if (dLaw[d] === 0) continue;
    const kept = binomialPmfs(d, 1 - q);
    for (let a = 0; a <= d; a++) law[2 * a - d + kappa] += dLaw[d] * kept[a];
  }
  return law;
}

/** Bin(κ, θ_i/π) pmfs on the quadrature nodes θ_i = iπ/intervals (rows of κ + 1), cached per (κ, intervals). */
const nodePmfs = new Map<string, Float64Array>();
function binomialsOnNodes(kappa: number, intervals: number): Float64Array {
  const key = `${kappa}:${intervals}`;
  let table = nodePmfs.get(key);
  if (!table) {
    table = new Float64Array((intervals + 1) * (kappa + 1));
    for (let i = 0; i <= intervals; i++) table.set(binomialPmfs(kappa, i / intervals), i * (kappa + 1));
    nodePmfs.set(key, table);
  }
  return table;
}

/** Pr[H = h], h = 0..κ, for an angle with log-density `logDensity` (up to a constant) on [0, π]. */
export function hammingLawOfAngle(kappa: number, logDensity: (theta: number) => number, intervals = 4096): Float64Array {
  const h = Math.PI / intervals;
  const logs = new Float64Array(intervals + 1);
  let top = -Infinity;
  for (let i = 0; i <= intervals; i++) {
    const v = logDensity(i * h);
    logs[i] = Number.isNaN(v) ? -Infinity : v;
    if (logs[i] > top) top = logs[i];
  }
  const table = binomialsOnNodes(kappa, intervals);
  const law = new Float64Array(kappa + 1);
  let total = 0;
  for (let i = 0; i <= intervals; i++) {
    // Simpson's weights 1, 4, 2, 4, ..., 4, 1
    const weight = (i === 0 || i === intervals ? 1 : i % 2 === 1 ? 4 : 2) * Math.exp(logs[i] - top);
    if (weight === 0) continue;
    total += weight;
    const at = i * (kappa + 1);
    for (let k = 0; k <= kappa; k++) law[k] += weight * table[at + k];
  }
  for (let k = 0; k <= kappa; k++) law[k] /= total;
  return law;
}

/** The CDF of a pmf (index i: Pr[X <= i]). */
export function cdfOf(pmf: ArrayLike<number>): Float64Array {
  const out = new Float64Array(pmf.length);
  let cum = 0;
  for (let i = 0; i < pmf.length; i++) {
    cum += pmf[i];
    out[i] = Math.min(1, cum);
  }
  return out;
}

/** sup |F_n − F| of integer samples (sample v at index v + offset of `pmf`) against `pmf`. */
export function ksDistance(samples: ArrayLike<number>, pmf: ArrayLike<number>, offset: number): number {
  const counts = new Float64Array(pmf.length);
  for (let i = 0; i < samples.length; i++) counts[samples[i] + offset]++;
  const f = cdfOf(pmf);
  let cum = 0;
  let sup = 0;
  for (let i = 0; i < pmf.length; i++) {
    cum += counts[i];
    sup = Math.max(sup, Math.abs(cum / samples.length - f[i]));
  }
  return sup;
}

/** The DKW–Massart p-value of a KS distance D from n samples: min(1, 2·exp(−2nD²)). */
export function dkwPValue(distance: number, n: number): number {
  return Math.min(1, 2 * Math.exp(-2 * n * distance * distance));
}

/**
 * A lower bound on the power of the KS test at level `level` (reject when 2·exp(−2nD²) <= level)
 * when the samples follow `actual` instead of `claimed`: the test rejects whenever the empirical
 * CDF at any one point is off by the critical distance, so its power is at least the largest, over
 * points, exact binomial probability of that.
 */
export function ksPowerLowerBound(claimed: ArrayLike<number>, actual: ArrayLike<number>, n: number, level: number): number {
  const crit = Math.sqrt(Math.log(2 / level) / (2 * n));
  const f = cdfOf(claimed);
  const g = cdfOf(actual);
  let best = 0;
  for (let i = 0; i < f.length - 1; i++) {
    const prob = Math.min(1, Math.max(0, g[i]));
    // X ~ Bin(n, G(i)): reject when X/n >= F + crit or X/n <= F − crit
    const hi = Math.ceil(n * (f[i] + crit) - 1e-9);
    const lo = Math.floor(n * (f[i] - crit) + 1e-9);
    const above = hi > n ? 0 : hi <= 0 ? 1 : 1 - binomialCdf(hi - 1, n, prob);
    const below = lo < 0 ? 0 : binomialCdf(lo, n, prob);
    best = Math.max(best, above + below);
  }
  return Math.min(1, best);
}

/** The one-sided KS distances of integer samples against `pmf`: sup (F_n − F) and sup (F − F_n). */
export function ksOneSided(samples: ArrayLike<number>, pmf: ArrayLike<number>, offset: number): { above: number; below: number } {
  const counts = new Float64Array(pmf.length);
  for (let i = 0; i < samples.length; i++) counts[samples[i] + offset]++;
  const f = cdfOf(pmf);
  let cum = 0;
  let above = 0;
  let below = 0;
  for (let i = 0; i < pmf.length; i++) {
    cum += counts[i];
    above = Math.max(above, cum / samples.length - f[i]);
    below = Math.max(below, f[i] - cum / samples.length);
  }
  return { above, below };
}

/** Massart's one-sided p-value of a one-sided KS distance D from n samples: min(1, exp(−2nD²)). */
export function massartPValue(distance: number, n: number): number {
  return Math.min(1, Math.exp(-2 * n * distance * distance));
}

/**
 * A lower bound on the power of the one-sided KS test at level `level` (reject when
 * exp(−2n·sup(F_n − F)²) <= level) when the samples follow `actual`: the largest, over points, exact
 * binomial probability that the empirical CDF there exceeds the claimed one by the critical distance.
 */
export function ksOneSidedPowerLowerBound(claimed: ArrayLike<number>, actual: ArrayLike<number>, n: number, level: number): number {
  const crit = Math.sqrt(Math.log(1 / level) / (2 * n));
  const f = cdfOf(claimed);
  const g = cdfOf(actual);
  let best = 0;
  for (let i = 0; i < f.length - 1; i++) {
    const hi = Math.ceil(n * (f[i] + crit) - 1e-9);
    if (hi > n) continue;
    const prob = Math.min(1, Math.max(0, g[i]));
    best = Math.max(best, hi <= 0 ? 1 : 1 - binomialCdf(hi - 1, n, prob));
  }
  return Math.min(1, best);
}

/** The mean of a pmf over 0..length − 1. */
export function pmfMean(pmf: ArrayLike<number>): number {
  let m = 0;
  for (let i = 0; i < pmf.length; i++) m += i * pmf[i];
  return m;
}
