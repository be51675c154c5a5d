/**
 * Rows of releases that are not bits (symbols, reals), tested on the law they declare
 * (Mechanism.releaseLaw, src/mechanisms/releaseLaw.ts; docs/PRIVACY.md "Releases that are not
 * bits"). Each sample runs the mechanism's own encode on a fresh hashing of the pair, at ε and at
 * ε = ∞ (the clean release, on replayed noise: sampling.ts releasePair), and keeps what the release
 * put around its clean release; the declared law of that hashing says what it should be. The
 * parameter of the noise is estimated from what was released, and the claim is judged at the
 * parameter's confidence bound, not at the declared one:
 *
 * - `gaussian`: residuals r = (y − clean)/σ_declared, Σr² ~ ρ²·χ²_n for n coordinates (ρ the ratio
 *   of the realized σ to the declared one). The one-sided upper bound ρ_ub = √(Σr²/χ²_n(level))
 *   (least noise consistent with the samples) gives the precision's lower bound ε/ρ_ub; `violated`
 *   when the claim fails there, i.e. ρ_ub < ρ*, the least noise the claim allows in declared units
 *   (jl-expected: jlGaussianSigma at the pair's distance over σ_declared; sensitivity: σ for the
 *   sensitivity from gaussianSigmaForSensitivity over σ_declared, the largest over the samples).
 *   Law tests (two-sided, `law-mismatch`): Σr² against χ²_n at ρ = 1, and KS of r/ρ̂ against N(0, 1).
 * - `laplace`: residuals e = (y − clean)/scale_declared; on the positions where the pair's clean
 *   releases differ (those carry the loss) 2Σ|e| ~ τ·χ²_{2n} (|e| is Exp with mean τ), the upper
 *   bound τ_ub = 2Σ|e|/χ²_{2n}(level) gives ε′_lb = ε′_declared/τ_ub, judged against the claim
 *   (positions: the smallest ε′ whose tail's lower bound exceeds δ, laplaceFailingEpsilon; ldp: ξ/κ).
 *   Law tests: 2Σ|e| over every position against χ²_{2n} at τ = 1, KS of e/τ̂ against Laplace(1).
 * - `bary-rr`: on the differing positions k of n kept: the realized ε′ = |ln(q(b − 1)/(1 − q))| from
 *   the two-sided Clopper–Pearson interval of q (as LSHRR's flip rate: its one-sided lower end),
 *   against ε* (positions: bucketExactEpsilon, the exact trinomial accountant at the declared
 *   disagreement; ldp: ξ/κ). Law tests: the keep rate on every position against the declared one,
 *   and Pearson's χ² of the replaced symbols, by offset (y − clean mod b) and by value, against
 *   uniform over the other b − 1.
 *
 * Before sampling, the declaration itself: the claim's tail at the declared parameter must be at most
 * δ (`declared-tail`, deterministic). The law tests share the row's level (Bonferroni), so a release
 * that is what it declares shows `law-mismatch` with probability at most the row's level.
 */
import type { Mechanism, MechanismContext } from '../mechanisms/types.js';
import type { ReleaseClaim, ReleaseLaw } from '../mechanisms/releaseLaw.js';
import type { EpsilonInfo, PrivacyParams } from '../privacy/types.js';
import type { TrialHashing } from '../lsh/hyperplanes.js';
import type { UserVectors } from '../data/types.js';
import type { Float64Alloc } from '../util/bufferPool.js';
import { releaseLength, releaseRows, unpackSymbols, type ReleaseSet } from '../lsh/releases.js';
import { deriveSeed, makeRng, type Rng } from '../random/rng.js';
import { xoshiroUniform, zigguratState } from '../random/ziggurat.js';
import { gaussianSigmaForSensitivity, jlGaussianSigma, jlGaussianTail } from '../privacy/gaussian.js';
import { bucketExactEpsilon, bucketExactTail } from '../privacy/bucketRr.js';
import { laplaceFailingEpsilon, laplacePositionTail } from '../privacy/laplaceLoss.js';
import { binomialLowerP, binomialUpperP, clopperPearson } from '../stats/binomial.js';
import { UserError } from '../util/errors.js';
import { NOT_TESTABLE_FACTOR, POWER_TARGET } from './defaults.js';
import { predictedFactor, samplesNeeded } from './inflation.js';
import { dkwPValue } from './laws.js';
import { chi2Cdf, chi2Quantile, chi2TwoSidedP, ksContinuous, pearson, scaleUpperBound, standardLaplaceCdf, standardNormalCdf, twoRegionPower } from './lawStats.js';
import { releasePair, type Hasher } from './sampling.js';
import { scaledEps } from './claim.js';
import type { AuditEntry, AuditPlan, AuditResult, Candidate, LawDirection, LawScaleTest } from './types.js';

