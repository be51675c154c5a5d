/**
 * The audit's verdicts, from the sampled rows (run.ts). m is the number of rows that claim a
 * budget; each is tested at level α/m (Bonferroni: a config whose every claim holds gets any
 * `violated` row with probability <= α), split evenly over the row's one-sided sampling tests.
 *
 * `violated` only when the evidence says more privacy loss than claimed (one-sided tests):
 * - exact tail (LSHRR, no sampling): Pr[L > ξ] of the exact law at d and the declared per-bit ε
 *   (as LSHRR's flips implement it) must be <= δ: the accounting;
 * - flip rate (LSHRR): the realized per-bit ε on the bits where the pair's clean codes differ, its
 *   one-sided lower bound against ε* = max{ε : exact tail <= δ} (flips.ts): the release;
 * - concentration (VMF, Purkayastha): the Hamming distance between the released code and the clean
 *   code of x, one-sided KS against its law at the largest concentration the claim allows (ξ over
 *   the pair's distance): samples stochastically smaller than that law show a higher concentration;
 * - black-box: ε_lb > the claimed ε (every mechanism that claims a budget);
 * - accounting consistency (VMF, Purkayastha): c·distance above ξ.
 * `law-mismatch` when none of those rejects but a two-sided law test does (LSHRR: the score law and
 * the flip rate against the declared one; VMF, Purkayastha: the angle law at the declared
 * concentration), or the accounting claims less than it could: the release is not what its
 * declaration says, in the direction `law_direction` gives. The law tests form a second family at
 * the same levels.
 * `not-testable` when no inflation up to ×100 of the release is flagged with probability >= 0.8
 * (`detectable_inflation`, simulated through the release's own encode: a pilot of the release at
 * each factor, then the exact power of the tests at M).
 */
import type { Mechanism } from '../mechanisms/types.js';
import type { EpsilonInfo } from '../privacy/types.js';
import type { Rng } from '../random/rng.js';
import type { TrialHashing } from '../lsh/hyperplanes.js';
import { deriveSeed, makeRng } from '../random/rng.js';
import { xoshiroUniform, zigguratState } from '../random/ziggurat.js';
import { exactEpsilon, exactTail, tailLimit } from '../privacy/exactLoss.js';
import { flipProbability, realizedFlipProbability, realizedPerBitEpsilon } from '../privacy/rr.js';
import { euclideanFromAngular } from '../privacy/distance.js';
import { clopperPearson } from '../stats/binomial.js';
import { countsAt, epsilonLbPValue, epsilonLowerBound } from './epsilonBound.js';
import { dkwPValue, hammingLawOfAngle, ksDistance, ksOneSided, ksOneSidedPowerLowerBound, massartPValue, scoreLaw } from './laws.js';
import { blackBoxFlagsApprox, blackBoxPower, blackBoxPowerWithSelection, ratesAtLikelyThreshold } from './power.js';
import { MAX_FACTOR, predictedFactor, samplesNeeded, smallestFactor, smallestGridFactor } from './inflation.js';
import { EXACT_SAMPLES_LIMIT, FAMILY_ALPHA, NOT_TESTABLE_FACTOR, POWER_TARGET } from './defaults.js';
import { epsilonInterval, epsilonOfFlipRate, flipDirection, flipRateP, flipTestPower } from './flips.js';
import { scaledEps, type RowClaim } from './claim.js';
import { scoreSample, type Hasher } from './sampling.js';
import type { AuditEntry, AuditPlan, AuditResult, Candidate, LawDirection } from './types.js';
import { lawChecks, lawNoViolationReason, lawNotTestableReason, type LawSamples } from './lawRows.js';

