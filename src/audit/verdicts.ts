/**
 * The audit's verdicts, from the sampled rows (run.ts). m is the number of rows that claim a
 * budget; each is tested at level α/m (Bonferroni: a config whose every claim holds gets any
 * `violated` row with probability <= α), split evenly over the row's sampling tests:
 * - exact tail (LSHRR, no sampling): Pr[L > ξ] of the exact law at d and the per-bit ε the flips
 *   realize must be <= δ;
 * - score law (LSHRR): the sampled S = 2A − D against its exact law (two-sided KS, DKW p-value);
 * - angle law (VMF, Purkayastha): the Hamming distance between the released code and the clean code
 *   of x against its exact law at the claimed concentration (a mixture of Bin(κ, θ/π) over the
 *   angle's law); a wrong concentration, either way, is rejected;
 * - black-box: ε_lb > ξ (every mechanism that claims a budget);
 * - accounting consistency (VMF, Purkayastha): c·distance must equal ξ (recomputes the formula).
 * `not-testable`: a row whose only test is the black-box one, with ξ at or above its ceiling.
 */
import type { Mechanism } from '../mechanisms/types.js';
import type { EpsilonInfo } from '../privacy/types.js';
import type { Rng } from '../random/rng.js';
import { deriveSeed, makeRng } from '../random/rng.js';
import { exactTail, tailLimit } from '../privacy/exactLoss.js';
import { flipProbability, realizedPerBitEpsilon } from '../privacy/rr.js';
import { euclideanFromAngular } from '../privacy/distance.js';
import { clopperPearson } from '../stats/binomial.js';
import { countsAt, epsilonLbPValue, epsilonLowerBound } from './epsilonBound.js';
import { dkwPValue, hammingLawOfAngle, ksDistance, scoreLaw } from './laws.js';
import { blackBoxPower, ratesAtLikelyThreshold } from './power.js';
import { exactInflation, lawInflation, simulatedInflation } from './inflation.js';
import { FAMILY_ALPHA, POWER_TARGET } from './defaults.js';
import { scoreSample, type Hasher } from './sampling.js';
import type { AuditEntry, AuditPlan, AuditResult, Candidate } from './types.js';

/** A row after sampling: the kept candidate, its threshold and the estimation statistics. */
export interface SampledRow {
  entry: AuditEntry;
  mechanism: Mechanism;
  kappa: number;
  xi: number;
  eps: EpsilonInfo;
  rng: Rng;
  options: Record<string, unknown>;
  candidates: Candidate[];
  chosen: number;
  threshold: number;
  pos: Float64Array;
  neg: Float64Array;
  ham: Float64Array;
}

interface Context {
  plan: AuditPlan;
  /** the level of one row: α/m */
  rowLevel: number;
  p: (distance: number) => number;
  hasher: Hasher;
}

/** The verdict rows of every sampled row (in order). */
export function finalizeRows(rows: SampledRow[], plan: AuditPlan, p: (distance: number) => number, hasher: Hasher): AuditResult[] {
  const m = plan.familySize ?? rows.filter((r) => r.mechanism.usesXi).length;
  const ctx: Context = { plan, rowLevel: FAMILY_ALPHA / Math.max(1, m), p, hasher };
  return rows.map((row) => rowResult(row, ctx));
}

/** The distance in the metric a directional mechanism's concentration is private for. */
function metricDistance(metric: 'euclidean' | 'angle', angularDistance: number): number {
  return metric === 'euclidean' ? euclideanFromAngular(angularDistance) : Math.PI * angularDistance;
}

function emptyResult(row: SampledRow, plan: AuditPlan): AuditResult {
  return {
    mechanism: row.entry.label,
    base: row.entry.name,
    accountant: typeof row.entry.options.accountant === 'string' ? row.entry.options.accountant : (row.eps.accountant ?? null),
    kappa: row.kappa,
    xi: row.xi,
    d: plan.d,
    delta: null,
    verdict: 'not-applicable',
    tests: [],
    reason: 'claims no privacy budget',
    pair: null,
    pairs_tried: row.candidates.length,
    tail: null,
    tail_ci: null,
    exact_tail: null,
    epsilon_bit: null,
    epsilon_realized: null,
    epsilon_lb: null,
    confidence: null,
    epsilon_ceiling: null,
    samples_needed: null,
    epsilon_lb_threshold: null,
    tpr: null,
    fpr: null,
    samples: plan.samples,
    level: null,
    p_black_box: null,
    law_ks: null,
    p_law: null,
    detectable_inflation: null,
    detectable_inflation_method: null,
    loss_sup: null,
  };
}

