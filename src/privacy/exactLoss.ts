/*
 * The exact privacy-loss distribution of eps-LSHRR for two inputs whose hash bits disagree with
 * probability p each (angular LSH: p = d; MinHash-bit families supply their own p).
 *
 * With the hash seeds r shared (revealed to the adversary), only the D bits on which H(x) and H(x')
 * differ carry information: D ~ Bin(kappa, p) over the seeds. Randomized response keeps each bit
 * with probability q = e^eps / (1 + e^eps); for y ~ Q_r(x), let A be the number of those D bits on
 * which y agrees with H(x), A | D ~ Bin(D, q). The loss is
 *   L = ln(Q_r(x)[y] / Q_r(x')[y]) = A·eps − (D − A)·eps = eps·(2A − D),
 * since an agreeing bit has likelihood ratio q/(1−q) = e^eps and a disagreeing one e^−eps; the
 * kappa − D bits where the hashes agree have ratio 1. (xi, delta)-PXDP at p holds iff
 * Pr[L > xi] ≤ delta, a finite double sum computed here with log-space binomial weights.
 */
import { UserError } from '../util/errors.js';

/** ln(k!) for k = 0..n by summing logs (exact to a few ulps for the n of hash lengths). */
function logFactorials(n: number): Float64Array {
  const out = new Float64Array(n + 1);
  for (let k = 2; k <= n; k++) out[k] = out[k - 1] + Math.log(k);
  return out;
}

const LOG_FACT_CACHE: Float64Array[] = [];
function logFact(n: number): Float64Array {
  let t = LOG_FACT_CACHE[0];
  if (!t || t.length <= n) {
    t = logFactorials(Math.max(n, 2 * (t?.length ?? 64)));
    LOG_FACT_CACHE[0] = t;
  }
  return t;
}

/** ln C(n, k) (0 <= k <= n). */
export function logChoose(n: number, k: number): number {
  const f = logFact(n);
  return f[n] - f[k] - f[n - k];
}

/** ln of the Bin(n, p) probability mass at k; ln p and ln(1−p) given for accuracy near 0 and 1. */
export function logBinomialPmf(k: number, n: number, logP: number, log1mP: number): number {
  if (k < 0 || k > n) return -Infinity;
  const a = k === 0 ? 0 : k * logP;
  const b = n - k === 0 ? 0 : (n - k) * log1mP;
  return logChoose(n, k) + a + b;
}

/** ln q and ln(1 − q) of randomized response with budget eps (q = 1/(1+e^−eps)), without overflow. */
export function logKeep(eps: number): { logQ: number; log1mQ: number } {
  if (eps === Infinity) return { logQ: 0, log1mQ: -Infinity };
  // ln q = −ln(1 + e^−eps), ln(1−q) = −eps − ln(1 + e^−eps)
  const l = Math.log1p(Math.exp(-eps));
  return { logQ: -l, log1mQ: -eps - l };
}

/** Checks a per-bit disagreement probability p of the hash family (from configs: UserError). */
export function checkBitProbability(p: number): void {
  if (!(p > 0 && p < 1)) throw new UserError(`privacy: the per-bit disagreement probability p must be in (0, 1), got ${p}`);
}

/** The D-weights ln Pr[D = D0], D ~ Bin(kappa, p). */
function logDWeights(kappa: number, p: number): Float64Array {
  const w = new Float64Array(kappa + 1);
  const lp = Math.log(p);
  const l1p = Math.log1p(-p);
  for (let dd = 0; dd <= kappa; dd++) w[dd] = logBinomialPmf(dd, kappa, lp, l1p);
  return w;
}

/**
 * Pr[2A − D >= sMin] at per-bit budget eps: the loss tail for the event "the score 2A − D reaches
 * sMin". sMin > kappa gives 0. Used with the sMin of a fixed interval between jump points.
 */
export function scoreTail(kappa: number, p: number, eps: number, sMin: number): number {
  if (sMin > kappa) return 0;
  const w = logDWeights(kappa, p);
  const { logQ, log1mQ } = logKeep(eps);
  let total = 0;
  for (let dd = Math.max(0, sMin); dd <= kappa; dd++) {
    // 2A − D >= sMin  <=>  A >= ceil((D + sMin) / 2)
    const aMin = Math.max(0, Math.ceil((dd + sMin) / 2));
    let inner = 0;
    for (let a = aMin; a <= dd; a++) inner += Math.exp(logBinomialPmf(a, dd, logQ, log1mQ));
    total += Math.exp(w[dd]) * inner;
  }
  return total;
}