/** What a sampled release-law row keeps: per released entry (sample × user × coordinate). */
export interface LawSamples {
  /** entries filled */
  count: number;
  /** gaussian, laplace: (y − clean)/scale declared for the entry's sample */
  residuals: Float64Array;
  /** bary-rr: the clean and the released symbol */
  clean: Uint8Array;
  out: Uint8Array;
  /** 1 where the pair's clean releases differ at the entry's coordinate (those carry the loss) */
  differing: Uint8Array;
  /** the declared law of the first sample with a law (its claim is the row's) */
  law: ReleaseLaw | null;
  /** samples whose mechanism declared no law (null) */
  lawless: number;
  /** gaussian `sensitivity` claims: the largest Δ/σ_declared over the samples (the worst sample) */
  worstRatio: number;
  /** coordinates per sample (both users) */
  perSample: number;
  /** what the mechanism's `epsilon` received (its law gets the same) */
  privacy: PrivacyParams;
}

/** An empty store for `samples` samples of a release of κ coordinates a user. */
export function lawSamples(samples: number, kappa: number, privacy: PrivacyParams): LawSamples {
  const n = samples * 2 * kappa;
  return {
    count: 0,
    residuals: new Float64Array(n),
    clean: new Uint8Array(n),
    out: new Uint8Array(n),
    differing: new Uint8Array(n),
    law: null,
    lawless: 0,
    worstRatio: 0,
    perSample: 2 * kappa,
    privacy,
  };
}

/** What a release-law row needs of its sampled row (verdicts.ts SampledRow has it). */
export interface LawRow {
  entry: AuditEntry;
  mechanism: Mechanism;
  kappa: number;
  xi: number;
  eps: EpsilonInfo;
  options: Record<string, unknown>;
  candidates: Candidate[];
  chosen: number;
  law?: LawSamples;
}

/** The privacy parameters `epsilon` received for this mechanism (src/privacy/onFamily.ts's rule). */
export function lawPrivacy(m: Mechanism, plan: AuditPlan, p: (d: number) => number): PrivacyParams {
  return m.budgetDistance === 'family' ? { d: plan.d, delta: plan.delta } : { d: p(plan.d), delta: plan.delta };
}

/**
 * MechanismContext.perTrial for one sample's hashing: the values a mechanism shares across the ξ of
 * a trial (jl-gaussian's σ_max(W)) are computed once per hashing and mechanism, on a source of their
 * own (seeded by the sample's key), so that the clean release, the release and the law see the same
 * ones and the noise stream is not touched.
 */
const memos = new WeakMap<TrialHashing, Map<string, unknown>>();
export function perTrialOf(hashing: TrialHashing, m: Mechanism, seed: string): NonNullable<MechanismContext['perTrial']> {
  let memo = memos.get(hashing);
  if (!memo) {
    memo = new Map();
    memos.set(hashing, memo);
  }
  const cache = memo;
  const alloc: Float64Alloc = (n: number) => new Float64Array(n);
  return <T>(key: string, make: (rng: Rng, alloc: Float64Alloc) => T): T => {
    const k = `${m.name}\u0000${key}`;
    if (!cache.has(k)) cache.set(k, make(makeRng(deriveSeed(seed, m.name, key)), alloc));
    return cache.get(k) as T;
  };
}

/** The real values of a release (gaussian, laplace laws), or a one-line error. */
function realsOf(m: Mechanism, set: ReleaseSet, what: string): Float64Array {
  if (!('kind' in set) || set.kind !== 'reals') throw new UserError(`audit: mechanism ${m.name} declares a ${what} law for reals but its ${'kind' in set ? set.kind : 'bits'} release is not reals`);
  return set.values;
}

/**
 * One sample of a release-law row into `into`: the mechanism's release at `used` (the row's ε, or a
 * pilot's factor on it) and its clean release, judged by the law it declares at the row's own ε
 * (`declared`) for this hashing.
 */
