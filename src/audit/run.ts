/**
 * `lshdp audit`: an empirical check of every privacy claim of a config's mechanisms at its
 * (d, δ, κ, ξ) grid.
 *
 * For each κ, M + M/2 samples are drawn on the synthetic pair at exactly d: fresh hash seeds
 * (hyperplanes) per sample, shared by the mechanisms of that κ, and per (mechanism entry, ξ)
 * fresh mechanism noise, through the registry's own `encode` on the two-user input. Each sample
 * yields a positive (output of x) and a negative (output of x') and the distinguishing statistic
 *   S = Hamming(y, C(x')) − Hamming(y, C(x)),
 * C the clean code under the same seeds (the mechanism run with ε = ∞ on replayed randomness).
 * For LSHRR, S = 2A − D and the privacy loss is L = ε·S exactly, so the positives of the last M
 * samples estimate the tail Pr[L > ξ]; the first M/2 samples choose the threshold of the
 * black-box test, the last M estimate its rates (ε_lb, Jagielski et al. 2020).
 *
 * Verdicts per (entry, κ, ξ), all tests at family level 0.05 with Holm's adjustment:
 * - violated: the tail exceeds the claimed δ (exact one-sided binomial test) or ε_lb > ξ
 *   (the smallest α at which ε_lb(α) > ξ is that test's p-value); the two p-values of an entry are
 *   combined by Bonferroni (2·min);
 * - sound: not violated, and (LSHRR) the tail is shown below 2δ (binomial test of "tail >= 2δ"),
 *   so a sound verdict means the test could have seen a violation of a factor two;
 *   mechanisms without a computable loss (LapLSH, RAPPOR) are sound when no violation is found;
 * - inconclusive: neither; n/a: vanilla LSH (claims no ξ).
 * Real pairs (within ±band of d) estimate LSHRR's tail at their own distances beside the exact
 * mixture value; they inform, they do not vote (a farther pair legitimately has a larger tail).
 */
import { euclideanFromAngular } from '../privacy/distance.js';
import type { CodeSet } from '../lsh/codes.js';
import type { TrialHashing } from '../lsh/hyperplanes.js';
import type { EpsilonInfo } from '../privacy/types.js';
import type { Mechanism, MechanismContext } from '../mechanisms/types.js';
import type { UserVectors } from '../data/types.js';
import { getMechanism, mechanismInfo } from '../mechanisms/registry.js';
import { resultSpecs } from '../experiment/grid.js';
import { drawHyperplanes, projectAll } from '../lsh/hyperplanes.js';
import { packSigns, popcount32 } from '../lsh/codes.js';
import { deriveSeed, makeRng, type Rng } from '../random/rng.js';
import { exactTail, scoreTail, tailLimit } from '../privacy/exactLoss.js';
import { UserError } from '../util/errors.js';
import { restrictToSupport, syntheticJaccardPair, syntheticPair, type AuditPair } from './pairs.js';
import { chooseThreshold, countsAt, epsilonLbPValue, epsilonLowerBound } from './epsilonBound.js';
import { binomialLowerP, binomialUpperP, clopperPearson } from '../stats/binomial.js';
import { holm } from '../stats/holm.js';
import { getFamily, type LshFamily, type MetricName } from '../lsh/families/index.js';
import { epsilonOnFamily } from '../privacy/onFamily.js';
import { FAMILY_ALPHA, SOUND_FACTOR } from './defaults.js';

/** A mechanism entry of the audit (a config entry: label, registry name, options). */
/** One point of an empirical or exact CDF of the privacy loss. */
export interface LossCdfPoint {
  /** the series: `empirical` or `exact` */
  source: string;
  /** what the panel shows, e.g. `lshrr-exact κ=20 ξ=5` */
  panel: string;
  loss: number;
  cdf: number;
}

export interface AuditEntry {
  label: string;
  /** registry name */
  name: string;
  options: Record<string, unknown>;
  /** tests only: replaces the mechanism's accounting (e.g. a deliberately inflated ε) */
  epsilonOf?: (xi: number, kappa: number) => EpsilonInfo;
}

