/**
 * What a row of the audit tests, decided once per row so that the pair search and the estimate use
 * the same claim (the same δ), and how a release is inflated through its own `encode`.
 *
 * - `flips`: a per-bit randomized response whose law is known from its declared per-bit ε (LSHRR; a
 *   plugin that states `epsilon_bit` and declares `flipsBits` or the role `bitwise-rr`): the flip
 *   rate on the bits where the pair's clean codes differ is estimated and tested one-sided against
 *   the largest per-bit ε the claim allows, beside the exact tail, the score law and the black box.
 * - `directional`: VMF, Purkayastha (their angle law is known at a concentration): the concentration
 *   is tested one-sided, the whole law two-sided, beside the accounting and the black box.
 * - `release-law`: a release that is not bits whose mechanism declares its law (`releaseLaw`): the
 *   noise around its clean release is estimated and the claim judged at its confidence bound, beside
 *   the law's own two-sided tests (lawRows.ts); no black-box test (its statistic counts bits).
 * - `black-box`: the rest (LapLSH, RAPPOR, plugins without a known law). A mechanism that states a
 *   per-bit budget but only an LDP ε (a plugin returning `epsilon_bit: null, epsilon_ldp`) is tested
 *   against that LDP claim: ε_lb against ε_LDP with δ = 0, over any pair of inputs (the pair at d
 *   and the farthest pair are candidates).
 */
import type { Mechanism } from '../mechanisms/types.js';
import type { EpsilonInfo } from '../privacy/types.js';

export type RowKind = 'flips' | 'directional' | 'release-law' | 'black-box';

export interface RowClaim {
  kind: RowKind;
  /** what the black-box test compares ε_lb with: ξ at d, or a stated ε_LDP over any pair */
  claim: 'xi' | 'ldp';
  /** that value */
  claimed: number;
  /** the δ of the claim (LSHRR and plugins that state a per-bit budget: the config's; the pure ones: 0) */
  delta: number;
}

/** The claim a row of `m` tests at ξ, with `eps` its accounting and `delta` the config's δ; null
 *  when the mechanism claims no budget. */
export function rowClaim(m: Mechanism, eps: EpsilonInfo, xi: number, delta: number): RowClaim | null {
  if (!m.usesXi) return null;
  if (m.releaseLaw !== undefined && (m.release ?? 'bits') !== 'bits') return { kind: 'release-law', claim: 'xi', claimed: xi, delta };
  const perBit = m.epsilonKind === 'bit';
  if (perBit && eps.epsilon !== null && (m.flipsBits === true || m.roles?.includes('bitwise-rr') === true)) return { kind: 'flips', claim: 'xi', claimed: xi, delta };
  if (m.angleLogDensity !== undefined && m.concentrationMetric !== undefined) return { kind: 'directional', claim: 'xi', claimed: xi, delta: 0 };
  if (perBit && eps.epsilon === null && eps.ldpEpsilon !== null) return { kind: 'black-box', claim: 'ldp', claimed: eps.ldpEpsilon, delta: 0 };
  return { kind: 'black-box', claim: 'xi', claimed: xi, delta: perBit ? delta : 0 };
}

export { scaledEps } from '../mechanisms/common.js';
