/*
 * Samplers of the directional-privacy mechanisms (Weggenmann & Kerschbaum, "Differential Privacy
 * for Directional Data", CCS 2021) on the unit sphere S^{n−1}, exact (no grids, no truncation):
 *
 * - von Mises–Fisher, density ∝ exp(c·x·z): the cosine w = x·z has density
 *   ∝ exp(c·w)(1 − w²)^{(n−3)/2} on [−1, 1], drawn by Wood's rejection sampler (1994);
 * - Purkayastha, density ∝ exp(−c·θ(x, z)): the angle θ has density ∝ exp(−c·θ)·sin^{n−2}θ on
 *   [0, π], log-concave for n ≥ 2, drawn by rejection from the piecewise-exponential hull of
 *   tangents to its log-density (`logConcaveSource`);
 * - the direction: z = w·x + √(1 − w²)·v with v uniform on the unit sphere orthogonal to x
 *   (`directionAround`).
 *
 * Both densities depend on z only through x·z, so z given w is uniform on that circle: this is
 * what makes the split into a cosine and an orthogonal direction exact.
 */
import type { Rng } from './rng.js';
import { fillNormal, gammaSource, requireFinite } from './samplers.js';

function requireDims(n: number): void {
  if (!Number.isInteger(n) || n < 2) throw new RangeError(`the sphere's dimension n must be an integer >= 2, got ${n}`);
}
function requireConcentration(c: number): void {
  requireFinite('the concentration c', c, (v) => v >= 0, 'finite and >= 0');
}

/**
 * The cosine w = x·z of a von Mises–Fisher draw on S^{n−1} with concentration c, by Wood (1994),
 * "Simulation of the von Mises Fisher distribution", Comm. Stat. Simul. Comput. 23(1):157–164:
 * propose w from a Beta((n−1)/2, (n−1)/2) transformed by b, accept with the exact ratio. b is
 * computed in the form without cancellation, so c from 0 to 1e6 keeps full precision.
 */
export function vmfCosineSource(rng: Rng, n: number, c: number): () => number {
  requireDims(n);
  requireConcentration(c);
  const m = n - 1;
  // b = (−2c + √(4c² + m²)) / m, written as m / (2c + √(4c² + m²))
  const b = m / (2 * c + Math.sqrt(4 * c * c + m * m));
  const x0 = (1 - b) / (1 + b);
  const k = c * x0 + m * Math.log(1 - x0 * x0);
  const ga = gammaSource(rng, m / 2);
  const gb = gammaSource(rng, m / 2);
  return () => {
    for (;;) {
      const a = ga();
      const z = a / (a + gb()); // Beta(m/2, m/2)
      const w = (1 - (1 + b) * z) / (1 - (1 - b) * z);
      const u = rng();
      if (c * w + m * Math.log(1 - x0 * w) - k >= Math.log(u)) return w;
    }
  };
}

/** A log-density known up to a constant, concave on (lo, hi), with its derivative. */
export interface LogConcave {
  h: (t: number) => number;
  dh: (t: number) => number;
  lo: number;
  hi: number;
  /** the maximizer of h on [lo, hi] */
  mode: number;
}

/**
 * Exact draws from a log-concave density on a bounded interval: rejection from the upper hull of
 * the tangents to h at the mode and at the points where h has dropped by 1 on either side (found
 * by bisection), a piecewise-exponential envelope that is sampled exactly by inversion. Concavity
 * makes every tangent an upper bound, so the acceptance test exp(h − envelope) ≥ U is exact.
 */
