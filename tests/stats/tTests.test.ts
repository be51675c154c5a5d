/**
 * The claims' tests, checked against independent references: SciPy 1.17 (`scipy.stats.ttest_rel`,
 * `ttest_ind(equal_var=False)`; values computed once and written here with the SciPy call), the
 * closed-form t CDFs for df = 1 (Cauchy) and df = 2, the nominal size of each test under the null by
 * Monte Carlo (fixed seeds, tolerance from the binomial standard error), and Holm's procedure by
 * hand on textbook examples.
 */
import { describe, it, expect } from 'vitest';
import { oneSampleTTest, pairedTTest, welchTTest, tost } from '../../src/stats/tTests.js';
import { makeRng } from '../../src/random/rng.js';
import { normalSource } from '../../src/random/samplers.js';

const A = [0.112, 0.108, 0.115, 0.109, 0.111, 0.113, 0.107, 0.11, 0.114, 0.106];
const B = [0.118, 0.111, 0.117, 0.116, 0.112, 0.119, 0.11, 0.115, 0.117, 0.113];
const C = [0.131, 0.12, 0.142, 0.118, 0.125, 0.139];

/** relative closeness for p-values that span many orders of magnitude */
function expectRel(actual: number, expected: number, rel = 1e-9): void {
  expect(Math.abs(actual - expected)).toBeLessThanOrEqual(rel * Math.abs(expected));
}

describe('paired t-test', () => {
  it('matches scipy.stats.ttest_rel (one-sided, both directions)', () => {
    const t = pairedTTest(A, B);
    // scipy.stats.ttest_rel(A, B, alternative='less') → statistic -6.287075306888677, p 7.158331610546573e-05, df 9
    expectRel(t.t, -6.287075306888677);
    expect(t.df).toBe(9);
    expectRel(t.pBelow, 7.158331610546573e-5, 1e-7);
    // alternative='greater' → 0.9999284166838945
    expectRel(t.pAbove, 0.9999284166838945, 1e-12);
    expect(t.kind).toBe('paired');
    expect(t.zeroVariance).toBe(false);
  });

  it('agrees with the closed-form t CDF at df = 1 (two pairs: Cauchy) and df = 2 (three pairs)', () => {
    // df = 1: F(t) = 1/2 + atan(t)/π
    const d2 = [0.3, -0.1];
    const t1 = 0.1 / (Math.sqrt((0.2 ** 2 + 0.2 ** 2) / 1) / Math.sqrt(2));
    const p1 = pairedTTest(d2, [0, 0]);
    expect(p1.df).toBe(1);
    expect(p1.t).toBeCloseTo(t1, 12);
    expect(p1.pAbove).toBeCloseTo(1 - (0.5 + Math.atan(t1) / Math.PI), 12);
    expect(p1.pBelow).toBeCloseTo(0.5 + Math.atan(t1) / Math.PI, 12);
    // df = 2: F(t) = 1/2 + t / (2 sqrt(2 + t²))
    const d3 = [-0.5, -0.2, 0.1];
    const m = -0.2;
    const sd = Math.sqrt((0.3 ** 2 + 0 + 0.3 ** 2) / 2);
    const t2 = m / (sd / Math.sqrt(3));
    const p2 = pairedTTest(d3, [0, 0, 0]);
    expect(p2.df).toBe(2);
    expect(p2.pBelow).toBeCloseTo(0.5 + t2 / (2 * Math.sqrt(2 + t2 * t2)), 12);
  });

  it("takes the t test's limit without variance: every pair beyond gives p = 0 that way, none beyond gives p = 1", () => {
    const shifted = A.map((x) => x + 0.01);
    const t = pairedTTest(shifted, A);
    expect(t.zeroVariance).toBe(true);
    expect(t.pAbove).toBe(0);
    expect(t.pBelow).toBe(1);
    expect(pairedTTest(A, shifted)).toMatchObject({ pBelow: 0, pAbove: 1 });
    // the limit it stands for: the same shift with a vanishing spread is ever more significant
    const jittered = (eps: number) =>
      pairedTTest(
        shifted.map((x, i) => x + (i % 2 ? eps : -eps)),
        A,
      );
    expect(jittered(1e-4).pAbove).toBeLessThan(1e-6);
    expect(jittered(1e-6).pAbove).toBeLessThan(jittered(1e-4).pAbove);
    expect(jittered(1e-6).pBelow).toBeGreaterThan(1 - 1e-9);
    // no difference at all: no evidence either way
    expect(pairedTTest(A, A)).toMatchObject({ zeroVariance: true, pAbove: 1, pBelow: 1 });
  });

  it('counts a difference within floating-point rounding of 0 as 0 (p = 1 both ways)', () => {
    const roundTrip = A.map((x) => x + 0.1 - 0.1);
    expect(roundTrip.some((x, i) => x !== A[i])).toBe(true);
    expect(pairedTTest(roundTrip, A)).toMatchObject({ zeroVariance: true, pAbove: 1, pBelow: 1 });
  });

  it('rejects unequal lengths and fewer than 2 pairs (programming errors)', () => {
    expect(() => pairedTTest([1, 2], [1])).toThrow();
    expect(() => pairedTTest([1], [1])).toThrow();
  });
});