export interface AuditPlan {
  seed: number | string;
  d: number;
  delta: number;
  kappa: readonly number[];
  xi: readonly number[];
  /** dimension of the synthetic pair for LapLSH (the config's first n) */
  n: number;
  entries: readonly AuditEntry[];
  /** estimation samples per row (the threshold uses another samples/2) */
  samples: number;
  /** real pairs (already found), audited for LSHRR's tail at their own distances */
  realPairs: readonly AuditPair[];
  /** the config's metric (default angular): its LSH family hashes, its disagreement gives p */
  metric?: MetricName;
}

export type Verdict = 'sound' | 'violated' | 'inconclusive' | 'n/a';

/** One row of audit.json's `results`. */
export interface AuditResult {
  mechanism: string;
  base: string;
  accountant: string | null;
  kappa: number;
  xi: number;
  d: number;
  /** the δ the mechanism claims (LSHRR: the config's; LapLSH, RAPPOR: 0; LSH: null) */
  delta: number | null;
  verdict: Verdict;
  /** empirical Pr[L > ξ] on the synthetic pair (null where the loss is not computable) */
  tail: number | null;
  tail_ci: [number, number] | null;
  /** Pr[L > ξ] of the exact distribution at d */
  exact_tail: number | null;
  epsilon_bit: number | null;
  /** black-box lower bound on ε (95% Clopper–Pearson) */
  epsilon_lb: number;
  epsilon_lb_threshold: number;
  tpr: number;
  fpr: number;
  samples: number;
  p_violation: number | null;
  p_violation_holm: number | null;
  p_sound: number | null;
  p_sound_holm: number | null;
  /** vmf, purkayastha: the analytic supremum of the log-ratio at the pair (c·d₂, c·θ), which the
   *  accounting makes ξ; null for the others */
  loss_sup: number | null;
}

/** One row of audit.json's `real_pairs`: LSHRR's tail on real pairs near d. */
export interface RealPairResult {
  mechanism: string;
  accountant: string | null;
  kappa: number;
  xi: number;
  d: number;
  delta: number;
  source: string;
  pairs: number;
  distance_min: number;
  distance_max: number;
  samples: number;
  tail: number;
  tail_ci: [number, number];
  /** the exact tail averaged over the pairs' own distances (each pair has the same samples) */
  exact_tail: number;
}

export interface AuditOutcome {
  results: AuditResult[];
  real_pairs: RealPairResult[];
  cdf: LossCdfPoint[];
  cdfXi: Record<string, number>;
}

/** Hamming distance between row a of one code set and row b of another (same bit length). */
function hammingBetween(x: CodeSet, a: number, y: CodeSet, b: number): number {
  let d = 0;
  for (let w = 0; w < x.words; w++) d += popcount32(x.codes[a * x.words + w] ^ y.codes[b * y.words + w]);
  return d;
}

/** One hashing (fresh hyperplanes) of a two-user pair. */
function drawHashing(rng: Rng, vectors: UserVectors, kappa: number): TrialHashing {
  const planes = drawHyperplanes(rng, kappa, vectors.n);
  const projections = projectAll(vectors, planes, kappa);
  return { kappa, n: vectors.n, planes, projections, codes: packSigns(projections, 2, kappa) };
}

/** The directional mechanisms: their accounting is checked analytically (see `lossSupremum`). */
const DIRECTIONAL = new Set(['vmf', 'purkayastha']);

/**
 * The supremum over outputs of the log-ratio of a directional mechanism at two inputs at angular
 * distance `distance`: c·d₂ (VMF: attained at z along x − x') and c·θ (Purkayastha: at z on the
 * great circle through x and x', beyond x). Sampling cannot reach a supremum over outputs; the
 * audit checks the accounting against it and the sampled codes against ξ.
 */
export function lossSupremum(base: string, concentration: number, distance: number): number | null {
  if (base === 'vmf') return concentration * euclideanFromAngular(distance);
  if (base === 'purkayastha') return concentration * Math.PI * distance;
  return null;
}

/** Mechanisms whose output at ε = ∞ is the clean LSH code of the hashing (checked in the tests). */
const HASH_CODED = new Set(['lsh', 'lshrr', 'laplsh']);

