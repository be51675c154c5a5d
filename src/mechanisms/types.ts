import type { UserVectors } from '../data/types.js';
import type { Rng } from '../random/rng.js';
import type { Float64Alloc } from '../util/bufferPool.js';
import type { ReleaseKind, ReleaseSet } from '../lsh/releases.js';
import type { TrialHashing } from '../lsh/hyperplanes.js';
import type { EpsilonInfo, PrivacyParams } from '../privacy/types.js';
import type { MetricName } from '../lsh/families/types.js';
import type { ReleaseLaw } from './releaseLaw.js';

export interface MechanismContext {
  vectors: UserVectors;
  hashing: TrialHashing;
  /** this mechanism's fresh noise for this trial and xi */
  rng: Rng;
  options: Record<string, unknown>;
  /**
   * Draws a mechanism shares across the ξ of one trial (common random numbers): `make` runs once
   * per trial cell, mechanism and `key`, on a source seeded by the trial and the mechanism but not
   * by ξ, and every ξ of the trial gets the same value. A result still depends only on its own
   * identity and the trial: computed alone or beside other ξ, it is the same. Absent (a bare
   * `encode` call, `lshdp encode`, the audit), `make` runs on `rng`. `alloc` gives the draws'
   * big arrays their memory: the trial cell's pool (src/util/bufferPool.ts), else fresh arrays.
   */
  perTrial?: <T>(key: string, make: (rng: Rng, alloc: Float64Alloc) => T) => T;
  /**
   * Takes the release this encode would give at ε = ∞ on a fresh stream of the same seed (the
   * attacks' clean release, src/evaluations/clean.ts), from a mechanism that computes it on the way
   * (RAPPOR's Bloom filters before the flips), so that it is not encoded a second time. Each of its
   * rows must be its user's alone (given the draws made before any row), so that the rows of some
   * users are those users' clean release: the linkage attack takes them for profiles known whole.
   * Given only to mechanisms stating `keepsClean`, and only in the trial cells.
   */
  keepClean?: (clean: ReleaseSet) => void;
}

/**
 * The parts a claim can ask for (src/claims/grid.ts picks its series by role):
 * - `clean-lsh`: the LSH code itself, no noise (the non-private baseline);
 * - `bitwise-rr`: the LSH code, then per-bit randomized response with a per-bit ε from ξ (LSHRR);
 * - `laplace-vector`: multivariate Laplace noise on the vector, then LSH (LapLSH);
 * - `bloom-whole-vector`: the whole vector as one value in a Bloom filter, then per-bit randomized
 *   response (RAPPOR on the vector);
 * - `bucket-minhash`: each MinHash's item mapped to one of b public buckets, then b-ary randomized
 *   response (minhash-bucket; its `buckets` option says b);
 * - `noisy-minhash`: each 1-bit MinHash value plus Laplace noise, released as a real;
 * - `directional-euclidean` / `directional-angular`: a direction drawn around the vector, private
 *   for the Euclidean distance (von Mises–Fisher) / the angle (Purkayastha), then LSH;
 * - `gaussian-projection`: the random projection W·x of the vector with Gaussian noise, released as
 *   reals (JL + Gaussian, jl-gaussian).
 */
export const MECHANISM_ROLES = [
  'clean-lsh',
  'bitwise-rr',
  'laplace-vector',
  'bloom-whole-vector',
  'directional-euclidean',
  'directional-angular',
  'gaussian-projection',
  'bucket-minhash',
  'noisy-minhash',
] as const;
export type MechanismRole = (typeof MECHANISM_ROLES)[number];

/** One option of a mechanism's config entry, as plain data. `noun` is how the config check names
 *  it ("only laplsh, vmf, purkayastha take a sampler"). */
export type OptionSpec =
  | { readonly type: 'choice'; readonly values: readonly [string, ...string[]]; readonly default: string; readonly noun: string }
  | { readonly type: 'integer'; readonly min: number; readonly max: number; readonly default: number; readonly noun: string }
  | { readonly type: 'real'; readonly min: number; readonly max: number; readonly default: number; readonly noun: string }
  | { readonly type: 'boolean'; readonly default: boolean; readonly noun: string };

