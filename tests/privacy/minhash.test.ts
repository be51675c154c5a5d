import { describe, expect, it } from 'vitest';
import { accountEpsilon, lshrrEpsilon } from '../../src/privacy/index.js';
import {
  bucketDisagreement,
  minhashBucketEpsilon,
  minhashNoisyEpsilon,
  noisyDisagreement,
  MINHASH_BUCKET_ACCOUNTANTS,
  MINHASH_NOISY_ACCOUNTANTS,
  type MinHashPrivacy,
} from '../../src/privacy/minhash.js';
import { bucketExactEpsilon, bucketExactTail } from '../../src/privacy/bucketRr.js';
import { jumpPoint, productAtMost } from '../../src/privacy/exactLoss.js';
import { jaccardFamily } from '../../src/lsh/families/index.js';
import { UserError } from '../../src/util/errors.js';

const DELTA = 0.01;
const KAPPAS = [1, 10, 20, 50];
const XIS = [0, 0.5, 1, 5, 20];
const DS = [0.05, 0.1, 0.4];
const at = (d: number): MinHashPrivacy => ({ jaccardDistance: d, delta: DELTA });

describe('per-position disagreement', () => {
  it("bucket: d(1 − 1/b); noisy: d/2, the jaccard family's own", () => {
    for (const d of DS) {
      expect(bucketDisagreement(d, 2)).toBe(d / 2);
      expect(bucketDisagreement(d, 4)).toBeCloseTo(d * 0.75, 15);
      expect(bucketDisagreement(d, 16)).toBeCloseTo(d * (15 / 16), 15);
      expect(noisyDisagreement(d)).toBe(jaccardFamily.disagreement(d));
    }
  });
});

describe('paper accountant', () => {
  it('is lshrrEpsilon at p = d(1 − 1/b) (bucket) and p = d/2 (noisy) to the last bit, fallback included', () => {
    let fallbacks = 0;
    for (const kappa of KAPPAS) {
      for (const xi of XIS) {
        for (const d of DS) {
          for (const b of [2, 3, 4, 16, 256]) {
            const got = minhashBucketEpsilon(xi, kappa, at(d), b, 'paper');
            expect(got).toEqual({ ...lshrrEpsilon(xi, kappa, { d: bucketDisagreement(d, b), delta: DELTA }), accountant: 'paper' });
            if (got.fallback) fallbacks++;
          }
          expect(minhashNoisyEpsilon(xi, kappa, at(d))).toEqual({ ...lshrrEpsilon(xi, kappa, { d: d / 2, delta: DELTA }), accountant: 'paper' });
        }
      }
    }
    expect(fallbacks).toBeGreaterThan(0); // kappa 1: no alpha exists
  });

  it('bucket at b = 2 and noisy both give per-position p = d/2: the same eps', () => {
    for (const xi of [1, 5]) expect(minhashBucketEpsilon(xi, 20, at(0.1), 2).epsilon).toBe(minhashNoisyEpsilon(xi, 20, at(0.1)).epsilon);
  });

  it('meets the exact trinomial bound (the paper bound is valid for the b-ary loss), so exact is never below it', () => {
    for (const kappa of [10, 20, 50]) {
      for (const xi of [0.5, 1, 5, 20]) {
        for (const b of [3, 4, 16]) {
          const paper = minhashBucketEpsilon(xi, kappa, at(0.1), b, 'paper').epsilon!;
          const exact = minhashBucketEpsilon(xi, kappa, at(0.1), b, 'exact').epsilon!;
          expect(bucketExactTail(kappa, bucketDisagreement(0.1, b), b, paper, xi), `kappa=${kappa} xi=${xi} b=${b}`).toBeLessThanOrEqual(DELTA);
          expect(exact).toBeGreaterThanOrEqual(paper);
        }
      }
    }
  });
});

describe('ldp accountant', () => {
  it('eps = the largest double <= xi/kappa for both mechanisms, LDP equivalent xi', () => {
    for (const kappa of KAPPAS) {
      for (const xi of XIS) {
        for (const info of [minhashBucketEpsilon(xi, kappa, at(0.1), 4, 'ldp'), minhashNoisyEpsilon(xi, kappa, at(0.1), 'ldp')]) {
          expect(info.epsilon).toBe(jumpPoint(xi, kappa));
          expect(productAtMost(info.epsilon!, kappa, xi)).toBe(true);
          expect(info.epsilon!).toBeGreaterThanOrEqual((xi / kappa) * (1 - 1e-15));
          expect([info.ldpEpsilon, info.fallback, info.accountant]).toEqual([xi, false, 'ldp']);
        }
      }
    }
  });

  it('does not depend on d or b', () => {
    expect(minhashBucketEpsilon(5, 20, at(0.4), 16, 'ldp')).toEqual(minhashBucketEpsilon(5, 20, at(0.05), 2, 'ldp'));
  });
});

