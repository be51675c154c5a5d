/**
 * The plugin contract's types: what a plugin module default-exports (`MechanismPlugin`) and what
 * its functions receive and return (src/mechanisms/plugin.ts has the rules; docs/EXTENDING.md the
 * guide).
 */
import type { CodeSet } from '../lsh/codes.js';
import type { DeclaredFacts, Mechanism } from './types.js';
import type { Rng } from '../random/rng.js';
import type { EpsilonInfo, PrivacyParams } from '../privacy/types.js';
import type { UserVectors } from '../data/types.js';
import type { TrialMinHash } from '../lsh/minHash.js';
import type { Float64Alloc } from '../util/bufferPool.js';
import type { ReleaseLaw } from './releaseLaw.js';

/** The plugin contract versions this lshdp runs: the current one and the one before it. A module
 *  without `apiVersion` is version 1. */
export const PLUGIN_API_VERSIONS = [1, 2] as const;
/** The current plugin contract version. */
export const PLUGIN_API_VERSION = 2;

/** What `epsilon` receives: the budget axis of the paper in the family's own metric. */
export interface PluginEpsilonInput {
  /** the total budget at distance d (extended DP with failure probability delta) */
  xi: number;
  /** the LSH code length (number of hash bits) */
  kappa: number;
  /** the distance the budget is stated at, in the family's metric (angular d_θ or Jaccard d_J) */
  d: number;
  delta: number;
  /** Pr[one LSH bit differs] for two inputs at distance d (angular: d; jaccard: d/2) */
  disagreement: (d: number) => number;
  /** the config entry's other keys (those listed in `optionKeys`) */
  options: Record<string, unknown>;
}

/** What `epsilon` returns (snake_case: these become utility.csv columns). */
export interface PluginEpsilon {
  /** the mechanism's own per-bit parameter, or null */
  epsilon_bit?: number | null;
  /** the LDP-equivalent budget, or null */
  epsilon_ldp?: number | null;
  /** true when the distance-d bound did not exist and the pure LDP bound was used */
  fallback?: boolean;
  /** anything else the mechanism wants to pass to its `encode` */
  [key: string]: unknown;
}

/** What `encode` receives. */
export interface PluginEncodeInput {
  /** the clean LSH codes of every user (a copy: read-only by contract) */
  codes: CodeSet;
  /** number of users (rows of `codes`) */
  users: number;
  kappa: number;
  disagreement: (d: number) => number;
  /** xi is null for mechanisms without a budget */
  privacy: { xi: number | null; d: number; delta: number };
  /** the result of `epsilon` for this xi (`{}` when the plugin has none) */
  eps: PluginEpsilon;
  /** the only allowed source of randomness (seeded per cell in experiments; cryptographic in encode) */
  rng: Rng;
  options: Record<string, unknown>;
}

/** What a version-1 `releaseLaw` receives: what `encode` does, without the codes and the rng. */
export type PluginLawInput = Omit<PluginEncodeInput, 'codes' | 'users' | 'rng'>;

/** The object a version-1 plugin module default-exports (no `apiVersion`, or 1): its code, and the
 *  plain facts a built-in unit declares too (DeclaredFacts: the claims' `roles`, its `algorithm`
 *  version, the report's `ldpNote`, the audit's `cleanIsLshCode` and `bloomFilter`, `flipsBits`,
 *  `hashesFromNoise`, `release`), all optional. Its `encode` sees the clean codes only. */
export interface MechanismPluginV1 extends DeclaredFacts {
  apiVersion?: 1;
  name: string;
  description?: string;
  /** true: one result per xi of the config, with `epsilon`; false: one result (like `lsh`) */
  usesXi: boolean;
  /** config keys the entry may carry (others are an error) */
  optionKeys?: readonly string[];
  epsilon?(input: PluginEpsilonInput): PluginEpsilon;
  /** bit codes, or (with `release`) symbols or reals: the module comment says which shape */
  encode(input: PluginEncodeInput): PluginRelease;
  /** a release that is not bits: the law it declares around its clean release (Mechanism.releaseLaw) */
  releaseLaw?(input: PluginLawInput): ReleaseLaw | null;
}

/** What a plugin's `encode` returns: bit codes, or with `release` symbols or reals. */
export type PluginRelease = CodeSet | PluginSymbols | PluginReals;

/**
 * The fields of `Mechanism` (src/mechanisms/types.ts) a version-2 plugin does not declare, because
 * lshdp fixes them for every plugin: `kind` ('code'), `usesKappa` (true), `budgetDistance` (its
 * `epsilon` reads d in the family's metric), `optionKeys` (the keys of its `optionSchema`), and
 * `keepsClean` (a trial-cell shortcut handed to built-ins only). Every other field of Mechanism
 * reaches plugins: a field added to Mechanism is a plugin's to declare unless it is added here.
 */