/**
 * Draws the hashing of sample `index` of a pair: angular draws hyperplanes from the stream `rng`
 * (fast path, no seed per sample); other families hash with their own `hash` from a per-sample
 * public seed, as a run does per trial.
 */
type Hasher = (vectors: UserVectors, kappa: number, rng: Rng, key: readonly (string | number)[]) => TrialHashing;

function hasherFor(family: LshFamily, seed: number | string): Hasher {
  if (family.name === 'angular') return (vectors, kappa, rng) => drawHashing(rng, vectors, kappa);
  return (vectors, kappa, _rng, key) => family.hash(vectors, kappa, deriveSeed(seed, 'audit-hash-sample', ...key));
}

const CLEAN: EpsilonInfo = Object.freeze({ epsilon: Infinity, ldpEpsilon: Infinity, fallback: false });

/**
 * The statistics (S for the output of x, S for the output of x') of one sample: the mechanism's
 * clean code under this sample's seeds comes from running it with ε = ∞ on a recording of the
 * noise stream, the released code from replaying that recording (same salts/positions) and
 * continuing the stream (fresh noise).
 */
export function scoreSample(m: Mechanism, vectors: UserVectors, hashing: TrialHashing, rng: Rng, options: Record<string, unknown>, eps: EpsilonInfo): [number, number] {
  if (HASH_CODED.has(m.name)) {
    // their clean code is the LSH code of the seeds: no recording run needed
    const clean = hashing.codes!;
    const out = m.encode!({ vectors, hashing, rng, options }, eps);
    return [hammingBetween(out, 0, clean, 1) - hammingBetween(out, 0, clean, 0), hammingBetween(out, 1, clean, 1) - hammingBetween(out, 1, clean, 0)];
  }
  const tape: number[] = [];
  const recording: Rng = () => {
    const v = rng();
    tape.push(v);
    return v;
  };
  const ctx = (r: Rng): MechanismContext => ({ vectors, hashing, rng: r, options });
  const clean = m.encode!(ctx(recording), CLEAN);
  let at = 0;
  const replay: Rng = () => (at < tape.length ? tape[at++] : rng());
  const out = m.encode!(ctx(replay), eps);
  const s0 = hammingBetween(out, 0, clean, 1) - hammingBetween(out, 0, clean, 0);
  const s1 = hammingBetween(out, 1, clean, 1) - hammingBetween(out, 1, clean, 0);
  return [s0, s1];
}

/** The loss of an LSHRR output with score s (eps = ∞: every differing bit kept, loss ∞ when s > 0). */
function lossOf(eps: number, s: number): number {
  if (s === 0) return 0;
  return eps * s;
}

interface Row {
  entry: AuditEntry;
  mechanism: Mechanism;
  kappa: number;
  xi: number;
  eps: EpsilonInfo;
  rng: Rng;
  pos: Float64Array;
  neg: Float64Array;
  fullDim: boolean;
  options: Record<string, unknown>;
}

const BATCH = 200;