describe('exact accountant (bucket only)', () => {
  it('is bucketExactEpsilon at p = d(1 − 1/b), kappa·eps its LDP equivalent', () => {
    for (const kappa of [10, 50]) {
      for (const xi of [1, 5, 20]) {
        for (const b of [2, 4, 16]) {
          const info = minhashBucketEpsilon(xi, kappa, at(0.1), b, 'exact');
          const r = bucketExactEpsilon(xi, kappa, bucketDisagreement(0.1, b), b, DELTA);
          expect(info.epsilon).toBe(r.epsilon);
          expect(info.ldpEpsilon).toBe(kappa * r.epsilon);
          expect([info.accountant, info.unbounded]).toEqual(['exact', false]);
        }
      }
    }
  });

  it("at b = 2 equals LSHRR's exact accountant at p = d/2 (eps, LDP equivalent, fallback)", () => {
    for (const kappa of KAPPAS) {
      for (const xi of XIS) {
        for (const d of DS) {
          const mine = minhashBucketEpsilon(xi, kappa, at(d), 2, 'exact');
          const lshrr = accountEpsilon('exact', { xi, kappa, p: d / 2, delta: DELTA });
          expect([mine.epsilon, mine.ldpEpsilon, mine.fallback, mine.unbounded], `kappa=${kappa} xi=${xi} d=${d}`).toEqual([lshrr.epsilonBit, lshrr.epsilonLdp, lshrr.fallback, lshrr.unbounded]);
        }
      }
    }
  });

  it('unbounded when (1 − p)^kappa >= 1 − delta: eps and its LDP equivalent Infinity', () => {
    // b = 4, d = 0.002: p = 0.0015, 0.9985^6 = 0.99104 >= 0.99; kappa 7: 0.98953 < 0.99
    expect(minhashBucketEpsilon(5, 6, at(0.002), 4, 'exact')).toEqual({ epsilon: Infinity, ldpEpsilon: Infinity, fallback: false, accountant: 'exact', unbounded: true });
    expect(minhashBucketEpsilon(5, 7, at(0.002), 4, 'exact').unbounded).toBe(false);
  });

  it('flags the fallback when the pure LDP eps is the answer', () => {
    // kappa 1, d 0.4, b 16: p = 0.375, Pr[L > xi] = p·q > delta for every eps > xi
    const info = minhashBucketEpsilon(1, 1, at(0.4), 16, 'exact');
    expect([info.epsilon, info.fallback]).toEqual([jumpPoint(1, 1), true]);
  });
});

describe('names and inputs', () => {
  it('lists the accountants, paper first (the default)', () => {
    expect(MINHASH_BUCKET_ACCOUNTANTS).toEqual(['paper', 'exact', 'ldp']);
    expect(MINHASH_NOISY_ACCOUNTANTS).toEqual(['paper', 'ldp']);
    expect(minhashBucketEpsilon(5, 20, at(0.1), 4)).toEqual(minhashBucketEpsilon(5, 20, at(0.1), 4, 'paper'));
    expect(minhashNoisyEpsilon(5, 20, at(0.1))).toEqual(minhashNoisyEpsilon(5, 20, at(0.1), 'paper'));
  });

  it('refuses unknown accountants (exact and theorem for noisy) with a one-line UserError', () => {
    expect(() => minhashBucketEpsilon(5, 20, at(0.1), 4, 'exakt')).toThrow(/unknown accountant "exakt" \(did you mean "exact"\?\); known: paper, exact, ldp/);
    expect(() => minhashNoisyEpsilon(5, 20, at(0.1), 'exact')).toThrow(UserError);
    expect(() => minhashBucketEpsilon(5, 20, at(0.1), 4, 'theorem')).toThrow(UserError);
  });

  it('checks xi, kappa, d, delta and b; a PrivacyParams {d, delta} is not taken for a Jaccard distance', () => {
    expect(() => minhashBucketEpsilon(-1, 20, at(0.1), 4)).toThrow(UserError);
    expect(() => minhashBucketEpsilon(1, 0, at(0.1), 4)).toThrow(UserError);
    expect(() => minhashBucketEpsilon(1, 20, at(0), 4)).toThrow(UserError);
    expect(() => minhashBucketEpsilon(1, 20, { jaccardDistance: 0.1, delta: 1 }, 4)).toThrow(UserError);
    for (const b of [1, 257, 2.5]) expect(() => minhashBucketEpsilon(1, 20, at(0.1), b)).toThrow(UserError);
    const wrong = { d: 0.05, delta: DELTA } as unknown as MinHashPrivacy;
    expect(() => minhashNoisyEpsilon(1, 20, wrong)).toThrow(/d must be in \(0, 1\), got undefined/);
  });
});
