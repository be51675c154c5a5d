import { describe, expect, it } from 'vitest';
import { makeRng } from '../../src/random/rng.js';
import { bernoulliSource, chiSquareSource, fillNormal, gammaSource, normalSource, sampleWithoutReplacement, sphereSample } from '../../src/random/samplers.js';

/** |observed - expected| must be within Z standard errors (a false alarm has probability ~1e-6). */
const Z = 5;
const within = (observed: number, expected: number, se: number) => expect(Math.abs(observed - expected), `observed ${observed}, expected ${expected} ± ${Z}×${se}`).toBeLessThanOrEqual(Z * se);

function draw(n: number, f: () => number): Float64Array {
  const x = new Float64Array(n);
  for (let i = 0; i < n; i++) x[i] = f();
  return x;
}
function moments(x: Float64Array): { mean: number; variance: number } {
  let s = 0;
  for (const v of x) s += v;
  const mean = s / x.length;
  let ss = 0;
  for (const v of x) ss += (v - mean) ** 2;
  return { mean, variance: ss / (x.length - 1) };
}

/** erf by Abramowitz & Stegun 7.1.26 (|error| < 1.5e-7, far below the KS thresholds used). */
function erf(x: number): number {
  const t = 1 / (1 + 0.3275911 * Math.abs(x));
  const y = 1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * Math.exp(-x * x);
  return x >= 0 ? y : -y;
}
const normalCdf = (x: number) => 0.5 * (1 + erf(x / Math.SQRT2));
/** Gamma(k, 1) CDF for integer k: 1 - e^-x Σ_{i<k} x^i / i!. */
function gammaIntCdf(k: number, x: number): number {
  let term = 1;
  let sum = 1;
  for (let i = 1; i < k; i++) {
    term *= x / i;
    sum += term;
  }
  return 1 - Math.exp(-x) * sum;
}

/** Kolmogorov–Smirnov statistic against a continuous CDF; critical value at level 1e-3 is
 *  sqrt(-ln(5e-4)/2)/sqrt(N) ≈ 1.95/sqrt(N). */
function ksStatistic(x: Float64Array, cdf: (v: number) => number): number {
  const s = Float64Array.from(x).sort();
  const n = s.length;
  let d = 0;
  for (let i = 0; i < n; i++) {
    const f = cdf(s[i]!);
    d = Math.max(d, f - i / n, (i + 1) / n - f);
  }
  return d;
}
const ksCritical = (n: number) => Math.sqrt(-Math.log(5e-4) / 2) / Math.sqrt(n);

describe('normal', () => {
  const N = 200_000;
  for (const [name, sample] of [
    ['normalSource', () => draw(N, normalSource(makeRng('normal')))],
    [
      'fillNormal',
      () => {
        const x = new Float64Array(N);
        fillNormal(makeRng('fill'), x);
        return x;
      },
    ],
  ] as const) {
    it(`${name}: mean 0, variance 1, 4th moment 3`, () => {
      const x = sample();
      const { mean, variance } = moments(x);
      within(mean, 0, 1 / Math.sqrt(N));
      within(variance, 1, Math.sqrt(2 / N)); // Var(X²) = 3 - 1
      let m4 = 0;
      for (const v of x) m4 += v ** 4;
      within(m4 / N, 3, Math.sqrt(96 / N)); // Var(X⁴) = 105 - 9
    });
    it(`${name}: Kolmogorov–Smirnov against Φ`, () => {
      const x = sample().subarray(0, 20_000);
      expect(ksStatistic(x, normalCdf)).toBeLessThan(ksCritical(x.length));
    });
  }
  it('fillNormal fills odd lengths completely', () => {
    const x = new Float64Array(7).fill(NaN);
    fillNormal(makeRng('odd'), x);
    for (const v of x) expect(Number.isFinite(v)).toBe(true);
  });
});

