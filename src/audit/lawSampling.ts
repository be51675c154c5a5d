/**
 * The samples of a release-law row (lawRows.ts): each sample runs the mechanism's own encode on a
 * fresh hashing of the pair, at ε and at ε = ∞ (the clean release, on replayed noise: sampling.ts
 * releasePair), and keeps what the release put around its clean release, with the law it declared.
 */
import type { Mechanism, MechanismContext } from '../mechanisms/types.js';
import type { ReleaseLaw } from '../mechanisms/releaseLaw.js';
import type { EpsilonInfo, PrivacyParams } from '../privacy/types.js';
import type { TrialHashing } from '../lsh/hyperplanes.js';
import type { UserVectors } from '../data/types.js';
import type { Float64Alloc } from '../util/bufferPool.js';
import { releaseLength, releaseRows, unpackSymbols, type ReleaseSet } from '../lsh/releases.js';
import { deriveSeed, makeRng, type Rng } from '../random/rng.js';
import { UserError } from '../util/errors.js';
import { releasePair } from './sampling.js';
import type { AuditEntry, AuditPlan, Candidate } from './types.js';

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
