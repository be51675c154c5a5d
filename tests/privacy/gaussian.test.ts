import { describe, expect, it } from 'vitest';
import erfc from '@stdlib/math-base-special-erfc';
import gammainc from '@stdlib/math-base-special-gammainc';
import chisquareLogpdf from '@stdlib/stats-base-dists-chisquare-logpdf';
import { Matrix, SVD } from 'ml-matrix';
import { gaussianSigmaForSensitivity, gaussianXiForSensitivity, jlGaussianAccount, jlGaussianLdpEpsilon, jlGaussianSigma, jlGaussianTail, spectralNorm } from '../../src/privacy/gaussian.js';
import { euclideanFromAngular } from '../../src/privacy/distance.js';
import { makeRng } from '../../src/random/rng.js';
import { chiSquareSource, fillNormal } from '../../src/random/samplers.js';
import { jlGaussianRelease } from '../../src/random/jlGaussian.js';
import { UserError } from '../../src/util/errors.js';

/** The standard normal upper tail through stdlib's erfc (not the logcdf the code uses). */
const Q = (x: number) => 0.5 * erfc(x / Math.SQRT2);

/**
 * The same tail by another route. Given G = R(x − x')/d_euc ~ N(0, I_κ) and the noise Z, the loss is
 * L = α‖G‖² + β G·Z, α = d_euc²/(2σ²κ), β² = 2α: per coordinate a quadratic form in (G_j, Z_j) with
 * eigenvalues (α ± √(α² + 2α))/2, so L = λ₊X − λ₋Y with X, Y ~ χ²_κ independent and
 * Pr[L > ξ] = ∫ f_κ(y) Pr[X > (ξ + λ₋y)/λ₊] dy: incomplete gamma (not normal tails), Simpson's rule
 * in w = √y (smooth at y = 0 for every κ) with 40 000 intervals up to the χ² mass e^−100.
 */
function tailByDifference(sigma: number, xi: number, kappa: number, d: number): number {
  const dEuc = euclideanFromAngular(d);
  const alpha = (dEuc * dEuc) / (2 * sigma * sigma * kappa);
  const root = Math.sqrt(alpha * alpha + 2 * alpha);
  const lPlus = (alpha + root) / 2;
  const lMinus = alpha / (alpha + root); // (root − α)/2 = 2α/(4·λ₊) without cancellation
  const upper = (x: number) => gammainc(x / 2, kappa / 2, true, true);
  // at w = 0 the density 2w·f_κ(w²) is 2/√(2π) for κ = 1 and 0 above
  const f = (w: number) => (w === 0 ? (kappa === 1 ? 2 / Math.sqrt(2 * Math.PI) : 0) : 2 * w * Math.exp(chisquareLogpdf(w * w, kappa))) * upper((xi + lMinus * w * w) / lPlus);
  const wMax = Math.sqrt(kappa + 30 * Math.sqrt(2 * kappa) + 200);
  const n = 40_000;
  const h = wMax / n;
  let s = f(0) + f(wMax);
  for (let i = 1; i < n; i++) s += (i % 2 === 1 ? 4 : 2) * f(i * h);
  return (s * h) / 3;
}

const rel = (a: number, b: number) => Math.abs(a - b) / Math.abs(b);

