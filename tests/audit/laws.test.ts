import { describe, expect, it } from 'vitest';
import { dkwPValue, hammingLawOfAngle, ksDistance, ksOneSided, ksOneSidedPowerLowerBound, ksPowerLowerBound, massartPValue, scoreLaw } from '../../src/audit/laws.js';
import { blackBoxPower } from '../../src/audit/power.js';
import { epsilonLowerBound } from '../../src/audit/epsilonBound.js';
import { epsilonInterval, epsilonOfFlipRate, flipDirection, flipRateP, flipTestPower } from '../../src/audit/flips.js';
import { scoreTail } from '../../src/privacy/exactLoss.js';
import { flipProbability } from '../../src/privacy/rr.js';
import { vmfCosineSource } from '../../src/random/directional.js';
import { getMechanism } from '../../src/mechanisms/registry.js';
import { makeRng } from '../../src/random/rng.js';

/** Bin(n, p) draw by n coin flips (independent of the code under test). */
function binomialDraw(rng: () => number, n: number, p: number): number {
  let k = 0;
  for (let i = 0; i < n; i++) if (rng() < p) k++;
  return k;
}

describe('exact laws', () => {
  it("LSHRR's score law sums to 1 and its upper tails are exactTail's scoreTail", () => {
    const q = flipProbability(0.7);
    const law = scoreLaw(20, 0.1, q);
    expect(law.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    for (let s = -20; s <= 20; s++) {
      let tail = 0;
      for (let t = s; t <= 20; t++) tail += law[t + 20];
      expect(tail, `s ${s}`).toBeCloseTo(scoreTail(20, 0.1, 0.7, s), 12);
    }
  });

  it("VMF's Hamming law: the mixture of Bin(κ, θ/π) matches a Monte Carlo of Wood's sampler (each cell within 4 SE)", () => {
    const n = 5;
    const c = 6;
    const kappa = 12;
    const vmf = getMechanism('vmf');
    const law = hammingLawOfAngle(kappa, (t) => vmf.angleLogDensity!(t, n, c));
    expect(law.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    const rng = makeRng('vmf-law');
    const cosine = vmfCosineSource(rng, n, c);
    const N = 40000;
    const counts = new Float64Array(kappa + 1);
    for (let i = 0; i < N; i++) counts[binomialDraw(rng, kappa, Math.acos(cosine()) / Math.PI)]++;
    for (let h = 0; h <= kappa; h++) {
      const se = Math.sqrt((law[h] * (1 - law[h])) / N);
      expect(Math.abs(counts[h] / N - law[h]), `h ${h}`).toBeLessThanOrEqual(4 * se + 1e-9);
    }
  });
});

describe('the KS test with the DKW–Massart p-value', () => {
  it('the distance of samples from their own law is small; the p-value is 2·exp(−2nD²) capped at 1', () => {
    const law = scoreLaw(10, 0.2, 0.3);
    const rng = makeRng('ks');
    const samples = Array.from({ length: 4000 }, () => {
      const d = binomialDraw(rng, 10, 0.2);
      return d - 2 * binomialDraw(rng, d, 0.3);
    });
    const D = ksDistance(samples, law, 10);
    expect(D).toBeLessThan(Math.sqrt(Math.log(2 / 0.001) / (2 * 4000)));
    expect(dkwPValue(0.05, 1000)).toBeCloseTo(2 * Math.exp(-5), 15);
    expect(dkwPValue(0, 1000)).toBe(1);
  });

  it('its power bound is a lower bound: simulated rejection rates against a shifted law are at least it (3 SE)', () => {
    const claimed = scoreLaw(10, 0.2, 0.3);
    const actual = scoreLaw(10, 0.2, 0.24);
    const n = 400;
    const level = 0.01;
    const bound = ksPowerLowerBound(claimed, actual, n, level);
    expect(bound).toBeGreaterThan(0.2);
    const rng = makeRng('ks-power');
    let rejected = 0;
    const reps = 300;
    for (let r = 0; r < reps; r++) {
      const samples = Array.from({ length: n }, () => {
        const d = binomialDraw(rng, 10, 0.2);
        return d - 2 * binomialDraw(rng, d, 0.24);
      });
      if (dkwPValue(ksDistance(samples, claimed, 10), n) <= level) rejected++;
    }
    expect(rejected / reps).toBeGreaterThanOrEqual(bound - 3 * Math.sqrt((bound * (1 - bound)) / reps));
  });
});

describe("the black-box test's power", () => {
  it('equals a Monte Carlo of binomial counts through epsilonLowerBound (4 SE)', () => {
    const rng = makeRng('bb-power');
    for (const [tpr, fpr, xi] of [
      [0.5, 0.02, 2],
      [0.3, 0.005, 3],
    ]) {
      const M = 800;
      const alpha = 0.005;
      const power = blackBoxPower(tpr, fpr, M, 0, xi, alpha);
      const reps = 1500;
      let hits = 0;
      for (let r = 0; r < reps; r++) {
        const c = { truePositives: binomialDraw(rng, M, tpr), positives: M, falsePositives: binomialDraw(rng, M, fpr), negatives: M };
        if (epsilonLowerBound(c, 0, alpha) > xi) hits++;
      }
      const se = Math.sqrt(Math.max(power * (1 - power), 1e-4) / reps);
      expect(Math.abs(hits / reps - power), `tpr ${tpr} fpr ${fpr}`).toBeLessThanOrEqual(4 * se);
    }
  });
});

describe('the one-sided KS test (the directional release)', () => {
  it('its power bound is a lower bound: simulated rejection rates of samples stochastically smaller than the law are at least it (3 SE)', () => {
    // S = 2A − D: more flips (q 0.4 against 0.3) make S stochastically smaller, its CDF above the claimed one
    const claimed = scoreLaw(10, 0.2, 0.3);
    const actual = scoreLaw(10, 0.2, 0.4);
    const n = 400;
    const level = 0.01;
    const bound = ksOneSidedPowerLowerBound(claimed, actual, n, level);
    expect(bound).toBeGreaterThan(0.2);
    // a law stochastically larger (fewer flips) is flagged with probability below the level
    expect(ksOneSidedPowerLowerBound(claimed, scoreLaw(10, 0.2, 0.22), n, level)).toBeLessThan(level);
    const rng = makeRng('ks1-power');
    let rejected = 0;
    const reps = 300;
    for (let r = 0; r < reps; r++) {
      const samples = Array.from({ length: n }, () => {
        const d = binomialDraw(rng, 10, 0.2);
        return d - 2 * binomialDraw(rng, d, 0.4);
      });
      if (massartPValue(ksOneSided(samples, claimed, 10).above, n) <= level) rejected++;
    }
    expect(rejected / reps).toBeGreaterThanOrEqual(bound - 3 * Math.sqrt((bound * (1 - bound)) / reps));
  });
});

describe('the flip-rate test (LSHRR)', () => {
  it('|ln((1 − q)/q)| mirrors at ½ and is infinite at 0 and 1', () => {
    expect(epsilonOfFlipRate(flipProbability(1.3))).toBeCloseTo(1.3, 12);
    expect(epsilonOfFlipRate(1 - flipProbability(1.3))).toBeCloseTo(1.3, 12);
    expect([epsilonOfFlipRate(0), epsilonOfFlipRate(1), epsilonOfFlipRate(0.5)]).toEqual([Infinity, Infinity, 0]);
  });

  it('rejects exactly when the lower bound of the realized ε exceeds the allowed one (the Clopper–Pearson inversion)', () => {
    const n = 2000;
    const level = 0.001;
    const allowed = 1.1;
    let both = 0;
    for (let k = 0; k <= n; k += 7) {
      const rejects = flipRateP(k, n, allowed) <= level;
      const lb = epsilonInterval(k, n, level)[0];
      // away from the boundary (rounding of two special-function routes) the two agree
      if (Math.abs(lb - allowed) > 1e-6) expect(rejects, `k ${k}`).toBe(lb > allowed);
      if (rejects) both++;
    }
    expect(both).toBeGreaterThan(20); // both tails: rates far below q* and their mirrors far above 1 − q*
    expect(flipRateP(5, 100, Infinity)).toBe(1);
  });

  it('its power equals a Monte Carlo of binomial flip counts through flipRateP (4 SE)', () => {
    const rng = makeRng('flip-power');
    const n = 3000;
    const level = 0.002;
    for (const [q, allowed] of [
      [0.2, 1.1],
      [0.22, 1.1],
      [0.05, 2.5],
    ]) {
      const power = flipTestPower(n, q, allowed, level);
      const reps = 1500;
      let hits = 0;
      for (let r = 0; r < reps; r++) if (flipRateP(binomialDraw(rng, n, q), n, allowed) <= level) hits++;
      const se = Math.sqrt(Math.max(power * (1 - power), 1e-4) / reps);
      expect(Math.abs(hits / reps - power), `q ${q}`).toBeLessThanOrEqual(4 * se);
    }
  });

  it('the law test against the declared rate says which way a rate departs', () => {
    const declared = flipProbability(1);
    expect(flipDirection(300, 2000, declared, 0.001)).toBe('riskier'); // 0.15 < 0.27: fewer flips
    expect(flipDirection(800, 2000, declared, 0.001)).toBe('safer'); // 0.40
    expect(flipDirection(1460, 2000, declared, 0.001)).toBe('crossing'); // 0.73: the mirror rate
    expect(flipDirection(Math.round(2000 * declared), 2000, declared, 0.001)).toBeNull();
  });
});
