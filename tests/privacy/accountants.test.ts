import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { realizedPerBitEpsilon } from '../../src/privacy/rr.js';
import { accountEpsilon, budgetRows, exactEpsilon, exactTail, hockeyStickDelta, lshrrEpsilon, naiveAccountantWarning, parseAccountant, tailLimit, xiGeneral } from '../../src/privacy/index.js';
import { jumpPoint, productAtMost } from '../../src/privacy/exactLoss.js';
import { flipBits } from '../../src/mechanisms/flips.js';
import { emptyCodes, getBit } from '../../src/lsh/codes.js';
import { drawHyperplanes } from '../../src/lsh/hyperplanes.js';
import { makeRng } from '../../src/random/rng.js';
import { UserError } from '../../src/util/errors.js';
import { lshrrMechanism } from '../../src/mechanisms/lshrr/mechanism.js';
import { syntheticPair } from '../../src/audit/pairs.js';
import { packSigns } from '../../src/lsh/codes.js';
import { projectAll } from '../../src/lsh/hyperplanes.js';
import { bitsOf } from '../../src/lsh/releases.js';

/**
 * Pr[eps(2A − D) > xi] straight from the definition, in plain probabilities (independent of the
 * log-space code): D ~ Bin(kappa, p), A | D ~ Bin(D, q), the loss compared as computed.
 */
function bruteTail(kappa: number, p: number, eps: number, xi: number): number {
  const q = Math.exp(eps) / (1 + Math.exp(eps));
  // q ** a and (1 - q) ** b, each computed once per call (the same values the loop would compute)
  const qPow = Array.from({ length: kappa + 1 }, (_, a) => q ** a);
  const notQPow = Array.from({ length: kappa + 1 }, (_, b) => (1 - q) ** b);
  let total = 0;
  for (let dd = 0; dd <= kappa; dd++) {
    const wd = choose(kappa, dd) * p ** dd * (1 - p) ** (kappa - dd);
    for (let a = 0; a <= dd; a++) {
      if (eps * (2 * a - dd) > xi) total += wd * choose(dd, a) * qPow[a]! * notQPow[dd - a]!;
    }
  }
  return total;
}

function choose(n: number, k: number): number {
  chosen[n] ??= [];
  chosen[n][k] ??= chooseProduct(n, k);
  return chosen[n][k];
}

/** choose(n, k) values already computed, by n then k: the brute-force tails ask for the same few thousand again and again. */
const chosen: number[][] = [];

function chooseProduct(n: number, k: number): number {
  let c = 1;
  for (let i = 1; i <= k; i++) c = (c * (n - k + i)) / i;
  return c;
}

const KAPPAS = [10, 20, 50];
const DS = [0.05, 0.1];
const XIS = [0.5, 1, 2, 5, 10, 20];
const DELTA = 0.01;

