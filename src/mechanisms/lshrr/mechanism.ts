import type { Mechanism } from '../types.js';
import { checkOptionKeys } from '../options.js';
import { cleanCodes } from '../common.js';
import { copyCodes, flipBitsOnGrid } from '../flips.js';
import { lshrrEpsilon } from '../../privacy/epsilon.js';
import { realizedFlipProbability } from '../../privacy/rr.js';
import { DEFAULT_ACCOUNTANT, accountEpsilon, parseAccountant } from '../../privacy/accountants.js';
import { LSHRR_FACTS } from './facts.js';

/**
 * LSHRR (paper Def. "LSHRR"): the LSH bits, each flipped independently with probability
 * 1/(1+e^eps) rounded up, with a margin, to a multiple of 2^-32 (realizedFlipProbability), eps the
 * per-bit budget from xi (protocol §5). xi = 0 gives eps = 0: uniformly random
 * bits, independent of the input (the random-hash baseline).
 */
export const lshrrMechanism: Mechanism = {
  ...LSHRR_FACTS,
  /**
   * options.accountant (default paper) picks the accountant (src/privacy/accountants.ts); the paper
   * accountant is lshrrEpsilon exactly. Unbounded (exact, (1 − d)^kappa >= 1 − delta): eps =
   * Infinity, so encode flips no bit and releases the clean LSH code.
   */
  epsilon(xi, kappa, privacy, options) {
    const accountant = options?.accountant ?? DEFAULT_ACCOUNTANT;
    if (accountant === 'paper') return { ...lshrrEpsilon(xi, kappa, privacy), accountant };
    const a = accountEpsilon(parseAccountant(accountant, 'mechanism lshrr: option accountant'), { xi, kappa, p: privacy.d, delta: privacy.delta });
    return { epsilon: a.epsilonBit, ldpEpsilon: a.epsilonLdp, fallback: a.fallback, accountant: a.accountant, unbounded: a.unbounded };
  },
  encode(ctx, eps) {
    checkOptionKeys('lshrr', ctx.options, ['accountant']);
    if (eps.epsilon === null || !(eps.epsilon >= 0)) throw new RangeError(`lshrr needs a per-bit eps >= 0, got ${eps.epsilon}`);
    const codes = copyCodes(cleanCodes(ctx.hashing));
    // exactly Bernoulli(q') per bit, q' a margin above 1/(1+e^eps): the realized per-bit eps is
    // strictly below eps, so never above a jump point xi/j of the exact accountant (privacy/rr.ts)
    flipBitsOnGrid(codes, realizedFlipProbability(eps.epsilon), ctx.rng);
    return codes;
  },
};
