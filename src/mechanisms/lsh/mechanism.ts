import type { Mechanism } from '../types.js';
import { checkOptionKeys } from '../options.js';
import { NO_EPSILON, cleanCodes } from '../common.js';
import { LSH_FACTS } from './facts.js';

/** Vanilla random-projection LSH: the clean kappa-bit codes (no privacy; the paper's baseline). */
export const lshMechanism: Mechanism = {
  ...LSH_FACTS,
  epsilon: () => ({ ...NO_EPSILON }),
  encode(ctx) {
    checkOptionKeys('lsh', ctx.options, []);
    const codes = cleanCodes(ctx.hashing);
    return { codes: codes.codes.slice(), bits: codes.bits, words: codes.words };
  },
};