describe('gamma', () => {
  const N = 100_000;
  for (const shape of [0.5, 1, 3, 100, 1000]) {
    it(`shape ${shape}, scale 0.7: mean shape·scale, variance shape·scale²`, () => {
      const scale = 0.7;
      const x = draw(N, gammaSource(makeRng(`gamma-${shape}`), shape, scale));
      expect(x.every((v) => v >= 0)).toBe(true);
      const { mean, variance } = moments(x);
      const sd = Math.sqrt(shape) * scale;
      within(mean, shape * scale, sd / Math.sqrt(N));
      // SE of a sample variance: sqrt((μ4 - σ⁴)/N), gamma kurtosis 3 + 6/shape
      within(variance, shape * scale * scale, sd * sd * Math.sqrt((2 + 6 / shape) / N));
    });
  }
  it('Laplace radius Gamma(n, 1/eps): mean n/eps, variance n/eps² (n = 1000, eps = 2.5)', () => {
    const n = 1000;
    const eps = 2.5;
    const x = draw(N, gammaSource(makeRng('radius'), n, 1 / eps));
    const { mean, variance } = moments(x);
    within(mean, n / eps, Math.sqrt(n) / eps / Math.sqrt(N));
    within(variance, n / eps ** 2, (n / eps ** 2) * Math.sqrt((2 + 6 / n) / N));
  });
  it('Kolmogorov–Smirnov: shapes 1 and 3 (closed-form CDF) and 0.5 (= Z²/2)', () => {
    for (const k of [1, 3]) {
      const x = draw(20_000, gammaSource(makeRng(`ks-${k}`), k));
      expect(ksStatistic(x, (v) => gammaIntCdf(k, v))).toBeLessThan(ksCritical(x.length));
    }
    // Gamma(1/2, 1) = Z²/2, so P(X ≤ x) = P(|Z| ≤ sqrt(2x)) = erf(sqrt(x))
    const x = draw(20_000, gammaSource(makeRng('ks-half'), 0.5));
    expect(ksStatistic(x, (v) => erf(Math.sqrt(v)))).toBeLessThan(ksCritical(x.length));
  });
  it('rejects invalid parameters', () => {
    expect(() => gammaSource(makeRng('x'), 0)).toThrow(RangeError);
    expect(() => gammaSource(makeRng('x'), 2, Infinity)).toThrow(RangeError);
  });
});

describe('chi-square', () => {
  it('mean df, variance 2 df; df = 0 is always 0', () => {
    const N = 100_000;
    for (const df of [1, 5, 40]) {
      const { mean, variance } = moments(draw(N, chiSquareSource(makeRng(`chi-${df}`), df)));
      within(mean, df, Math.sqrt((2 * df) / N));
      // μ4 - σ⁴ for chi-square: σ⁴ (2 + 12/df)
      within(variance, 2 * df, 2 * df * Math.sqrt((2 + 12 / df) / N));
    }
    const zero = chiSquareSource(makeRng('chi-0'), 0);
    for (let i = 0; i < 10; i++) expect(zero()).toBe(0);
  });
});

describe('sphereSample', () => {
  for (const n of [3, 50]) {
    it(`n = ${n}: unit norm, E[u_i] = 0, E[u_i²] = 1/n`, () => {
      const N = 40_000;
      const rng = makeRng(`sphere-${n}`);
      const sum = new Float64Array(n);
      const sumSq = new Float64Array(n);
      const u = new Float64Array(n);
      for (let t = 0; t < N; t++) {
        if (sphereSample(rng, n, u) !== u) throw new Error('sphereSample must fill and return out');
        let norm = 0;
        for (let i = 0; i < n; i++) {
          norm += u[i]! ** 2;
          sum[i]! += u[i]!;
          sumSq[i]! += u[i]! ** 2;
        }
        if (Math.abs(norm - 1) > 1e-12) throw new Error(`norm² ${norm}`);
      }
      // Var(u_i) = 1/n; Var(u_i²) = E u_i⁴ - 1/n² = 3/(n(n+2)) - 1/n²
      const seSq = Math.sqrt((3 / (n * (n + 2)) - 1 / n ** 2) / N);
      for (let i = 0; i < n; i++) {
        within(sum[i]! / N, 0, Math.sqrt(1 / n / N));
        within(sumSq[i]! / N, 1 / n, seSq);
      }
    });
  }
  it('n = 1 gives ±1 with equal frequency; allocates when no out is given', () => {
    const rng = makeRng('sphere-1');
    let plus = 0;
    const N = 10_000;
    for (let t = 0; t < N; t++) {
      const u = sphereSample(rng, 1);
      if (Math.abs(Math.abs(u[0]!) - 1) > 1e-15) throw new Error(`|u| = ${u[0]}`);
      if (u[0]! > 0) plus++;
    }
    within(plus / N, 0.5, Math.sqrt(0.25 / N));
  });
});