describe('jlGaussianTail', () => {
  it('equals Pr[λ₊X − λ₋Y > ξ] (difference of chi-squares) to 1e-7 relative, from κ 1 to 1024, tails from 1e-12', () => {
    // corners of κ ∈ [1, 1024], d ∈ (0, 1], ξ ∈ [0.01, 1000], δ down to 1e-12, at σ of the solver and
    // at 0.7σ, 1.5σ (tails a decade or more away). The two agree to ~3e-14 (printed when this was
    // written), so 1e-7 is slack for rounding only and still 10× stricter than the 1e-6 required.
    const cases: [number, number, number, number][] = [
      [1, 0.01, 0.01, 1e-12],
      [1, 1, 1000, 0.3],
      [2, 0.1, 1, 0.01],
      [10, 0.1, 5, 1e-6],
      [50, 0.5, 20, 1e-12],
      [1024, 0.01, 1000, 1e-12],
      [1024, 1, 0.01, 0.01],
    ];
    for (const [kappa, d, xi, delta] of cases) {
      const sigma = jlGaussianSigma(xi, kappa, { d, delta });
      for (const s of [sigma, 0.7 * sigma, 1.5 * sigma]) {
        const ours = jlGaussianTail(s, xi, kappa, d);
        const ref = tailByDifference(s, xi, kappa, d);
        // below 1e-30 the reference's incomplete gamma (a = κ/2 = 512) loses digits: at κ 1024, ξ 1000,
        // 1.5σ it gives 8.084e-98 where 40-digit arithmetic (mpmath) gives 8.0707964313617e-98 and the
        // tail 8.0707964313603e-98; the claim is for tails from 1e-12 up
        if (ref < 1e-30) continue;
        expect(rel(ours, ref), `κ ${kappa} d ${d} ξ ${xi} σ ${s}: ${ours} vs ${ref}`).toBeLessThan(1e-7);
      }
    }
  });

  it('at ξ = 0 the tail is above 1/2 for every finite σ, and 0 at σ = ∞', () => {
    for (const sigma of [0.01, 1, 100]) {
      const t = jlGaussianTail(sigma, 0, 10, 0.1);
      expect(t).toBeGreaterThan(0.5);
      expect(rel(t, tailByDifference(sigma, 0, 10, 0.1))).toBeLessThan(1e-7);
    }
    expect(jlGaussianTail(Infinity, 0, 10, 0.1)).toBe(0);
    expect(jlGaussianTail(Infinity, 3, 10, 0.1)).toBe(0);
  });

  it('agrees with a Monte Carlo average of Q((ξ − μ)/√(2μ)) over χ²_κ draws (4 SE)', () => {
    // seed 'chi'; 40 000 draws; SE from the sample standard deviation of the Q values
    for (const [sigma, xi, kappa, d] of [
      [0.3, 1, 10, 0.1],
      [0.05, 20, 3, 0.2],
      [2, 2, 50, 1],
    ] as const) {
      const chi = chiSquareSource(makeRng('chi'), kappa);
      const dEuc = euclideanFromAngular(d);
      const m = 40_000;
      let s = 0;
      let s2 = 0;
      for (let i = 0; i < m; i++) {
        const mu = (dEuc * dEuc * chi()) / (2 * sigma * sigma * kappa);
        const q = Q((xi - mu) / Math.sqrt(2 * mu));
        s += q;
        s2 += q * q;
      }
      const mean = s / m;
      const se = Math.sqrt((s2 / m - mean * mean) / m);
      const t = jlGaussianTail(sigma, xi, kappa, d);
      expect(t).toBeGreaterThan(1e-3); // a tail the Monte Carlo can see
      expect(Math.abs(mean - t), `σ ${sigma} ξ ${xi} κ ${kappa} d ${d}: MC ${mean} ± ${se}, tail ${t}`).toBeLessThanOrEqual(4 * se);
    }
  });

  it('rejects bad input', () => {
    expect(() => jlGaussianTail(0, 1, 10, 0.1)).toThrow(RangeError);
    expect(() => jlGaussianTail(Number.NaN, 1, 10, 0.1)).toThrow(RangeError);
    expect(() => jlGaussianTail(1, -1, 10, 0.1)).toThrow(UserError);
    expect(() => jlGaussianTail(1, 1, 0, 0.1)).toThrow(UserError);
    expect(() => jlGaussianTail(1, 1, 2.5, 0.1)).toThrow(UserError);
    expect(() => jlGaussianTail(1, 1, 10, 0)).toThrow(UserError);
    expect(() => jlGaussianTail(1, 1, 10, 1.2)).toThrow(UserError);
  });
});