/** A row after sampling: the kept candidate, its threshold and the estimation statistics. */
export interface SampledRow {
  entry: AuditEntry;
  mechanism: Mechanism;
  kappa: number;
  xi: number;
  eps: EpsilonInfo;
  /** what the row tests (null: no budget claimed) */
  claim: RowClaim | null;
  rng: Rng;
  options: Record<string, unknown>;
  candidates: Candidate[];
  chosen: number;
  threshold: number;
  /** per estimation sample: S of the output of x and of x', H of each, D (sampling.ts) */
  pos: Float64Array;
  neg: Float64Array;
  ham: Float64Array;
  hamNeg: Float64Array;
  differing: Float64Array;
  /** release-law rows: what the samples released around their clean release (lawRows.ts) */
  law?: LawSamples;
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
  const m = plan.familySize ?? rows.filter((r) => r.claim !== null).length;
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
    claim: null,
    claimed: null,
    parameter: null,
    realized: null,
    realized_lb: null,
    allowed: null,
    p_release: null,
    realized_tail: null,
    flip_rate: null,
    flip_bits: null,
    epsilon_lb: null,
    confidence: null,
    epsilon_ceiling: null,
    samples_needed: null,
    samples_needed_extrapolated: null,
    epsilon_lb_threshold: null,
    tpr: null,
    fpr: null,
    samples: plan.samples,
    level: null,
    p_black_box: null,
    law_ks: null,
    p_law: null,
    law_direction: null,
    detectable_inflation: null,
    detectable_by: null,
    loss_sup: null,
  };
}

/** What a row's tests found: privacy violations (one-sided) and departures from the declared law. */
interface Findings {
  violations: string[];
  mismatches: { direction: LawDirection; text: string }[];
}

/** What the row's tests would make of a release simulated at some factor (a pilot): whether they
 *  flag it with probability >= POWER_TARGET at M samples, and by which test. */
type FlaggedAt = (pilot: Pilot, samples: number, estimate?: boolean) => { flagged: boolean; by: NonNullable<AuditResult['detectable_by']> };

/** How a row's tests judge simulated releases; `predict` (optional) guesses from the release
 *  simulated at ×1 whether ×f would be flagged, to find where to simulate (the factor printed is
 *  always one whose simulated release is flagged). */
interface Judge {
  flaggedAt: FlaggedAt;
  predict?: (factor: number, samples: number) => boolean;
}

function rowResult(row: SampledRow, ctx: Context): AuditResult {
  const r = emptyResult(row, ctx.plan);
  const claim = row.claim;
  if (!claim) return r;
  if (claim.kind === 'release-law') return lawRowResult(row, r, ctx);
  const level = ctx.rowLevel / (claim.kind === 'black-box' ? 1 : 2);
  const cand = row.candidates[row.chosen];
  const counts = countsAt(row.pos, row.neg, row.threshold);
  Object.assign(r, {
    delta: claim.delta,
    claim: claim.claim,
    claimed: claim.claimed,
    tests: ['black-box'],
    pair: cand.pair.source === 'synthetic' ? `synthetic at distance ${cand.pair.distance} (${cand.key})` : cand.pair.source,
    epsilon_lb: epsilonLowerBound(counts, claim.delta, level),
    confidence: 1 - level,
    epsilon_lb_threshold: row.threshold,
    tpr: counts.truePositives / counts.positives,
    fpr: counts.falsePositives / counts.negatives,
    level,
    p_black_box: epsilonLbPValue(counts, claim.delta, claim.claimed),
  });
  const found: Findings = { violations: [], mismatches: [] };
  const what = claim.claim === 'ldp' ? `the stated ε_LDP ${claim.claimed.toPrecision(4)}` : 'ξ';
  if (r.epsilon_lb! > claim.claimed) found.violations.push(`black-box: ε_lb ${r.epsilon_lb!.toPrecision(4)} > ${what} at confidence ${r.confidence!.toPrecision(4)}`);
  const pilots = pilotsOf(row, ctx);
  const bb = blackBoxFlagged(claim, level, deriveSeed(ctx.plan.seed, 'audit-selection', row.entry.label, row.kappa, row.xi), row.candidates.length);
  const judge: Judge =
    claim.kind === 'flips'
      ? flipChecks(row, r, ctx, found, bb, pilots)
      : claim.kind === 'directional'
        ? directionalChecks(row, r, ctx, found, bb, pilots)
        : { flaggedAt: blackBoxChecks(row, r, pilots, bb) };
  let testable = true;
  if (!ctx.plan.skipInflation) testable = inflation(row, r, ctx, pilots, judge);
  return settle(
    r,
    found,
    testable,
    () => notTestableReason(r, claim),
    () => noViolationReason(r, claim, pilots),
  );
}

/** The verdict from what the tests found: violated, else law-mismatch, else not-testable, else
 *  no-violation-found (the reasons of the last two asked only when needed). */
