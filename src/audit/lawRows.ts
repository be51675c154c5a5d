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
import type { ReleaseLaw } from '../mechanisms/releaseLaw.js';
import { binomialLowerP, binomialUpperP, clopperPearson } from '../stats/binomial.js';
import { NOT_TESTABLE_FACTOR, POWER_TARGET } from './defaults.js';
import { predictedFactor, samplesNeeded, smallestFactor } from './inflation.js';
import { parametersMove } from './pilots.js';
import { chi2Cdf, chi2Quantile, scaleUpperBound, twoRegionPower } from './lawStats.js';
import type { Hasher } from './sampling.js';
import type { AuditPlan, AuditResult, LawScaleTest } from './types.js';
import type { LawRow } from './lawSampling.js';
import { claimOf, epsilonOfKeepRate, keepAt, keepEpsilonInterval, summarize, type Summary } from './lawClaim.js';
import { lawPilots, PILOT_END } from './lawPilots.js';
import { lawTestsContinuous, lawTestsSymbols, type LawFindings } from './lawTests.js';

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
  if (plan.skipInflation) return true;
  return lawInflation(row, r, M, test, pilots, (pilot, samples) => power(pilot, samples) >= POWER_TARGET, predict);
}

/**
 * `detectable_inflation`: the decisive test's power at M on the release simulated at ×f (`flags`
 * of a pilot), searched from `predict`'s guess; `samples_needed` when none up to ×100. Returns
 * whether the row is testable.
 */
function lawInflation(
  row: LawRow,
  r: AuditResult,
  M: number,
  test: LawScaleTest,
  pilots: (factor: number) => Summary,
  flags: (pilot: Summary, samples: number) => boolean,
  predict: (factor: number, samples: number) => boolean,
): boolean {
  const flagged = (f: number) => flags(pilots(f), M);
  const f = predictedFactor(flagged, (x) => predict(x, M));
  r.detectable_inflation = f;
  r.detectable_by = f === null ? null : test;
  if (f !== null && f <= NOT_TESTABLE_FACTOR) return true;
  // a release that did not move when its ε was scaled ×2 (its noise read from a field of its own):
  // the law's own parameter inflated analytically (scale ÷ f, ε′ × f: `predict`)
  const still = !row.mechanism.inflate && parametersMove(row.eps) && sameSummary(pilots(1), pilots(2));
  const judged = still ? predict : (x: number, m: number) => flags(pilots(x), m);
  if (still) {
    const predicted = smallestFactor((x) => predict(x, M));
    r.detectable_inflation = predicted;
    r.detectable_by = predicted === null ? null : test;
    if (predicted !== null && predicted <= NOT_TESTABLE_FACTOR) return true;
  }
  const needed = samplesNeeded((m) => judged(NOT_TESTABLE_FACTOR, m), M);
  r.samples_needed = needed;
  r.samples_needed_extrapolated = false;
  return false;
}

/** Whether two pilots' summaries (on common random numbers) are the same release. */
function sameSummary(a: Summary, b: Summary): boolean {
  return a.stat === b.stat && a.statAll === b.statAll && a.n === b.n;
}

/** The declared law in words (reasons). */
export function describeLaw(law: ReleaseLaw): string {
  const n = law.noise;
  const noise = n.kind === 'gaussian' ? `gaussian σ ${num(n.sigma)}` : n.kind === 'laplace' ? `laplace scale ${num(n.scale)}` : `${n.alphabet}-ary randomized response keeping ${num(n.keep)}`;
  const c = law.claim;
  const claim = c.kind === 'sensitivity' ? `sensitivity ${num(c.sensitivity)}` : c.kind === 'positions' ? `positions differing with probability ${num(c.disagreement)}` : c.kind;
  return `${noise} (${claim})`;
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