export const PLUGIN_INTERNAL_FIELDS = ['kind', 'usesKappa', 'budgetDistance', 'optionKeys', 'keepsClean'] as const;
export type PluginInternalField = (typeof PLUGIN_INTERNAL_FIELDS)[number];

/** What a version-2 plugin's `epsilon` and `budgetRow` receive as `privacy`: d in the family's
 *  metric (angular d_θ or Jaccard d_J), δ, and the family's per-bit disagreement probability. */
export interface PluginPrivacy extends PrivacyParams {
  disagreement: (d: number) => number;
}

/**
 * The trial's public hashing as a version-2 plugin sees it (read-only views of the trial's own
 * arrays: no copies, so writing to them corrupts the other mechanisms' releases).
 */
export interface PluginHashing {
  readonly kappa: number;
  /** the vectors' length (columns) */
  readonly n: number;
  /** κ × n, row-major: row j is hyperplane r_j ~ N(0, I_n) (angular family; empty for jaccard) */
  readonly planes: Float64Array;
  /** users × κ, row-major: r_j · x_i of each user's vector (angular family; empty for jaccard) */
  readonly projections: Float64Array;
  /** the family's clean release: every user's LSH code (users × words Uint32, bit j of row i in
   *  word j >>> 5 at bit j & 31; unused high bits 0) */
  readonly clean: CodeSet;
  /** jaccard family: the public MinHash tables (rank, coin and bucketWord, each κ × n row-major) and
   *  every user's argmin item per position (`minima`, users × κ, row-major); absent otherwise */
  readonly minHash?: TrialMinHash;
}

/**
 * What a version-2 plugin's `encode` receives (the view of a built-in's MechanismContext): read-only
 * views, never copies.
 */
export interface PluginView {
  /** number of users (rows of every per-user array) */
  readonly users: number;
  readonly kappa: number;
  /** the users' sparse vectors, CSR: row i holds columns colIdx[rowPtr[i] .. rowPtr[i+1]) with
   *  values[...]; every row has unit Euclidean length (jaccard: 1/√|S| on the set's items) */
  readonly vectors: Readonly<Pick<UserVectors, 'n' | 'rowPtr' | 'colIdx' | 'values'>>;
  readonly hashing: PluginHashing;
  /**
   * Draws shared across the ξ of one trial (common random numbers, as LapLSH, VMF and jl-gaussian
   * draw them): `make` runs once per trial cell, mechanism and `key` on a source seeded by the trial
   * and the mechanism but not by ξ, and every ξ gets the same value; `alloc` gives big arrays their
   * memory. Outside a trial cell (`lshdp encode`, the audit's samples) `make` runs on `rng`.
   */
  perTrial<T>(key: string, make: (rng: Rng, alloc: Float64Alloc) => T): T;
  /** this release's fresh noise: the only other allowed source of randomness */
  readonly rng: Rng;
  /** the config entry's options, its optionSchema's defaults filled in */
  readonly options: Readonly<Record<string, unknown>>;
  /** xi is null for mechanisms without a budget; d in the family's metric */
  readonly privacy: { xi: number | null; d: number; delta: number };
  /** Pr[one LSH bit differs] at distance d in the family's metric */
  readonly disagreement: (d: number) => number;
}

/**
 * The object a version-2 plugin module default-exports: a `Mechanism` without the internal fields
 * (PLUGIN_INTERNAL_FIELDS), its `description` optional, and its `epsilon`, `encode` and
 * `releaseLaw` taking the plugin's inputs (PluginPrivacy, PluginView) where a built-in takes its
 * internal context. Its `epsilon` returns an EpsilonInfo as a built-in's does: `epsilon` (its own
 * parameter, the one the audit inflates), `ldpEpsilon`, `fallback`, `accountant`, `unbounded`;
 * other keys reach `encode` as they are.
 */
export type MechanismPluginV2 = Omit<Mechanism, PluginInternalField | 'description' | 'epsilon' | 'encode' | 'releaseLaw'> & {
  readonly apiVersion: 2;
  readonly description?: string;
  epsilon?(xi: number, kappa: number, privacy: PluginPrivacy, options: Record<string, unknown>): EpsilonInfo;
  encode(view: PluginView, eps: EpsilonInfo): PluginRelease;
  /** the view's rng is not to be drawn from (a law is a statement, not a sample) */
  releaseLaw?(eps: EpsilonInfo, view: PluginView, privacy: PluginPrivacy): ReleaseLaw | null;
};

/** What a plugin module default-exports, of either version this lshdp runs. */
export type MechanismPlugin = MechanismPluginV1 | MechanismPluginV2;

/** What `encode` returns when the plugin declares `release: 'symbols'`: users × positions values below `alphabet`. */
export interface PluginSymbols {
  alphabet: number;
  symbols: Uint8Array;
}

/** What `encode` returns when the plugin declares `release: 'reals'`: users × dims doubles. */
export interface PluginReals {
  reals: Float64Array;
}