export function lawSample(into: LawSamples, row: LawRow, vectors: UserVectors, hashing: TrialHashing, rng: Rng, used: EpsilonInfo, sampleSeed: string): void {
  const m = row.mechanism;
  const perTrial = perTrialOf(hashing, m, sampleSeed);
  const law = m.releaseLaw!(row.eps, { vectors, hashing, rng: () => Number.NaN, options: row.options, perTrial }, into.privacy);
  const { clean, out } = releasePair(m, vectors, hashing, rng, row.options, used, perTrial);
  if (law === null) {
    into.lawless++;
    return;
  }
  into.law ??= law;
  if (law.noise.kind !== into.law.noise.kind || law.claim.kind !== into.law.claim.kind)
    throw new UserError(`audit: mechanism ${m.name} declared a ${law.noise.kind} law (${law.claim.kind}) on one sample and a ${into.law.noise.kind} law (${into.law.claim.kind}) on another`);
  const kappa = into.perSample / 2;
  if (releaseRows(out) !== 2 || releaseLength(out) !== kappa || releaseRows(clean) !== 2 || releaseLength(clean) !== kappa)
    throw new UserError(`audit: mechanism ${m.name} released rows of ${releaseLength(out)} (clean: ${releaseLength(clean)}) for a pair hashed with κ = ${kappa}`);
  const at = into.count;
  if (law.noise.kind === 'bary-rr') {
    const b = law.noise.alphabet;
    if (!('kind' in out) || out.kind !== 'symbols' || !('kind' in clean) || clean.kind !== 'symbols' || out.alphabet !== b)
      throw new UserError(`audit: mechanism ${m.name} declares b-ary randomized response over ${b} symbols but does not release symbols of ${b}`);
    if (law.noise.keep !== (into.law.noise as { keep: number }).keep) throw new UserError(`audit: mechanism ${m.name} declared keep probabilities that differ between hashings`);
    const c = unpackSymbols(clean);
    const o = unpackSymbols(out);
    into.clean.set(c, at);
    into.out.set(o, at);
    for (let j = 0; j < kappa; j++) {
      const differs = c[j] !== c[kappa + j] ? 1 : 0;
      into.differing[at + j] = differs;
      into.differing[at + kappa + j] = differs;
    }
  } else {
    const scale = law.noise.kind === 'gaussian' ? law.noise.sigma : law.noise.scale;
    if (!(scale > 0 && scale < Infinity)) throw new UserError(`audit: mechanism ${m.name} declared a ${law.noise.kind} scale of ${scale}; a law needs a finite scale > 0`);
    const c = realsOf(m, clean, law.noise.kind);
    const o = realsOf(m, out, law.noise.kind);
    for (let i = 0; i < 2 * kappa; i++) into.residuals[at + i] = (o[i] - c[i]) / scale;
    for (let j = 0; j < kappa; j++) {
      const differs = c[j] !== c[kappa + j] ? 1 : 0;
      into.differing[at + j] = differs;
      into.differing[at + kappa + j] = differs;
    }
    if (law.claim.kind === 'sensitivity') into.worstRatio = Math.max(into.worstRatio, law.claim.sensitivity / scale);
    else if (scale !== (into.law.noise as { sigma?: number; scale?: number })[law.noise.kind === 'gaussian' ? 'sigma' : 'scale'])
      throw new UserError(`audit: mechanism ${m.name} declared a ${law.noise.kind} scale that differs between hashings under a ${law.claim.kind} claim`);
  }
  into.count += 2 * kappa;
}

// ---------------------------------------------------------------------------------------------
// Summaries and the claim

/** What the tests read of a store. */
interface Summary {
  /** the decisive statistic and its size: gaussian Σr² (n entries); laplace 2Σ|e| (df 2n); bary-rr
   *  the kept count. Over every entry for a gaussian law and an `ldp` claim (any pair: every position
   *  may differ), over the entries where the pair's clean releases differ for a `positions` claim
   *  (those carry its loss; a sampler cannot hide behind the others) */
  stat: number;
  n: number;
  /** the same over every entry (the law tests) */
  statAll: number;
  nAll: number;
  /** decisive entries per sample */
  perSample: number;
}

function summarize(s: LawSamples, samples: number): Summary {
  const kind = s.law!.noise.kind;
  const every = kind === 'gaussian' || s.law!.claim.kind !== 'positions';
  let stat = 0;
  let n = 0;
  let statAll = 0;
  for (let i = 0; i < s.count; i++) {
    const v = kind === 'gaussian' ? s.residuals[i] ** 2 : kind === 'laplace' ? 2 * Math.abs(s.residuals[i]) : s.clean[i] === s.out[i] ? 1 : 0;
    statAll += v;
    if (every || s.differing[i]) {
      stat += v;
      n++;
    }
  }
  return { stat, n, statAll, nAll: s.count, perSample: n / Math.max(1, samples) };
}