/**
 * The privacy loss of the released vectors themselves, over fresh hyperplanes and fresh noise: per
 * sample R (κ × 8 normals), a fixed pair x, x' at angular distance d in R^8, the release y of x by
 * jlGaussianRelease, and L = (‖y − Wx'‖² − ‖y − Wx‖²)/(2σ²). Returns the share of L > ξ.
 * `swap` releases x' and measures the loss against x (the other direction).
 */
function lossTailByRelease(sigma: number, xi: number, kappa: number, d: number, samples: number, seed: string, swap = false): number {
  const n = 8;
  const theta = Math.PI * d;
  // x = e1, x' = cos θ e1 + sin θ e2, so their angle is π d
  const x = new Float64Array(n);
  const xp = new Float64Array(n);
  x[0] = 1;
  xp[0] = Math.cos(theta);
  xp[1] = Math.sin(theta);
  const [src, other] = swap ? [xp, x] : [x, xp];
  const rng = makeRng(seed);
  const planes = new Float64Array(kappa * n);
  const proj = new Float64Array(samples * kappa);
  const projOther = new Float64Array(samples * kappa);
  for (let s = 0; s < samples; s++) {
    fillNormal(rng, planes);
    for (let j = 0; j < kappa; j++) {
      let a = 0;
      let b = 0;
      for (let c = 0; c < n; c++) {
        a += planes[j * n + c]! * src[c]!;
        b += planes[j * n + c]! * other[c]!;
      }
      proj[s * kappa + j] = a;
      projOther[s * kappa + j] = b;
    }
  }
  // each sample is one "user" with its own hyperplanes
  const y = jlGaussianRelease(proj, null, samples, kappa, sigma, rng);
  const k = Math.sqrt(kappa);
  let over = 0;
  for (let s = 0; s < samples; s++) {
    let far = 0;
    let near = 0;
    for (let j = 0; j < kappa; j++) {
      const v = y[s * kappa + j]!;
      far += (v - projOther[s * kappa + j]! / k) ** 2;
      near += (v - proj[s * kappa + j]! / k) ** 2;
    }
    if ((far - near) / (2 * sigma * sigma) > xi) over++;
  }
  return over / samples;
}