function settle(r: AuditResult, found: Findings, testable: boolean, notTestable: () => string, noViolation: () => string): AuditResult {
  if (found.violations.length) {
    r.verdict = 'violated';
    r.reason = found.violations.join('; ');
  } else if (found.mismatches.length) {
    const dirs = [...new Set(found.mismatches.map((x) => x.direction))];
    r.verdict = 'law-mismatch';
    r.law_direction = dirs.length === 1 ? dirs[0] : 'crossing';
    r.reason = `the release departs from its declared law (${r.law_direction}): ${found.mismatches.map((x) => x.text).join('; ')}; no test shows more privacy loss than claimed`;
  } else if (!testable) {
    r.verdict = 'not-testable';
    r.reason = notTestable();
  } else {
    r.verdict = 'no-violation-found';
    r.reason = noViolation();
  }
  return r;
}

/** A release that is not bits, tested on its declared law (lawRows.ts): one one-sided sampling test
 *  at the row's whole level α/m, the law tests at the same level. */
function lawRowResult(row: SampledRow, r: AuditResult, ctx: Context): AuditResult {
  const level = ctx.rowLevel;
  const cand = row.candidates[row.chosen];
  Object.assign(r, {
    delta: row.claim!.delta,
    claim: row.claim!.claim,
    claimed: row.claim!.claimed,
    pair: cand.pair.source === 'synthetic' ? `synthetic at distance ${cand.pair.distance} (${cand.key})` : cand.pair.source,
    level,
    confidence: 1 - level,
  });
  const found: Findings = { violations: [], mismatches: [] };
  const testable = lawChecks(row, r, ctx.plan, level, ctx.hasher, found);
  if (testable === null) {
    r.verdict = 'not-testable';
    r.samples_needed = Infinity;
    r.samples_needed_extrapolated = false;
    r.reason = `${row.mechanism.name} declares no release law at ξ = ${row.xi} (its release does not depend on the input); no law test applies`;
    return r;
  }
  return settle(
    r,
    found,
    testable,
    () => lawNotTestableReason(r),
    () => lawNoViolationReason(r),
  );
}

/** What the release's parameter is called in reasons. */
function releaseParameter(claim: RowClaim): string {
  if (claim.kind === 'flips') return "the flips' per-bit ε";
  if (claim.kind === 'directional') return 'the concentration';
  return claim.claim === 'ldp' ? 'the ε the release uses (its stated ε_LDP)' : 'the ε the release uses';
}

/** What a no-violation-found row could have found. */
function noViolationReason(r: AuditResult, claim: RowClaim, pilots: Pilots): string {
  const f = r.detectable_inflation;
  if (f === null) return 'no test rejected';
  let s = `no test rejected; ×${f} on ${releaseParameter(claim)} would be flagged with probability >= ${POWER_TARGET} (by the ${r.detectable_by} test)`;
  if (claim.kind === 'flips' && r.allowed !== null && Number.isFinite(r.allowed)) {
    const at = pilots.at(f);
    s += `: it flips the differing bits at ${num(at.flipsDiff / Math.max(1, at.bitsDiff))} (all bits: ${num(at.flipsAll / Math.max(1, at.bitsAll))}), where the claim needs at least ${num(flipProbability(r.allowed))}`;
  }
  return s;
}

function notTestableReason(r: AuditResult, claim: RowClaim): string {
  const f = r.detectable_inflation;
  const found = f === null ? `none up to ×${MAX_FACTOR} is` : `only ×${f} is`;
  const unbounded = claim.kind === 'flips' && r.allowed === Infinity ? '; every per-bit ε meets the claim ((1 − p)^κ >= 1 − δ), so no inflation of the flips can break it' : '';
  const m = r.samples_needed!;
  const more =
    m === Infinity
      ? `no number of samples would make ×${NOT_TESTABLE_FACTOR} detectable`
      : `about ${count(m)} samples would make ×${NOT_TESTABLE_FACTOR} detectable${r.samples_needed_extrapolated ? ' (extrapolated beyond 10⁶ samples)' : ''}`;
  return `no inflation up to ×${NOT_TESTABLE_FACTOR} of ${releaseParameter(claim)} is flagged with probability >= ${POWER_TARGET} at ${r.samples} samples (${found})${unbounded}; ${more}`;
}