/**
 * One mechanism of the comparison. `exact` is the reference (true neighbours, no code); every other
 * mechanism releases a row per user (a bit code, symbols or reals: `release`) and neighbours are
 * found by its distance.
 */
export interface Mechanism {
  readonly name: string;
  readonly description: string;
  readonly kind: 'exact' | 'code';
  /** whether rows of this mechanism carry a kappa (hash length) */
  readonly usesKappa: boolean;
  /** whether rows of this mechanism carry a privacy budget xi */
  readonly usesXi: boolean;
  /** whether `epsilon()` can fall back to the pure LDP bound (LSHRR); rows of the others leave
   *  `fallback` empty */
  readonly hasFallback?: boolean;
  /** which output column the mechanism's own epsilon belongs to: `epsilon_bit` (per-bit randomized
   *  response, lshrr) or `epsilon_lap` (Laplace, laplsh); absent: neither (its LDP epsilon only) */
  readonly epsilonKind?: 'bit' | 'lap' | 'concentration';
  /** the directional mechanisms (vmf, purkayasta): the distance their concentration is private for */
  readonly concentrationMetric?: 'euclidean' | 'angle';
  /** option keys `encode` accepts in `ctx.options` (e.g. laplsh: sampler; rappor: hashes); a
   *  built-in's are the keys of its optionSchema (declareFacts fills them in) */
  readonly optionKeys?: readonly string[];
  /** a built-in's options as data (their type, range, default and wording): the config schema and
   *  its checks are built from the units' (src/experiment/config/schema.ts), and the mechanism's
   *  own code validates with the same spec */
  readonly optionSchema?: Readonly<Record<string, OptionSpec>>;
  /**
   * The version of this mechanism's own algorithm (its draws and how it turns them into codes).
   * It enters the hash of this mechanism's results only: bump it when a change alters this
   * mechanism's numbers, and a run recomputes its results and reuses every other mechanism's.
   * Absent: the mechanism has had one algorithm (its results' hashes are as before versions).
   */
  readonly algorithm?: string;
  /** accountants a config may choose with `accountant:` (lshrr: paper, exact, theorem, naive); the
   *  first is the default. Absent or empty: the mechanism takes no accountant. */
  readonly accountants?: readonly string[];
  /** what `epsilon()` reads as `privacy.d`: the per-bit disagreement probability of the LSH family
   *  (built-ins, the default; on the angular family it equals d) or the distance in the family's
   *  metric (plugins). src/privacy/onFamily.ts is where the two are told apart. */
  readonly budgetDistance?: 'disagreement' | 'family';
  /** noise goes into the vector itself (LapLSH, the directional ones): the mechanism needs a family
   *  whose inputs are vectors (LshFamily.vectorMechanisms; the config check, `lshdp encode` and
   *  encodeUsers ask this), and the audit's pairs keep every coordinate (no restriction to the
   *  pair's support) */
  readonly noisesVector?: boolean;
  /** the one LSH family (config `metric`) the mechanism runs on, whose own hashing it reads (the
   *  private MinHash ones: jaccard, TrialHashing.minHash); the config check, `lshdp encode` and
   *  encodeUsers refuse it on another family, and a trial cell set up from a kept setup (which keeps
   *  the codes only) hashes again for it. Absent: any family (noisesVector aside). */
  readonly metric?: MetricName;
  /** what the release is beyond the family's hash rule, in words (private MinHash: the bucket map),
   *  for `lshdp encode`'s hashing.json `hash_rule`; absent: the family's code itself */
  readonly releaseRule?: string;
  /** the audit: at ε = ∞ the released code is the clean LSH code of the trial's hashing */
  readonly cleanIsLshCode?: boolean;
  /** the audit: a Bloom filter of the input's items or value (RAPPOR), private per changed item or
   *  value; its worst pair is a substitution {a} vs {b} */
  readonly bloomFilter?: boolean;
  /** the budget tables: `accountant` (LSHRR: one row per accountant, in budgets.csv's own columns:
   *  accountant, alpha, epsilon_bit, flip, fallback, unbounded, delta_hockey) or `concentration`
   *  (the directional ones: their rows add mechanism, concentration, concentration_metric); absent:
   *  no rows (`lshdp table budgets --mechanism` offers the mechanisms that have some) */
  readonly budgetRows?: 'accountant' | 'concentration' | 'own';
  /** `lshdp encode`'s hashing.json: each bit is flipped with realizedFlipProbability(ε), which the
   *  file states as `flip` (LSHRR) */
  readonly flipsBits?: boolean;
  /** the hash functions are drawn from the secret noise (RAPPOR's Bloom hashes), so codes released
   *  apart cannot be compared: `lshdp encode` does not offer it */
  readonly hashesFromNoise?: boolean;
  /** its encode hands the release it would give at ε = ∞ to MechanismContext.keepClean on the way
   *  (RAPPOR's filters); the trial passes the callback only to a mechanism stating this, and
   *  registerMechanism drops it, so a mechanism that wraps a built-in's encode and changes its
   *  release never hands over the built-in's */
  readonly keepsClean?: boolean;
  /** the report's wording of how this mechanism's ε_LDP comes from its own ε (the note under the
   *  utility table, e.g. LSHRR's "κ·ε_bit for LSHRR") */
  readonly ldpNote?: string;
  /** what the claims (src/claims/grid.ts) may pick this mechanism for; a claim names a role,
   *  never a mechanism, so a plugin that declares a role is picked as a built-in is */
  readonly roles?: readonly MechanismRole[];
  /** directional mechanisms: ln of the density (up to a constant) of the angle θ ∈ [0, π] between the
   *  input and the released direction on S^{n−1} at concentration c; the audit tests its codes
   *  against this law */
  angleLogDensity?(theta: number, n: number, c: number): number;
  /**
   * The budget tables' row of a mechanism whose parameter is neither LSHRR's per-bit ε nor a
   * concentration (`budgetRows: 'own'`: jl-gaussian's σ, private MinHash's ε per position): what ξ
   * means at one (κ, d, δ) for an entry's options, with the same `privacy` as `epsilon` takes.
   */
  budgetRow?(xi: number, kappa: number, privacy: PrivacyParams, options?: Record<string, unknown>): OwnBudgetRow;
  /** the per-position disagreement probability its accountants take at distance d in the family's
   *  metric (bucket MinHash: d(1 − 1/b)), for `lshdp encode`'s hashing.json; absent: the family's
   *  `disagreement(d)` */
  positionDisagreement?(d: number, options?: Record<string, unknown>): number;
  /** `options` is the config entry's options (e.g. `accountant`); mechanisms ignore keys they do not use */
  epsilon(xi: number, kappa: number, privacy: PrivacyParams, options?: Record<string, unknown>): EpsilonInfo;
  /**
   * What `encode` releases (src/lsh/releases.ts): `bits` (a bit code, Hamming distance; absent
   * means bits), `symbols` (b-ary values, the number of unequal positions) or `reals` (κ doubles,
   * Euclidean distance). The k-NN, the attacks, `lshdp encode` and the audit ask it.
   */
  readonly release?: ReleaseKind;
  /** the released rows of all users for one trial (kind 'code' only), of the kind `release` says */
  encode?(ctx: MechanismContext, eps: EpsilonInfo): ReleaseSet;
  /**
   * A release that is not bits: the law `encode(ctx, eps)` declares for each released coordinate
   * around its clean release (`encode` at ε = ∞ on the same hashing), and the claim it makes
   * (src/mechanisms/releaseLaw.ts; docs/PRIVACY.md "Releases that are not bits"). `lshdp audit`
   * tests what the release does against it. `privacy` is what `epsilon` received (the same d and
   * δ); `ctx` is the sample's hashing, vectors and options (a law may read the hashing, e.g. its
   * spectral norm through `ctx.perTrial`, and must not draw from `ctx.rng`). Null: no law (the
   * release does not depend on the input, e.g. jl-gaussian at ξ = 0).
   */
  releaseLaw?(eps: EpsilonInfo, ctx: MechanismContext, privacy: PrivacyParams): ReleaseLaw | null;
  /**
   * The accounting `eps` with the release's own parameter scaled by `factor` (Infinity: the clean
   * release, no noise), for a mechanism whose `encode` reads its noise from something `scaledEps`
   * (src/mechanisms/common.ts: `epsilon`, `ldpEpsilon`) does not scale. The audit simulates
   * inflations through it and the attacks take their clean release at Infinity. Absent: scaledEps.
   */
  inflate?(eps: EpsilonInfo, factor: number): EpsilonInfo;
}

