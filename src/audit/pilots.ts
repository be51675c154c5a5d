/**
 * Pilots: a row's release simulated at a factor on its ε through its own encode (epsAt), the
 * black-box test's power on one, and the row's `detectable_inflation` and `samples_needed` from
 * them (verdicts.ts).
 */
import type { TrialHashing } from '../lsh/hyperplanes.js';
import { deriveSeed, makeRng } from '../random/rng.js';
import { xoshiroUniform, zigguratState } from '../random/ziggurat.js';
import { blackBoxFlagsApprox, blackBoxPower, blackBoxPowerWithSelection, ratesAtLikelyThreshold } from './power.js';
import { predictedFactor, samplesNeeded, smallestFactor, smallestGridFactor } from './inflation.js';
import { EXACT_SAMPLES_LIMIT, NOT_TESTABLE_FACTOR, POWER_TARGET } from './defaults.js';
import type { RowClaim } from './claim.js';
import { epsAt, scaledEps } from '../mechanisms/common.js';
import type { EpsilonInfo } from '../privacy/types.js';
import { scoreSample } from './sampling.js';
import type { AuditResult } from './types.js';
import type { BlackBoxFlagged, Context, Judge, Pilot, Pilots, SampledRow } from './rowTypes.js';

/** Samples of a release simulated at one factor. */
export const PILOT_SAMPLES = 2000;
/** Samples of a per-bit randomizer simulated at one factor: its power rests on its flip rate on
 *  the differing bits, which a small pilot measures badly when flips are rare (at 10 bits and a
 *  rate of 0.004, 20 000 samples see about 1 600 flips). */
export const FLIP_PILOT_SAMPLES = 20000;

/**
 * The release of a row simulated at factor × its ε (epsAt: the mechanism's `inflate`, else scaledEps; through the same encode a plugin
 * uses), on the kept pair, with the same seeds at every factor (common random numbers, so the
 * behaviour moves smoothly with the factor). Cached per factor.
 */
export function pilotsOf(row: SampledRow, ctx: Context): Pilots {
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
  const eps = epsAt(row.mechanism, row.eps, factor);
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

export function blackBoxFlagged(claim: RowClaim, level: number, seed: string, contenders: number): BlackBoxFlagged {
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
 *
 * When no factor is found, the simulation may have inflated nothing: a plugin whose encode reads its
 * noise from a field of its own releases the same thing at every factor (common random numbers).
 * Then, if its ε did move under ×2 and the release did not, the power comes from the release
 * itself where the law allows (a per-bit randomizer: ×f on the per-bit ε its realized flip rate
 * shows, the flip checks' `predict`); otherwise it is not computable: `detectable_inflation` and
 * `samples_needed` stay empty (the reason says why: notTestableReason).
 */
export function inflation(row: SampledRow, r: AuditResult, ctx: Context, pilots: Pilots, judge: Judge): boolean {
  const M = ctx.plan.samples;
  const flagged = (f: number) => judge.flaggedAt(pilots.at(f), M).flagged;
  const f = row.claim!.kind === 'black-box' ? smallestGridFactor(flagged) : judge.predict ? predictedFactor(flagged, (x) => judge.predict!(x, M)) : smallestFactor(flagged);
  r.detectable_inflation = f;
  r.detectable_by = f === null ? null : judge.flaggedAt(pilots.at(f), M).by;
  if (f !== null && f <= NOT_TESTABLE_FACTOR) return true;
  if (!row.mechanism.inflate && parametersMove(row.eps) && !pilotMoved(pilots.at(1), pilots.at(2))) {
    if (row.claim!.kind === 'flips' && judge.predict) {
      const predicted = smallestFactor((x) => judge.predict!(x, M));
      r.detectable_inflation = predicted;
      r.detectable_by = predicted === null ? null : 'flip-rate';
      if (predicted !== null && predicted <= NOT_TESTABLE_FACTOR) return true;
      const needed = samplesNeeded((m) => judge.predict!(NOT_TESTABLE_FACTOR, m), M);
      r.samples_needed = needed;
      r.samples_needed_extrapolated = needed > EXACT_SAMPLES_LIMIT;
      return false;
    }
    // no power figure: samples_needed stays null, which notTestableReason reads
    r.detectable_inflation = null;
    r.detectable_by = null;
    return false;
  }
  const needed = samplesNeeded((m) => judge.flaggedAt(pilots.at(NOT_TESTABLE_FACTOR), m, true).flagged, M);
  r.samples_needed = needed;
  r.samples_needed_extrapolated = needed > EXACT_SAMPLES_LIMIT;
  return false;
}

/** Whether scaling ×2 changes the accounting a release reads (ε = 0, ∞ or none do not move). */
export function parametersMove(eps: EpsilonInfo): boolean {
  return JSON.stringify(scaledEps(eps, 2)) !== JSON.stringify(eps);
}

/** Whether two pilots (on common random numbers) released anything different. */
function pilotMoved(a: Pilot, b: Pilot): boolean {
  if (a.flipsAll !== b.flipsAll || a.flipsDiff !== b.flipsDiff || a.hamMean !== b.hamMean || a.pos.length !== b.pos.length) return true;
  for (let i = 0; i < a.pos.length; i++) if (a.pos[i] !== b.pos[i] || a.neg[i] !== b.neg[i]) return true;
  return false;
}
