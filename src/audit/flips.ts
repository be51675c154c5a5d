/**
 * The flip-rate test of a per-bit randomizer (LSHRR): what the release does on the bits that carry
 * the privacy loss.
 *
 * Over the samples, the bits where the pair's clean codes differ (D per sample, for the output of
 * x and for that of x') flip k times out of n. For independent flips at rate q, k ~ Bin(n, q) given
 * the hashings, and the realized per-bit ε is |ln((1 − q)/q)| (a rate above ½ leaks as much as its
 * mirror 1 − q). The claim (ξ, δ) at d holds for per-bit flips at ε iff the exact tail at ε is at most
 * δ, which never decreases in ε, so the claim allows every ε up to ε* = max{ε : exact tail <= δ}: the
 * rate must lie in [q*, 1 − q*], q* = 1/(1 + e^ε*). The test rejects that when the two-sided
 * Clopper–Pearson interval of q at the row's level excludes it (its p-value is
 * 2·min(Pr[X <= k; q*], Pr[X >= k; 1 − q*])), i.e. when the one-sided lower bound of the realized ε
 * exceeds ε*. It tests ε, not the tail (a step function of ε). The same interval against the
 * declared rate is the law test of the flips (law-mismatch, with the direction).
 */
import { flipProbability } from '../privacy/rr.js';
import { binomialUpperP, clopperPearson } from '../stats/binomial.js';
import type { LawDirection } from './types.js';
import { binomialCdf } from '../vendor/stdlib.js';

/** |ln((1 − q)/q)|: the per-bit privacy loss of flips at rate q; Infinity at q = 0 or 1. */
export function epsilonOfFlipRate(q: number): number {
  const m = Math.min(q, 1 - q);
  if (!(m > 0)) return Infinity;
  return Math.log1p((1 - 2 * m) / m);
}

/** The (1 − level) interval of the realized per-bit ε from the two-sided Clopper–Pearson interval of
 *  the flip rate (k flips of n bits); [0, ∞] without bits. */
export function epsilonInterval(k: number, n: number, level: number): [number, number] {
  if (n === 0) return [0, Infinity];
  const [lo, hi] = clopperPearson(k, n, level);
  if (hi < 0.5) return [epsilonOfFlipRate(hi), epsilonOfFlipRate(lo)];
  if (lo > 0.5) return [epsilonOfFlipRate(lo), epsilonOfFlipRate(hi)];
  return [0, Math.max(epsilonOfFlipRate(lo), epsilonOfFlipRate(hi))];
}

/** The p-value of "the realized per-bit ε exceeds `allowed`" from k flips of n bits (1 when allowed
 *  is infinite or no bit was seen). */
export function flipRateP(k: number, n: number, allowed: number): number {
  if (n === 0 || allowed === Infinity) return 1;
  const qStar = flipProbability(allowed);
  return Math.min(1, 2 * Math.min(binomialCdf(k, n, qStar), binomialUpperP(k, n, 1 - qStar)));
}

/** How k flips of n depart from the declared rate q (at `level`, two-sided): null when they do not. */
export function flipDirection(k: number, n: number, declared: number, level: number): LawDirection | null {
  if (n === 0) return null;
  const [lo, hi] = clopperPearson(k, n, level);
  if (lo <= declared && declared <= hi) return null;
  const [eLo, eHi] = epsilonInterval(k, n, level);
  const eps = epsilonOfFlipRate(declared);
  if (eLo > eps) return 'riskier';
  if (eHi < eps) return 'safer';
  return 'crossing'; // the mirror rate: as much loss, another law
}

/**
 * Pr[the flip-rate test rejects at `level`] when n bits flip at rate q, against `allowed`: the
 * exact binomial probability of its two rejection regions (n rounded to an integer).
 */
export function flipTestPower(n: number, q: number, allowed: number, level: number): number {
  const bits = Math.round(n);
  if (!(bits >= 1) || allowed === Infinity) return 0;
  const qStar = flipProbability(allowed);
  // the largest k with Pr[X <= k; q*] <= level/2, and the smallest with Pr[X >= k; 1 − q*] <= level/2
  let lo = -1;
  let hi = bits;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (binomialCdf(mid, bits, qStar) <= level / 2) lo = mid;
    else hi = mid;
  }
  const kLow = lo;
  lo = 0;
  hi = bits + 1;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (binomialUpperP(mid, bits, 1 - qStar) <= level / 2) hi = mid;
    else lo = mid;
  }
  const kHigh = hi;
  const below = kLow >= 0 ? binomialCdf(kLow, bits, q) : 0;
  const above = kHigh <= bits ? binomialUpperP(kHigh, bits, q) : 0;
  return Math.min(1, below + above);
}