describe('Welch t-test', () => {
  it('matches scipy.stats.ttest_ind(equal_var=False): statistic, Welch–Satterthwaite df and both p-values', () => {
    const t = welchTTest(A, C);
    // statistic -4.490790862681905, df 5.56625979063437, p(less) 0.00248991299314896, p(greater) 0.9975100870068511
    expectRel(t.t, -4.490790862681905);
    expectRel(t.df, 5.56625979063437);
    expectRel(t.pBelow, 0.00248991299314896, 1e-7);
    expectRel(t.pAbove, 0.9975100870068511, 1e-10);
    expect(t.kind).toBe('welch');
  });

  it('keeps n − 1 degrees of freedom of the side with variance when the other has none', () => {
    const t = welchTTest([1, 1, 1], [0.5, 0.7, 0.9, 1.1]);
    expect(t.df).toBeCloseTo(3, 12);
    expect(t.zeroVariance).toBe(false);
    expect(welchTTest([1, 1], [2, 2]).zeroVariance).toBe(true);
  });

  it("takes the t test's limit when neither side has variance", () => {
    expect(welchTTest([1, 1], [2, 2])).toMatchObject({ pBelow: 0, pAbove: 1 });
    expect(welchTTest([2, 2, 2], [2, 2])).toMatchObject({ pBelow: 1, pAbove: 1 });
  });
});

describe('one-sample t-test', () => {
  const R = [0.12, 0.15, 0.09, 0.14, 0.11, 0.13, 0.1, 0.16];
  it('matches scipy.stats.ttest_1samp (one-sided, both directions)', () => {
    const t = oneSampleTTest(R, 0.1);
    // scipy.stats.ttest_1samp(R, 0.1, alternative='greater') → statistic 2.886751345948128, p 0.011712318027218747, df 7
    expectRel(t.t, 2.886751345948128);
    expect(t.df).toBe(7);
    expectRel(t.pAbove, 0.011712318027218747, 1e-8);
    // alternative='less' → 0.9882876819727813
    expectRel(t.pBelow, 0.9882876819727813, 1e-12);
    expect(t.kind).toBe('one-sample');
  });

  it('is the paired test against a constant side', () => {
    const p = pairedTTest(
      R,
      R.map(() => 0.1),
    );
    const t = oneSampleTTest(R, 0.1);
    expect(t.pAbove).toBeCloseTo(p.pAbove, 14);
    expect(t.diff).toBeCloseTo(p.diff, 15);
  });

  it("takes the t test's limit without variance (every trial above: p above = 0) and needs two values", () => {
    expect(oneSampleTTest([0.5, 0.5, 0.5], 0.1).zeroVariance).toBe(true);
    expect(oneSampleTTest([0.5, 0.5, 0.5], 0.1)).toMatchObject({ pAbove: 0, pBelow: 1 });
    expect(oneSampleTTest([0.05, 0.05], 0.1)).toMatchObject({ pAbove: 1, pBelow: 0 });
    expect(oneSampleTTest([0.1, 0.1], 0.1)).toMatchObject({ pAbove: 1, pBelow: 1 });
    expect(() => oneSampleTTest([0.5], 0.1)).toThrow(/2 values/);
  });

  it('rejects a true null at about the nominal rate (one-sided, α = 0.05)', () => {
    const z = normalSource(makeRng('one-sample-size'));
    const reps = 4000;
    let rejected = 0;
    for (let i = 0; i < reps; i++) {
      const xs = Array.from({ length: 10 }, () => 0.3 + 0.05 * z());
      if (oneSampleTTest(xs, 0.3).pAbove <= 0.05) rejected++;
    }
    // binomial sd of the rate: sqrt(0.05 · 0.95 / 4000) ≈ 0.0034; 4 sd
    expect(Math.abs(rejected / reps - 0.05)).toBeLessThan(4 * Math.sqrt((0.05 * 0.95) / reps));
  });
});

