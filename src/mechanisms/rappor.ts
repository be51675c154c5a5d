import type { Mechanism } from './types.js';
import { checkOptionKeys } from './options.js';
import { flipBits } from './flips.js';
import { userCount } from './common.js';
import { emptyCodes } from '../lsh/codes.js';
import { flipProbability } from '../privacy/index.js';
import { UserError } from '../util/errors.js';

export const DEFAULT_RAPPOR_HASHES = 2;

/**
 * RAPPOR baseline (paper Sect. 6.4: shown, not argued for): a Bloom filter of the user's item set
 * (the columns where the vector is non-zero) with h hash functions into m = kappa bits (the filter
 * size plays the role of the hash length), then per-bit randomized response with flip probability
 * 1/(1+e^(eps/2h)), eps = xi. The hash functions are a random function item -> h positions drawn per
 * trial from the noise seed (salted hashing); positions of one item may coincide, as with
 * independent Bloom hashes.
 *
 * Privacy (RAPPOR's accounting): two single items differ in at most 2h filter bits, so eps/(2h) per
 * bit is eps-LDP for one item; equally, changing one item of a set (substitution) changes at most
 * 2h bits. For the whole item SET this is RAPPOR's per-item budget, not an LDP guarantee for the
 * set: sets differing in many items differ in many bits.
 */
export const rapporMechanism: Mechanism = {
  name: 'rappor',
  description: 'Bloom filter of the item set (m = kappa bits, h hashes) then bitwise randomized response',
  kind: 'code',
  usesKappa: true,
  usesXi: true,
  optionKeys: ['hashes'],
  epsilon(xi) {
    if (!(xi >= 0)) throw new UserError(`rappor: xi must be >= 0, got ${xi}`);
    return { epsilon: xi, ldpEpsilon: xi, fallback: false };
  },
  encode(ctx, eps) {
    checkOptionKeys('rappor', ctx.options, ['hashes']);
    const h = ctx.options.hashes ?? DEFAULT_RAPPOR_HASHES;
    if (typeof h !== 'number' || !Number.isInteger(h) || h < 1) {
      throw new UserError(`mechanism rappor: option hashes must be a positive integer, got ${JSON.stringify(h)}`);
    }
    const e = eps.epsilon;
    if (e === null || !(e >= 0)) throw new RangeError(`rappor needs eps >= 0, got ${e}`);
    const m = ctx.hashing.kappa;
    const { n, rowPtr, colIdx, values } = ctx.vectors;
    const users = userCount(ctx);
    // The per-trial random hash functions: item c sets bits positions[c*h .. c*h+h).
    const positions = new Int32Array(n * h);
    for (let p = 0; p < positions.length; p++) positions[p] = Math.floor(ctx.rng() * m);
    const set = emptyCodes(users, m);
    const { codes, words } = set;
    for (let i = 0; i < users; i++) {
      for (let p = rowPtr[i]; p < rowPtr[i + 1]; p++) {
        if (values[p] === 0) continue;
        const base = colIdx[p] * h;
        for (let t = 0; t < h; t++) {
          const b = positions[base + t];
          codes[i * words + (b >>> 5)] |= 1 << (b & 31);
        }
      }
    }
    flipBits(set, flipProbability(e / (2 * h)), ctx.rng);
    return set;
  },
};