/** Runs the audit of a plan (deterministic for a given plan). */
export function runAudit(plan: AuditPlan): AuditOutcome {
  if (!(Number.isInteger(plan.samples) && plan.samples >= 1)) throw new UserError(`--samples: must be a positive integer, got ${plan.samples}`);
  const M = plan.samples;
  const sel = Math.max(1, Math.floor(M / 2));
  const total = sel + M;
  const family = getFamily(plan.metric ?? 'angular');
  const hasher = hasherFor(family, plan.seed);
  const p = (distance: number) => family.disagreement(distance);
  const synth = family.name === 'angular' ? syntheticPair(plan.d, Math.max(2, plan.n)) : syntheticJaccardPair(plan.d, plan.n);
  const synthSmall = restrictToSupport(synth.vectors);
  const results: AuditResult[] = [];
  const realResults: RealPairResult[] = [];
  const cdf: LossCdfPoint[] = [];
  const cdfXi: Record<string, number> = {};
  const positiveXi = plan.xi.filter((x) => x > 0);
  const cdfAt = positiveXi.length ? [...positiveXi].sort((a, b) => a - b)[Math.floor((positiveXi.length - 1) / 2)] : null;

  for (const kappa of plan.kappa) {
    const rows: Row[] = [];
    for (const { entry, xi } of resultSpecs(plan.entries, plan.xi, mechanismInfo)) {
      const mechanism = getMechanism(entry.name);
      if (!mechanism.encode) continue;
      const privacy = { d: plan.d, delta: plan.delta };
      const eps =
        xi === null
          ? epsilonOnFamily(mechanism, family.disagreement, 0, kappa, privacy, entry.options)
          : entry.epsilonOf
            ? entry.epsilonOf(xi, kappa)
            : epsilonOnFamily(mechanism, family.disagreement, xi, kappa, privacy, entry.options);
      // mechanisms that add noise to the vector itself are audited on the full-dimension pair
      const fullDim = entry.name === 'laplsh' || DIRECTIONAL.has(entry.name);
      rows.push({
        entry,
        mechanism,
        kappa,
        xi: xi ?? 0,
        eps,
        rng: makeRng(deriveSeed(plan.seed, 'audit-noise', entry.label, kappa, xi ?? 'none')),
        pos: new Float64Array(total),
        neg: new Float64Array(total),
        fullDim,
        // LapLSH, VMF and Purkayastha are audited with their direct samplers (equal in
        // distribution to the projected ones, which would need an SVD per sample)
        options: fullDim ? { ...entry.options, sampler: 'direct' } : entry.options,
      });
    }
    if (rows.length === 0) continue;
    const hashSmall = makeRng(deriveSeed(plan.seed, 'audit-hash', 'synthetic', kappa));
    const hashFull = makeRng(deriveSeed(plan.seed, 'audit-hash', 'synthetic-full', kappa));
    const needFull = rows.some((r) => r.fullDim);
    const needSmall = rows.some((r) => !r.fullDim);
    for (let start = 0; start < total; start += BATCH) {
      const count = Math.min(BATCH, total - start);
      const small = needSmall ? Array.from({ length: count }, (_, b) => hasher(synthSmall, kappa, hashSmall, ['synthetic', kappa, start + b])) : [];
      const full = needFull ? Array.from({ length: count }, () => drawHashing(hashFull, synth.vectors, kappa)) : [];
      for (const row of rows) {
        const vectors = row.fullDim ? synth.vectors : synthSmall;
        const hashings = row.fullDim ? full : small;
        for (let b = 0; b < count; b++) {
          const [s0, s1] = scoreSample(row.mechanism, vectors, hashings[b], row.rng, row.options, row.eps);
          row.pos[start + b] = s0;
          row.neg[start + b] = s1;
        }
      }
    }
    for (const row of rows) {
      results.push(rowResult(row, plan, sel, M, synth.distance, p));
      if (row.entry.name === 'lshrr' && cdfAt !== null && row.xi === cdfAt && Number.isFinite(row.eps.epsilon ?? NaN)) {
        const panel = `${row.entry.label} κ=${kappa} ξ=${row.xi}`;
        cdfXi[panel] = row.xi;
        cdf.push(...cdfPoints(panel, row.pos.subarray(sel), row.eps.epsilon!, kappa, p(synth.distance)));
      }
    }
    // real pairs: LSHRR's tail at the pairs' own distances
    const lshrrRows = rows.filter((r) => r.entry.name === 'lshrr');
    if (lshrrRows.length && plan.realPairs.length) realResults.push(...realPairRows(plan, kappa, lshrrRows, M, hasher, p));
  }
  applyVerdicts(results);
  return { results, real_pairs: realResults, cdf, cdfXi };
}