/** |ln(q(b − 1)/(1 − q))|: the per-position loss of b-ary randomized response keeping at rate q. */
export function epsilonOfKeepRate(q: number, b: number): number {
  if (!(q > 0 && q < 1)) return Infinity;
  return Math.abs(Math.log(q) + Math.log(b - 1) - Math.log1p(-q));
}

/** The keep probability at per-position ε (≥ 1/b), and its mirror below 1/b with the same loss. */
function keepAt(eps: number, b: number): { high: number; low: number } {
  if (eps === Infinity) return { high: 1, low: 0 };
  const e = Math.exp(-eps);
  return { high: 1 / (1 + (b - 1) * e), low: e / (b - 1 + e) };
}

/** The (1 − level) interval of the realized ε′ from k kept of n (two-sided Clopper–Pearson on q). */
function keepEpsilonInterval(k: number, n: number, b: number, level: number): [number, number] {
  if (n === 0) return [0, Infinity];
  const [lo, hi] = clopperPearson(k, n, level);
  if (lo > 1 / b) return [epsilonOfKeepRate(lo, b), epsilonOfKeepRate(hi, b)];
  if (hi < 1 / b) return [epsilonOfKeepRate(hi, b), epsilonOfKeepRate(lo, b)];
  return [0, Math.max(epsilonOfKeepRate(lo, b), epsilonOfKeepRate(hi, b))];
}

/** Q((ξ − μ)/√(2μ)), μ = r²/2: the loss tail of a Gaussian release whose mean moves by r noise units. */
function sensitivityTail(ratio: number, xi: number): number {
  if (ratio === 0) return 0;
  const mu = (ratio * ratio) / 2;
  return standardNormalCdf(-(xi - mu) / Math.sqrt(2 * mu));
}

/**
 * The claim of a row in the units of its decisive test:
 * - gaussian: `required` ρ* (the least σ the claim allows over the declared σ) and the claim's tail
 *   at a ratio ρ;
 * - bary-rr, laplace: `allowed` ε* (ε′ beyond which the claim fails) and the tail at an ε′.
 */
interface ClaimOf {
  /** the declared parameter: the precision (gaussian: the mechanism's own ε) or ε′ */
  declared: number;
  /** the largest parameter the claim allows (in the declared parameter's units) */
  allowed: number;
  /** Pr[L > ξ] under the claim at a parameter value */
  tailAt: (parameter: number) => number;
}

/** laplaceFailingEpsilon, kept per (ξ, κ, p, δ): a bisection of convolutions (about half a second),
 *  asked again by every repetition of the same row. */
const failing = new Map<string, number>();
function failingEpsilon(xi: number, kappa: number, p: number, delta: number): number {
  const key = `${xi}|${kappa}|${p}|${delta}`;
  let e = failing.get(key);
  if (e === undefined) {
    e = laplaceFailingEpsilon(xi, kappa, p, delta);
    failing.set(key, e);
  }
  return e;
}

function claimOf(row: LawRow, s: LawSamples, plan: AuditPlan, pairDistance: number): ClaimOf {
  const law = s.law!;
  const { xi, kappa } = row;
  const delta = plan.delta;
  const claim: ReleaseClaim = law.claim;
  if (law.noise.kind === 'gaussian') {
    // the precision is the mechanism's own ε: its σ_declared = precision_declared/precision in ratio
    const declared = row.eps.epsilon!;
    const sigma = law.noise.sigma;
    if (claim.kind === 'jl-expected') {
      const sigmaMin = jlGaussianSigma(xi, kappa, { d: pairDistance, delta });
      return { declared, allowed: declared * (sigma / sigmaMin), tailAt: (precision) => jlGaussianTail((sigma * declared) / precision, xi, kappa, pairDistance) };
    }
    if (claim.kind === 'sensitivity') {
      // every sample's Δ_i/σ_i; the claim needs σ >= σ_min,i = Δ_i/r(ξ) for each: the worst sample decides
      const worst = s.worstRatio;
      const rXi = 1 / gaussianSigmaForSensitivity(1, xi, delta);
      return { declared, allowed: declared * (rXi / worst), tailAt: (precision) => sensitivityTail((worst * precision) / declared, xi) };
    }
    throw new UserError(`audit: mechanism ${row.mechanism.name} declares a gaussian law with a ${claim.kind} claim; a gaussian law claims jl-expected or sensitivity`);
  }
  const ldp = (declared: number): ClaimOf => ({ declared, allowed: xi / kappa, tailAt: (e) => (kappa * e > xi ? 1 : 0) });
  if (law.noise.kind === 'bary-rr') {
    const { alphabet: b, keep } = law.noise;
    const declared = epsilonOfKeepRate(keep, b);
    if (claim.kind === 'ldp') return ldp(declared);
    if (claim.kind === 'positions') {
      const p = claim.disagreement;
      return { declared, allowed: bucketExactEpsilon(xi, kappa, p, b, delta).epsilon, tailAt: (e) => bucketExactTail(kappa, p, b, e, xi) };
    }
  } else {
    const declared = 1 / law.noise.scale;
    if (claim.kind === 'ldp') return ldp(declared);
    if (claim.kind === 'positions') {
      const p = claim.disagreement;
      return { declared, allowed: failingEpsilon(xi, kappa, p, delta), tailAt: (e) => laplacePositionTail(kappa, p, e, xi).lower };
    }
  }
  throw new UserError(`audit: mechanism ${row.mechanism.name} declares a ${law.noise.kind} law with a ${claim.kind} claim; it claims positions or ldp`);
}