describe('exact accountant', () => {
  it('matches a brute-force scan over a fine eps grid (kappa 10/20/50, d 0.05/0.1, six xi)', () => {
    for (const kappa of KAPPAS) {
      for (const d of DS) {
        for (const xi of XIS) {
          const r = exactEpsilon(xi, kappa, d, DELTA);
          const tag = `kappa=${kappa} d=${d} xi=${xi}`;
          if (r.unbounded) {
            expect(tailLimit(kappa, d), tag).toBeLessThanOrEqual(DELTA);
            continue;
          }
          // scan up from the pure LDP eps in relative steps of 1e-3 to the first failing point
          const step = 1 + 1e-3;
          let eps = xi / kappa;
          let lastPass = 0;
          while (bruteTail(kappa, d, eps, xi) <= DELTA) {
            lastPass = eps;
            eps *= step;
            if (eps > 1e3) break;
          }
          expect(r.epsilon, tag).toBeGreaterThanOrEqual(lastPass);
          expect(r.epsilon, tag).toBeLessThan(eps);
          // satisfies the bound, and 1e-6 more does not
          expect(bruteTail(kappa, d, r.epsilon, xi), tag).toBeLessThanOrEqual(DELTA);
          expect(bruteTail(kappa, d, r.epsilon * (1 + 1e-6), xi), tag).toBeGreaterThan(DELTA);
          // the log-space tail agrees with the brute-force one
          expect(exactTail(kappa, d, r.epsilon, xi)).toBeCloseTo(bruteTail(kappa, d, r.epsilon, xi), 12);
        }
      }
    }
  });

  it("gives the issue's hand-worked values (d 0.1, delta 0.01, xi 5) and the paper's", () => {
    const paper = KAPPAS.map((kappa) => accountEpsilon('paper', { xi: 5, kappa, p: 0.1, delta: DELTA }).epsilonBit);
    const exact = KAPPAS.map((kappa) => accountEpsilon('exact', { xi: 5, kappa, p: 0.1, delta: DELTA }).epsilonBit);
    expect(paper.map((e) => e.toFixed(3))).toEqual(['1.049', '0.710', '0.400']);
    expect(exact.map((e) => e.toFixed(3))).toEqual(['1.667', '1.083', '0.714']);
    // kappa 10 sits on the jump point 5/3 (never above it), and the flips LSHRR realizes there are
    // strictly below it by the margin of src/privacy/rr.ts (proved in rational arithmetic in rr.test.ts)
    expect(productAtMost(exact[0], 3, 5)).toBe(true);
    const realized = realizedPerBitEpsilon(exact[0]);
    expect(realized).toBeLessThan(exact[0]);
    expect(realized * 3).toBeLessThan(5);
    expect(productAtMost(realized, 3, 5 - 2 ** -40)).toBe(true);
  });

  it('jump points are never rounded above xi/j', () => {
    for (const xi of [0.1, 0.3, 0.5, 0.7, 1, 2, 5, 10, 20, 1 / 3]) {
      for (let j = 1; j <= 60; j++) {
        const b = jumpPoint(xi, j);
        expect(b * j <= xi).toBe(true);
        expect(productAtMost(b, j, xi)).toBe(true);
        expect(b).toBeGreaterThan((xi / j) * (1 - 1e-15));
      }
    }
  });

  it('is unbounded exactly when (1 − d)^kappa >= 1 − delta, and says so', () => {
    const r = exactEpsilon(5, 10, 0.001, 0.01); // 0.999^10 = 0.99004 >= 0.99
    expect(r.unbounded).toBe(true);
    expect(r.epsilon).toBe(Infinity);
    const a = accountEpsilon('exact', { xi: 5, kappa: 10, p: 0.001, delta: 0.01 });
    expect([a.unbounded, a.flip, a.fallback]).toEqual([true, 0, false]);
    expect(exactEpsilon(5, 11, 0.001, 0.01).unbounded).toBe(false); // 0.999^11 = 0.98906 < 0.99
    const [row] = budgetRows({ accountants: ['exact'], d: [0.001], kappa: [10], xi: [5], delta: 0.01 });
    expect([row.epsilon_bit, row.epsilon_ldp, row.unbounded]).toEqual([null, null, true]);
  });

  it('is never below the pure LDP eps and flags the fallback when that is the answer', () => {
    // kappa 1: the loss is ±eps, Pr[L > xi] = d·q for eps > xi, so the exact eps > xi unless d·q(xi) > delta
    const a = accountEpsilon('exact', { xi: 1, kappa: 1, p: 0.5, delta: 0.01 });
    expect(a.epsilonBit).toBe(jumpPoint(1, 1));
    expect(a.fallback).toBe(true);
    const b = accountEpsilon('exact', { xi: 1, kappa: 2, p: 0.005, delta: 0.01 });
    expect(b.epsilonBit).toBeGreaterThan(0.5);
    expect(b.fallback).toBe(false);
  });
});

describe('hockey-stick delta of the exact accountant', () => {
  /** sum over hash patterns and all 2^kappa outputs of (P(y) − e^xi Q(y))^+, straight from the definition. */
  function bruteHockey(kappa: number, p: number, eps: number, xi: number): number {
    const q = Math.exp(eps) / (1 + Math.exp(eps));
    let total = 0;
    for (let h = 0; h < 1 << kappa; h++) {
      // H(x) = 0…0, H(x') = h
      let weight = 1;
      for (let j = 0; j < kappa; j++) weight *= (h >> j) & 1 ? p : 1 - p;
      let inner = 0;
      for (let y = 0; y < 1 << kappa; y++) {
        let P = 1;
        let Q = 1;
        for (let j = 0; j < kappa; j++) {
          const yj = (y >> j) & 1;
          P *= yj === 0 ? q : 1 - q;
          Q *= yj === ((h >> j) & 1) ? q : 1 - q;
        }
        inner += Math.max(0, P - Math.exp(xi) * Q);
      }
      total += weight * inner;
    }
    return total;
  }

  it('equals the brute-force sum over outputs for small kappa, and is at most the tail', () => {
    for (const kappa of [1, 3, 6]) {
      for (const [p, eps, xi] of [
        [0.1, 1, 0.5],
        [0.3, 2, 1],
        [0.2, 0.7, 0],
        [0.05, 3, 2.5],
      ] as const) {
        const got = hockeyStickDelta(kappa, p, eps, xi);
        expect(got, `kappa=${kappa} p=${p} eps=${eps} xi=${xi}`).toBeCloseTo(bruteHockey(kappa, p, eps, xi), 12);
        expect(got).toBeLessThanOrEqual(exactTail(kappa, p, eps, xi) + 1e-15);
      }
    }
  });

  it("budget rows take the family's disagreement probability (1-bit MinHash: p = d/2) and keep d", () => {
    const [jac] = budgetRows({ accountants: ['exact'], d: [0.2], kappa: [20], xi: [5], delta: DELTA, disagreement: (d) => d / 2 });
    const [ang] = budgetRows({ accountants: ['exact'], d: [0.1], kappa: [20], xi: [5], delta: DELTA });
    expect(jac.d).toBe(0.2);
    expect(jac.epsilon_bit).toBe(ang.epsilon_bit);
  });

  it('is reported for exact only, below delta', () => {
    const rows = budgetRows({ accountants: ['paper', 'exact'], d: [0.1], kappa: [20], xi: [5], delta: DELTA });
    expect(rows.map((r) => r.delta_hockey === null)).toEqual([true, false]);
    expect(rows[1].delta_hockey!).toBeLessThanOrEqual(DELTA);
    expect(rows[1].delta_hockey!).toBeGreaterThan(0);
  });
});