function rowResult(row: SampledRow, ctx: Context): AuditResult {
  const r = emptyResult(row, ctx.plan);
  if (!row.mechanism.usesXi) return r;
  const isBit = row.mechanism.epsilonKind === 'bit' && row.eps.epsilon !== null;
  const directional = row.mechanism.angleLogDensity !== undefined && row.mechanism.concentrationMetric !== undefined;
  const level = ctx.rowLevel / (isBit || directional ? 2 : 1);
  const deltaBb = isBit ? ctx.plan.delta : 0;
  const cand = row.candidates[row.chosen];
  const counts = countsAt(row.pos, row.neg, row.threshold);
  Object.assign(r, {
    delta: deltaBb,
    tests: ['black-box'],
    pair: cand.pair.source === 'synthetic' ? `synthetic at distance ${cand.pair.distance} (${cand.key})` : cand.pair.source,
    epsilon_lb: epsilonLowerBound(counts, deltaBb, level),
    confidence: 1 - level,
    epsilon_lb_threshold: row.threshold,
    tpr: counts.truePositives / counts.positives,
    fpr: counts.falsePositives / counts.negatives,
    level,
    p_black_box: epsilonLbPValue(counts, deltaBb, row.xi),
  });
  const violations: string[] = [];
  if (r.epsilon_lb! > row.xi) violations.push(`black-box: ε_lb ${r.epsilon_lb!.toPrecision(4)} > ξ at confidence ${r.confidence!.toPrecision(4)}`);
  if (isBit) bitChecks(row, r, ctx, violations);
  else if (directional) directionalChecks(row, r, ctx, violations);
  else blackBoxOnly(row, r, ctx, violations);
  if (violations.length) {
    r.verdict = 'violated';
    r.reason = violations.join('; ');
  } else if (r.verdict !== 'not-testable') {
    r.verdict = 'no-violation-found';
    r.reason = noViolationReason(r);
  }
  return r;
}

/** What a no-violation-found row could have found. */
function noViolationReason(r: AuditResult): string {
  const f = r.detectable_inflation;
  if (f === null) return r.tests.includes('exact-tail') ? 'no test rejected; no inflation makes the exact tail exceed δ' : 'no test rejected; no inflation up to ×1000 is detectable at this M';
  if (r.detectable_inflation_method === 'exact') return `no test rejected; ×${f} on the per-bit ε would make the exact tail exceed δ`;
  return `no test rejected; ×${f} would be flagged with probability >= ${POWER_TARGET}`;
}

/** LSHRR: the exact tail at the realized per-bit ε, the score law, the sampled tail (informative). */
function bitChecks(row: SampledRow, r: AuditResult, ctx: Context, violations: string[]): void {
  const { kappa, xi } = row;
  const eps = row.eps.epsilon!;
  const realized = realizedPerBitEpsilon(eps);
  const pd = ctx.p(row.candidates[row.chosen].pair.distance);
  const delta = ctx.plan.delta;
  r.tests = ['exact-tail', 'score-law', 'black-box'];
  r.epsilon_bit = eps;
  r.epsilon_realized = realized;
  r.exact_tail = realized === Infinity ? tailLimit(kappa, pd) : exactTail(kappa, pd, realized, xi);
  if (r.exact_tail > delta) violations.push(`exact tail ${r.exact_tail.toPrecision(4)} > δ = ${delta} at the realized per-bit ε`);
  r.law_ks = ksDistance(row.pos, scoreLaw(kappa, pd, flipProbability(eps)), kappa);
  r.p_law = dkwPValue(r.law_ks, row.pos.length);
  if (r.p_law <= r.level!) violations.push(`score law: KS ${r.law_ks.toPrecision(3)}, p ${r.p_law.toPrecision(3)} <= ${r.level!.toPrecision(3)}`);
  let k = 0;
  for (const s of row.pos) if (s > 0 && eps * s > xi) k++;
  r.tail = k / row.pos.length;
  r.tail_ci = clopperPearson(k, row.pos.length);
  r.epsilon_ceiling = lshPairCeiling(kappa, pd, ctx.plan.samples, delta, r.level!);
  r.detectable_inflation = exactInflation(kappa, pd, realized, xi, delta);
  r.detectable_inflation_method = r.detectable_inflation === null ? null : 'exact';
}

/**
 * The ceiling of a pair whose clean release is its LSH codes: the ε_lb of the clean release at its
 * expected counts (every positive with a differing bit, Pr[D >= 1], and no negative past threshold 1).
 */
function lshPairCeiling(kappa: number, p: number, samples: number, delta: number, level: number): number {
  return epsilonLowerBound({ truePositives: Math.round(samples * tailLimit(kappa, p)), positives: samples, falsePositives: 0, negatives: samples }, delta, level);
}

