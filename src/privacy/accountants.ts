/*
 * Accountants of LSHRR: each turns a total budget xi at distance d (per-bit disagreement
 * probability p of the hash family; angular LSH: p = d) with failure probability delta into the
 * per-bit randomized-response eps.
 *
 * - paper:   Proposition "tighter bound" (Chernoff/KL): eps = xi / (kappa (p + alpha)) with
 *            kappa·KL(p + alpha || p) = ln(1/delta) (protocol §5; today's results).
 * - exact:   the largest eps with Pr[L_eps > xi] <= delta under the exact loss distribution
 *            (src/privacy/exact.ts); unbounded when (1 − p)^kappa >= 1 − delta.
 * - theorem: Theorem "PXDP/XDP of LSHRR": xi = eps·kappa·p + eps·sqrt(−ln(delta)/2)·sqrt(kappa).
 * - naive:   eps = xi / (kappa p), which ignores delta: broken on purpose, to show the audit
 *            catching it. Allowed in configs with a warning.
 * Every accountant takes the larger of its eps and the pure LDP eps = xi / kappa (always valid:
 * |L| <= eps·kappa) and sets `fallback` when the pure LDP eps won (or its own bound does not exist).
 */
import { UserError } from '../util/errors.js';
import { didYouMean } from '../util/didYouMean.js';
import { ACCOUNTANT_NAMES, type AccountantName } from './accountantNames.js';
import { checkKappa, solveAlpha } from './kl.js';
import { flipProbability } from './rr.js';
import { checkBitProbability, exactEpsilon, hockeyStickDelta, jumpPoint, type ExactEpsilon } from './exactLoss.js';

/** The accountants of LSHRR; `paper` is the default. */
export { ACCOUNTANT_NAMES, DEFAULT_ACCOUNTANT, type AccountantName } from './accountantNames.js';

export interface AccountArgs {
  xi: number;
  kappa: number;
  /** per-bit probability that the hashes of the two inputs differ (angular LSH: p = d) */
  p: number;
  delta: number;
}

export interface Account {
  accountant: AccountantName;
  /** per-bit randomized-response eps (Infinity when unbounded) */
  epsilonBit: number;
  /** flip probability 1/(1+e^eps) (0 when unbounded) */
  flip: number;
  /** kappa·eps, the LDP-equivalent budget (Infinity when unbounded) */
  epsilonLdp: number;
  /** the pure LDP eps = xi/kappa was at least the accountant's own (or its bound does not exist) */
  fallback: boolean;
  /** exact only: every eps meets the claim; a run then flips no bit */
  unbounded: boolean;
  /** paper only: the alpha of the tighter bound (null when none exists) */
  alpha: number | null;
  /** exact only: hockey-stick delta at (xi, eps), approximate (xi, delta)-XDP with seeds revealed */
  deltaHockey: number | null;
}

/** The accountant name, or a one-line UserError naming `where` with a did-you-mean. */
export function parseAccountant(name: unknown, where = 'accountant'): AccountantName {
  if (typeof name === 'string' && (ACCOUNTANT_NAMES as readonly string[]).includes(name)) return name as AccountantName;
  const guess = typeof name === 'string' ? didYouMean(name, ACCOUNTANT_NAMES, '"') : null;
  throw new UserError(`${where}: unknown accountant ${JSON.stringify(name)}${guess ? ` (did you mean ${guess}?)` : ''}; known: ${ACCOUNTANT_NAMES.join(', ')}`);
}

/** The one warning line a config or command prints when it uses the `naive` accountant. */
export function naiveAccountantWarning(where = 'config'): string {
  return `lshdp: warning: ${where} uses the naive accountant (eps = xi/(kappa d), ignores delta): its privacy claim is false; use it only to demonstrate lshdp audit`;
}

/** Whether a list of accountants (e.g. of a config's entries) includes `naive`. */
export function usesNaiveAccountant(names: readonly string[]): boolean {
  return names.includes('naive');
}

function checkArgs(a: AccountArgs): void {
  if (!(Number.isFinite(a.xi) && a.xi >= 0)) throw new UserError(`privacy: xi must be a finite number >= 0, got ${a.xi}`);
  checkKappa(a.kappa);
  checkBitProbability(a.p);
  if (!(a.delta > 0 && a.delta < 1)) throw new UserError(`privacy: delta must be in (0, 1), got ${a.delta}`);
}

/** Memo of the exact search (a run asks for the same (xi, kappa, d, delta) once per cell). */
const EXACT_CACHE = new Map<string, ExactEpsilon>();

/** The accountant's own eps before the pure-LDP floor (null when its bound does not exist). */
function ownEpsilon(name: AccountantName, a: AccountArgs): { eps: number | null; alpha: number | null; unbounded: boolean } {
  const { xi, kappa, p, delta } = a;
  switch (name) {
    case 'paper': {
      const alpha = solveAlpha(kappa, p, delta);
      return { eps: alpha === null ? null : xi / (kappa * (p + alpha)), alpha, unbounded: false };
    }
    case 'exact': {
      const key = `${xi}|${kappa}|${p}|${delta}`;
      let r = EXACT_CACHE.get(key);
      if (!r) {
        r = exactEpsilon(xi, kappa, p, delta);
        if (EXACT_CACHE.size > 10_000) EXACT_CACHE.clear();
        EXACT_CACHE.set(key, r);
      }
      return { eps: r.epsilon, alpha: null, unbounded: r.unbounded };
    }
    case 'theorem':
      return { eps: xi / (kappa * p + Math.sqrt(-Math.log(delta) / 2) * Math.sqrt(kappa)), alpha: null, unbounded: false };
    case 'naive':
      return { eps: xi / (kappa * p), alpha: null, unbounded: false };
  }
}

/**
 * The per-bit eps of LSHRR under one accountant, floored at the pure LDP eps = xi/kappa.
 * The paper accountant reproduces lshrrEpsilon (protocol §5) to the last bit.
 */
export function accountEpsilon(name: string, args: AccountArgs): Account {
  const accountant = parseAccountant(name);
  checkArgs(args);
  const { xi, kappa, p } = args;
  const own = ownEpsilon(accountant, args);
  // pure LDP eps: the largest double <= xi/kappa (never rounded above), except that `paper` keeps
  // the plain quotient of protocol §5 so existing results stay bit-identical
  const ldp = accountant === 'paper' ? xi / kappa : jumpPoint(xi, kappa);
  let epsilonBit: number;
  let fallback: boolean;
  if (own.unbounded) {
    epsilonBit = Infinity;
    fallback = false;
  } else if (own.eps === null || own.eps < ldp || (own.eps === ldp && xi > 0)) {
    epsilonBit = ldp;
    fallback = true;
  } else {
    epsilonBit = own.eps;
    fallback = false;
  }
  return {
    accountant,
    epsilonBit,
    flip: flipProbability(epsilonBit),
    epsilonLdp: fallback && accountant === 'paper' ? xi : kappa * epsilonBit,
    fallback,
    unbounded: own.unbounded,
    alpha: accountant === 'paper' ? own.alpha : null,
    deltaHockey: accountant === 'exact' ? hockeyStickDelta(kappa, p, epsilonBit, xi) : null,
  };
}