export function logConcaveSource(rng: Rng, f: LogConcave): () => number {
  const { h, dh, lo, hi, mode } = f;
  const top = h(mode);
  // where h = top − 1 between `from` (h < target there, or the interval's end) and the mode
  const drop = (from: number): number | null => {
    if (h(from) >= top - 1) return null;
    let a = from;
    let b = mode;
    for (let i = 0; i < 200 && Math.abs(b - a) > 1e-15 * Math.max(1, Math.abs(mode)); i++) {
      const mid = (a + b) / 2;
      if (h(mid) < top - 1) a = mid;
      else b = mid;
    }
    return (a + b) / 2;
  };
  const points: number[] = [];
  if (mode > lo) points.push(drop(lo) ?? (lo + mode) / 2);
  points.push(mode);
  if (mode < hi) points.push(drop(hi) ?? (mode + hi) / 2);
  // tangents u_i(t) = h(t_i) + s_i (t − t_i), relative to `top` so nothing overflows
  const t = points.filter((p, i) => i === 0 || p > points[i - 1]!);
  const hv = t.map((p) => h(p) - top);
  const s = t.map((p) => {
    const d = dh(p);
    // at a boundary mode the one-sided derivative can be infinite: the flat tangent bounds h there
    return Number.isFinite(d) ? d : 0;
  });
  // piece i spans [z_i, z_{i+1}] under tangent i: consecutive tangents meet at the z between them
  const z = [lo];
  for (let i = 0; i + 1 < t.length; i++) {
    const ds = s[i]! - s[i + 1]!;
    z.push(ds > 0 ? (hv[i + 1]! - hv[i]! - t[i + 1]! * s[i + 1]! + t[i]! * s[i]!) / ds : (t[i]! + t[i + 1]!) / 2);
  }
  z.push(hi);
  const u = (i: number, x: number) => hv[i]! + s[i]! * (x - t[i]!);
  // the envelope's mass over each piece: ∫ exp(u_i) = exp(u_i(z_i)) · (exp(s_i Δ) − 1) / s_i
  const mass = t.map((_, i) => {
    const width = z[i + 1]! - z[i]!;
    if (width <= 0) return 0;
    const si = s[i]!;
    return Math.exp(u(i, z[i]!)) * (Math.abs(si * width) < 1e-12 ? width : Math.expm1(si * width) / si);
  });
  const total = mass.reduce((a, b) => a + b, 0);
  return () => {
    for (;;) {
      let pick = rng() * total;
      let i = 0;
      while (i < mass.length - 1 && pick >= mass[i]!) pick -= mass[i++]!;
      const width = z[i + 1]! - z[i]!;
      const si = s[i]!;
      const v = rng();
      // inversion within the piece: the CDF of exp(s x) on [0, width]
      const off = Math.abs(si * width) < 1e-12 ? v * width : Math.log1p(v * Math.expm1(si * width)) / si;
      const x = Math.min(z[i + 1]!, z[i]! + off);
      if (Math.log(rng()) <= h(x) - top - u(i, x)) return x;
    }
  };
}

/**
 * The angle θ = θ(x, z) of a Purkayastha draw on S^{n−1} with concentration c: density
 * ∝ exp(−c·θ)·sin^{n−2}θ on [0, π], log-concave (h'' = −(n−2)/sin²θ ≤ 0), mode atan2(n − 2, c).
 */
export function purkayasthaAngleSource(rng: Rng, n: number, c: number): () => number {
  requireDims(n);
  requireConcentration(c);
  const k = n - 2;
  const h = (t: number) => (k === 0 ? -c * t : -c * t + k * Math.log(Math.sin(t)));
  const dh = (t: number) => (k === 0 ? -c : -c + k / Math.tan(t));
  // n = 2 and c = 0: the uniform angle (a flat density; every tangent is exact)
  return logConcaveSource(rng, { h, dh, lo: 0, hi: Math.PI, mode: k === 0 ? 0 : Math.atan2(k, c) });
}

/**
 * z = w·x + √(1 − w²)·v, v uniform on the unit sphere orthogonal to the unit vector x (dense,
 * length n): a normal vector with its component along x removed, normalized.
 */
export function directionAround(rng: Rng, x: Float64Array, w: number, out = new Float64Array(x.length)): Float64Array {
  const n = x.length;
  let norm2 = 0;
  do {
    fillNormal(rng, out);
    let dot = 0;
    for (let i = 0; i < n; i++) dot += out[i]! * x[i]!;
    norm2 = 0;
    for (let i = 0; i < n; i++) {
      out[i] = out[i]! - dot * x[i]!;
      norm2 += out[i]! * out[i]!;
    }
  } while (norm2 === 0);
  const scale = Math.sqrt(Math.max(0, 1 - w * w) / norm2);
  for (let i = 0; i < n; i++) out[i] = w * x[i]! + scale * out[i]!;
  return out;
}
