import { describe, expect, it } from 'vitest';
import { makeRng } from '../../src/random/rng.js';
import { fillNormal } from '../../src/random/samplers.js';
import { fillZigguratNormals, zigguratState } from '../../src/random/ziggurat.js';
import { jlGaussianRelease } from '../../src/random/jlGaussian.js';
import { within } from '../helpers/distributions.js';

describe('jlGaussianRelease', () => {
  it('each coordinate has mean W x (positive and negative signals) and variance σ² (5 SE)', () => {
    // every user the same row: R x = p, ‖x‖ = 2, so the signal is p/(2√κ); 40 000 users, seed 'moments'
    const kappa = 4;
    const users = 40_000;
    const p = [3, -2.5, 0.5, -0.1];
    const sigma = 0.7;
    const proj = new Float64Array(users * kappa);
    for (let i = 0; i < users; i++) for (let j = 0; j < kappa; j++) proj[i * kappa + j] = p[j]!;
    const norms = new Float64Array(users).fill(2);
    const y = jlGaussianRelease(proj, norms, users, kappa, sigma, makeRng('moments'));
    for (let j = 0; j < kappa; j++) {
      let s = 0;
      let s2 = 0;
      for (let i = 0; i < users; i++) s += y[i * kappa + j]!;
      const mean = s / users;
      for (let i = 0; i < users; i++) s2 += (y[i * kappa + j]! - mean) ** 2;
      const variance = s2 / (users - 1);
      const signal = p[j]! / (2 * Math.sqrt(kappa));
      within(mean, signal, sigma / Math.sqrt(users), `mean of coordinate ${j}`);
      // Var of the sample variance of normals: 2σ⁴/(N − 1)
      within(variance, sigma * sigma, sigma * sigma * Math.sqrt(2 / (users - 1)), `variance of coordinate ${j}`);
    }
  });

  it('draws its normals in row-major order from one ziggurat state: noise = the fill of zigguratState(rng)', () => {
    const users = 7;
    const kappa = 5;
    const y = jlGaussianRelease(new Float64Array(users * kappa), null, users, kappa, 1, makeRng('order'));
    const z = new Float64Array(users * kappa);
    fillZigguratNormals(zigguratState(makeRng('order')), z);
    expect(y).toEqual(z);
  });

  it('is a function of the seed: the same seed gives the same doubles, another seed others', () => {
    const rng = makeRng('data');
    const proj = new Float64Array(30 * 6);
    fillNormal(rng, proj);
    const a = jlGaussianRelease(proj, null, 30, 6, 0.4, makeRng('s1'));
    const b = jlGaussianRelease(proj, null, 30, 6, 0.4, makeRng('s1'));
    const c = jlGaussianRelease(proj, null, 30, 6, 0.4, makeRng('s2'));
    expect(b).toEqual(a);
    expect(c).not.toEqual(a);
  });

  it('scales each row to a unit vector: W x/‖x‖, invariant to the row scale; null norms are unit rows', () => {
    const kappa = 3;
    const n = 5;
    const users = 4;
    const rng = makeRng('unit');
    const planes = new Float64Array(kappa * n);
    const xs = new Float64Array(users * n);
    fillNormal(rng, planes);
    fillNormal(rng, xs);
    const proj = new Float64Array(users * kappa);
    const norms = new Float64Array(users);
    for (let i = 0; i < users; i++) {
      let s = 0;
      for (let c = 0; c < n; c++) s += xs[i * n + c]! ** 2;
      norms[i] = Math.sqrt(s);
      for (let j = 0; j < kappa; j++) {
        let v = 0;
        for (let c = 0; c < n; c++) v += planes[j * n + c]! * xs[i * n + c]!;
        proj[i * kappa + j] = v;
      }
    }
    // σ = 0: the signal alone, equal to (R/√κ)(x/‖x‖) computed directly
    const clean = jlGaussianRelease(proj, norms, users, kappa, 0, makeRng('u'));
    for (let i = 0; i < users; i++) {
      for (let j = 0; j < kappa; j++) {
        let v = 0;
        for (let c = 0; c < n; c++) v += (planes[j * n + c]! / Math.sqrt(kappa)) * (xs[i * n + c]! / norms[i]!);
        expect(clean[i * kappa + j]).toBeCloseTo(v, 12);
      }
    }
    // the same rows at 10× their scale, and the unit rows with null norms, release the same
    const scaled = jlGaussianRelease(
      proj.map((v) => 10 * v),
      norms.map((v) => 10 * v),
      users,
      kappa,
      0.3,
      makeRng('u'),
    );
    const atScale = jlGaussianRelease(proj, norms, users, kappa, 0.3, makeRng('u'));
    for (let k = 0; k < scaled.length; k++) expect(scaled[k]).toBeCloseTo(atScale[k]!, 12);
    const unitProj = proj.map((v, k) => v / norms[Math.floor(k / kappa)]!);
    const unit = jlGaussianRelease(unitProj, null, users, kappa, 0.3, makeRng('u'));
    for (let k = 0; k < unit.length; k++) expect(unit[k]).toBeCloseTo(atScale[k]!, 12);
  });

  it('σ = ∞ releases the noise alone at σ = 1 and consumes the rng as a finite σ does; a zero row is noise', () => {
    const proj = Float64Array.from([5, -3, 2, 1, 0, 0]);
    const rngA = makeRng('inf');
    const inf = jlGaussianRelease(proj, null, 3, 2, Infinity, rngA);
    const rngB = makeRng('inf');
    const noise = jlGaussianRelease(new Float64Array(6), null, 3, 2, 1, rngB);
    expect(inf).toEqual(noise);
    expect(rngA()).toBe(rngB());
    // row 2 has norm 0: its signal is 0, its release the noise at σ
    const y = jlGaussianRelease(proj, Float64Array.from([1, 1, 0]), 3, 2, 0.5, makeRng('inf'));
    expect(y[4]).toBe(0.5 * noise[4]!);
    expect(y[5]).toBe(0.5 * noise[5]!);
  });

  it('rejects inconsistent sizes and bad σ or norms', () => {
    const rng = makeRng('bad');
    expect(() => jlGaussianRelease(new Float64Array(5), null, 2, 3, 1, rng)).toThrow(RangeError);
    expect(() => jlGaussianRelease(new Float64Array(6), new Float64Array(3), 2, 3, 1, rng)).toThrow(RangeError);
    expect(() => jlGaussianRelease(new Float64Array(6), null, 2, 3, -1, rng)).toThrow(RangeError);
    expect(() => jlGaussianRelease(new Float64Array(6), null, 2, 3, Number.NaN, rng)).toThrow(RangeError);
    expect(() => jlGaussianRelease(new Float64Array(6), Float64Array.from([1, -1]), 2, 3, 1, rng)).toThrow(RangeError);
    expect(() => jlGaussianRelease(new Float64Array(6), null, 2, 0, 1, rng)).toThrow(RangeError);
  });
});
