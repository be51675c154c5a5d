import { describe, expect, it } from 'vitest';
import { makeRng } from '../../src/random/rng.js';
import erfc from '@stdlib/math-base-special-erfc';
import { ZIGGURAT_LAYERS, ZIGGURAT_R, ZIGGURAT_TABLE, fillZigguratNormals, normalTail, xoshiro128pp, xoshiroUniform, zigguratState } from '../../src/random/ziggurat.js';
import { ks } from '../helpers/distributions.js';

/** |observed − expected| within Z standard errors (a false alarm has probability ~1e-6). */
const Z = 5;
const within = (observed: number, expected: number, se: number, what = '') =>
  expect(Math.abs(observed - expected), `${what} observed ${observed}, expected ${expected} ± ${Z}×${se}`).toBeLessThanOrEqual(Z * se);

/** Φ and the upper tail 1 − Φ, exact to double precision through stdlib's erfc. */
const phi = (x: number) => 0.5 * erfc(-x / Math.SQRT2);
const upperTail = (x: number) => 0.5 * erfc(x / Math.SQRT2);

/** Kolmogorov–Smirnov critical value at level 1e-3. */
const ksCritical = (n: number) => Math.sqrt(-Math.log(5e-4) / 2) / Math.sqrt(n);

const N = 1_000_000;
const sample = (() => {
  const x = new Float64Array(N);
  fillZigguratNormals(zigguratState(makeRng('ziggurat')), x);
  return x;
})();

describe('xoshiro128++', () => {
  it("matches the reference C implementation's outputs (Blackman & Vigna)", () => {
    // printed by the reference xoshiro128plusplus.c (compiled with gcc) from these states
    const s = Int32Array.from([1, 2, 3, 4]);
    expect(Array.from({ length: 8 }, () => xoshiro128pp(s) >>> 0)).toEqual([641, 1573767, 3222811527, 3517856514, 836907274, 4247214768, 3867114732, 1355841295]);
    const t = Int32Array.from([0x9e3779b9, 0x243f6a88, 0xb7e15162, 0xdeadbeef]);
    for (let i = 0; i < 1000; i++) xoshiro128pp(t);
    expect(Array.from({ length: 4 }, () => xoshiro128pp(t) >>> 0)).toEqual([3989672671, 600906550, 161234376, 1022195247]);
  });

  it('uniforms: mean 1/2, variance 1/12, uniform by KS, 53 bits of resolution', () => {
    const s = zigguratState(makeRng('uniform'));
    const n = 200_000;
    const u = new Float64Array(n);
    let fine = 0;
    for (let i = 0; i < n; i++) {
      u[i] = xoshiroUniform(s);
      // a double built from 53 bits has bits below 2^-32 about half the time
      if ((u[i]! * 2 ** 32) % 1 !== 0) fine++;
    }
    let m = 0;
    for (const v of u) m += v;
    m /= n;
    let v2 = 0;
    for (const v of u) v2 += (v - m) ** 2;
    within(m, 0.5, Math.sqrt(1 / 12 / n), 'mean');
    within(v2 / (n - 1), 1 / 12, Math.sqrt(1 / 180 / n), 'variance'); // Var((U − 1/2)²) = 1/80 − 1/144
    expect(ks(u.subarray(0, 50_000), (x) => Math.min(1, Math.max(0, x)))).toBeLessThan(ksCritical(50_000));
    expect(fine / n).toBeGreaterThan(0.99);
    expect(u.reduce((a, b) => Math.min(a, b))).toBeGreaterThanOrEqual(0);
    expect(u.reduce((a, b) => Math.max(a, b))).toBeLessThan(1);
  });

  it('seeds from a seeded source: the same seed gives the same stream, another seed another', () => {
    const a = zigguratState(makeRng('s'));
    expect(Array.from(zigguratState(makeRng('s')))).toEqual(Array.from(a));
    expect(Array.from(zigguratState(makeRng('t')))).not.toEqual(Array.from(a));
  });
});

