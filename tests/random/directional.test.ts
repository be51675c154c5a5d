import { describe, expect, it } from 'vitest';
import { makeRng } from '../../src/random/rng.js';
import { ks, ksCritical, quadrature, within } from '../helpers/distributions.js';
import { directionAround, logConcaveSource, purkayasthaAngleSource, vmfCosineSource } from '../../src/random/directional.js';

const N = 20_000;
const DIMS = [2, 3, 50];
const CONCENTRATIONS = [0.1, 1, 10, 100, 500];
const logSin = (phi: number) => Math.log(Math.sin(phi));

describe('von Mises–Fisher cosine (Wood 1994) against its exact density by quadrature', () => {
  for (const n of DIMS)
    for (const c of CONCENTRATIONS) {
      it(`n = ${n}, c = ${c}: mean, variance and Kolmogorov–Smirnov of the angle`, () => {
        // w = cos φ; φ has density ∝ exp(c cos φ) sin^{n−2} φ on [0, π]
        const q = quadrature((phi) => c * (Math.cos(phi) - 1) + (n === 2 ? 0 : (n - 2) * logSin(phi)));
        const draw = vmfCosineSource(makeRng(`vmf-${n}-${c}`), n, c);
        const w = Float64Array.from({ length: N }, draw);
        expect(w.every((v) => v >= -1 && v <= 1)).toBe(true);
        const mean = w.reduce((a, b) => a + b, 0) / N;
        const ew = q.expect(Math.cos);
        const varw = q.expect((p) => Math.cos(p) ** 2) - ew * ew;
        within(mean, ew, Math.sqrt(varw / N), 'E[w]');
        const m2 = w.reduce((a, b) => a + (b - mean) ** 2, 0) / (N - 1);
        within(m2, varw, Math.sqrt((q.expect((p) => (Math.cos(p) - ew) ** 4) - varw * varw) / N), 'Var[w]');
        expect(ks(w.map(Math.acos), q.cdfAt)).toBeLessThan(ksCritical(N));
      });
    }

  it('c → 0 gives the uniform sphere: w has density ∝ (1 − w²)^{(n−3)/2} (mean 0, variance 1/n)', () => {
    for (const n of [3, 10, 50]) {
      const draw = vmfCosineSource(makeRng(`vmf-uniform-${n}`), n, 0);
      const w = Float64Array.from({ length: N }, draw);
      within(w.reduce((a, b) => a + b, 0) / N, 0, Math.sqrt(1 / n / N), `n=${n} mean`);
      within(w.reduce((a, b) => a + b * b, 0) / N, 1 / n, Math.sqrt((3 / (n * (n + 2)) - 1 / (n * n)) / N), `n=${n} E[w²]`);
    }
  });

  it('c → ∞ gives z → x: 1 − w ≈ (n − 1)/(2c)', () => {
    for (const n of [3, 50]) {
      const c = 1e6;
      const draw = vmfCosineSource(makeRng(`vmf-big-${n}`), n, c);
      const gap = Float64Array.from({ length: N }, () => 1 - draw());
      const mean = gap.reduce((a, b) => a + b, 0) / N;
      // for large c, 1 − w is Gamma((n−1)/2, 1/c): mean (n−1)/(2c), sd √((n−1)/2)/c
      within(mean, (n - 1) / (2 * c), Math.sqrt((n - 1) / 2) / c / Math.sqrt(N) + 1e-3 * ((n - 1) / (2 * c)), `n=${n}`);
    }
  });
});

describe('Purkayastha angle (log-concave rejection) against its exact density by quadrature', () => {
  for (const n of DIMS)
    for (const c of CONCENTRATIONS) {
      it(`n = ${n}, c = ${c}: mean, variance and Kolmogorov–Smirnov`, () => {
        const q = quadrature((t) => -c * t + (n === 2 ? 0 : (n - 2) * logSin(t)));
        const draw = purkayasthaAngleSource(makeRng(`purk-${n}-${c}`), n, c);
        const th = Float64Array.from({ length: N }, draw);
        expect(th.every((v) => v >= 0 && v <= Math.PI)).toBe(true);
        const mean = th.reduce((a, b) => a + b, 0) / N;
        const et = q.expect((t) => t);
        const vart = q.expect((t) => t * t) - et * et;
        within(mean, et, Math.sqrt(vart / N), 'E[θ]');
        const m2 = th.reduce((a, b) => a + (b - mean) ** 2, 0) / (N - 1);
        within(m2, vart, Math.sqrt((q.expect((t) => (t - et) ** 4) - vart * vart) / N), 'Var[θ]');
        expect(ks(th, q.cdfAt)).toBeLessThan(ksCritical(N));
      });
    }

  it('c → 0 gives the uniform sphere (θ density ∝ sin^{n−2} θ: mean π/2); c → ∞ gives θ → 0 (mean ≈ (n − 1)/c)', () => {
    const flat = purkayasthaAngleSource(makeRng('purk-flat'), 20, 0);
    const t0 = Float64Array.from({ length: N }, flat);
    const q = quadrature((t) => 18 * logSin(t));
    within(t0.reduce((a, b) => a + b, 0) / N, Math.PI / 2, Math.sqrt((q.expect((t) => t * t) - (Math.PI / 2) ** 2) / N), 'c=0');
    const sharp = purkayasthaAngleSource(makeRng('purk-sharp'), 20, 1e6);
    const t1 = Float64Array.from({ length: N }, sharp);
    // for large c, θ ≈ Gamma(n − 1, 1/c): mean (n − 1)/c, sd √(n − 1)/c
    within(t1.reduce((a, b) => a + b, 0) / N, 19 / 1e6, Math.sqrt(19) / 1e6 / Math.sqrt(N) + 1e-3 * (19 / 1e6), 'c=1e6');
  });
});