// ---------------------------------------------------------------------------------------------
// Pilots: the release at a factor, through its own encode

/** The one-sided level of the end a pilot's parameter is taken at (against the row): 1%. */
const PILOT_END = 0.01;

/** Samples of a release-law pilot at one factor (each gives 2κ entries). */
export const LAW_PILOT_SAMPLES = 2000;

/** The hashings pilots share per (plan, candidate, κ): every factor and every row of the pair. */
const pilotHashings = new WeakMap<AuditPlan, Map<string, TrialHashing[]>>();

function pilotHashingsOf(plan: AuditPlan, cand: Candidate, kappa: number, hasher: Hasher): TrialHashing[] {
  let byKey = pilotHashings.get(plan);
  if (!byKey) {
    byKey = new Map();
    pilotHashings.set(plan, byKey);
  }
  const key = `${cand.key}|${kappa}`;
  let list = byKey.get(key);
  if (!list) {
    const rng = makeRng(deriveSeed(plan.seed, 'audit-law-power-hash', cand.key, kappa));
    list = Array.from({ length: LAW_PILOT_SAMPLES }, (_, i) => hasher(cand.vectors, kappa, rng, ['law-power', cand.key, kappa, i]));
    byKey.set(key, list);
  }
  return list;
}

/** The release of a row simulated at factor × its ε (scaledEps) on the pilots' hashings, one noise
 *  seed per sample (the same at every factor: common random numbers). Cached per factor. */
function lawPilots(row: LawRow, plan: AuditPlan, hasher: Hasher): (factor: number) => Summary {
  const cand = row.candidates[row.chosen];
  const cache = new Map<number, Summary>();
  let seeds: Int32Array | null = null;
  return (factor) => {
    let s = cache.get(factor);
    if (!s) {
      const hashings = pilotHashingsOf(plan, cand, row.kappa, hasher);
      if (!seeds) {
        const noise = makeRng(deriveSeed(plan.seed, 'audit-law-power-noise', row.entry.label, row.kappa, row.xi));
        seeds = new Int32Array(4 * hashings.length);
        for (let i = 0; i < hashings.length; i++) seeds.set(zigguratState(noise), 4 * i);
      }
      const store = lawSamples(hashings.length, row.kappa, row.law!.privacy);
      const eps = scaledEps(row.eps, factor);
      for (let i = 0; i < hashings.length; i++) {
        const state = seeds.slice(4 * i, 4 * i + 4);
        lawSample(store, row, cand.vectors, hashings[i], () => xoshiroUniform(state), eps, deriveSeed(plan.seed, 'audit-law-power-trial', cand.key, row.kappa, i));
      }
      s = summarize(store, hashings.length);
      cache.set(factor, s);
    }
    return s;
  };
}

// ---------------------------------------------------------------------------------------------
// The checks

/** What a row's tests found (verdicts.ts reads them into the verdict). */
export interface LawFindings {
  violations: string[];
  mismatches: { direction: LawDirection; text: string }[];
}

const num = (x: number): string => (x === Infinity ? '∞' : Number(x.toPrecision(4)).toString());

/** The name of the decisive test of a noise kind. */
function scaleTest(kind: ReleaseLaw['noise']['kind']): LawScaleTest {
  return kind === 'gaussian' ? 'gaussian-scale' : kind === 'laplace' ? 'laplace-scale' : 'keep-rate';
}

/**
 * The tests of a release-law row at `level` (α/m: its one one-sided sampling test), filling `r`;
 * returns whether the row is testable (some inflation up to ×100 flagged with probability >= 0.8),
 * or null when the mechanism declared no law (no sample had one).
 */