describe('ziggurat normals', () => {
  it('the table: X decreasing from the base strip to 0, X[1] = R, every layer of area V', () => {
    const X = ZIGGURAT_TABLE;
    expect(X[1]).toBe(ZIGGURAT_R);
    expect(X[ZIGGURAT_LAYERS]).toBe(0);
    for (let i = 1; i < ZIGGURAT_LAYERS; i++) expect(X[i + 1]!).toBeLessThan(X[i]!);
    // layer i ≥ 1 is the box [0, X[i]] × [f(X[i]), f(X[i+1])]: the same area as the base strip,
    // R·f(R) + the tail's area ∫_R^∞ f = √(2π)(1 − Φ(R))
    const f = (x: number) => Math.exp(-0.5 * x * x);
    const v = ZIGGURAT_R * f(ZIGGURAT_R) + Math.sqrt(2 * Math.PI) * upperTail(ZIGGURAT_R);
    for (let i = 1; i < ZIGGURAT_LAYERS - 1; i++) expect(Math.abs(X[i]! * (f(X[i + 1]!) - f(X[i]!)) - v) / v, `layer ${i}`).toBeLessThan(1e-3);
    expect(Math.abs(X[0]! * f(ZIGGURAT_R) - v) / v).toBeLessThan(1e-3);
  });

  it('the tail sampler: X given X > R by KS against its exact law (200,000 draws)', () => {
    const s = zigguratState(makeRng('tail'));
    const t = new Float64Array(200_000);
    for (let i = 0; i < t.length; i++) t[i] = normalTail(s);
    const q = upperTail(ZIGGURAT_R);
    expect(ks(t, (x) => (x <= ZIGGURAT_R ? 0 : 1 - upperTail(x) / q))).toBeLessThan(ksCritical(t.length));
    // its mean: E[X | X > R] = φ(R) / (1 − Φ(R)), the variance of e ≈ 1/R² sets the error
    let m = 0;
    for (const x of t) m += x;
    within(m / t.length, Math.exp(-(ZIGGURAT_R ** 2) / 2) / Math.sqrt(2 * Math.PI) / q, 1 / ZIGGURAT_R / Math.sqrt(t.length), 'E[X | X > R]');
  });

  it('mean 0, variance 1, third moment 0, fourth moment 3', () => {
    let m1 = 0;
    let m2 = 0;
    let m3 = 0;
    let m4 = 0;
    for (const x of sample) {
      const x2 = x * x;
      m1 += x;
      m2 += x2;
      m3 += x2 * x;
      m4 += x2 * x2;
    }
    within(m1 / N, 0, Math.sqrt(1 / N), 'mean');
    within(m2 / N, 1, Math.sqrt(2 / N), 'E X²'); // Var(X²) = 3 − 1
    within(m3 / N, 0, Math.sqrt(15 / N), 'E X³'); // Var(X³) = 15
    within(m4 / N, 3, Math.sqrt(96 / N), 'E X⁴'); // Var(X⁴) = 105 − 9
  });

  it('Kolmogorov–Smirnov against Φ (200,000 draws)', () => {
    const x = sample.subarray(0, 200_000);
    expect(ks(x, phi)).toBeLessThan(ksCritical(x.length));
  });

  it('both tails beyond R (the tail sampler), beyond 4, and the wedges between layers, at their exact rates', () => {
    const count = (pred: (x: number) => boolean) => {
      let c = 0;
      for (const x of sample) if (pred(x)) c++;
      return c;
    };
    const binom = (c: number, p: number, what: string) => within(c / N, p, Math.sqrt((p * (1 - p)) / N), what);
    for (const t of [ZIGGURAT_R, 4]) {
      binom(
        count((x) => x > t),
        upperTail(t),
        `P(X > ${t})`,
      );
      binom(
        count((x) => x < -t),
        upperTail(t),
        `P(X < −${t})`,
      );
    }
    // far in the tail: beyond 5 (rate 2.9e-7) at most a handful, and the sampler reaches past R + 1
    expect(count((x) => Math.abs(x) > 5)).toBeLessThan(10);
    expect(sample.reduce((a, b) => Math.max(a, b))).toBeGreaterThan(ZIGGURAT_R + 0.5);
    // inside the wedge of layer 60 (between its edge and the next one's): the law, not the boxes
    const [lo, hi] = [ZIGGURAT_TABLE[61]!, ZIGGURAT_TABLE[60]!];
    binom(
      count((x) => x > lo && x <= hi),
      phi(hi) - phi(lo),
      `P(${lo} < X ≤ ${hi})`,
    );
    // signs: half each way
    binom(
      count((x) => x > 0),
      0.5,
      'P(X > 0)',
    );
  });
});