describe('jlGaussianSigma', () => {
  it('the loss of released vectors over W and the noise exceeds ξ with probability δ at σ (4 binomial SE), both directions', () => {
    // 40 000 samples per check: SE √(δ(1−δ)/M) = 0.0011 at δ 0.05, 0.0005 at δ 0.01
    const m = 40_000;
    for (const [kappa, d, xi, delta] of [
      [10, 0.3, 2, 0.05],
      [3, 0.6, 1, 0.01],
    ] as const) {
      const sigma = jlGaussianSigma(xi, kappa, { d, delta });
      const se = Math.sqrt((delta * (1 - delta)) / m);
      for (const swap of [false, true]) {
        const p = lossTailByRelease(sigma, xi, kappa, d, m, `loss-${kappa}-${swap}`, swap);
        expect(Math.abs(p - delta), `κ ${kappa} swap ${swap}: ${p} vs δ ${delta} ± 4×${se}`).toBeLessThanOrEqual(4 * se);
      }
      // the test has power: at 0.8σ the tail is far above δ, and the simulation sees it
      const tight = jlGaussianTail(0.8 * sigma, xi, kappa, d);
      const seTight = Math.sqrt((tight * (1 - tight)) / m);
      expect(tight - delta).toBeGreaterThan(8 * (se + seTight));
      const p = lossTailByRelease(0.8 * sigma, xi, kappa, d, m, `tight-${kappa}`);
      expect(p - delta).toBeGreaterThan(4 * se);
      expect(Math.abs(p - tight)).toBeLessThanOrEqual(4 * seTight);
    }
  });

  it('is the smallest σ meeting the bound: tail(σ) ≤ δ < tail(σ(1 − 1e-6))', () => {
    for (const [kappa, d, xi, delta] of [
      [10, 0.1, 1, 0.01],
      [50, 0.1, 50, 1e-9],
      [1, 0.9, 0.5, 0.2],
    ] as const) {
      const sigma = jlGaussianSigma(xi, kappa, { d, delta });
      expect(jlGaussianTail(sigma, xi, kappa, d)).toBeLessThanOrEqual(delta);
      expect(jlGaussianTail(sigma * (1 - 1e-6), xi, kappa, d)).toBeGreaterThan(delta);
    }
  });

  it('decreases in ξ and in δ, increases in d, and is proportional to d_euc(d)', () => {
    const at = (xi: number, d: number, delta: number) => jlGaussianSigma(xi, 20, { d, delta });
    const byXi = [0.5, 1, 5, 20, 100].map((xi) => at(xi, 0.1, 0.01));
    for (let i = 1; i < byXi.length; i++) expect(byXi[i]).toBeLessThan(byXi[i - 1]!);
    const byDelta = [1e-9, 1e-4, 0.01, 0.2].map((delta) => at(5, 0.1, delta));
    for (let i = 1; i < byDelta.length; i++) expect(byDelta[i]).toBeLessThan(byDelta[i - 1]!);
    const ds = [0.01, 0.1, 0.5, 1];
    const byD = ds.map((d) => at(5, d, 0.01));
    for (let i = 1; i < byD.length; i++) expect(byD[i]).toBeGreaterThan(byD[i - 1]!);
    // the tail depends on σ/d_euc only: σ/d_euc is one number up to the bisection's 1e-9
    const unit = byD[0]! / euclideanFromAngular(ds[0]!);
    for (let i = 1; i < ds.length; i++) expect(rel(byD[i]! / euclideanFromAngular(ds[i]!), unit)).toBeLessThan(3e-9);
  });

  it('ξ = 0 gives Infinity; bad input is a UserError', () => {
    expect(jlGaussianSigma(0, 10, { d: 0.1, delta: 0.01 })).toBe(Infinity);
    expect(() => jlGaussianSigma(-1, 10, { d: 0.1, delta: 0.01 })).toThrow(UserError);
    expect(() => jlGaussianSigma(Number.POSITIVE_INFINITY, 10, { d: 0.1, delta: 0.01 })).toThrow(UserError);
    expect(() => jlGaussianSigma(1, 0, { d: 0.1, delta: 0.01 })).toThrow(UserError);
    expect(() => jlGaussianSigma(1, 10, { d: 0, delta: 0.01 })).toThrow(UserError);
    expect(() => jlGaussianSigma(1, 10, { d: 0.1, delta: 0 })).toThrow(UserError);
    expect(() => jlGaussianSigma(1, 10, { d: 0.1, delta: 1 })).toThrow(UserError);
    expect(jlGaussianSigma(1, 10, { d: 1, delta: 0.01 })).toBeGreaterThan(0); // d = 1 is allowed
  });
});

describe('gaussianSigmaForSensitivity (every-w, ldp)', () => {
  it('at σ, Q((ξ − μ)/√(2μ)) with μ = Δ²/(2σ²) equals δ to 1e-9 relative', () => {
    for (const sens of [0.05, 0.3, 2]) {
      for (const xi of [0.01, 1, 20, 1000]) {
        for (const delta of [1e-12, 1e-5, 0.01, 0.3, 0.7]) {
          const sigma = gaussianSigmaForSensitivity(sens, xi, delta);
          const mu = (sens * sens) / (2 * sigma * sigma);
          expect(rel(Q((xi - mu) / Math.sqrt(2 * mu)), delta), `Δ ${sens} ξ ${xi} δ ${delta}`).toBeLessThan(1e-9);
          // and the inverse gives ξ back
          expect(rel(gaussianXiForSensitivity(sens, sigma, delta), xi)).toBeLessThan(1e-9);
        }
      }
    }
    expect(gaussianSigmaForSensitivity(1, 0, 0.01)).toBe(Infinity);
    expect(gaussianXiForSensitivity(1, Infinity, 0.01)).toBe(0);
    expect(() => gaussianSigmaForSensitivity(0, 1, 0.01)).toThrow(RangeError);
    expect(() => gaussianSigmaForSensitivity(1, 1, 0)).toThrow(UserError);
  });
});

