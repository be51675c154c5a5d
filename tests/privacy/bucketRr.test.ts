import { describe, expect, it } from 'vitest';
import {
  bucketExactEpsilon,
  bucketExactTail,
  bucketKeepProbability,
  bucketOtherProbability,
  effectiveDisagreement,
  realizedBucketEpsilon,
  realizedOtherCount,
  realizedOtherProbability,
} from '../../src/privacy/bucketRr.js';
import { exactEpsilon, exactTail, jumpPoint, productAtMost, tailLimit } from '../../src/privacy/exactLoss.js';
import { realizedFlipCount } from '../../src/privacy/rr.js';
import { symbolGrid } from '../../src/random/symbols.js';

/**
 * Pr[eps(N₊ − N₋) > xi] straight from the definition, in plain probabilities and without the
 * reduction to LSHRR's score that the code uses: D ~ Bin(kappa, p) differing positions, and at each
 * one the released symbol is the first input's (+1, probability q), the second's (−1, r) or another
 * (0, (b − 2)r): a trinomial over (N₊, N₋) given D.
 */
function bruteTail(kappa: number, p: number, b: number, eps: number, xi: number): number {
  const q = Math.exp(eps) / (Math.exp(eps) + b - 1);
  const r = 1 / (Math.exp(eps) + b - 1);
  const z = (b - 2) * r;
  let total = 0;
  for (let dd = 0; dd <= kappa; dd++) {
    const wd = choose(kappa, dd) * p ** dd * (1 - p) ** (kappa - dd);
    for (let plus = 0; plus <= dd; plus++) {
      for (let minus = 0; plus + minus <= dd; minus++) {
        if (!(eps * (plus - minus) > xi)) continue;
        const zero = dd - plus - minus;
        const ways = choose(dd, plus) * choose(dd - plus, minus);
        total += wd * ways * q ** plus * r ** minus * (zero === 0 ? 1 : z ** zero);
      }
    }
  }
  return total;
}

const chosen: number[][] = [];
function choose(n: number, k: number): number {
  chosen[n] ??= [];
  if (chosen[n][k] === undefined) {
    let c = 1;
    for (let i = 1; i <= k; i++) c = (c * (n - k + i)) / i;
    chosen[n][k] = c;
  }
  return chosen[n][k];
}

const DELTA = 0.01;

describe('b-ary randomized response law', () => {
  it('q/r = e^eps, q + (b − 1)r = 1, q = 1/b at eps = 0 and 1 at eps = Infinity', () => {
    for (const b of [2, 3, 4, 16, 256]) {
      for (const eps of [0, 0.01, 0.5, 1, 3, 10, 40]) {
        const q = bucketKeepProbability(eps, b);
        const r = bucketOtherProbability(eps, b);
        expect(q + (b - 1) * r).toBeCloseTo(1, 14);
        expect(Math.log(q / r)).toBeCloseTo(eps, 12);
      }
      expect(bucketKeepProbability(0, b)).toBeCloseTo(1 / b, 15);
      expect(bucketKeepProbability(Infinity, b)).toBe(1);
      expect(bucketOtherProbability(Infinity, b)).toBe(0);
    }
    // b = 2 is LSHRR's keep probability e^eps/(1 + e^eps)
    expect(bucketKeepProbability(1.3, 2)).toBeCloseTo(Math.exp(1.3) / (1 + Math.exp(1.3)), 15);
  });
});

/*
 * The realized law strictly below the declared eps, proved without floating point: a double is an
 * exact rational, e^x (x >= 0) is bounded below by its Taylor partial sum, and every comparison is
 * one of BigInt cross products. eps_R < eps  <=>  (M − (b − 1)R)/R < e^eps.
 */
interface Rational {
  num: bigint;
  den: bigint;
}
function exactRational(x: number): Rational {
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const biased = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  const mantissa = biased === 0 ? fraction : fraction | (1n << 52n);
  const shift = (biased === 0 ? 1 : biased) - 1075;
  return shift >= 0 ? { num: mantissa << BigInt(shift), den: 1n } : { num: mantissa, den: 1n << BigInt(-shift) };
}
/** Σ_{n<=N} x^n/n! over one common denominator: a lower bound on e^x for x >= 0. */
function expLower(x: number): Rational {
  const { num: a, den: b } = exactRational(x);
  const terms = Math.ceil(3 * x + 60);
  let sum = 0n;
  let term = 1n; // a^n b^(N−n) N!/n!, from n = N down
  for (let n = terms; n >= 0; n--) {
    sum += term * a ** BigInt(n);
    term *= b * BigInt(n === 0 ? 1 : n);
  }
  let den = b ** BigInt(terms);
  for (let n = 2; n <= terms; n++) den *= BigInt(n);
  return { num: sum, den };
}