export function lawChecks(row: LawRow, r: AuditResult, plan: AuditPlan, level: number, hasher: Hasher, found: LawFindings): boolean | null {
  const s = row.law!;
  if (s.law === null) return null;
  if (s.law.claim.kind === 'ldp') Object.assign(r, { claim: 'ldp', delta: 0 });
  const kind = s.law.noise.kind;
  const cand = row.candidates[row.chosen];
  const M = plan.samples;
  const claim = claimOf(row, s, plan, cand.pair.distance);
  const test = scaleTest(kind);
  r.tests = ['declared-tail', test, kind === 'gaussian' ? 'gaussian-law' : kind === 'laplace' ? 'laplace-law' : 'rr-law'];
  r.parameter = kind === 'gaussian' ? 'precision' : 'epsilon_position';
  r.allowed = claim.allowed;
  r.epsilon_bit = row.mechanism.epsilonKind === 'bit' ? row.eps.epsilon : null;
  // the declaration: the claim's tail at the declared parameter (beyond rounding)
  r.exact_tail = claim.tailAt(claim.declared);
  if (r.exact_tail > r.delta! * (1 + 1e-9)) found.violations.push(`declared tail ${r.exact_tail.toPrecision(4)} > δ = ${r.delta} at the declared ${describeLaw(s.law)}`);
  const sum = summarize(s, M);
  // the release at ×f through its own encode (detectable_inflation below)
  const pilots = lawPilots(row, plan, hasher);
  // the decisive test, and its power at M from a summary (a pilot's, taken against the row)
  let power: (pilot: Summary, samples: number) => number;
  let predict: (factor: number, samples: number) => boolean;
  if (kind === 'gaussian' || kind === 'laplace') {
    const sq = kind === 'gaussian';
    const pow = sq ? 2 : 1;
    const df = (n: number) => (sq ? n : 2 * n);
    // the release's scale over the declared one: ρ (gaussian σ) or τ (laplace scale); the claim needs >= ratio*
    const ratioStar = claim.declared / claim.allowed;
    // no entry that carries loss (no differing position in M samples): nothing bounds the scale
    const ub = sum.n ? scaleUpperBound(sum.stat, df(sum.n), level, pow) : Infinity;
    const hat = sq ? Math.sqrt(sum.stat / sum.n) : sum.stat / (2 * sum.n);
    r.realized = sum.n ? claim.declared / hat : null;
    r.realized_lb = claim.declared / ub;
    r.realized_tail = claim.tailAt(r.realized_lb);
    r.p_release = sum.n === 0 || ratioStar === 0 ? 1 : chi2Cdf(sum.stat / ratioStar ** pow, df(sum.n));
    if (r.p_release <= level)
      found.violations.push(
        `${test}: the release's ${sq ? 'σ' : 'scale'} is at most ${num(ub)} × the declared on ${sum.n} ${sq ? 'coordinates' : s.law.claim.kind === 'positions' ? 'differing positions' : 'positions'} (confidence ${num(1 - level)}), so its ${r.parameter === 'precision' ? 'precision' : 'ε′'} is at least ${num(r.realized_lb)} > ${num(claim.allowed)} the claim allows (Pr[L > ξ] there ${num(r.realized_tail)} > δ; p ${r.p_release.toPrecision(3)})`,
      );
    // a pilot's ratio at its 99% upper end (more noise: against the row), its power at M. The power
    // is steep in the ratio (a 0.5% error halves it near the target), so the end is far out: the
    // printed factor keeps its promise unless the pilot errs by more than 2.3 of its standard errors
    const pilotRatio = (x: Summary) => scaleUpperBound(x.stat, df(x.n), PILOT_END, pow);
    const powerAt = (ratio: number, n: number) => (n < 1 ? 0 : chi2Cdf((ratioStar / ratio) ** pow * chi2Quantile(level, df(n)), df(n)));
    power = (pilot, samples) => powerAt(pilotRatio(pilot), Math.round(samples * pilot.perSample));
    predict = (factor, samples) => {
      const one = pilots(1);
      return powerAt(pilotRatio(one) / factor, Math.round(samples * one.perSample)) >= POWER_TARGET;
    };
    lawTestsContinuous(s, sum, sq, level, found, r);
  } else {
    const noise = s.law.noise as { alphabet: number; keep: number };
    const b = noise.alphabet;
    const [lo] = keepEpsilonInterval(sum.stat, sum.n, b, level);
    r.realized = sum.n ? epsilonOfKeepRate(sum.stat / sum.n, b) : null;
    r.realized_lb = lo;
    r.realized_tail = claim.tailAt(lo);
    r.flip_rate = sum.n ? 1 - sum.stat / sum.n : null;
    r.flip_bits = sum.n;
    const star = keepAt(claim.allowed, b);
    r.p_release = sum.n === 0 || claim.allowed === Infinity ? 1 : Math.min(1, 2 * Math.min(binomialUpperP(sum.stat, sum.n, star.high), binomialLowerP(sum.stat, sum.n, star.low)));
    if (r.p_release <= level)
      found.violations.push(
        `keep-rate: ${num(sum.stat / sum.n)} of ${sum.n} ${s.law.claim.kind === 'positions' ? 'differing ' : ''}positions kept: realized ε′ >= ${num(lo)} > ${num(claim.allowed)} the claim allows (Pr[L > ξ] there ${num(r.realized_tail)} > δ; p ${r.p_release.toPrecision(3)})`,
      );
    // a pilot's keep rate at the end of its one-sided 99% interval nearest the uniform law (against the row)
    const pilotKeep = (x: Summary) => {
      if (!x.n) return 1 / b;
      const [a, c] = clopperPearson(x.stat, x.n, 2 * PILOT_END);
      return a > 1 / b ? a : c < 1 / b ? c : 1 / b;
    };
    const powerAt = (q: number, n: number) => (claim.allowed === Infinity ? 0 : twoRegionPower(n, q, star.low, star.high, level));
    power = (pilot, samples) => powerAt(pilotKeep(pilot), samples * pilot.perSample);
    predict = (factor, samples) => {
      const one = pilots(1);
      const e = epsilonOfKeepRate(pilotKeep(one), b) * factor;
      const q = pilotKeep(one) >= 1 / b ? keepAt(e, b).high : keepAt(e, b).low;
      return powerAt(q, samples * one.perSample) >= POWER_TARGET;
    };
    lawTestsSymbols(s, noise, level, found, r);
  }
  // detectable inflation: the decisive test's power at M on the release simulated at ×f
  if (plan.skipInflation) return true;
  const flagged = (f: number) => power(pilots(f), M) >= POWER_TARGET;
  const f = predictedFactor(flagged, (x) => predict(x, M));
  r.detectable_inflation = f;
  r.detectable_by = f === null ? null : test;
  if (f !== null && f <= NOT_TESTABLE_FACTOR) return true;
  const needed = samplesNeeded((m) => power(pilots(NOT_TESTABLE_FACTOR), m) >= POWER_TARGET, M);
  r.samples_needed = needed;
  r.samples_needed_extrapolated = false;
  return false;
}