/**
 * The smallest integer s >= 1 with eps·s > xi in floating point (the same comparison an audit makes
 * on a computed loss eps·(2A − D)), or kappa + 1 when no score up to kappa exceeds xi.
 */
export function minExceedingScore(eps: number, xi: number, kappa: number): number {
  if (eps === Infinity) return 1;
  if (!(eps > 0)) return kappa + 1;
  let s = Math.floor(xi / eps) + 1;
  if (!(s <= kappa + 1)) s = kappa + 1; // also xi/eps = Infinity (tiny eps)
  if (s < 1) s = 1;
  while (s > 1 && eps * (s - 1) > xi) s--;
  while (s <= kappa && !(eps * s > xi)) s++;
  return Math.min(s, kappa + 1);
}

/** Pr[L_eps > xi] for inputs whose bits disagree with probability p (exact; see the file comment). */
export function exactTail(kappa: number, p: number, eps: number, xi: number): number {
  if (eps === 0) return xi < 0 ? 1 : 0;
  return scoreTail(kappa, p, eps, minExceedingScore(eps, xi, kappa));
}

/** Pr[D >= 1] = 1 − (1 − p)^kappa: the tail's limit as eps grows (every differing bit kept). */
export function tailLimit(kappa: number, p: number): number {
  return -Math.expm1(kappa * Math.log1p(-p));
}

/**
 * The hockey-stick divergence E_{r, y ~ Q_r(x)}[(1 − e^{xi − L})^+] of the joint (seeds, output)
 * distributions of x and x' — the smallest delta with Pr[(r, Q_r(x)) ∈ S] <= e^xi Pr[(r, Q_r(x')) ∈ S]
 * + delta for all S, i.e. approximate (xi, delta)-XDP with the hash seeds revealed.
 * Derivation: for fixed r, sum_y (P_r(y) − e^xi P'_r(y))^+ = sum_y P_r(y) (1 − e^xi e^{−L(y)})^+, and
 * L(y) depends on y only through A, so the sum is E_{A|D}[(1 − e^{xi − eps(2A−D)})^+]; averaging over
 * r only D matters. Never larger than Pr[L > xi] (each term is at most the indicator L > xi).
 */
export function hockeyStickDelta(kappa: number, p: number, eps: number, xi: number): number {
  if (eps === Infinity) return tailLimit(kappa, p);
  if (!(eps > 0)) return 0;
  const w = logDWeights(kappa, p);
  const { logQ, log1mQ } = logKeep(eps);
  let total = 0;
  for (let dd = 1; dd <= kappa; dd++) {
    let inner = 0;
    for (let a = 0; a <= dd; a++) {
      const loss = eps * (2 * a - dd);
      if (!(loss > xi)) continue;
      inner += Math.exp(logBinomialPmf(a, dd, logQ, log1mQ)) * -Math.expm1(xi - loss);
    }
    total += Math.exp(w[dd]) * inner;
  }
  return total;
}

/** Dekker's split: x = hi + lo with hi holding the upper 26 bits (exact products below). */
function split(x: number): [number, number] {
  const c = 134217729 * x; // 2^27 + 1
  const hi = c - (c - x);
  return [hi, x - hi];
}

/** Whether b·j <= xi holds in exact real arithmetic (Dekker's exact product of two doubles). */
export function productAtMost(b: number, j: number, xi: number): boolean {
  const prod = b * j;
  if (prod !== xi) return prod < xi;
  const [bh, bl] = split(b);
  const [jh, jl] = split(j);
  const err = bh * jh - prod + bh * jl + bl * jh + bl * jl; // b·j − prod exactly
  return err <= 0;
}

/** The largest double b <= xi / j in real arithmetic (a jump point, never rounded above). */
export function jumpPoint(xi: number, j: number): number {
  let b = xi / j;
  while (!productAtMost(b, j, xi)) b = nextDown(b);
  return b;
}

const F64 = new Float64Array(1);
const I64 = new BigInt64Array(F64.buffer);
/** The next double below a positive finite x. */
export function nextDown(x: number): number {
  if (x === 0) return -Number.MIN_VALUE;
  F64[0] = x;
  I64[0] = x > 0 ? I64[0] - 1n : I64[0] + 1n;
  return F64[0];
}

export interface ExactEpsilon {
  /** the largest eps >= 0 with Pr[L_eps > xi] <= delta; Infinity when unbounded */
  epsilon: number;
  /** true when every eps passes: (1 − p)^kappa >= 1 − delta */
  unbounded: boolean;
  /** Pr[L_eps > xi] at the returned eps (<= delta) */
  tail: number;
}

