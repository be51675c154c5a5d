/**
 * A release-law row's release simulated at a factor on its ε, through its own encode (lawRows.ts's
 * detectable inflation).
 */
import type { TrialHashing } from '../lsh/hyperplanes.js';
import { deriveSeed, makeRng } from '../random/rng.js';
import { xoshiroUniform, zigguratState } from '../random/ziggurat.js';
import type { Hasher } from './sampling.js';
import { epsAt } from '../mechanisms/common.js';
import type { AuditPlan, Candidate } from './types.js';
import { lawSample, lawSamples, type LawRow } from './lawSampling.js';
import { summarize, type Summary } from './lawClaim.js';

/** The one-sided level of the end a pilot's parameter is taken at (against the row): 1%. */
export const PILOT_END = 0.01;

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

/** The release of a row simulated at factor × its ε (epsAt) on the pilots' hashings, one noise
 *  seed per sample (the same at every factor: common random numbers). Cached per factor. */
export function lawPilots(row: LawRow, plan: AuditPlan, hasher: Hasher): (factor: number) => Summary {
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
      const eps = epsAt(row.mechanism, row.eps, factor);
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