const num = (x: number): string => Number(x.toPrecision(4)).toString();

/** A sample count in words: exact below 10⁶, two significant digits as m·10^e beyond. */
function count(m: number): string {
  if (m < 1e6) return String(m);
  const e = Math.floor(Math.log10(m));
  const sup = (x: number) => String(x).replace(/\d/g, (c) => '⁰¹²³⁴⁵⁶⁷⁸⁹'[Number(c)]);
  return `${Number((m / 10 ** e).toPrecision(2))}·10${sup(e)}`;
}

// ---------------------------------------------------------------------------------------------
// Pilots: the release simulated at a factor, through its own encode

/** Samples of a release simulated at one factor. */
export const PILOT_SAMPLES = 2000;
/** Samples of a per-bit randomizer simulated at one factor: its power rests on its flip rate on
 *  the differing bits, which a small pilot measures badly when flips are rare (at 10 bits and a
 *  rate of 0.004, 20 000 samples see about 1 600 flips). */
export const FLIP_PILOT_SAMPLES = 20000;

/** What a pilot keeps of its samples. */
interface Pilot {
  samples: number;
  /** pmfs of S for the outputs of x and x' (index s + offset) */
  pos: Float64Array;
  neg: Float64Array;
  /** flips on the differing bits (both outputs), and on all bits */
  flipsDiff: number;
  bitsDiff: number;
  flipsAll: number;
  bitsAll: number;
  /** mean and standard deviation of H (the output of x against its clean code) */
  hamMean: number;
  hamSd: number;
}

interface Pilots {
  at(factor: number): Pilot;
}

/**
 * The release of a row simulated at factor × its ε (scaledEps: through the same encode a plugin
 * uses), on the kept pair, with the same seeds at every factor (common random numbers, so the
 * behaviour moves smoothly with the factor). Cached per factor.
 */
function pilotsOf(row: SampledRow, ctx: Context): Pilots {
  const cache = new Map<number, Pilot>();
  let draws: PilotDraws | null = null;
  return {
    at(factor: number): Pilot {
      let p = cache.get(factor);
      if (!p) {
        draws ??= pilotDraws(row, ctx);
        p = simulate(row, draws, factor);
        cache.set(factor, p);
      }
      return p;
    },
  };
}

/** What every pilot of a row shares: the hashings of the kept pair and each sample's noise seed (a
 *  xoshiro128++ state per sample, so that a sample's draws are the same at every factor however
 *  many uniforms a release consumes). */
interface PilotDraws {
  hashings: TrialHashing[];
  seeds: Int32Array;
}

function pilotDraws(row: SampledRow, ctx: Context): PilotDraws {
  const N = row.claim!.kind === 'flips' ? FLIP_PILOT_SAMPLES : PILOT_SAMPLES;
  const cand = row.candidates[row.chosen];
  const key = [row.entry.label, row.kappa, row.xi] as const;
  const hashRng = makeRng(deriveSeed(ctx.plan.seed, 'audit-power-hash', ...key));
  const noise = makeRng(deriveSeed(ctx.plan.seed, 'audit-power-noise', ...key));
  const seeds = new Int32Array(4 * N);
  for (let i = 0; i < N; i++) seeds.set(zigguratState(noise), 4 * i);
  return { hashings: Array.from({ length: N }, (_, i) => ctx.hasher(cand.vectors, row.kappa, hashRng, ['power', ...key, i])), seeds };
}