describe('the exact tail against Monte Carlo on real hash functions', () => {
  it('random hyperplanes on two vectors at angular distance d, then randomized response', () => {
    const kappa = 20;
    const d = 0.1;
    const xi = 5;
    const m = 16; // any dimension: the two vectors span a plane
    const x = new Float64Array(m);
    const y = new Float64Array(m);
    x[0] = 1;
    y[0] = Math.cos(Math.PI * d);
    y[1] = Math.sin(Math.PI * d);
    const rng = makeRng('mc-exact-tail');
    const samples = 20000;
    for (const eps of [exactEpsilon(xi, kappa, d, DELTA).epsilon, 1.3, 0.9]) {
      let hits = 0;
      const flip = 1 / (1 + Math.exp(eps));
      for (let s = 0; s < samples; s++) {
        const planes = drawHyperplanes(rng, kappa, m);
        const out = emptyCodes(1, kappa);
        const hx: number[] = [];
        const hy: number[] = [];
        for (let j = 0; j < kappa; j++) {
          let px = 0;
          let py = 0;
          for (let c = 0; c < m; c++) {
            px += planes[j * m + c] * x[c];
            py += planes[j * m + c] * y[c];
          }
          hx.push(px >= 0 ? 1 : 0);
          hy.push(py >= 0 ? 1 : 0);
          if (hx[j]) out.codes[j >>> 5] |= 1 << (j & 31);
        }
        flipBits(out, flip, rng);
        let score = 0; // 2A − D
        for (let j = 0; j < kappa; j++) {
          if (hx[j] === hy[j]) continue;
          score += getBit(out, 0, j) === hx[j] ? 1 : -1;
        }
        if (eps * score > xi) hits++;
      }
      const want = exactTail(kappa, d, eps, xi);
      const se = Math.sqrt((want * (1 - want)) / samples);
      expect(Math.abs(hits / samples - want), `eps=${eps}: ${hits / samples} vs ${want}`).toBeLessThan(4 * se + 1e-12);
    }
  });
});

describe('lshrr mechanism accounting', () => {
  it('takes options.accountant (default paper = lshrrEpsilon); unbounded flips no bit', () => {
    const privacy = { d: 0.1, delta: 0.01 };
    expect(lshrrMechanism.accountants).toEqual(['paper', 'exact', 'theorem', 'naive']);
    const paper = lshrrMechanism.epsilon(5, 20, privacy);
    expect(paper.epsilon).toBe(lshrrEpsilon(5, 20, privacy).epsilon);
    expect(lshrrMechanism.epsilon(5, 20, privacy, { accountant: 'paper' }).epsilon).toBe(paper.epsilon);
    const exact = lshrrMechanism.epsilon(5, 20, privacy, { accountant: 'exact' });
    expect([exact.epsilon!.toFixed(4), exact.accountant, exact.fallback]).toEqual(['1.0834', 'exact', false]);
    expect(() => lshrrMechanism.epsilon(5, 20, privacy, { accountant: 'exakt' })).toThrow(/did you mean "exact"/);
    const unb = lshrrMechanism.epsilon(5, 10, { d: 0.001, delta: 0.01 }, { accountant: 'exact' });
    expect([unb.epsilon, unb.unbounded]).toEqual([Infinity, true]);
    const vectors = syntheticPair(0.3, 2).vectors;
    const planes = drawHyperplanes(makeRng('unbounded'), 40, 2);
    const projections = projectAll(vectors, planes, 40);
    const hashing = { kappa: 40, n: 2, planes, projections };
    const out = bitsOf(lshrrMechanism.encode!({ vectors, hashing, rng: makeRng('u2'), options: { accountant: 'exact' } }, unb));
    expect(Array.from(out.codes)).toEqual(Array.from(packSigns(projections, 2, 40).codes));
  });

  it('the exact search survives extreme budgets (tiny and large xi)', () => {
    expect(exactTail(20, 0.1, 1e-300, 5)).toBe(0);
    const tiny = accountEpsilon('exact', { xi: 1e-12, kappa: 20, p: 0.1, delta: 0.01 });
    expect(tiny.epsilonBit).toBeGreaterThanOrEqual(1e-12 / 20);
    expect(bruteTail(20, 0.1, tiny.epsilonBit, 1e-12)).toBeLessThanOrEqual(0.01);
    const big = accountEpsilon('exact', { xi: 500, kappa: 20, p: 0.1, delta: 0.01 });
    expect(bruteTail(20, 0.1, big.epsilonBit, 500)).toBeLessThanOrEqual(0.01);
  });
});

