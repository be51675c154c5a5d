/**
 * `lshdp audit`: tests of every privacy claim of a config's mechanisms at its (d, δ, κ, ξ) grid,
 * each verdict no stronger than what was measured (the rules: src/audit/verdicts.ts).
 *
 * Per κ and per (mechanism entry, ξ) row:
 * 1. Pair search: each candidate pair of the row (`candidatesOf`) gets M/2 selection samples; the
 *    candidate and threshold with the largest ε_lb on them are kept. The selection samples are
 *    then discarded, so the choice cannot bias what follows.
 * 2. Estimation: M fresh samples on the kept pair give the black-box counts at the kept threshold
 *    (ε_lb, Jagielski et al. 2020), and the statistics of the release tests (LSHRR's flips on the
 *    bits where the pair's clean codes differ and its score S, the directional mechanisms' Hamming
 *    distance H to the clean code).
 * Both phases test the row's one claim (claim.ts: the same δ, the same value ε_lb is compared with).
 * Samples draw fresh hash seeds (shared by the rows of a κ on the same pair) and fresh noise per
 * row (sampling.ts). Real pairs (within ±band of d) estimate LSHRR's tail at their own distances
 * beside the exact mixture value; they inform, they do not vote.
 */
import type { EpsilonInfo } from '../privacy/types.js';
import type { Mechanism, MechanismInfo } from '../mechanisms/types.js';
import { getMechanism, mechanismInfo } from '../mechanisms/registry.js';
import { resultSpecs } from '../experiment/grid.js';
import { deriveSeed, makeRng, type Rng } from '../random/rng.js';
import { exactTail, scoreTail, tailLimit } from '../privacy/exactLoss.js';
import { UserError } from '../util/errors.js';
import { itemSetPairs, restrictToSupport, spreadPair, syntheticJaccardPair, syntheticPair, type AuditPair } from './pairs.js';
import { chooseThreshold, countsAt, epsilonLowerBound } from './epsilonBound.js';
import { clopperPearson } from '../stats/binomial.js';
import { getFamily } from '../lsh/families/index.js';
import { epsilonOnFamily } from '../privacy/onFamily.js';
import { hasherFor, scoreSample, type Hasher } from './sampling.js';
import { finalizeRows } from './verdicts.js';
import type { SampledRow } from './rowTypes.js';
import { rowClaim, type RowClaim } from './claim.js';
import { lawPrivacy, lawSample, lawSamples } from './lawSampling.js';
import type { AuditOutcome, AuditPlan, Candidate, LossCdfPoint, RealPairResult } from './types.js';

export type { AuditEntry, AuditOutcome, AuditPlan, AuditResult, LawDirection, LossCdfPoint, RealPairResult, Verdict } from './types.js';
export { scoreSample } from './sampling.js';

const BATCH = 200;

/**
 * The candidate pairs of a mechanism (see the file comment and pairs.ts); a row tested against an
 * LDP claim (any pair of inputs) also gets the farthest pair (angular: x' = −x, every hash bit
 * differs; Jaccard: disjoint sets).
 */
function candidatesFor(mechanism: Mechanism, plan: AuditPlan, angular: boolean, claim: RowClaim | null): Candidate[] {
  const synth = angular ? syntheticPair(plan.d, Math.max(2, plan.n)) : syntheticJaccardPair(plan.d, plan.n);
  if (mechanism.bloomFilter) return itemSetPairs().map((pair) => ({ key: pair.source, pair, vectors: pair.vectors }));
  if (mechanism.noisesVector) {
    const full: Candidate = { key: 'synthetic-full', pair: synth, vectors: synth.vectors };
    if (!angular) return [full];
    const spread = spreadPair(plan.d, Math.max(2, plan.n));
    return [full, { key: 'synthetic-spread', pair: spread, vectors: spread.vectors }];
  }
  const near: Candidate = { key: 'synthetic', pair: synth, vectors: restrictToSupport(synth.vectors) };
  if (claim?.claim !== 'ldp') return [near];
  const far = angular ? syntheticPair(1, Math.max(2, plan.n)) : syntheticJaccardPair(1, plan.n);
  return [near, { key: 'synthetic-far', pair: far, vectors: restrictToSupport(far.vectors) }];
}