/** The declared law in words (reasons). */
export function describeLaw(law: ReleaseLaw): string {
  const n = law.noise;
  const noise = n.kind === 'gaussian' ? `gaussian σ ${num(n.sigma)}` : n.kind === 'laplace' ? `laplace scale ${num(n.scale)}` : `${n.alphabet}-ary randomized response keeping ${num(n.keep)}`;
  const c = law.claim;
  const claim = c.kind === 'sensitivity' ? `sensitivity ${num(c.sensitivity)}` : c.kind === 'positions' ? `positions differing with probability ${num(c.disagreement)}` : c.kind;
  return `${noise} (${claim})`;
}

/** Gaussian and Laplace law tests: the scale two-sided at ratio 1 over every entry, and the shape
 *  (KS of the residuals over their estimated scale, DKW–Massart p-value: conservative with the scale
 *  estimated); each at half the level. */
function lawTestsContinuous(s: LawSamples, sum: Summary, gaussian: boolean, level: number, found: LawFindings, r: AuditResult): void {
  const df = gaussian ? sum.nAll : 2 * sum.nAll;
  const pScale = chi2TwoSidedP(sum.statAll, df);
  const hat = gaussian ? Math.sqrt(sum.statAll / sum.nAll) : sum.statAll / (2 * sum.nAll);
  const std = new Float64Array(s.count);
  for (let i = 0; i < s.count; i++) std[i] = s.residuals[i] / hat;
  r.law_ks = ksContinuous(std, gaussian ? standardNormalCdf : standardLaplaceCdf);
  const pShape = dkwPValue(r.law_ks, s.count);
  r.p_law = Math.min(1, 2 * Math.min(pScale, pShape));
  let direction: LawDirection | null = null;
  const what = gaussian ? 'σ' : 'scale';
  if (pScale <= level / 2) {
    direction = hat < 1 ? 'riskier' : 'safer';
    found.mismatches.push({ direction, text: `${gaussian ? 'gaussian' : 'laplace'}-law: the residuals' ${what} is ${num(hat)} × the declared (p ${pScale.toPrecision(3)})` });
  }
  if (pShape <= level / 2)
    found.mismatches.push({
      direction: direction ?? 'crossing',
      text: `${gaussian ? 'gaussian' : 'laplace'}-law: the standardized residuals are not ${gaussian ? 'normal' : 'Laplace'} (KS ${r.law_ks.toPrecision(3)}, p ${pShape.toPrecision(3)})`,
    });
}

