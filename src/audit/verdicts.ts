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
import { deriveSeed } from '../random/rng.js';
import { flipProbability } from '../privacy/rr.js';
import { countsAt, epsilonLbPValue, epsilonLowerBound } from './epsilonBound.js';
import { MAX_FACTOR } from './inflation.js';
import { FAMILY_ALPHA, NOT_TESTABLE_FACTOR, POWER_TARGET } from './defaults.js';
import type { RowClaim } from './claim.js';
import type { Hasher } from './sampling.js';
import type { AuditPlan, AuditResult } from './types.js';
import { lawChecks, lawNoViolationReason, lawNotTestableReason } from './lawRows.js';
import type { Context, Findings, Judge, Pilots, SampledRow } from './rowTypes.js';
import { blackBoxFlagged, inflation, pilotsOf } from './pilots.js';
import { flipChecks } from './flipChecks.js';
import { directionalChecks } from './directionalChecks.js';
import { blackBoxChecks } from './blackBoxChecks.js';

/** The verdict rows of every sampled row (in order). */
export function finalizeRows(rows: SampledRow[], plan: AuditPlan, p: (distance: number) => number, hasher: Hasher): AuditResult[] {
  const m = plan.familySize ?? rows.filter((r) => r.claim !== null).length;
  const ctx: Context = { plan, rowLevel: FAMILY_ALPHA / Math.max(1, m), p, hasher };
  return rows.map((row) => rowResult(row, ctx));
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

/** The reason of a row whose power could not be computed (pilots.ts inflation). */
export const POWER_NOT_COMPUTABLE = 'power not computable: the release did not change when its ε was scaled ×2 (declare `inflate`, or `flipsBits`, or a release law)';

function notTestableReason(r: AuditResult, claim: RowClaim): string {
  if (r.samples_needed === null) return POWER_NOT_COMPUTABLE;
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