function epsilonOf(row: { mechanism: Mechanism; entry: AuditPlan['entries'][number] }, xi: number | null, kappa: number, plan: AuditPlan, p: (d: number) => number): EpsilonInfo {
  const privacy = { d: plan.d, delta: plan.delta };
  if (xi !== null && row.entry.epsilonOf) return row.entry.epsilonOf(xi, kappa);
  return epsilonOnFamily(row.mechanism, p, xi ?? 0, kappa, privacy, row.entry.options);
}

/** The rows of one κ, before sampling. */
function rowsOf(plan: AuditPlan, kappa: number, angular: boolean, p: (d: number) => number): SampledRow[] {
  const rows: SampledRow[] = [];
  // an entry that brings its own mechanism (tests: a patched sampler, a plugin not registered) is
  // expanded by that mechanism's facts
  const info = (name: string): MechanismInfo => {
    const given = plan.entries.find((e) => e.name === name && e.mechanism)?.mechanism;
    return given ? { kind: given.kind, usesKappa: given.usesKappa, usesXi: given.usesXi } : mechanismInfo(name);
  };
  for (const { entry, xi } of resultSpecs(plan.entries, plan.xi, info)) {
    const mechanism = entry.mechanism ?? getMechanism(entry.name);
    if (!mechanism.encode) continue;
    const eps = epsilonOf({ mechanism, entry }, xi, kappa, plan, p);
    const claim = rowClaim(mechanism, eps, xi ?? 0, plan.delta);
    const law = claim?.kind === 'release-law';
    // a release-law row estimates its noise on the first candidate (no pair search: its tests do not
    // depend on a distinguishing threshold)
    const candidates = candidatesFor(mechanism, plan, angular, claim).slice(0, law ? 1 : undefined);
    rows.push({
      entry,
      mechanism,
      kappa,
      xi: xi ?? 0,
      eps,
      claim,
      rng: makeRng(deriveSeed(plan.seed, 'audit-noise', entry.label, kappa, xi ?? 'none')),
      // the vector-noising mechanisms run their direct samplers (equal in law to the projected
      // ones, which would need a factorization per sample)
      options: mechanism.noisesVector && mechanism.optionKeys?.includes('sampler') ? { ...entry.options, sampler: 'direct' } : entry.options,
      candidates,
      chosen: 0,
      threshold: 0,
      pos: new Float64Array(plan.samples),
      neg: new Float64Array(plan.samples),
      ham: new Float64Array(plan.samples),
      hamNeg: new Float64Array(plan.samples),
      differing: new Float64Array(plan.samples),
      ...(law ? { law: lawSamples(plan.samples, kappa, lawPrivacy(mechanism, plan, p)) } : {}),
    });
  }
  return rows;
}

/** The arrays one sample's statistics go to (scoreSample's order). */
type Targets = [Float64Array, Float64Array, Float64Array, Float64Array, Float64Array];

/** Samples `count` hashings of a candidate in batches and scores every row on it into the arrays
 *  (a release-law row into its law store). */
function sampleCandidate(
  cand: Candidate,
  rows: SampledRow[],
  kappa: number,
  count: number,
  hashRng: Rng,
  hasher: Hasher,
  phase: string,
  into: (row: SampledRow) => Targets,
  seed: number | string,
): void {
  const targets = rows.map(into);
  for (let start = 0; start < count; start += BATCH) {
    const n = Math.min(BATCH, count - start);
    const hashings = Array.from({ length: n }, (_, b) => hasher(cand.vectors, kappa, hashRng, [cand.key, kappa, phase, start + b]));
    const trialSeeds = rows.some((row) => row.law) ? hashings.map((_, b) => deriveSeed(seed, 'audit-per-trial', cand.key, kappa, phase, start + b)) : [];
    rows.forEach((row, r) => {
      const t = targets[r];
      if (row.law) {
        for (let b = 0; b < n; b++) lawSample(row.law, row, cand.vectors, hashings[b], row.rng, row.eps, trialSeeds[b]);
        return;
      }
      for (let b = 0; b < n; b++) {
        const stats = scoreSample(row.mechanism, cand.vectors, hashings[b], row.rng, row.options, row.eps);
        for (let i = 0; i < 5; i++) t[i][start + b] = stats[i];
      }
    });
  }
}

