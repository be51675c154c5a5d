import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { accountEpsilon, ACCOUNTANT_NAMES } from '../../src/privacy/accountants.js';
import { flipProbability, realizedFlipCount, realizedFlipProbability, realizedPerBitEpsilon } from '../../src/privacy/rr.js';
import { makeRng } from '../../src/random/rng.js';

/*
 * The margin below the jump points, proved without floating point: every double is an exact
 * rational (BigInt numerator over a power of two), e^x is bracketed by its Taylor partial sum (a
 * lower bound for x >= 0) and that sum plus a bound on the remainder (an upper bound), and every
 * comparison is an integer comparison of cross products.
 */

interface Rational {
  num: bigint;
  den: bigint;
}

/** A finite double >= 0 as the exact rational it stores. */
function exact(x: number): Rational {
  if (!(Number.isFinite(x) && x >= 0)) throw new RangeError(`not a finite double >= 0: ${x}`);
  if (x === 0) return { num: 0n, den: 1n };
  const view = new DataView(new ArrayBuffer(8));
  view.setFloat64(0, x);
  const bits = view.getBigUint64(0);
  const biased = Number((bits >> 52n) & 0x7ffn);
  const fraction = bits & ((1n << 52n) - 1n);
  const mantissa = biased === 0 ? fraction : fraction | (1n << 52n);
  const shift = (biased === 0 ? 1 : biased) - 1075; // x = mantissa · 2^shift
  if (shift >= 0) return { num: mantissa << BigInt(shift), den: 1n };
  let num = mantissa;
  let den = 1n << BigInt(-shift);
  while ((num & 1n) === 0n && den > 1n) {
    num >>= 1n;
    den >>= 1n;
  }
  return { num, den };
}

/** a < b for rationals with positive denominators. */
const less = (a: Rational, b: Rational): boolean => a.num * b.den < b.num * a.den;

/** Enough Taylor terms that the remainder of e^x is below 2^-100 of the sum (x <= 40). */
const termsFor = (x: Rational): number => Math.ceil(3 * (Number(x.num) / Number(x.den)) + 90);

/** Σ_{n<=N} x^n/n! with one common denominator den^N·N!: a lower bound on e^x for x >= 0. */
function expLower(x: Rational, terms = termsFor(x)): Rational {
  const { num: a, den: b } = x;
  let sum = 0n;
  let term = 1n; // a^n · b^(N−n) · N!/n!, built from n = N down to 0
  for (let n = terms; n >= 0; n--) {
    sum += term * a ** BigInt(n);
    term *= b * BigInt(n === 0 ? 1 : n);
  }
  let den = b ** BigInt(terms);
  for (let n = 2; n <= terms; n++) den *= BigInt(n);
  return { num: sum, den };
}

/** The lower sum plus x^(N+1)/(N+1)! · (N+2)/(N+2−x), which bounds the remainder: an upper bound on e^x. */
function expUpper(x: Rational, terms = termsFor(x)): Rational {
  const lower = expLower(x, terms);
  const { num: a, den: b } = x;
  const m = BigInt(terms + 1);
  let fact = 1n;
  for (let n = 2n; n <= m; n++) fact *= n;
  // tail = a^m (m+1) b / (b^m m! ((m+1) b − a))
  const tailNum = a ** m * (m + 1n) * b;
  const tailDen = b ** m * fact * ((m + 1n) * b - a);
  if (tailDen <= 0n) throw new RangeError('expUpper: too few terms');
  return { num: lower.num * tailDen + tailNum * lower.den, den: lower.den * tailDen };
}

const GRID = 4294967296n;

/** The realized flip probability q' as the exact rational it is, checked to lie on the 2^-32 grid. */
function realizedQ(eps: number): Rational {
  const q = exact(realizedFlipProbability(eps));
  expect((q.num * GRID) % q.den, `q' = ${realizedFlipProbability(eps)} on the 2^-32 grid`).toBe(0n);
  return q;
}

/** ((1 − q)/q)^s for a rational q in (0, 1). */
function oddsPower(q: Rational, s: number): Rational {
  return { num: (q.den - q.num) ** BigInt(s), den: q.num ** BigInt(s) };
}

/** T/2^32 as a rational. */
const onGrid = (t: number): Rational => ({ num: BigInt(t), den: GRID });

