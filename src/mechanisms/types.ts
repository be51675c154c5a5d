import type { UserVectors } from '../data/types.js';
import type { Rng } from '../random/rng.js';

/** The budget axis of the paper: xi is the total budget at angular distance d with failure delta. */
export interface PrivacyParams {
  d: number;
  delta: number;
}

/** What the accounting says one xi means for a mechanism. */
export interface EpsilonInfo {
  /** the mechanism's own parameter (per-bit eps for LSHRR, Laplace eps for LapLSH); null when none */
  epsilon: number | null;
  /** the LDP-equivalent budget (kappa*eps for LSHRR); null when not defined */
  ldpEpsilon: number | null;
  /** true when the tighter bound does not exist (d^kappa >= delta) and the pure LDP bound was used */
  fallback: boolean;
  /** the accountant that turned xi into epsilon (lshrr: paper|exact|theorem|naive); absent otherwise */
  accountant?: string;
  /** true when every per-bit eps meets the claim (exact accountant, (1-p)^kappa >= 1-delta): then
   *  `epsilon` is Infinity and no bit is flipped */
  unbounded?: boolean;
}

/** Packed bit codes of every user: row i occupies words [i*words, (i+1)*words), bit j of a row is
 *  bit (j % 32) of word floor(j / 32). Unused high bits of the last word are 0. */
export interface CodeSet {
  codes: Uint32Array;
  bits: number;
  words: number;
}

/** Hyperplanes of one (data set, n, kappa, trial), shared by lsh, lshrr and laplsh. */
export interface TrialHashing {
  kappa: number;
  n: number;
  /** kappa x n, row-major: row j is hyperplane r_j ~ N(0, I_n) */
  planes: Float64Array;
  /** users x kappa, row-major: r_j . x_i of the clean vectors */
  projections: Float64Array;
  /** the clean LSH codes (packSigns of projections), computed once per trial and shared; read-only
   *  for mechanisms (they copy before adding noise). Computed on demand when absent. */
  codes?: CodeSet;
}

export interface MechanismContext {
  vectors: UserVectors;
  hashing: TrialHashing;
  /** this mechanism's fresh noise for this trial and xi */
  rng: Rng;
  options: Record<string, unknown>;
}

/**
 * One mechanism of the comparison. `exact` is the reference (true neighbours, no code); every other
 * mechanism releases a bit code per user and neighbours are found by Hamming distance.
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
  readonly epsilonKind?: 'bit' | 'lap';
  /** option keys `encode` accepts in `ctx.options` (e.g. laplsh: sampler; rappor: hashes) */
  readonly optionKeys?: readonly string[];
  /** accountants a config may choose with `accountant:` (lshrr: paper, exact, theorem, naive); the
   *  first is the default. Absent or empty: the mechanism takes no accountant. */
  readonly accountants?: readonly string[];
  /** `options` is the config entry's options (e.g. `accountant`); mechanisms ignore keys they do not use */
  epsilon(xi: number, kappa: number, privacy: PrivacyParams, options?: Record<string, unknown>): EpsilonInfo;
  /** the released codes of all users for one trial (kind 'code' only) */
  encode?(ctx: MechanismContext, eps: EpsilonInfo): CodeSet;
}