/** Phase 1 and 2 of the file comment for the rows of one κ. */
function sampleRows(rows: SampledRow[], plan: AuditPlan, kappa: number, hasher: Hasher): void {
  const sel = Math.max(1, Math.floor(plan.samples / 2));
  const keys = [...new Set(rows.flatMap((r) => r.candidates.map((c) => c.key)))];
  const hashRngs = new Map(keys.map((k) => [k, makeRng(deriveSeed(plan.seed, 'audit-hash', k, kappa))]));
  const best = new Map<SampledRow, number>();
  for (const key of keys) {
    // release-law rows keep their one candidate without a selection
    const users = rows.filter((r) => !r.law && r.candidates.some((c) => c.key === key));
    if (users.length === 0) continue;
    const cand = users[0].candidates.find((c) => c.key === key)!;
    const sample = new Map(users.map((r) => [r, Array.from({ length: 5 }, () => new Float64Array(sel)) as Targets]));
    sampleCandidate(cand, users, kappa, sel, hashRngs.get(key)!, hasher, 'select', (r) => sample.get(r)!, plan.seed);
    for (const row of users) {
      const [pos, neg] = sample.get(row)!;
      const delta = row.claim?.delta ?? 0;
      const t = chooseThreshold(pos, neg, delta);
      const e = epsilonLowerBound(countsAt(pos, neg, t), delta);
      if (!best.has(row) || e > best.get(row)!) {
        best.set(row, e);
        row.chosen = row.candidates.findIndex((c) => c.key === key);
        row.threshold = t;
      }
    }
  }
  for (const key of keys) {
    const users = rows.filter((r) => r.candidates[r.chosen].key === key);
    if (users.length === 0) continue;
    sampleCandidate(users[0].candidates[users[0].chosen], users, kappa, plan.samples, hashRngs.get(key)!, hasher, 'estimate', (r) => [r.pos, r.neg, r.ham, r.hamNeg, r.differing], plan.seed);
  }
}

/** Runs the audit of a plan (deterministic for a given plan). */
export function runAudit(plan: AuditPlan): AuditOutcome {
  if (!(Number.isInteger(plan.samples) && plan.samples >= 1)) throw new UserError(`--samples: must be a positive integer, got ${plan.samples}`);
  const family = getFamily(plan.metric ?? 'angular');
  const angular = family.name === 'angular';
  const hasher = hasherFor(family, plan.seed);
  const p = (distance: number) => family.disagreement(distance);
  const all: SampledRow[] = [];
  const realResults: RealPairResult[] = [];
  for (const kappa of plan.kappa) {
    const rows = rowsOf(plan, kappa, angular, p);
    if (rows.length === 0) continue;
    sampleRows(rows, plan, kappa, hasher);
    all.push(...rows);
    const lshrrRows = rows.filter((r) => r.claim?.kind === 'flips');
    if (lshrrRows.length && plan.realPairs.length) realResults.push(...realPairRows(plan, kappa, lshrrRows, hasher, p));
  }
  const results = finalizeRows(all, plan, p, hasher);
  return { results, real_pairs: realResults, ...cdfOf(all, plan, p) };
}