/** b-ary randomized response law tests: the keep rate over every position against the declared one
 *  (two-sided Clopper–Pearson, half the level), and the replaced symbols uniform over the other
 *  b − 1 by offset and by value (Pearson's χ², a quarter of the level each; b >= 3). */
function lawTestsSymbols(s: LawSamples, noise: { alphabet: number; keep: number }, level: number, found: LawFindings, r: AuditResult): void {
  const b = noise.alphabet;
  let kept = 0;
  const offsets = new Float64Array(b);
  const values = new Float64Array(b);
  // replaced entries by their clean symbol: each other value expects 1/(b − 1) of them
  const byClean = new Float64Array(b);
  for (let i = 0; i < s.count; i++) {
    const c = s.clean[i];
    const o = s.out[i];
    if (c === o) {
      kept++;
      continue;
    }
    offsets[(o - c + b) % b]++;
    values[o]++;
    byClean[c]++;
  }
  const n = s.count;
  const pKeep = Math.min(1, 2 * Math.min(binomialUpperP(kept, n, noise.keep), binomialLowerP(kept, n, noise.keep)));
  const replaced = n - kept;
  const expectedValues = Float64Array.from(byClean, (c) => (replaced - c) / (b - 1));
  const expectedOffsets = new Float64Array(b);
  for (let k = 1; k < b; k++) expectedOffsets[k] = replaced / (b - 1);
  const off = b >= 3 && replaced > 0 ? pearson(offsets, expectedOffsets) : { stat: 0, df: 0, p: 1 };
  const val = b >= 3 && replaced > 0 ? pearson(values, expectedValues) : { stat: 0, df: 0, p: 1 };
  r.p_law = Math.min(1, 2 * pKeep, 4 * off.p, 4 * val.p);
  let direction: LawDirection | null = null;
  if (pKeep <= level / 2) {
    const [lo, hi] = keepEpsilonInterval(kept, n, b, level);
    const declared = epsilonOfKeepRate(noise.keep, b);
    direction = lo > declared ? 'riskier' : hi < declared ? 'safer' : 'crossing';
    found.mismatches.push({ direction, text: `rr-law: keep rate ${num(kept / n)} on ${n} positions, declared ${num(noise.keep)} (p ${pKeep.toPrecision(3)})` });
  }
  for (const [name, t] of [
    ['offset', off],
    ['value', val],
  ] as const)
    if (t.p <= level / 4)
      found.mismatches.push({
        direction: direction ?? 'crossing',
        text: `rr-law: the replaced symbols are not uniform over the other ${b - 1} by ${name} (χ² ${num(t.stat)}, df ${t.df}, p ${t.p.toPrecision(3)})`,
      });
}

/** Why a release-law row found no violation, and what it could have found. */
export function lawNoViolationReason(r: AuditResult): string {
  const f = r.detectable_inflation;
  if (f === null) return 'no test rejected';
  return `no test rejected; ×${f} on the release's ${r.parameter === 'precision' ? 'precision (1/σ)' : 'ε′ per position'} would be flagged with probability >= ${POWER_TARGET} (by the ${r.detectable_by} test)`;
}

/** Why a release-law row is not testable. */
export function lawNotTestableReason(r: AuditResult): string {
  const f = r.detectable_inflation;
  const found = f === null ? 'none up to ×1000 is' : `only ×${f} is`;
  const unbounded = r.allowed === Infinity ? '; the claim allows every ε′ ((1 − p)^κ >= 1 − δ), so no inflation can break it' : '';
  const m = r.samples_needed!;
  const more = m === Infinity ? `no number of samples would make ×${NOT_TESTABLE_FACTOR} detectable` : `about ${m} samples would make ×${NOT_TESTABLE_FACTOR} detectable`;
  return `no inflation up to ×${NOT_TESTABLE_FACTOR} of the release's parameter is flagged with probability >= ${POWER_TARGET} at ${r.samples} samples (${found})${unbounded}; ${more}`;
}