/**
 * One row of a mechanism's own budget (Mechanism.budgetRow; budgets.csv's own section and `lshdp
 * table budgets`): its parameter's name and value at one grid point and its LDP equivalent.
 */
export interface OwnBudgetRow {
  /** what `value` is: `sigma` (the Gaussian noise's standard deviation), `sigma_per_sigma_max` (σ in units of the trial's σ_max(W), a guarantee computed per trial), `epsilon_position` (ε per released position) */
  parameter: string;
  /** null where no finite value exists (σ = ∞ at ξ = 0 is written as Infinity, not null) */
  value: number | null;
  /** the LDP-equivalent ε (any two inputs), or null where none is stated */
  epsilon_ldp: number | null;
  /** the δ that LDP equivalent holds with (0: pure LDP), or null */
  ldp_delta: number | null;
  /** the accountant or guarantee that turned ξ into the value */
  accountant: string | null;
  /** the pure-LDP bound was used (as LSHRR's `fallback`), or null where it does not apply */
  fallback: boolean | null;
  /** what δ is taken over, where not over the public hash functions alone (`lshdp encode`'s statement) */
  over?: string;
}

/** The plain part of a Mechanism (everything but its functions: `epsilon`, `encode`, `angleLogDensity`, `budgetRow`, `positionDisagreement`, `releaseLaw`, `inflate`). */
export type MechanismFacts = Omit<Mechanism, 'epsilon' | 'encode' | 'angleLogDensity' | 'budgetRow' | 'positionDisagreement' | 'releaseLaw' | 'inflate'>;