function simulate(row: SampledRow, draws: PilotDraws, factor: number): Pilot {
  const { kappa } = row;
  const N = draws.hashings.length;
  const cand = row.candidates[row.chosen];
  const eps = scaledEps(row.eps, factor);
  const s0 = new Int32Array(N);
  const s1 = new Int32Array(N);
  let flipsDiff = 0;
  let bitsDiff = 0;
  let flipsAll = 0;
  let hamSum = 0;
  let hamSq = 0;
  let offset = 0;
  for (let i = 0; i < N; i++) {
    const state = draws.seeds.slice(4 * i, 4 * i + 4);
    const [a, b, h0, h1, d] = scoreSample(row.mechanism, cand.vectors, draws.hashings[i], () => xoshiroUniform(state), row.options, eps);
    s0[i] = a;
    s1[i] = b;
    offset = Math.max(offset, Math.abs(a), Math.abs(b));
    flipsDiff += d - (a - b) / 2;
    bitsDiff += 2 * d;
    flipsAll += h0 + h1;
    hamSum += h0;
    hamSq += h0 * h0;
  }
  const pos = new Float64Array(2 * offset + 1);
  const neg = new Float64Array(2 * offset + 1);
  for (let i = 0; i < N; i++) {
    pos[s0[i] + offset] += 1 / N;
    neg[s1[i] + offset] += 1 / N;
  }
  const mean = hamSum / N;
  return { samples: N, pos, neg, flipsDiff, bitsDiff, flipsAll, bitsAll: 2 * kappa * N, hamMean: mean, hamSd: Math.sqrt(Math.max(0, hamSq / N - mean * mean)) };
}

/** Whether the black-box test flags a pilot's release with probability >= POWER_TARGET at M
 *  samples. `detectable_inflation` takes the pilot's rates against the row and the threshold as the
 *  selection would choose it (power.ts blackBoxPowerWithSelection); `samples_needed`, an estimate
 *  far beyond the pilot's resolution, the rates at the likely threshold as they are (the exact
 *  power up to 10⁶ samples, a normal approximation beyond). */
type BlackBoxFlagged = (pilot: Pilot, samples: number, estimate?: boolean) => boolean;

function blackBoxFlagged(claim: RowClaim, level: number, seed: string, contenders: number): BlackBoxFlagged {
  return (pilot, samples, estimate = false) => {
    if (!estimate) return blackBoxPowerWithSelection(pilot.pos, pilot.neg, pilot.samples, samples, claim.delta, claim.claimed, level, makeRng(seed), contenders) >= POWER_TARGET;
    const rates = ratesAtLikelyThreshold(pilot.pos, pilot.neg, Math.max(1, Math.floor(samples / 2)), claim.delta);
    if (samples > EXACT_SAMPLES_LIMIT) return blackBoxFlagsApprox(rates.tpr, rates.fpr, samples, claim.delta, claim.claimed, level);
    return blackBoxPower(rates.tpr, rates.fpr, samples, claim.delta, claim.claimed, level) >= POWER_TARGET;
  };
}

/**
 * `detectable_inflation` (the smallest factor on the release flagged with probability >= 0.8 at
 * this M), `detectable_by`, and, when the row is not testable (none up to ×100), `samples_needed`.
 * Returns whether the row is testable.
 */
function inflation(row: SampledRow, r: AuditResult, ctx: Context, pilots: Pilots, judge: Judge): boolean {
  const M = ctx.plan.samples;
  const flagged = (f: number) => judge.flaggedAt(pilots.at(f), M).flagged;
  const f = row.claim!.kind === 'black-box' ? smallestGridFactor(flagged) : judge.predict ? predictedFactor(flagged, (x) => judge.predict!(x, M)) : smallestFactor(flagged);
  r.detectable_inflation = f;
  r.detectable_by = f === null ? null : judge.flaggedAt(pilots.at(f), M).by;
  if (f !== null && f <= NOT_TESTABLE_FACTOR) return true;
  const needed = samplesNeeded((m) => judge.flaggedAt(pilots.at(NOT_TESTABLE_FACTOR), m, true).flagged, M);
  r.samples_needed = needed;
  r.samples_needed_extrapolated = needed > EXACT_SAMPLES_LIMIT;
  return false;
}

// ---------------------------------------------------------------------------------------------
// The row kinds

/** LSHRR: the exact tail of the declaration, the flip rate on the differing bits (one-sided against
 *  ε*, two-sided against the declared rate), the score law, the sampled tail (informative). */