describe('spectralNorm', () => {
  it("equals the largest singular value of R/√κ from ml-matrix's SVD (κ < n, κ > n, κ = n)", () => {
    const rng = makeRng('spectral');
    for (const [kappa, n] of [
      [10, 30],
      [40, 7],
      [12, 12],
      [1, 5],
    ] as const) {
      const planes = new Float64Array(kappa * n);
      fillNormal(rng, planes);
      const w = new Matrix(kappa, n);
      for (let j = 0; j < kappa; j++) for (let c = 0; c < n; c++) w.set(j, c, planes[j * n + c]! / Math.sqrt(kappa));
      const svd = new SVD(w, { autoTranspose: true });
      expect(rel(spectralNorm(planes, kappa, n), Math.max(...svd.diagonal)), `${kappa} x ${n}`).toBeLessThan(1e-10);
    }
  });

  it('of a known matrix: R = diag(3, −5, 1) padded with a zero column is 5/√3', () => {
    const planes = Float64Array.from([3, 0, 0, 0, 0, -5, 0, 0, 0, 0, 1, 0]);
    expect(rel(spectralNorm(planes, 3, 4), 5 / Math.sqrt(3))).toBeLessThan(1e-14);
    expect(() => spectralNorm(planes, 3, 5)).toThrow(RangeError);
  });
});

describe('the LDP equivalent and the account', () => {
  it('jlGaussianLdpEpsilon is the smallest ξ with the d = 1 tail ≤ δ, at least ξ', () => {
    const kappa = 20;
    const delta = 0.01;
    for (const xi of [1, 5, 20]) {
      const sigma = jlGaussianSigma(xi, kappa, { d: 0.1, delta });
      const eps = jlGaussianLdpEpsilon(sigma, kappa, delta);
      expect(eps).toBeGreaterThan(xi);
      expect(jlGaussianTail(sigma, eps, kappa, 1)).toBeLessThanOrEqual(delta);
      expect(jlGaussianTail(sigma, eps * (1 - 1e-6), kappa, 1)).toBeGreaterThan(delta);
    }
    expect(jlGaussianLdpEpsilon(Infinity, kappa, delta)).toBe(0);
  });

  it('jlGaussianAccount: expected, every-w and ldp', () => {
    const privacy = { d: 0.1, delta: 0.01 };
    const expected = jlGaussianAccount('expected', 5, 20, privacy);
    expect(expected.sigma).toBe(jlGaussianSigma(5, 20, privacy));
    expect(expected.sensitivity).toBeNull();
    const sigmaMax = 1.7;
    const everyW = jlGaussianAccount('every-w', 5, 20, privacy, sigmaMax);
    expect(everyW.sensitivity).toBeCloseTo(sigmaMax * euclideanFromAngular(0.1), 14);
    expect(everyW.sigma).toBe(gaussianSigmaForSensitivity(everyW.sensitivity!, 5, 0.01));
    // its LDP equivalent does not depend on W: the same at another σ_max
    expect(rel(jlGaussianAccount('every-w', 5, 20, privacy, 0.9).ldpEpsilon, everyW.ldpEpsilon)).toBeLessThan(1e-12);
    const ldp = jlGaussianAccount('ldp', 5, 20, privacy, sigmaMax);
    expect(ldp.ldpEpsilon).toBe(5);
    expect(ldp.sigma).toBe(gaussianSigmaForSensitivity(2 * sigmaMax, 5, 0.01));
    // the guarantees for every W cost more noise than the one over W (σ_max ≥ 1 here)
    expect(everyW.sigma).toBeGreaterThan(expected.sigma);
    expect(ldp.sigma).toBeGreaterThan(everyW.sigma);
    expect(jlGaussianAccount('every-w', 0, 20, privacy, sigmaMax)).toEqual({ sigma: Infinity, ldpEpsilon: 0, sensitivity: sigmaMax * euclideanFromAngular(0.1) });
    expect(() => jlGaussianAccount('every-w', 5, 20, privacy)).toThrow(RangeError);
  });
});