/** A unit's declaration of its plain facts (its facts.ts), frozen, its optionKeys those of its
 *  optionSchema: the catalog lists them and the unit's code spreads them into its Mechanism. */
export const declareFacts = <T extends Omit<MechanismFacts, 'optionKeys'>>(f: T): T & { readonly optionKeys: readonly string[] } =>
  Object.freeze({ ...f, optionKeys: Object.keys(f.optionSchema ?? {}) });

/**
 * The plain facts a plugin declares as a built-in does (MechanismPlugin extends them; the loader
 * checks their types and the registry entry carries them). The others follow from the plugin
 * contract: a plugin sees the clean codes only (`noisesVector` is false), its `epsilon_bit` and
 * `fallback` fill the columns of those names, and its options are its `optionKeys`.
 */
export type DeclaredFacts = Partial<Pick<Mechanism, 'roles' | 'algorithm' | 'ldpNote' | 'cleanIsLshCode' | 'bloomFilter' | 'flipsBits' | 'hashesFromNoise' | 'release'>>;

/** What the grid, the store and the tables need to know of a mechanism (plain data: workers and
 *  result readers get it without the mechanism's code). */
export interface MechanismInfo {
  kind: 'exact' | 'code';
  usesKappa: boolean;
  usesXi: boolean;
  /** which epsilon column the mechanism's own epsilon goes to: per-bit RR (lshrr), Laplace (laplsh), none */
  epsilonKind?: 'bit' | 'lap' | 'concentration' | null;
  /** vmf: euclidean, purkayastha: angle (the concentration_metric column) */
  concentrationMetric?: 'euclidean' | 'angle' | null;
  /** whether rows carry a fallback flag (lshrr) */
  hasFallback?: boolean;
  /** Mechanism.algorithm: the version of the mechanism's own draws, in its results' hashes */
  algorithm?: string;
}