/** VMF, Purkayastha: the accounting's consistency and the law of the Hamming distance to the clean code. */
function directionalChecks(row: SampledRow, r: AuditResult, ctx: Context, violations: string[]): void {
  const m = row.mechanism;
  const metric = m.concentrationMetric!;
  const cand = row.candidates[row.chosen];
  const distance = metricDistance(metric, cand.pair.distance);
  const n = cand.vectors.n;
  r.tests = ['angle-law', 'black-box', 'accounting-consistency'];
  const c = row.eps.epsilon ?? NaN;
  r.loss_sup = c * distance;
  if (!(Math.abs(r.loss_sup - row.xi) <= 1e-9 * Math.max(1, row.xi))) violations.push(`accounting: c·distance = ${r.loss_sup.toPrecision(6)} ≠ ξ`);
  const claimedC = row.xi / distance;
  const lawAt = (factor: number) => hammingLawOfAngle(row.kappa, (t) => m.angleLogDensity!(t, n, factor * claimedC), 2048);
  const claimed = lawAt(1);
  r.law_ks = ksDistance(row.ham, claimed, 0);
  r.p_law = dkwPValue(r.law_ks, row.ham.length);
  r.epsilon_ceiling = lshPairCeiling(row.kappa, ctx.p(cand.pair.distance), ctx.plan.samples, 0, r.level!);
  if (r.p_law <= r.level!) violations.push(`angle law: KS ${r.law_ks.toPrecision(3)}, p ${r.p_law.toPrecision(3)} <= ${r.level!.toPrecision(3)}`);
  if (ctx.plan.skipInflation) return;
  r.detectable_inflation = lawInflation(claimed, lawAt, row.ham.length, r.level!);
  r.detectable_inflation_method = r.detectable_inflation === null ? null : 'analytic';
}

/**
 * A black-box-only row is testable when even its clean release (ε = ∞) on the kept pair would be
 * flagged with at least this probability; below, `not-testable` (the clean code might pass).
 */
export const TESTABLE_POWER = 0.99;

/** LapLSH, RAPPOR, plugins: the black-box test alone; not-testable when even the clean code may pass. */
function blackBoxOnly(row: SampledRow, r: AuditResult, ctx: Context, violations: string[]): void {
  const clean = simulatedRates(row, ctx, Infinity);
  const M = ctx.plan.samples;
  // the pair's ceiling: ε_lb of the clean release at its expected counts
  r.epsilon_ceiling = epsilonLowerBound({ truePositives: Math.round(M * clean.tpr), positives: M, falsePositives: Math.round(M * clean.fpr), negatives: M }, 0, r.level!);
  if (violations.length) return;
  if (blackBoxPower(clean.tpr, clean.fpr, M, 0, row.xi, r.level!) < TESTABLE_POWER) {
    r.verdict = 'not-testable';
    r.samples_needed = samplesToFlag(clean, row.xi, r.level!);
    r.reason = `even the clean code would be flagged with probability < ${TESTABLE_POWER} at ${M} samples (ceiling ${r.epsilon_ceiling.toPrecision(4)}); ${r.samples_needed ?? 'more than 10⁶'} samples would make it testable`;
    return;
  }
  if (ctx.plan.skipInflation) return;
  r.detectable_inflation = simulatedInflation((f) => {
    const rates = simulatedRates(row, ctx, f);
    return blackBoxPower(rates.tpr, rates.fpr, M, 0, row.xi, r.level!);
  });
  r.detectable_inflation_method = r.detectable_inflation === null ? null : 'simulation';
}

/** The smallest M at which the clean release's rates are flagged with probability TESTABLE_POWER (null beyond 10⁶). */
function samplesToFlag(rates: { tpr: number; fpr: number }, xi: number, level: number): number | null {
  const ok = (m: number) => blackBoxPower(rates.tpr, rates.fpr, m, 0, xi, level) >= TESTABLE_POWER;
  let hi = 64;
  while (!ok(hi)) {
    hi *= 2;
    if (hi > 1e6) return null;
  }
  let lo = hi / 2;
  while (hi - lo > Math.max(1, hi / 100)) {
    const mid = Math.floor((lo + hi) / 2);
    if (ok(mid)) hi = mid;
    else lo = mid;
  }
  return hi;
}

/** Samples of the score laws per factor tried (at most M): the simulation's cost against its precision. */
export const PILOT_SAMPLES = 2000;

/**
 * The black-box rates at f·ε: score laws from fresh samples at f·ε on the kept pair, then the rates
 * at the threshold the selection tends to choose (power.ts).
 */
function simulatedRates(row: SampledRow, ctx: Context, factor: number): { tpr: number; fpr: number } {
  const { kappa } = row;
  const M = ctx.plan.samples;
  const N = Math.min(M, PILOT_SAMPLES);
  const cand = row.candidates[row.chosen];
  const scale = (e: number | null) => (e === null ? null : factor === Infinity ? Infinity : e * factor);
  const eps = { ...row.eps, epsilon: scale(row.eps.epsilon), ldpEpsilon: scale(row.eps.ldpEpsilon) };
  const key = [row.entry.label, kappa, row.xi, factor] as const;
  const noise = makeRng(deriveSeed(ctx.plan.seed, 'audit-power-noise', ...key));
  const hashRng = makeRng(deriveSeed(ctx.plan.seed, 'audit-power-hash', ...key));
  const pos = new Float64Array(2 * kappa + 1);
  const neg = new Float64Array(2 * kappa + 1);
  for (let i = 0; i < N; i++) {
    const hashing = ctx.hasher(cand.vectors, kappa, hashRng, ['power', ...key, i]);
    const [s0, s1] = scoreSample(row.mechanism, cand.vectors, hashing, noise, row.options, eps);
    pos[s0 + kappa] += 1 / N;
    neg[s1 + kappa] += 1 / N;
  }
  return ratesAtLikelyThreshold(pos, neg, Math.max(1, Math.floor(M / 2)), 0);
}
