import { describe, expect, it } from 'vitest';
import { makeRng, type Rng } from '../../src/random/rng.js';
import { laplaceNoisyValues, laplaceSource } from '../../src/random/laplace.js';

/** Standard errors a Monte Carlo estimate may stray at a fixed seed (two-sided ≈ 6e-5 per check). */
const Z = 4;
const within = (observed: number, expected: number, se: number, tag: string) => expect(Math.abs(observed - expected), `${tag}: ${observed} vs ${expected} ± ${Z}×${se}`).toBeLessThanOrEqual(Z * se);

/** The standard Laplace CDF. */
const cdf = (t: number) => (t < 0 ? Math.exp(t) / 2 : 1 - Math.exp(-t) / 2);

describe('standard Laplace (laplaceSource)', () => {
  it('mean 0, variance 2, E[L^4] = 24, median 0, CDF at five points (400k draws)', () => {
    const N = 400_000;
    const draw = laplaceSource(makeRng('laplace-unit'));
    let s1 = 0;
    let s2 = 0;
    let s4 = 0;
    const points = [-3, -1, 0, 0.5, 2];
    const below = new Array(points.length).fill(0);
    for (let i = 0; i < N; i++) {
      const x = draw();
      s1 += x;
      s2 += x * x;
      s4 += x ** 4;
      points.forEach((t, k) => {
        if (x <= t) below[k]++;
      });
    }
    // E|L|^n = n!: Var L = 2, Var L² = 24 − 4, Var L⁴ = 8! − 24²
    within(s1 / N, 0, Math.sqrt(2 / N), 'mean');
    within(s2 / N, 2, Math.sqrt(20 / N), 'variance');
    within(s4 / N, 24, Math.sqrt((40320 - 576) / N), 'fourth moment');
    for (const [k, t] of points.entries()) within(below[k] / N, cdf(t), Math.sqrt((cdf(t) * (1 - cdf(t))) / N), `CDF at ${t}`);
  });
});

describe('noisy MinHash values (laplaceNoisyValues)', () => {
  const N = 200_000;
  for (const eps of [0.5, 2]) {
    it(`eps = ${eps}: each of 0 and 1 gets Laplace(1/eps): mean, variance 2/eps², median, and the two laws mirror`, () => {
      const rng = makeRng(`noisy-${eps}`);
      const s = 1 / eps;
      const beyondHalf: number[] = [];
      for (const v of [0, 1]) {
        const out = laplaceNoisyValues(new Uint8Array(N).fill(v), eps, rng);
        let s1 = 0;
        let s2 = 0;
        let under = 0;
        let towardOther = 0;
        for (const x of out) {
          s1 += x;
          s2 += (x - v) ** 2;
          if (x < v) under++;
          // past the midpoint 1/2 toward the other value
          if (v === 0 ? x > 0.5 : x < 0.5) towardOther++;
        }
        const tag = `eps=${eps} v=${v}`;
        within(s1 / N, v, Math.sqrt((2 * s * s) / N), `${tag} mean`);
        within(s2 / N, 2 * s * s, Math.sqrt((20 * s ** 4) / N), `${tag} variance`);
        within(under / N, 0.5, Math.sqrt(0.25 / N), `${tag} median`);
        // Pr[X beyond 1/2 toward the other input] = e^(−eps/2)/2 from either side (0→1 and 1→0)
        const want = Math.exp(-eps / 2) / 2;
        within(towardOther / N, want, Math.sqrt((want * (1 - want)) / N), `${tag} crossing`);
        beyondHalf.push(towardOther);
      }
      // the two directions agree with each other (two-sample, SE of a difference of proportions)
      const pool = (beyondHalf[0]! + beyondHalf[1]!) / (2 * N);
      within(beyondHalf[0]! / N - beyondHalf[1]! / N, 0, Math.sqrt((2 * pool * (1 - pool)) / N), `eps=${eps} 0→1 vs 1→0`);
    });
  }

  it('eps = Infinity adds nothing (no draw); eps = 0 releases the unit noise alone; the same draws at every eps', () => {
    const values = Uint8Array.of(0, 1, 1, 0, 1);
    const none: Rng = () => {
      throw new Error('no draw expected');
    };
    expect([...laplaceNoisyValues(values, Infinity, none)]).toEqual([0, 1, 1, 0, 1]);
    const zeros = new Uint8Array(1000);
    const atZero = laplaceNoisyValues(zeros, 0, makeRng('same-draws'));
    const atOne = laplaceNoisyValues(zeros, 1, makeRng('same-draws'));
    const atFour = laplaceNoisyValues(zeros, 4, makeRng('same-draws'));
    expect(atOne).toEqual(atZero); // 0 + L/1 = L
    for (let i = 0; i < zeros.length; i++) expect(atFour[i]).toBe(atZero[i]! / 4);
    // eps = 0 ignores the input: ones give the same release as zeros
    expect(laplaceNoisyValues(new Uint8Array(1000).fill(1), 0, makeRng('same-draws'))).toEqual(atZero);
    expect(() => laplaceNoisyValues(Uint8Array.of(2), 1, makeRng('x'))).toThrow(RangeError);
    expect(() => laplaceNoisyValues(values, -1, makeRng('x'))).toThrow(RangeError);
  });
});
