import type { Mechanism } from './types.js';
import { checkOptionKeys } from './options.js';
import { NO_EPSILON, cleanCodes } from './common.js';
import { BUILT_IN } from './catalog.js';

/** Vanilla random-projection LSH: the clean kappa-bit codes (no privacy; the paper's baseline). */
export const lshMechanism: Mechanism = {
  ...BUILT_IN.lsh,
  epsilon: () => ({ ...NO_EPSILON }),
  encode(ctx) {
    checkOptionKeys('lsh', ctx.options, []);
    const codes = cleanCodes(ctx.hashing);
    return { codes: codes.codes.slice(), bits: codes.bits, words: codes.words };
  },
};