describe('bernoulliSource', () => {
  it('rate p, and the degenerate p = 0 and p = 1', () => {
    const N = 100_000;
    for (const p of [0.27, 0.5, 0.9]) {
      const x = draw(N, bernoulliSource(makeRng(`bern-${p}`), p));
      for (const v of x) if (v !== 0 && v !== 1) throw new Error(`value ${v}`);
      within(moments(x).mean, p, Math.sqrt((p * (1 - p)) / N));
    }
    expect(draw(1000, bernoulliSource(makeRng('b0'), 0)).every((v) => v === 0)).toBe(true);
    expect(draw(1000, bernoulliSource(makeRng('b1'), 1)).every((v) => v === 1)).toBe(true);
    expect(() => bernoulliSource(makeRng('b'), 1.5)).toThrow(RangeError);
  });
});

describe('sampleWithoutReplacement', () => {
  it('is uniform over all subsets (chi-square over the 120 3-subsets of 10)', () => {
    const rng = makeRng('swor');
    const N = 30_000;
    const counts = new Map<string, number>();
    const inclusion = new Float64Array(10);
    for (let t = 0; t < N; t++) {
      const s = sampleWithoutReplacement(rng, 10, 3);
      expect(s[0]! < s[1]! && s[1]! < s[2]!).toBe(true);
      for (const i of s) inclusion[i]!++;
      const key = s.join(',');
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    expect(counts.size).toBe(120);
    const expected = N / 120;
    let chi2 = 0;
    for (const c of counts.values()) chi2 += (c - expected) ** 2 / expected;
    const df = 119;
    expect(chi2).toBeLessThan(df + Z * Math.sqrt(2 * df));
    for (const c of inclusion) within(c / N, 0.3, Math.sqrt((0.3 * 0.7) / N));
  });
  it('returns everyone for count 0 or count ≥ population, sorted, without drawing', () => {
    let calls = 0;
    const rng = () => {
      calls++;
      return 0.5;
    };
    expect(Array.from(sampleWithoutReplacement(rng, 5, 0))).toEqual([0, 1, 2, 3, 4]);
    expect(Array.from(sampleWithoutReplacement(rng, 5, 9))).toEqual([0, 1, 2, 3, 4]);
    expect(sampleWithoutReplacement(rng, 0, 3)).toHaveLength(0);
    expect(calls).toBe(0);
    const big = sampleWithoutReplacement(makeRng('big'), 100_000, 1000);
    expect(new Set(big).size).toBe(1000);
    for (let i = 1; i < big.length; i++) expect(big[i]!).toBeGreaterThan(big[i - 1]!);
  });
});

describe('determinism', () => {
  it('the same seed gives the same stream; another seed a different one', () => {
    const a = () => {
      const rng = makeRng('det');
      const n = normalSource(rng);
      const g = gammaSource(rng, 0.4, 3);
      const out = [n(), n(), n(), g(), g(), ...sphereSample(rng, 4), ...sampleWithoutReplacement(rng, 50, 5)];
      const f = new Float64Array(5);
      fillNormal(rng, f);
      return [...out, ...f];
    };
    expect(a()).toEqual(a());
    const other = normalSource(makeRng('det2'))();
    expect(other).not.toBe(normalSource(makeRng('det'))());
  });
});