/** The largest score s in 1..kappa with eps·s <= xi in exact arithmetic (0 when none). */
function largestPassingScore(eps: number, xi: number, kappa: number): number {
  const e = exact(eps);
  const x = exact(xi);
  let s = 0;
  for (let j = 1; j <= kappa; j++) if (e.num * BigInt(j) * x.den <= x.num * e.den) s = j;
  return s;
}

const EXP_CACHE = new Map<number, Rational>();
function expLowerCached(x: number): Rational {
  let r = EXP_CACHE.get(x);
  if (!r) {
    r = expLower(exact(x));
    EXP_CACHE.set(x, r);
  }
  return r;
}

interface Cell {
  kappa: number;
  xi: number;
  d: number;
  delta: number;
}

/**
 * For every accountant at one cell, with q' = T/2^32 the flip probability the mechanism realizes:
 * ((1 − q')/q')^s < e^xi at the largest score s with eps·s <= xi (no score crosses xi that did not at
 * eps: the realized eps is strictly below the jump point), (1 − q')/q' < e^eps, and
 * realizedPerBitEpsilon is an upper bound on ln((1 − q')/q') that keeps both strict inequalities.
 */
function checkCell(c: Cell): number {
  let checked = 0;
  for (const name of ACCOUNTANT_NAMES) {
    const eps = accountEpsilon(name, { xi: c.xi, kappa: c.kappa, p: c.d, delta: c.delta }).epsilonBit;
    const tag = `${name} kappa=${c.kappa} xi=${c.xi} d=${c.d} delta=${c.delta} eps=${eps}`;
    if (eps === Infinity) {
      expect(realizedFlipProbability(eps), tag).toBe(0);
      continue;
    }
    const t = realizedQ(eps);
    expect(t.num > 0n && 2n * t.num <= t.den, tag).toBe(true);
    if (eps === 0) {
      expect(t, tag).toEqual({ num: 1n, den: 2n });
      expect(realizedPerBitEpsilon(eps)).toBe(0);
      continue;
    }
    expect(less(oddsPower(t, 1), expLowerCached(eps)), `${tag}: realized eps < eps`).toBe(true);
    const s = largestPassingScore(eps, c.xi, c.kappa);
    if (s > 0) expect(less(oddsPower(t, s), expLowerCached(c.xi)), `${tag}: realized eps·${s} < xi`).toBe(true);
    // the reported realized eps r: e^r >= (1 − q')/q' (never below the truth), r < eps, r·s < xi
    const r = realizedPerBitEpsilon(eps);
    expect(less(expLower(exact(r)), oddsPower(t, 1)), `${tag}: realizedPerBitEpsilon is an upper bound`).toBe(false);
    expect(less(exact(r), exact(eps)), `${tag}: realizedPerBitEpsilon < eps`).toBe(true);
    if (s > 0) expect(less({ num: exact(r).num * BigInt(s), den: exact(r).den }, exact(c.xi)), tag).toBe(true);
    checked++;
  }
  return checked;
}

/** The (kappa, xi, d, delta) cells of the shipped audit, quickstart and shared configs. */
function shippedCells(): Cell[] {
  const cells = new Map<string, Cell>();
  for (const file of ['audit.yaml', 'quickstart.yaml', 'shared-movielens-small.yaml', 'shared-tsmc.yaml', 'shared-tsmc-jaccard.yaml']) {
    const cfg = parse(readFileSync(join(import.meta.dirname, '..', '..', 'configs', file), 'utf8'));
    const ds: number[] = [cfg.privacy.d].flat();
    for (const kappa of cfg.kappa as number[]) {
      for (const xi of cfg.privacy.xi as number[]) {
        for (const d of ds) cells.set(`${kappa}|${xi}|${d}|${cfg.privacy.delta}`, { kappa, xi, d, delta: cfg.privacy.delta });
      }
    }
  }
  return [...cells.values()];
}

describe('the rational arithmetic of this test', () => {
  it('reads doubles exactly and brackets e^x', () => {
    expect(exact(0.5)).toEqual({ num: 1n, den: 2n });
    expect(exact(3)).toEqual({ num: 3n, den: 1n });
    const tenth = exact(0.1);
    expect(tenth).toEqual({ num: 3602879701896397n, den: 2n ** 55n });
    expect(Number(tenth.num) / Number(tenth.den)).toBe(0.1);
    for (const x of [0.25, 1, 5, 20, 30]) {
      const lo = expLower(exact(x));
      const hi = expUpper(exact(x));
      expect(less(lo, hi)).toBe(true);
      expect(Number((lo.num * 10n ** 30n) / lo.den) / 1e30).toBeCloseTo(Math.exp(x), 6);
    }
    // e = 2.718281828459045235...: the brackets hold it between two 20-digit rationals
    expect(less(expLower(exact(1)), { num: 2718281828459045236n, den: 10n ** 18n })).toBe(true);
    expect(less({ num: 2718281828459045235n, den: 10n ** 18n }, expUpper(exact(1)))).toBe(true);
  });
});

