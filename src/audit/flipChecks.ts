/**
 * The checks of a per-bit randomized response whose law is known from its declared per-bit ε
 * (claim.ts `flips`: LSHRR, plugins declaring flipsBits or bitwise-rr); verdicts.ts has the rules.
 */
import { exactEpsilon, exactTail, tailLimit } from '../privacy/exactLoss.js';
import { flipProbability, realizedFlipProbability, realizedPerBitEpsilon } from '../privacy/rr.js';
import { clopperPearson } from '../stats/binomial.js';
import { dkwPValue, ksDistance, scoreLaw } from './laws.js';
import { POWER_TARGET } from './defaults.js';
import { epsilonInterval, epsilonOfFlipRate, flipDirection, flipRateP, flipTestPower } from './flips.js';
import type { AuditResult } from './types.js';
import type { BlackBoxFlagged, Context, Findings, Judge, Pilot, Pilots, SampledRow } from './rowTypes.js';
import { lshPairCeiling } from './blackBoxChecks.js';

const num = (x: number): string => Number(x.toPrecision(4)).toString();

/** LSHRR: the exact tail of the declaration, the flip rate on the differing bits (one-sided against
 *  ε*, two-sided against the declared rate), the score law, the sampled tail (informative). */
export function flipChecks(row: SampledRow, r: AuditResult, ctx: Context, found: Findings, bb: BlackBoxFlagged, pilots: Pilots): Judge {
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