describe('the realized law of the b-ary sampler', () => {
  const BS = [2, 3, 4, 5, 16, 255, 256];
  const epsilons = [0.001, 0.01, 0.1, 0.5, 1, 2, 5, 10, 20, 22];
  for (const xi of [1, 5, 20]) for (let j = 1; j <= 50; j += 7) epsilons.push(jumpPoint(xi, j));

  it('at b = 2 asks for exactly LSHRR flip count', () => {
    for (const eps of [...epsilons, 0, 30, 800, Infinity]) expect(realizedOtherCount(eps, 2)).toBe(realizedFlipCount(eps));
  });

  it('is strictly below the declared eps (exact rationals), realizedBucketEpsilon rounds up and stays below', () => {
    for (const eps of epsilons) {
      const e = expLower(eps);
      for (const b of BS) {
        const m = BigInt(symbolGrid(b));
        const r = BigInt(realizedOtherCount(eps, b));
        const keep = m - BigInt(b - 1) * r;
        // (keep/r) < e^eps: keep · e.den < r · e.num
        expect(keep * e.den < r * e.num, `b=${b} eps=${eps}`).toBe(true);
        const stated = realizedBucketEpsilon(eps, b);
        expect(stated, `b=${b} eps=${eps}`).toBeLessThan(eps);
        // stated >= the true loss: keep/r <= e^stated, checked as keep·den <= r·num of a lower bound
        const s = expLower(stated);
        expect(keep * s.den <= r * s.num, `rounded up b=${b} eps=${eps}`).toBe(true);
      }
    }
  });

  it('clamps: uniform at eps = 0 (every b, since b divides the grid), keep all at Infinity, >= 1 when finite', () => {
    for (const b of BS) {
      const m = symbolGrid(b);
      expect(m % b).toBe(0);
      expect(m).toBeGreaterThan(2 ** 32 - b);
      expect(realizedOtherCount(0, b)).toBe(m / b);
      expect(realizedBucketEpsilon(0, b)).toBe(0);
      expect(realizedOtherCount(Infinity, b)).toBe(0);
      expect(realizedBucketEpsilon(Infinity, b)).toBe(Infinity);
      expect(realizedOtherCount(1000, b)).toBe(1);
      expect(realizedBucketEpsilon(1000, b)).toBeCloseTo(Math.log(m - (b - 1)), 10);
      // the realized probability is above the true one by about the margin, no more than one grid step
      const r = bucketOtherProbability(1, b);
      const got = realizedOtherProbability(1, b);
      expect(got).toBeGreaterThan(r);
      expect(got - r).toBeLessThan(r * 2 ** -39 + 1 / m);
    }
  });
});