describe('realizedPerBitEpsilon: the margin below the jump points, in rational arithmetic', () => {
  it('keeps the realized per-bit eps strictly below eps and below xi/s on the shipped grid', () => {
    const cells = shippedCells();
    expect(cells.length).toBeGreaterThanOrEqual(15);
    let checked = 0;
    for (const c of cells) checked += checkCell(c);
    expect(checked).toBeGreaterThan(3 * cells.length);
  });

  it('does so at random (kappa, xi, d, delta) from a seeded generator', () => {
    const rng = makeRng('rr-margin-random-cells');
    let checked = 0;
    for (let i = 0; i < 120; i++) {
      const kappa = 1 + Math.floor(rng() * 64);
      // half the budgets are ratios m/j, which put the exact accountant on a jump point more often
      const xi = rng() < 0.5 ? Math.floor(1 + rng() * 60) / Math.floor(1 + rng() * 12) : 0.01 + rng() * 25;
      const d = 0.005 + rng() * 0.45;
      const delta = 10 ** -(1 + rng() * 5);
      checked += checkCell({ kappa, xi, d, delta });
    }
    expect(checked).toBeGreaterThan(300);
  });

  it('holds where the margin-free probability would have sat exactly on the grid below the true q', () => {
    // eps whose computed flip probability q_d is exactly T0/2^32 while the true 1/(1+e^eps) is larger:
    // with q' = q_d (no margin) the realized eps would exceed eps; with the margin it stays below
    const found: number[] = [];
    for (let t0 = 2 ** 20 + 7; found.length < 5 && t0 < 2 ** 31; t0 = Math.floor(t0 * 1.37) + 1) {
      const centre = Math.log((2 ** 32 - t0) / t0);
      for (let k = -40; k <= 40; k++) {
        const eps = centre + k * Number.EPSILON * centre;
        if (flipProbability(eps) * 2 ** 32 !== t0) continue;
        // true q > t0/2^32  <=>  e^eps < (2^32 − t0)/t0
        if (less(expUpper(exact(eps)), oddsPower(onGrid(t0), 1))) found.push(eps);
      }
    }
    expect(found.length).toBeGreaterThanOrEqual(3);
    for (const eps of found) {
      const t = realizedQ(eps);
      expect(less(oddsPower(t, 1), expLower(exact(eps))), `eps=${eps}`).toBe(true);
      expect(realizedPerBitEpsilon(eps)).toBeLessThan(eps);
    }
  });

  it('rounds to the grid only upwards, by less than 2^-32 plus the margin', () => {
    for (const eps of [1e-9, 0.01, 0.5, 1, 5 / 3, 2.5, 10, 20]) {
      const q = flipProbability(eps);
      const q2 = realizedFlipProbability(eps);
      expect(q2).toBeGreaterThan(q);
      expect(q2 - q).toBeLessThan(2 ** -32 + q * 2 ** -39);
      expect(realizedFlipCount(eps)).toBe(q2 * 2 ** 32);
    }
  });

  it('has the edge values: eps 0, tiny, huge, Infinity; rejects a negative eps', () => {
    expect(realizedPerBitEpsilon(0)).toBe(0);
    expect(realizedFlipProbability(0)).toBe(0.5);
    expect(realizedPerBitEpsilon(1e-12)).toBe(0); // rounds up to 1/2: the random-hash law
    expect(realizedPerBitEpsilon(Infinity)).toBe(Infinity);
    expect(realizedFlipProbability(Infinity)).toBe(0);
    // beyond 32 ln 2 the grid's smallest step 2^-32 is the realized flip probability
    expect(realizedFlipProbability(1000)).toBe(2 ** -32);
    expect(realizedPerBitEpsilon(1000)).toBeCloseTo(32 * Math.LN2, 8);
    expect(realizedPerBitEpsilon(1000)).toBeLessThan(1000);
    expect(() => realizedPerBitEpsilon(-1)).toThrow(RangeError);
    expect(() => realizedPerBitEpsilon(Number.NaN)).toThrow(RangeError);
  });
});