function rowResult(row: Row, plan: AuditPlan, sel: number, M: number, distance: number, p: (d: number) => number): AuditResult {
  const base = row.entry.name;
  const isLshrr = base === 'lshrr';
  const claims = row.mechanism.usesXi;
  const eps = row.eps.epsilon;
  const claimedDelta = isLshrr ? plan.delta : claims ? 0 : null;
  const bbDelta = claimedDelta ?? 0;
  const selPos = row.pos.subarray(0, sel);
  const selNeg = row.neg.subarray(0, sel);
  const estPos = row.pos.subarray(sel);
  const estNeg = row.neg.subarray(sel);
  const threshold = chooseThreshold(selPos, selNeg, bbDelta);
  const counts = countsAt(estPos, estNeg, threshold);
  const epsilonLb = epsilonLowerBound(counts, bbDelta);
  let tail: number | null = null;
  let tailCi: [number, number] | null = null;
  let exact: number | null = null;
  let pViolation: number | null = null;
  let pSound: number | null = null;
  if (isLshrr && eps !== null) {
    let k = 0;
    for (let i = 0; i < estPos.length; i++) if (lossOf(eps, estPos[i]) > row.xi) k++;
    tail = k / M;
    tailCi = clopperPearson(k, M);
    // at the synthetic pair's own distance (exactly d for angular; the nearest fraction for jaccard)
    exact = eps === Infinity ? tailLimit(row.kappa, p(distance)) : exactTail(row.kappa, p(distance), eps, row.xi);
    const pTail = binomialUpperP(k, M, plan.delta);
    const pBb = epsilonLbPValue(counts, bbDelta, row.xi);
    pViolation = Math.min(1, 2 * Math.min(pTail, pBb));
    pSound = binomialLowerP(k, M, Math.min(1, SOUND_FACTOR * plan.delta));
  } else if (claims) {
    pViolation = epsilonLbPValue(counts, bbDelta, row.xi);
  }
  const sup = eps === null ? null : lossSupremum(base, eps, distance);
  // an accounting that does not give the loss ξ at distance d is a violation, whatever the samples
  if (sup !== null && Math.abs(sup - row.xi) > 1e-9 * Math.max(1, row.xi)) pViolation = 0;
  return {
    mechanism: row.entry.label,
    base,
    accountant: typeof row.entry.options.accountant === 'string' ? row.entry.options.accountant : (row.eps.accountant ?? null),
    kappa: row.kappa,
    xi: row.xi,
    d: plan.d,
    delta: claimedDelta,
    verdict: 'n/a',
    tail,
    tail_ci: tailCi,
    exact_tail: exact,
    epsilon_bit: isLshrr ? eps : null,
    epsilon_lb: epsilonLb,
    epsilon_lb_threshold: threshold,
    tpr: counts.truePositives / counts.positives,
    fpr: counts.falsePositives / counts.negatives,
    samples: M,
    p_violation: pViolation,
    p_violation_holm: null,
    p_sound: pSound,
    p_sound_holm: null,
    loss_sup: sup,
  };
}

/** Holm over the violation p-values and, separately, over the soundness p-values; then verdicts. */
export function applyVerdicts(results: AuditResult[]): void {
  const vIdx = results.map((r, i) => (r.p_violation === null ? -1 : i)).filter((i) => i >= 0);
  const vAdj = holm(
    vIdx.map((i) => results[i].p_violation!),
    1,
  ).adjusted;
  vIdx.forEach((i, j) => {
    results[i].p_violation_holm = vAdj[j];
  });
  const sIdx = results.map((r, i) => (r.p_sound === null ? -1 : i)).filter((i) => i >= 0);
  const sAdj = holm(
    sIdx.map((i) => results[i].p_sound!),
    1,
  ).adjusted;
  sIdx.forEach((i, j) => {
    results[i].p_sound_holm = sAdj[j];
  });
  for (const r of results) {
    if (r.p_violation_holm === null) r.verdict = 'n/a';
    else if (r.p_violation_holm <= FAMILY_ALPHA) r.verdict = 'violated';
    else if (r.p_sound_holm === null) r.verdict = 'sound';
    else r.verdict = r.p_sound_holm <= FAMILY_ALPHA ? 'sound' : 'inconclusive';
  }
}

function realPairRows(plan: AuditPlan, kappa: number, rows: Row[], M: number, hasher: Hasher, p: (d: number) => number): RealPairResult[] {
  const bySource = new Map<string, AuditPair[]>();
  for (const p of plan.realPairs) bySource.set(p.source, [...(bySource.get(p.source) ?? []), p]);
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
            if (lossOf(row.eps.epsilon!, s0) > row.xi) hits[ri]++;
          }
        });
      }
    });
    const n = pairs.length * M;
    const dists = pairs.map((p) => p.distance);
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