describe('paper, theorem and naive accountants', () => {
  it('paper is lshrrEpsilon to the last bit, fallback included', () => {
    for (const kappa of [1, 2, 10, 20, 50, 128]) {
      for (const d of [0.01, 0.05, 0.1, 0.4]) {
        for (const xi of [0, 0.5, 5, 20]) {
          const a = accountEpsilon('paper', { xi, kappa, p: d, delta: DELTA });
          const b = lshrrEpsilon(xi, kappa, { d, delta: DELTA });
          expect([a.epsilonBit, a.epsilonLdp, a.fallback]).toEqual([b.epsilon, b.ldpEpsilon, b.fallback]);
        }
      }
    }
  });

  it("theorem inverts the paper's Theorem xi = eps kappa d + eps sqrt(-ln delta / 2) sqrt(kappa)", () => {
    for (const kappa of KAPPAS) {
      for (const xi of XIS) {
        const a = accountEpsilon('theorem', { xi, kappa, p: 0.1, delta: DELTA });
        if (a.fallback) expect(a.epsilonBit).toBeCloseTo(xi / kappa, 14);
        else expect(xiGeneral(a.epsilonBit, kappa, 0.1, DELTA)).toBeCloseTo(xi, 12);
      }
    }
    // kappa·d + sqrt(-ln δ/2)·sqrt(kappa) >= kappa: the pure LDP eps wins
    expect(accountEpsilon('theorem', { xi: 5, kappa: 2, p: 0.1, delta: DELTA }).fallback).toBe(true);
    expect(accountEpsilon('theorem', { xi: 5, kappa: 4, p: 0.1, delta: DELTA }).fallback).toBe(false);
  });

  it('naive ignores delta and breaks it on the shipped audit grid; exact is between the paper and naive and keeps it', () => {
    const n1 = accountEpsilon('naive', { xi: 5, kappa: 20, p: 0.1, delta: 0.01 });
    const n2 = accountEpsilon('naive', { xi: 5, kappa: 20, p: 0.1, delta: 1e-6 });
    expect(n1.epsilonBit).toBe(2.5);
    expect(n2.epsilonBit).toBe(2.5);
    const audit = parse(readFileSync(join(import.meta.dirname, '..', '..', 'configs', 'audit.yaml'), 'utf8'));
    const { d, delta } = audit.privacy as { d: number; delta: number };
    let rows = 0;
    let differing = 0;
    for (const kappa of audit.kappa as number[]) {
      for (const xi of audit.privacy.xi as number[]) {
        const tag = `kappa=${kappa} xi=${xi}`;
        const at = (name: string) => accountEpsilon(name, { xi, kappa, p: d, delta }).epsilonBit;
        const [paper, exact, naive] = [at('paper'), at('exact'), at('naive')];
        rows++;
        expect(exact, tag).toBeGreaterThanOrEqual(paper); // the exact answer is the largest valid eps
        // the tails from the definition (bruteTail), at the accountant's eps and at what the flips realize
        for (const eps of [exact, realizedPerBitEpsilon(exact)]) expect(bruteTail(kappa, d, eps, xi), tag).toBeLessThanOrEqual(delta);
        if (naive === exact) continue;
        differing++;
        expect(naive, tag).toBeGreaterThan(exact);
        for (const eps of [naive, realizedPerBitEpsilon(naive)]) expect(bruteTail(kappa, d, eps, xi), `naive ${tag}`).toBeGreaterThan(delta);
      }
    }
    expect(rows).toBeGreaterThanOrEqual(15);
    expect(differing).toBe(rows); // every naive row of the shipped grid is broken
    expect(naiveAccountantWarning('configs/audit.yaml')).toMatch(/^lshdp: warning: configs\/audit\.yaml uses the naive accountant[^\n]*$/);
  });

  it('unknown accountants are a one-line UserError with a did-you-mean', () => {
    expect(() => parseAccountant('exakt')).toThrow(UserError);
    expect(() => parseAccountant('exakt')).toThrow(/unknown accountant "exakt" \(did you mean "exact"\?\)/);
    expect(() => accountEpsilon('paper', { xi: -1, kappa: 10, p: 0.1, delta: 0.01 })).toThrow(UserError);
  });
});