/**
 * The exact accountant: the largest per-bit eps with Pr[L_eps > xi] <= delta.
 *
 * Shape of the tail in eps (xi > 0): on each interval (xi/(j+1), xi/j] the event {L > xi} is the
 * fixed event {2A − D >= j + 1} and the tail rises continuously with q (a binomial tail increases
 * with its success probability); just after each jump point xi/j the event gains the score j and
 * the tail jumps up. Below xi/kappa the event is empty (the pure LDP bound). Above xi the event is
 * {2A − D >= 1}, whose probability tends to Pr[D >= 1] as eps grows: when that limit is <= delta,
 * every eps passes (unbounded).
 * Search: R(j) = the tail just after xi/j is non-increasing in j, so binary search finds the
 * smallest jump point whose right limit breaks delta; the answer is that jump point when the tail
 * at its left is still <= delta, else the bisection root inside that interval (bisection down to
 * adjacent doubles, keeping the passing end: never above the true answer).
 * xi = 0 returns eps = 0 (protocol §5: the random-hash baseline) unless unbounded.
 */
export function exactEpsilon(xi: number, kappa: number, p: number, delta: number): ExactEpsilon {
  checkBitProbability(p);
  const limit = tailLimit(kappa, p);
  if (limit <= delta) return { epsilon: Infinity, unbounded: true, tail: limit };
  return largestPassingEpsilon(xi, kappa, delta, (eps, sMin) => scoreTail(kappa, p, eps, sMin));
}

/**
 * The search of exactEpsilon for any loss ε·S with an integer score S ≤ kappa whose tail
 * `scoreTailAt(eps, sMin)` = Pr[S >= sMin] at per-position ε has the shape described there: for
 * each sMin non-decreasing and continuous in ε, Pr[S >= 1] tending to a limit > delta as ε grows
 * (the caller checks the unbounded case first), and the score tail non-increasing in sMin. LSHRR's
 * S = 2A − D (scoreTail) and bucket MinHash's S = N₊ − N₋ (src/privacy/bucketRr.ts) both have it.
 * Returns the largest ε with Pr[ε·S > xi] <= delta (never above the true answer; xi = 0 gives 0).
 */
export function largestPassingEpsilon(xi: number, kappa: number, delta: number, scoreTailAt: (eps: number, sMin: number) => number): ExactEpsilon {
  if (xi === 0) return { epsilon: 0, unbounded: false, tail: 0 };
  // right limit at jump point j (j = 1..kappa): event {score >= j}, q at xi/j
  const rightLimit = (j: number): number => scoreTailAt(jumpPoint(xi, j), j);
  // largest j in 1..kappa with rightLimit(j) > delta (the set is a prefix 1..jStar), or 0
  let lo = 0; // rightLimit(lo) > delta holds for lo >= 1 (invariant), lo = 0 is "none"
  let hi = kappa + 1; // rightLimit(hi) <= delta (hi = kappa + 1: empty event)
  if (rightLimit(1) <= delta) {
    lo = 0;
  } else {
    lo = 1;
    while (hi - lo > 1) {
      const mid = (lo + hi) >> 1;
      if (rightLimit(mid) > delta) lo = mid;
      else hi = mid;
    }
  }
  const jStar = lo;
  const sMin = jStar + 1; // the event on the interval (xi/(jStar+1), xi/jStar]
  const tailAt = (eps: number) => scoreTailAt(eps, sMin);
  let a = sMin > kappa ? 0 : jumpPoint(xi, sMin); // passes (right limit at sMin <= delta, or empty)
  let b: number;
  if (jStar >= 1) {
    const top = jumpPoint(xi, jStar);
    const atTop = tailAt(top);
    if (atTop <= delta) return { epsilon: top, unbounded: false, tail: atTop };
    b = top;
  } else {
    // interval (xi, ∞): grow until the tail breaks delta (it tends to limit > delta)
    b = Math.max(2 * xi, 1);
    while (tailAt(b) <= delta * (1 - 1e-10)) {
      a = b;
      b *= 2;
      if (b > 1e6) throw new Error('exactEpsilon: no upper bracket (tail limit too close to delta)');
    }
  }
  // bisection: tailAt(a) <= delta < tailAt(b). Inside an interval the root has tail = delta up to
  // rounding, so it aims a hair below (relative 1e-10 of delta, far less than 1e-9 in eps): another
  // summation order of the same tail must not find the returned eps above delta.
  const target = delta * (1 - 1e-10);
  for (let iter = 0; iter < 2000; iter++) {
    const mid = a + (b - a) / 2;
    if (mid <= a || mid >= b || b - a <= 1e-13 * b) break;
    if (tailAt(mid) <= target) a = mid;
    else b = mid;
  }
  return { epsilon: a, unbounded: false, tail: tailAt(a) };
}