/** The loss-CDF panels: LSHRR rows at the median positive ξ. */
function cdfOf(rows: SampledRow[], plan: AuditPlan, p: (d: number) => number): { cdf: LossCdfPoint[]; cdfXi: Record<string, number> } {
  const positiveXi = plan.xi.filter((x) => x > 0);
  const cdfAt = positiveXi.length ? [...positiveXi].sort((a, b) => a - b)[Math.floor((positiveXi.length - 1) / 2)] : null;
  const cdf: LossCdfPoint[] = [];
  const cdfXi: Record<string, number> = {};
  for (const row of rows) {
    if (row.claim?.kind !== 'flips' || cdfAt === null || row.xi !== cdfAt || !Number.isFinite(row.eps.epsilon ?? NaN)) continue;
    const panel = `${row.entry.label} κ=${row.kappa} ξ=${row.xi}`;
    cdfXi[panel] = row.xi;
    cdf.push(...cdfPoints(panel, row.pos, row.eps.epsilon!, row.kappa, p(row.candidates[row.chosen].pair.distance)));
  }
  return { cdf, cdfXi };
}

function realPairRows(plan: AuditPlan, kappa: number, rows: SampledRow[], hasher: Hasher, p: (d: number) => number): RealPairResult[] {
  const M = plan.samples;
  const bySource = new Map<string, AuditPair[]>();
  for (const pair of plan.realPairs) bySource.set(pair.source, [...(bySource.get(pair.source) ?? []), pair]);
  const out: RealPairResult[] = [];
  for (const [source, pairs] of bySource) {
    const hits = rows.map(() => 0);
    const rngs = rows.map((r) => makeRng(deriveSeed(plan.seed, 'audit-noise-real', r.entry.label, kappa, r.xi, source)));
    pairs.forEach((pair, pi) => {
      const small = restrictToSupport(pair.vectors);
      const hashRng = makeRng(deriveSeed(plan.seed, 'audit-hash-real', source, pi, kappa));
      for (let start = 0; start < M; start += BATCH) {
        const count = Math.min(BATCH, M - start);
        const hashings = Array.from({ length: count }, (_, b) => hasher(small, kappa, hashRng, ['real', source, pi, kappa, start + b]));
        rows.forEach((row, ri) => {
          for (let b = 0; b < count; b++) {
            const [s0] = scoreSample(row.mechanism, small, hashings[b], rngs[ri], row.options, row.eps);
            if (s0 > 0 && row.eps.epsilon! * s0 > row.xi) hits[ri]++;
          }
        });
      }
    });
    const n = pairs.length * M;
    const dists = pairs.map((pair) => pair.distance);
    rows.forEach((row, ri) => {
      const eps = row.eps.epsilon!;
      const exact = pairs.reduce((a, pair) => a + (eps === Infinity ? tailLimit(kappa, p(pair.distance)) : exactTail(kappa, p(pair.distance), eps, row.xi)), 0) / pairs.length;
      out.push({
        mechanism: row.entry.label,
        accountant: typeof row.entry.options.accountant === 'string' ? row.entry.options.accountant : null,
        kappa,
        xi: row.xi,
        d: plan.d,
        delta: plan.delta,
        source,
        pairs: pairs.length,
        distance_min: Math.min(...dists),
        distance_max: Math.max(...dists),
        samples: n,
        tail: hits[ri] / n,
        tail_ci: clopperPearson(hits[ri], n),
        exact_tail: exact,
      });
    });
  }
  return out;
}

/** Empirical and exact CDF of L = eps·S over the scores s = −κ..κ (steps at each score). */
function cdfPoints(panel: string, scores: Float64Array, eps: number, kappa: number, d: number): LossCdfPoint[] {
  const counts = new Map<number, number>();
  for (const s of scores) counts.set(s, (counts.get(s) ?? 0) + 1);
  const out: LossCdfPoint[] = [];
  let cum = 0;
  for (let s = -kappa; s <= kappa; s++) {
    cum += counts.get(s) ?? 0;
    out.push({ source: 'empirical', panel, loss: eps * s, cdf: cum / scores.length });
    out.push({ source: 'exact', panel, loss: eps * s, cdf: Math.max(0, 1 - scoreTail(kappa, d, eps, s + 1)) });
  }
  return out;
}
