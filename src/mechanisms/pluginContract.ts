/**
 * The plugin contract's types: what a plugin module default-exports (`MechanismPlugin`) and what
 * its functions receive and return (src/mechanisms/plugin.ts has the rules; docs/EXTENDING.md the
 * guide).
 */
import type { CodeSet } from '../lsh/codes.js';
import type { DeclaredFacts } from './types.js';
import type { Rng } from '../random/rng.js';

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

/** The object a plugin module default-exports: its code, and the plain facts a built-in unit
 *  declares too (DeclaredFacts: the claims' `roles`, its `algorithm` version, the report's
 *  `ldpNote`, the audit's `cleanIsLshCode` and `bloomFilter`, `flipsBits`, `hashesFromNoise`),
 *  all optional. */
export interface MechanismPlugin extends DeclaredFacts {
  name: string;
  description?: string;
  /** true: one result per xi of the config, with `epsilon`; false: one result (like `lsh`) */
  usesXi: boolean;
  /** config keys the entry may carry (others are an error) */
  optionKeys?: readonly string[];
  epsilon?(input: PluginEpsilonInput): PluginEpsilon;
  /** bit codes, or (with `release`) symbols or reals: the module comment says which shape */
  encode(input: PluginEncodeInput): CodeSet | PluginSymbols | PluginReals;
}

/** What `encode` returns when the plugin declares `release: 'symbols'`: users × positions values below `alphabet`. */
export interface PluginSymbols {
  alphabet: number;
  symbols: Uint8Array;
}

/** What `encode` returns when the plugin declares `release: 'reals'`: users × dims doubles. */
export interface PluginReals {
  reals: Float64Array;
}