describe('logConcaveSource on densities with closed-form CDFs', () => {
  it('Gamma(3, 1) truncated to [0, 10] (interior mode) and Exp(2) truncated to [0, 3] (mode at the boundary)', () => {
    const gammaCdf = (t: number) => 1 - Math.exp(-t) * (1 + t + (t * t) / 2);
    const g = logConcaveSource(makeRng('lc-gamma'), { h: (t) => 2 * Math.log(t) - t, dh: (t) => 2 / t - 1, lo: 0, hi: 10, mode: 2 });
    const x = Float64Array.from({ length: N }, g);
    expect(ks(x, (t) => gammaCdf(t) / gammaCdf(10))).toBeLessThan(ksCritical(N));
    const e = logConcaveSource(makeRng('lc-exp'), { h: (t) => -2 * t, dh: () => -2, lo: 0, hi: 3, mode: 0 });
    const y = Float64Array.from({ length: N }, e);
    expect(ks(y, (t) => (1 - Math.exp(-2 * t)) / (1 - Math.exp(-6)))).toBeLessThan(ksCritical(N));
  });
});

describe('the direction around x', () => {
  it('x·z = w and |z| = 1 exactly; the orthogonal part is uniform: mean 0, covariance (1 − w²)(I − xxᵀ)/(n − 1)', () => {
    const n = 6;
    const rng = makeRng('direction');
    const x = Float64Array.from({ length: n }, () => rng() - 0.5);
    const norm = Math.hypot(...x);
    for (let i = 0; i < n; i++) x[i] = x[i]! / norm;
    const w = 0.3;
    const M = 40_000;
    const mean = new Float64Array(n);
    const cov = new Float64Array(n * n);
    let worst = 0;
    for (let s = 0; s < M; s++) {
      const z = directionAround(rng, x, w);
      let dot = 0;
      let len = 0;
      for (let i = 0; i < n; i++) {
        dot += z[i]! * x[i]!;
        len += z[i]! * z[i]!;
      }
      worst = Math.max(worst, Math.abs(dot - w), Math.abs(len - 1));
      for (let i = 0; i < n; i++) {
        const vi = z[i]! - w * x[i]!;
        mean[i] = mean[i]! + vi / M;
        for (let j = 0; j < n; j++) cov[i * n + j] = cov[i * n + j]! + (vi * (z[j]! - w * x[j]!)) / M;
      }
    }
    expect(worst).toBeLessThan(1e-12);
    const scale = (1 - w * w) / (n - 1);
    for (let i = 0; i < n; i++) {
      within(mean[i]!, 0, Math.sqrt(scale / M), `mean[${i}]`);
      for (let j = 0; j < n; j++) {
        const expected = scale * ((i === j ? 1 : 0) - x[i]! * x[j]!);
        // Var of a product of two coordinates of a uniform direction is at most (1 − w²)²·3/(n²−1)
        within(cov[i * n + j]!, expected, Math.sqrt((3 * (1 - w * w) ** 2) / (n * n - 1) / M), `cov[${i}][${j}]`);
      }
    }
  });

  it('the von Mises–Fisher mean direction is E[w]·x whatever x (rotation invariance)', () => {
    const n = 4;
    const c = 3;
    const q = quadrature((phi) => c * (Math.cos(phi) - 1) + (n - 2) * logSin(phi));
    const ew = q.expect(Math.cos);
    for (const seed of ['rot-a', 'rot-b']) {
      const rng = makeRng(seed);
      const x = Float64Array.from({ length: n }, () => rng() - 0.5);
      const norm = Math.hypot(...x);
      for (let i = 0; i < n; i++) x[i] = x[i]! / norm;
      const draw = vmfCosineSource(rng, n, c);
      const mean = new Float64Array(n);
      for (let s = 0; s < N; s++) {
        const z = directionAround(rng, x, draw());
        for (let i = 0; i < n; i++) mean[i] = mean[i]! + z[i]! / N;
      }
      for (let i = 0; i < n; i++) within(mean[i]!, ew * x[i]!, 1 / Math.sqrt(N), `${seed} mean[${i}]`);
    }
  });
});
