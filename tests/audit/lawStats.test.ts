/**
 * The release-law statistics (src/audit/lawStats.ts) against closed forms, brute force and seeded
 * simulation: the χ² functions at df 2 (an exponential law), the scale bounds' coverage, the KS
 * distance, Pearson's χ² and the two-region binomial power.
 */
import { describe, expect, it } from 'vitest';
import { chi2Cdf, chi2Quantile, ksContinuous, pearson, scaleUpperBound, standardLaplaceCdf, twoRegionPower } from '../../src/audit/lawStats.js';
import { makeRng } from '../../src/random/rng.js';
import { binomialUpperP } from '../../src/stats/binomial.js';
import binomialCdf from '@stdlib/stats-base-dists-binomial-cdf';

describe('χ² and the scale bounds', () => {
  it('χ²_2 is the exponential law of mean 2: cdf 1 − e^{−x/2}, quantile −2 ln(1 − p)', () => {
    for (const x of [0.1, 1, 5, 20]) expect(chi2Cdf(x, 2)).toBeCloseTo(-Math.expm1(-x / 2), 14);
    for (const p of [0.001, 0.5, 0.99]) expect(chi2Quantile(p, 2)).toBeCloseTo(-2 * Math.log1p(-p), 10);
  });

  it('the one-sided upper bound covers the true scale at its confidence (Gaussian σ and Laplace scale, 2000 seeded sets of 50, within 4 SE)', () => {
    const rng = makeRng('coverage');
    const normal = () => Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng());
    const level = 0.1;
    let missG = 0;
    let missL = 0;
    const reps = 2000;
    for (let rep = 0; rep < reps; rep++) {
      let sq = 0;
      let abs = 0;
      for (let i = 0; i < 50; i++) {
        sq += (2 * normal()) ** 2; // σ = 2
        abs += 3 * -Math.log(1 - rng()); // |Laplace(3)| ~ Exp(mean 3)
      }
      if (scaleUpperBound(sq, 50, level, 2) < 2) missG++;
      if (scaleUpperBound(2 * abs, 100, level, 1) < 3) missL++;
    }
    const se = Math.sqrt((level * (1 - level)) / reps);
    expect(Math.abs(missG / reps - level)).toBeLessThan(4 * se);
    expect(Math.abs(missL / reps - level)).toBeLessThan(4 * se);
  });
});

describe('KS and Pearson', () => {
  it('KS of the Laplace quantiles at (i + ½)/n is 1/(2n); of a shifted set, the shift in CDF', () => {
    const n = 1000;
    const q = (u: number) => (u < 0.5 ? Math.log(2 * u) : -Math.log(2 * (1 - u)));
    const xs = Float64Array.from({ length: n }, (_, i) => q((i + 0.5) / n));
    expect(ksContinuous(xs.slice(), standardLaplaceCdf)).toBeCloseTo(1 / (2 * n), 12);
    expect(
      ksContinuous(
        Float64Array.from(xs, (x) => x + 0.3),
        standardLaplaceCdf,
      ),
    ).toBeGreaterThan(0.1);
  });

  it('Pearson: statistic by hand, df from the cells with an expectation, p 1 without a degree of freedom', () => {
    const t = pearson([10, 20, 30, 0], [20, 20, 20, 0]);
    expect(t.stat).toBeCloseTo(10, 12);
    expect(t.df).toBe(2);
    expect(t.p).toBeCloseTo(Math.exp(-5), 12);
    expect(pearson([5], [5]).p).toBe(1);
  });
});

describe('twoRegionPower', () => {
  it('equals the brute-force sum over the rejection regions (n 60, both bounds; one bound alone)', () => {
    const n = 60;
    const level = 0.05;
    const [low, high] = [0.3, 0.6];
    for (const q of [0.2, 0.45, 0.7]) {
      let brute = 0;
      const pmf = (k: number) => binomialCdf(k, n, q) - (k > 0 ? binomialCdf(k - 1, n, q) : 0);
      for (let k = 0; k <= n; k++) if (binomialUpperP(k, n, high) <= level / 2 || binomialCdf(k, n, low) <= level / 2) brute += pmf(k);
      expect(twoRegionPower(n, q, low, high, level)).toBeCloseTo(brute, 12);
      let upperOnly = 0;
      for (let k = 0; k <= n; k++) if (binomialUpperP(k, n, high) <= level / 2) upperOnly += pmf(k);
      expect(twoRegionPower(n, q, null, high, level)).toBeCloseTo(upperOnly, 12);
    }
  });
});
