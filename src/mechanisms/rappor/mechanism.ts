import { fmix32 } from '../../lsh/tieKey.js';
import type { CodeSet } from '../../lsh/codes.js';
import type { Mechanism, MechanismContext } from '../types.js';
import { checkOptionKeys } from '../options.js';
import { copyCodes, flipBits } from '../flips.js';
import { userCount } from '../common.js';
import { emptyCodes } from '../../lsh/codes.js';
import { flipProbability } from '../../privacy/rr.js';
import { UserError } from '../../util/errors.js';
import type { MechanismFacts } from '../types.js';
import { DEFAULT_RAPPOR_HASHES, RAPPOR_FACTS, RAPPOR_VECTOR_FACTS } from './facts.js';

export { DEFAULT_RAPPOR_HASHES };

/**
 * RAPPOR baselines (paper Sect. 6.4: shown, not argued for).
 *
 * `rappor`: a Bloom filter of the user's item set
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
/**
 * `rappor-vector`: RAPPOR as the paper reasons about it (Sect. 6.4): the user's whole vector is the
 * client's single value, hashed (salted per trial) into h of the m = kappa filter bits, then the
 * same per-bit randomized response. Equal vectors get equal filters; any two different vectors get
 * independent positions, so the Hamming distance carries no information about the angular one and
 * k-NN over these codes is at the random level at every budget. Here eps/(2h) per bit is eps-LDP
 * for the whole vector (two values differ in at most 2h bits), a true LDP guarantee.
 */
export const rapporMechanism: Mechanism = rapporVariant(RAPPOR_FACTS, 'items');

export const rapporVectorMechanism: Mechanism = rapporVariant(RAPPOR_VECTOR_FACTS, 'vector');

function rapporVariant(facts: MechanismFacts, input: 'items' | 'vector'): Mechanism {
  const name = facts.name;
  return {
    ...facts,
    epsilon(xi) {
      if (!(xi >= 0)) throw new UserError(`${name}: xi must be >= 0, got ${xi}`);
      return { epsilon: xi, ldpEpsilon: xi, fallback: false };
    },
    encode(ctx, eps) {
      checkOptionKeys(name, ctx.options, facts.optionKeys ?? []);
      const h = ctx.options.hashes ?? DEFAULT_RAPPOR_HASHES;
      if (typeof h !== 'number' || !Number.isInteger(h) || h < 1) {
        throw new UserError(`mechanism ${name}: option hashes must be a positive integer, got ${JSON.stringify(h)}`);
      }
      const e = eps.epsilon;
      if (e === null || !(e >= 0)) throw new RangeError(`${name} needs eps >= 0, got ${e}`);
      const set = input === 'items' ? itemSetFilters(ctx, h) : vectorFilters(ctx, h);
      // the filters are the release at ε = ∞ (no flip), drawn from the same first numbers of the stream
      ctx.keepClean?.(copyCodes(set));
      flipBits(set, flipProbability(e / (2 * h)), ctx.rng);
      return set;
    },
  };
}

/** Bloom filter of each user's item set: item c sets positions[c*h .. c*h+h), drawn per trial. */
function itemSetFilters(ctx: MechanismContext, h: number): CodeSet {
  const m = ctx.hashing.kappa;
  const { n, rowPtr, colIdx, values } = ctx.vectors;
  const users = userCount(ctx);
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
  return set;
}

/** One value per user: a salted 32-bit hash of the row's (column, value) content per Bloom hash. */
function vectorFilters(ctx: MechanismContext, h: number): CodeSet {
  const m = ctx.hashing.kappa;
  const { rowPtr, colIdx, values } = ctx.vectors;
  const users = userCount(ctx);
  const salts = new Uint32Array(h);
  for (let t = 0; t < h; t++) salts[t] = Math.floor(ctx.rng() * 4294967296) >>> 0;
  const bits = new Uint32Array(new Float64Array(1).buffer); // view of one double's two words
  const dbl = new Float64Array(bits.buffer);
  const set = emptyCodes(users, m);
  const { codes, words } = set;
  // the h hash chains of a row side by side, each entry's words read once: the chains are
  // independent, so the processor overlaps their multiplications (each chain's values are those of
  // one chain run alone)
  const xs = new Uint32Array(h);
  for (let i = 0; i < users; i++) {
    xs.set(salts);
    for (let p = rowPtr[i]; p < rowPtr[i + 1]; p++) {
      dbl[0] = values[p];
      const c = colIdx[p];
      const lo = bits[0]!;
      const hi = bits[1]!;
      for (let t = 0; t < h; t++) xs[t] = fmix32(fmix32(fmix32(xs[t]! ^ c) ^ lo) ^ hi);
    }
    for (let t = 0; t < h; t++) {
      const b = Math.floor((xs[t] / 4294967296) * m);
      codes[i * words + (b >>> 5)] |= 1 << (b & 31);
    }
  }
  return set;
}