describe('TOST', () => {
  it('matches scipy through the shift identity (max of two one-sided Welch tests on shifted data)', () => {
    const m = 0.004;
    // max(ttest_ind(A+m, B, greater), ttest_ind(A−m, B, less)) with equal_var=False → 0.58514179833664
    expectRel(tost(welchTTest(A, B), m).pEquivalent, 0.58514179833664, 1e-8);
    // and against our own one-sided tests on the shifted samples
    const up = welchTTest(
      A.map((x) => x + m),
      B,
    ).pAbove;
    const down = welchTTest(
      A.map((x) => x - m),
      B,
    ).pBelow;
    expect(tost(welchTTest(A, B), m).pEquivalent).toBeCloseTo(Math.max(up, down), 12);
  });

  it('shows equivalence for tight equal samples, non-equivalence for a shift far beyond the margin', () => {
    const base = [1.0, 1.01, 0.99, 1.005, 0.995, 1.002, 0.998, 1.0, 1.001, 0.999];
    const same = tost(
      welchTTest(
        base,
        base.map((x) => x + 0.001),
      ),
      0.02,
    );
    expect(same.pEquivalent).toBeLessThan(1e-6);
    expect(same.pBeyond).toBeGreaterThan(0.5);
    const far = tost(
      welchTTest(
        base,
        base.map((x) => x + 0.1),
      ),
      0.02,
    );
    expect(far.pEquivalent).toBeGreaterThan(0.5);
    expect(far.pBeyond).toBeLessThan(1e-6);
  });

  it("takes the t test's limit without variance: inside the margin equivalent, beyond it beyond, on it neither", () => {
    const base = [1, 1, 1, 1];
    const at = (shift: number) =>
      tost(
        pairedTTest(
          base.map((x) => x + shift),
          base,
        ),
        0.02,
      );
    expect(at(0.001)).toMatchObject({ pEquivalent: 0, pBeyond: 1 });
    expect(at(0)).toMatchObject({ pEquivalent: 0, pBeyond: 1 });
    expect(at(-0.1)).toMatchObject({ pEquivalent: 1, pBeyond: 0 });
  });
});

describe('size of the tests under the null (Monte Carlo)', () => {
  // 4000 replications at level 0.05: the rejection rate has se sqrt(.05·.95/4000) ≈ 0.0034; 4 se allowed
  const REPS = 4000;
  const LEVEL = 0.05;
  const TOL = 4 * Math.sqrt((LEVEL * (1 - LEVEL)) / REPS);

  it('paired: P(pBelow ≤ 0.05) and P(pAbove ≤ 0.05) are 0.05 when the differences have mean 0', () => {
    const z = normalSource(makeRng('claims-stats-paired-null'));
    let below = 0;
    let above = 0;
    for (let r = 0; r < REPS; r++) {
      const shared = Array.from({ length: 10 }, () => z()); // the trial's common part (hyperplanes)
      const a = shared.map((s) => s + 0.3 * z());
      const b = shared.map((s) => s + 0.3 * z());
      const t = pairedTTest(a, b);
      if (t.pBelow <= LEVEL) below++;
      if (t.pAbove <= LEVEL) above++;
    }
    expect(Math.abs(below / REPS - LEVEL)).toBeLessThan(TOL);
    expect(Math.abs(above / REPS - LEVEL)).toBeLessThan(TOL);
  });

  it('Welch: the size stays at 0.05 with unequal variances and sizes', () => {
    const z = normalSource(makeRng('claims-stats-welch-null'));
    let below = 0;
    for (let r = 0; r < REPS; r++) {
      const a = Array.from({ length: 6 }, () => 3 * z());
      const b = Array.from({ length: 15 }, () => z());
      if (welchTTest(a, b).pBelow <= LEVEL) below++;
    }
    expect(Math.abs(below / REPS - LEVEL)).toBeLessThan(TOL);
  });

  it('TOST: at the margin exactly, equivalence is claimed at most 5% of the time', () => {
    const z = normalSource(makeRng('claims-stats-tost-boundary'));
    let claimed = 0;
    for (let r = 0; r < REPS; r++) {
      const a = Array.from({ length: 10 }, () => 1 + 0.01 * z());
      const b = Array.from({ length: 10 }, () => 1.02 + 0.01 * z()); // true difference = −margin
      if (tost(welchTTest(a, b), 0.02).pEquivalent <= LEVEL) claimed++;
    }
    expect(claimed / REPS).toBeLessThan(LEVEL + TOL);
  });
});