describe('exact accountant of bucket MinHash', () => {
  it('the tail equals the brute-force trinomial sum (kappa 1..12, b 2/3/4/16)', () => {
    for (const kappa of [1, 3, 7, 12]) {
      for (const b of [2, 3, 4, 16]) {
        for (const p of [0.05, 0.3, 0.75]) {
          for (const eps of [0.2, 0.9, 2.5, 7]) {
            for (const xi of [0.5, 2, 5]) {
              const want = bruteTail(kappa, p, b, eps, xi);
              const got = bucketExactTail(kappa, p, b, eps, xi);
              expect(Math.abs(got - want), `kappa=${kappa} b=${b} p=${p} eps=${eps} xi=${xi}`).toBeLessThanOrEqual(1e-12 + 1e-10 * want);
            }
          }
        }
      }
    }
  });

  it('at b = 2 is LSHRR exact accountant to the last bit (tail and eps)', () => {
    for (const kappa of [5, 10, 20, 50]) {
      for (const p of [0.025, 0.05, 0.1]) {
        for (const xi of [0.5, 1, 2, 5, 10, 20]) {
          expect(effectiveDisagreement(p, 2, 1.7)).toBe(p);
          expect(bucketExactEpsilon(xi, kappa, p, 2, DELTA)).toEqual(exactEpsilon(xi, kappa, p, DELTA));
          expect(bucketExactTail(kappa, p, 2, 1.1, xi)).toBe(exactTail(kappa, p, 1.1, xi));
        }
      }
    }
  });

  it('matches a brute-force scan over an eps grid; the answer meets the bound and 1e-6 more does not', () => {
    for (const kappa of [5, 10, 20]) {
      for (const b of [3, 4, 16]) {
        for (const d of [0.1, 0.3]) {
          const p = (d * (b - 1)) / b;
          for (const xi of [0.5, 2, 5, 20]) {
            const r = bucketExactEpsilon(xi, kappa, p, b, DELTA);
            const tag = `kappa=${kappa} b=${b} d=${d} xi=${xi}`;
            if (r.unbounded) {
              expect(tailLimit(kappa, p), tag).toBeLessThanOrEqual(DELTA);
              continue;
            }
            // relative steps of 1e-2 up from the pure LDP eps to the first failing point
            let eps = xi / kappa;
            let lastPass = 0;
            while (bruteTail(kappa, p, b, eps, xi) <= DELTA && eps < 1e3) {
              lastPass = eps;
              eps *= 1.01;
            }
            expect(r.epsilon, tag).toBeGreaterThanOrEqual(lastPass);
            expect(r.epsilon, tag).toBeLessThan(eps);
            expect(bruteTail(kappa, p, b, r.epsilon, xi), tag).toBeLessThanOrEqual(DELTA);
            expect(bruteTail(kappa, p, b, r.epsilon * (1 + 1e-6), xi), tag).toBeGreaterThan(DELTA);
            // the realized sampler's eps keeps the bound too
            expect(bruteTail(kappa, p, b, realizedBucketEpsilon(r.epsilon, b), xi), tag).toBeLessThanOrEqual(DELTA);
          }
        }
      }
    }
  });

  it('sits on jump points xi/j (never rounded above) where the tail jumps past delta', () => {
    let onJump = 0;
    for (const kappa of [10, 20, 50]) {
      for (const b of [4, 16]) {
        for (const xi of [1, 5, 20]) {
          const p = (0.1 * (b - 1)) / b;
          const r = bucketExactEpsilon(xi, kappa, p, b, DELTA);
          const j = Math.round(xi / r.epsilon);
          if (r.epsilon !== jumpPoint(xi, j)) {
            // an interior root: the tail there is delta up to the search's aim
            expect(r.tail, `kappa=${kappa} b=${b} xi=${xi}`).toBeGreaterThan(DELTA * (1 - 1e-6));
            continue;
          }
          onJump++;
          expect(productAtMost(r.epsilon, j, xi)).toBe(true);
          // just above the jump point the score j counts: the tail jumps above delta
          expect(bucketExactTail(kappa, p, b, r.epsilon * (1 + 1e-12), xi)).toBeGreaterThan(DELTA);
          expect(bucketExactTail(kappa, p, b, r.epsilon, xi)).toBeLessThanOrEqual(DELTA);
        }
      }
    }
    expect(onJump).toBeGreaterThan(3); // the grid above has several (e.g. kappa 10, b 16, xi 1: eps 1)
  });

  it('is unbounded exactly when (1 − p)^kappa >= 1 − delta', () => {
    const b = 4;
    const p = 0.001;
    const r = bucketExactEpsilon(5, 10, p, b, DELTA); // 0.999^10 = 0.99004 >= 0.99
    expect([r.unbounded, r.epsilon]).toEqual([true, Infinity]);
    expect(bucketExactEpsilon(5, 11, p, b, DELTA).unbounded).toBe(false); // 0.999^11 < 0.99
    expect(bucketExactEpsilon(0, 11, p, b, DELTA)).toEqual({ epsilon: 0, unbounded: false, tail: 0 });
  });

  it('grows with b at fixed p (more symbols: fewer informative releases at a differing position)', () => {
    for (const kappa of [10, 50]) {
      for (const xi of [1, 5, 20]) {
        const eps = [2, 4, 16, 256].map((b) => bucketExactEpsilon(xi, kappa, 0.05, b, DELTA).epsilon);
        for (let i = 1; i < eps.length; i++) expect(eps[i]).toBeGreaterThanOrEqual(eps[i - 1]!);
      }
    }
  });
});
