/** What the accounting of one mechanism works with: the budget's distance and failure, and what one ξ means. */

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