function flipChecks(row: SampledRow, r: AuditResult, ctx: Context, found: Findings, bb: BlackBoxFlagged, pilots: Pilots): Judge {
  const { kappa, xi } = row;
  const claim = row.claim!;
  const eps = row.eps.epsilon!;
  const delta = claim.delta;
  const level = r.level!;
  const pd = ctx.p(row.candidates[row.chosen].pair.distance);
  const declared = realizedPerBitEpsilon(eps);
  const qDeclared = realizedFlipProbability(eps);
  r.tests = ['exact-tail', 'flip-rate', 'score-law', 'black-box'];
  r.epsilon_bit = eps;
  r.exact_tail = declared === Infinity ? tailLimit(kappa, pd) : exactTail(kappa, pd, declared, xi);
  if (r.exact_tail > delta) found.violations.push(`exact tail ${r.exact_tail.toPrecision(4)} > δ = ${delta} at the declared per-bit ε`);
  // the release: flips on the bits where the pair's clean codes differ
  let k = 0;
  let n = 0;
  for (let i = 0; i < row.pos.length; i++) {
    k += row.differing[i] - (row.pos[i] - row.neg[i]) / 2;
    n += 2 * row.differing[i];
  }
  const allowed = exactEpsilon(xi, kappa, pd, delta).epsilon;
  r.parameter = 'epsilon_bit';
  r.allowed = allowed;
  r.flip_bits = n;
  r.flip_rate = n ? k / n : null;
  r.realized = n ? epsilonOfFlipRate(k / n) : null;
  r.realized_lb = epsilonInterval(k, n, level)[0];
  r.p_release = flipRateP(k, n, allowed);
  if (r.p_release <= level)
    found.violations.push(`flip rate ${num(k / n)} on ${n} differing bits: realized per-bit ε >= ${num(r.realized_lb)} > ${num(allowed)} the claim allows (p ${r.p_release.toPrecision(3)})`);
  // the law of the declaration: the flip rate and the score S = 2A − D
  const direction = flipDirection(k, n, qDeclared, level);
  if (direction) {
    const within = direction === 'riskier' ? ` (realized per-bit ε ${num(r.realized!)}, above the declared ${num(declared)} but not shown above the ${num(allowed)} the claim allows)` : '';
    found.mismatches.push({ direction, text: `flip rate ${num(k / n)} on the differing bits, declared ${num(qDeclared)}${within}` });
  }
  r.law_ks = ksDistance(row.pos, scoreLaw(kappa, pd, qDeclared), kappa);
  r.p_law = dkwPValue(r.law_ks, row.pos.length);
  if (r.p_law <= level) found.mismatches.push({ direction: direction ?? 'crossing', text: `score law: KS ${r.law_ks.toPrecision(3)}, p ${r.p_law.toPrecision(3)} <= ${level.toPrecision(3)}` });
  let hits = 0;
  for (const s of row.pos) if (s > 0 && eps * s > xi) hits++;
  r.tail = hits / row.pos.length;
  r.tail_ci = clopperPearson(hits, row.pos.length);
  r.epsilon_ceiling = lshPairCeiling(kappa, pd, ctx.plan.samples, delta, level);
  const flipFlags = (q: number, bitsPerSample: number, samples: number) => flipTestPower(samples * bitsPerSample, q, allowed, level) >= POWER_TARGET;
  return {
    flaggedAt: (pilot, samples, estimate) =>
      flipFlags(flipRateForPower(pilot), pilot.bitsDiff / pilot.samples, samples) ? { flagged: true, by: 'flip-rate' } : { flagged: bb(pilot, samples, estimate), by: 'black-box' },
    // ×f on the per-bit ε the release realizes at ×1
    predict: (factor, samples) => {
      const one = pilots.at(1);
      return flipFlags(flipProbability(factor * epsilonOfFlipRate(flipRateForPower(one))), one.bitsDiff / one.samples, samples);
    },
  };
}

/** The flip rate (at most ½, its mirror otherwise) a pilot's release is judged at, taken against
 *  the row: the rate on all bits when the rate on the differing bits is not above it at the 1%
 *  level, else the rate on the differing bits; at its one-sided 90% Clopper–Pearson upper end. */
function flipRateForPower(pilot: Pilot): number {
  const flipsOf = (flips: number, bits: number) => Math.round(Math.min(flips, bits - flips));
  const all = flipsOf(pilot.flipsAll, pilot.bitsAll);
  const upper = (k: number, n: number) => Math.min(0.5, clopperPearson(k, n, 0.2)[1]);
  if (!pilot.bitsDiff) return upper(all, pilot.bitsAll);
  const diff = flipsOf(pilot.flipsDiff, pilot.bitsDiff);
  if (clopperPearson(diff, pilot.bitsDiff, 0.02)[0] > all / pilot.bitsAll) return upper(diff, pilot.bitsDiff);
  return upper(all, pilot.bitsAll);
}

