import type { Rng } from './rng.js';

/*
 * Samplers built on a uniform source (d3-random's `.source(rng)` pattern): `xxxSource(rng, ...)`
 * returns a function drawing one variate per call. Everything is a pure function of the source's
 * stream, so a seed fixes every variate. Parameter errors are programming errors (RangeError):
 * user-facing values are validated where they are read (config, CLI).
 */

export function requireFinite(name: string, value: number, test: (v: number) => boolean, what: string): void {
  if (!Number.isFinite(value) || !test(value)) throw new RangeError(`${name} must be ${what}, got ${value}`);
}

/**
 * Standard normal by the polar Box–Muller method (Marsaglia): one accepted pair gives two
 * independent normals; the second is cached and returned by the next call.
 */
export function normalSource(rng: Rng): () => number {
  let spare = 0;
  let hasSpare = false;
  return () => {
    if (hasSpare) {
      hasSpare = false;
      return spare;
    }
    let u: number;
    let v: number;
    let s: number;
    do {
      u = 2 * rng() - 1;
      v = 2 * rng() - 1;
      s = u * u + v * v;
    } while (s >= 1 || s === 0);
    const f = Math.sqrt((-2 * Math.log(s)) / s);
    spare = v * f;
    hasSpare = true;
    return u * f;
  };
}

/** Fill `out` with independent standard normals (polar method, both values of each pair used). */
export function fillNormal(rng: Rng, out: Float64Array): void {
  const len = out.length;
  let i = 0;
  while (i < len) {
    const u = 2 * rng() - 1;
    const v = 2 * rng() - 1;
    const s = u * u + v * v;
    if (s >= 1 || s === 0) continue;
    const f = Math.sqrt((-2 * Math.log(s)) / s);
    out[i++] = u * f;
    if (i < len) out[i++] = v * f;
  }
}

/**
 * Gamma(shape, scale) (mean shape·scale, variance shape·scale²) by Marsaglia & Tsang (2000).
 * For shape < 1 it draws Gamma(shape + 1) and multiplies by U^(1/shape) (their boost), which
 * is exact: if G ~ Gamma(a+1) and U ~ U(0,1) independent, G·U^(1/a) ~ Gamma(a).
 * The Laplace radius of LapLSH is Gamma(n, 1/eps).
 */
export function gammaSource(rng: Rng, shape: number, scale = 1): () => number {
  requireFinite('gamma shape', shape, (v) => v > 0, 'a positive number');
  requireFinite('gamma scale', scale, (v) => v > 0, 'a positive number');
  const normal = normalSource(rng);
  const boost = shape < 1;
  const a = boost ? shape + 1 : shape;
  const d = a - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  const invShape = 1 / shape;
  return () => {
    let x: number;
    let v: number;
    for (;;) {
      do {
        x = normal();
        v = 1 + c * x;
      } while (v <= 0);
      v = v * v * v;
      const u = 1 - rng(); // (0, 1]: log never sees 0
      const x2 = x * x;
      if (u < 1 - 0.0331 * x2 * x2) break;
      if (Math.log(u) < 0.5 * x2 + d * (1 - v + Math.log(v))) break;
    }
    let g = d * v;
    // biome-ignore lint/style/useExponentiationOperator: Math.pow as when the sampler was validated (the same doubles)
    if (boost) g *= Math.pow(1 - rng(), invShape);
    return g * scale;
  };
}

/** Chi-square with df degrees of freedom = Gamma(df/2, 2); df = 0 is the point mass at 0. */
export function chiSquareSource(rng: Rng, df: number): () => number {
  requireFinite('chi-square df', df, (v) => v >= 0, 'a non-negative number');
  if (df === 0) return () => 0;
  return gammaSource(rng, df / 2, 2);
}

/**
 * A uniform unit vector of R^n: a standard normal vector divided by its norm (the normal law is
 * rotation invariant). Writes into `out` (length n) when given, else a new array.
 */
export function sphereSample(rng: Rng, n: number, out?: Float64Array): Float64Array {
  requireFinite('sphere dimension', n, (v) => Number.isInteger(v) && v >= 1, 'a positive integer');
  const u = out ?? new Float64Array(n);
  if (u.length !== n) throw new RangeError(`sphereSample: out has length ${u.length}, expected ${n}`);
  for (;;) {
    fillNormal(rng, u);
    let s = 0;
    for (let i = 0; i < n; i++) s += u[i]! * u[i]!;
    if (s > 0) {
      const inv = 1 / Math.sqrt(s);
      for (let i = 0; i < n; i++) u[i]! *= inv;
      return u;
    }
  }
}

/** 1 with probability p, else 0 (one uniform per draw). */
export function bernoulliSource(rng: Rng, p: number): () => number {
  requireFinite('Bernoulli p', p, (v) => v >= 0 && v <= 1, 'in [0, 1]');
  return () => (rng() < p ? 1 : 0);
}

/**
 * `count` distinct indices of 0..population-1, uniformly among all subsets of that size, sorted
 * ascending (partial Fisher–Yates shuffle). Following protocol §3 (queries), count = 0 or
 * count ≥ population means "everyone": all indices 0..population-1 are returned, with no draw.
 */
export function sampleWithoutReplacement(rng: Rng, population: number, count: number): Int32Array {
  requireFinite('population', population, (v) => Number.isInteger(v) && v >= 0, 'a non-negative integer');
  requireFinite('sample size', count, (v) => Number.isInteger(v) && v >= 0, 'a non-negative integer');
  const perm = new Int32Array(population);
  for (let i = 0; i < population; i++) perm[i] = i;
  if (count === 0 || count >= population) return perm;
  for (let i = 0; i < count; i++) {
    const j = i + Math.floor(rng() * (population - i));
    const t = perm[i]!;
    perm[i] = perm[j]!;
    perm[j] = t;
  }
  return perm.slice(0, count).sort();
}
