import type { Mechanism } from './types.js';
import { checkOptionKeys } from './options.js';
import { cleanCodes } from './common.js';
import { copyCodes, flipBits } from './flips.js';
import { flipProbability, lshrrEpsilon } from '../privacy/index.js';

/**
 * LSHRR (paper Def. "LSHRR"): the LSH bits, each flipped independently with probability
 * 1/(1+e^eps), eps the per-bit budget from xi (protocol §5). xi = 0 gives eps = 0: uniformly random
 * bits, independent of the input (the random-hash baseline).
 */
export const lshrrMechanism: Mechanism = {
  name: 'lshrr',
  description: 'LSH then bitwise randomized response (flip probability 1/(1+e^eps))',
  kind: 'code',
  usesKappa: true,
  usesXi: true,
  hasFallback: true,
  optionKeys: [],
  epsilon: (xi, kappa, privacy) => lshrrEpsilon(xi, kappa, privacy),
  encode(ctx, eps) {
    checkOptionKeys('lshrr', ctx.options, []);
    if (eps.epsilon === null || !(eps.epsilon >= 0)) throw new RangeError(`lshrr needs a per-bit eps >= 0, got ${eps.epsilon}`);
    const codes = copyCodes(cleanCodes(ctx.hashing));
    flipBits(codes, flipProbability(eps.epsilon), ctx.rng);
    return codes;
  },
};