/**
 * The ceiling of a pair whose clean release is its LSH codes: the ε_lb of the clean release at its
 * expected counts (every positive with a differing bit, Pr[D >= 1], and no negative past threshold 1).
 */
function lshPairCeiling(kappa: number, p: number, samples: number, delta: number, level: number): number {
  return epsilonLowerBound({ truePositives: Math.round(samples * tailLimit(kappa, p)), positives: samples, falsePositives: 0, negatives: samples }, delta, level);
}

/** The normal quantile of 0.9 (the pilot's mean H taken this many standard errors against the row). */
const Z90 = 1.2815515655446004;

/** VMF, Purkayastha: the accounting, the concentration (one-sided) and the law of the Hamming
 *  distance to the clean code (two-sided, at the declared concentration). */
function directionalChecks(row: SampledRow, r: AuditResult, ctx: Context, found: Findings, bb: BlackBoxFlagged, pilots: Pilots): Judge {
  const m = row.mechanism;
  const cand = row.candidates[row.chosen];
  const distance = metricDistance(m.concentrationMetric!, cand.pair.distance);
  const n = cand.vectors.n;
  const level = r.level!;
  const N = row.ham.length;
  r.tests = ['concentration', 'angle-law', 'black-box', 'accounting-consistency'];
  const declared = row.eps.epsilon ?? NaN;
  r.loss_sup = declared * distance;
  if (!(Math.abs(r.loss_sup - row.xi) <= 1e-9 * Math.max(1, row.xi))) {
    if (r.loss_sup < row.xi) found.mismatches.push({ direction: 'safer', text: `accounting: c·distance = ${r.loss_sup.toPrecision(6)} < ξ` });
    else found.violations.push(`accounting: c·distance = ${r.loss_sup.toPrecision(6)} > ξ`);
  }
  const laws = new Map<number, Float64Array>();
  const lawAt = (c: number): Float64Array => {
    let law = laws.get(c);
    if (!law) {
      law = hammingLawOfAngle(row.kappa, (t) => m.angleLogDensity!(t, n, c), 2048);
      laws.set(c, law);
    }
    return law;
  };
  const allowed = row.xi / distance;
  const allowedLaw = lawAt(allowed);
  r.parameter = 'concentration';
  r.allowed = allowed;
  // the release: samples of H stochastically smaller than at `allowed` show a higher concentration
  const above = (c: number) => ksOneSided(row.ham, lawAt(c), 0).above;
  r.p_release = massartPValue(above(allowed), N);
  r.realized = concentrationWithMean(row.kappa, m, n, mean(row.ham), allowed);
  r.realized_lb = lowestPassing((c) => massartPValue(above(c), N) > level, allowed);
  if (r.p_release <= level)
    found.violations.push(
      `concentration: the Hamming distances to the clean code sit below their law at the allowed ${num(allowed)} (one-sided KS ${above(allowed).toPrecision(3)}, p ${r.p_release.toPrecision(3)}): concentration >= ${num(r.realized_lb)}`,
    );
  // the law of the declaration, two-sided
  const declaredLaw = Number.isFinite(declared) ? lawAt(declared) : allowedLaw;
  r.law_ks = ksDistance(row.ham, declaredLaw, 0);
  r.p_law = dkwPValue(r.law_ks, N);
  if (r.p_law <= level) {
    const side = ksOneSided(row.ham, declaredLaw, 0);
    const up = massartPValue(side.above, N) <= level;
    const down = massartPValue(side.below, N) <= level;
    const direction: LawDirection = up && down ? 'crossing' : up ? 'riskier' : 'safer';
    found.mismatches.push({
      direction,
      text: `angle law: KS ${r.law_ks.toPrecision(3)}, p ${r.p_law.toPrecision(3)} <= ${level.toPrecision(3)} (realized concentration about ${num(r.realized)}, declared ${num(declared)})`,
    });
  }
  r.epsilon_ceiling = lshPairCeiling(row.kappa, ctx.p(cand.pair.distance), ctx.plan.samples, 0, level);
  // the concentration a pilot realizes, its mean H taken Z90 standard errors against the row
  const realizedIn = (pilot: Pilot) => concentrationWithMean(row.kappa, m, n, pilot.hamMean + (Z90 * pilot.hamSd) / Math.sqrt(pilot.samples), allowed);
  const concFlags = (c: number, samples: number) => ksOneSidedPowerLowerBound(allowedLaw, lawAt(c), samples, level) >= POWER_TARGET;
  return {
    flaggedAt: (pilot, samples, estimate) => (concFlags(realizedIn(pilot), samples) ? { flagged: true, by: 'concentration' } : { flagged: bb(pilot, samples, estimate), by: 'black-box' }),
    // ×f on the concentration the release realizes at ×1
    predict: (factor, samples) => concFlags(factor * realizedIn(pilots.at(1)), samples),
  };
}

function mean(x: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < x.length; i++) s += x[i];
  return s / Math.max(1, x.length);
}

/** E[H] = κ·E[θ]/π at concentration c (Simpson's rule on the angle's law). */
function meanHamming(kappa: number, m: Mechanism, n: number, c: number, intervals = 2048): number {
  const h = Math.PI / intervals;
  const logs = new Float64Array(intervals + 1);
  let top = -Infinity;
  for (let i = 0; i <= intervals; i++) {
    const v = m.angleLogDensity!(i * h, n, c);
    logs[i] = Number.isNaN(v) ? -Infinity : v;
    if (logs[i] > top) top = logs[i];
  }
  let total = 0;
  let first = 0;
  for (let i = 0; i <= intervals; i++) {
    const w = (i === 0 || i === intervals ? 1 : i % 2 === 1 ? 4 : 2) * Math.exp(logs[i] - top);
    total += w;
    first += w * i * h;
  }
  return (kappa * first) / total / Math.PI;
}

/** The concentration whose E[H] is `target` (E[H] falls as c grows), in [ref/10⁴, ref·10⁴]. */
function concentrationWithMean(kappa: number, m: Mechanism, n: number, target: number, ref: number): number {
  let lo = Math.log(ref) - Math.log(1e4);
  let hi = Math.log(ref) + Math.log(1e4);
  if (meanHamming(kappa, m, n, Math.exp(lo)) <= target) return Math.exp(lo);
  if (meanHamming(kappa, m, n, Math.exp(hi)) >= target) return Math.exp(hi);
  for (let i = 0; i < 40; i++) {
    const mid = (lo + hi) / 2;
    if (meanHamming(kappa, m, n, Math.exp(mid)) > target) lo = mid;
    else hi = mid;
  }
  return Math.exp((lo + hi) / 2);
}

/** The smallest c in [ref/10³, ref·10³] with passes(c) (monotone: false below, true above), by
 *  bisection on ln c; 0 when even ref/10³ passes. */
function lowestPassing(passes: (c: number) => boolean, ref: number): number {
  let lo = Math.log(ref) - Math.log(1e3);
  let hi = Math.log(ref) + Math.log(1e3);
  if (passes(Math.exp(lo))) return 0;
  if (!passes(Math.exp(hi))) return Math.exp(hi);
  for (let i = 0; i < 30; i++) {
    const mid = (lo + hi) / 2;
    if (passes(Math.exp(mid))) hi = mid;
    else lo = mid;
  }
  return Math.exp(lo);
}

/** LapLSH, RAPPOR, plugins without a known law: the black-box test alone (its ceiling from the
 *  clean release simulated through the same encode). */
function blackBoxChecks(row: SampledRow, r: AuditResult, pilots: Pilots, bb: BlackBoxFlagged): FlaggedAt {
  const M = r.samples;
  const clean = pilots.at(Infinity);
  const rates = ratesAtLikelyThreshold(clean.pos, clean.neg, Math.max(1, Math.floor(M / 2)), row.claim!.delta);
  // the pair's ceiling: ε_lb of the clean release at its expected counts
  r.epsilon_ceiling = epsilonLowerBound({ truePositives: Math.round(M * rates.tpr), positives: M, falsePositives: Math.round(M * rates.fpr), negatives: M }, row.claim!.delta, r.level!);
  return (pilot, samples, estimate) => ({ flagged: bb(pilot, samples, estimate), by: 'black-box' });
}
