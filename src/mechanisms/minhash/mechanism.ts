import type { Mechanism, MechanismContext, MechanismFacts, OwnBudgetRow } from '../types.js';
import type { EpsilonInfo, PrivacyParams } from '../../privacy/types.js';
import type { TrialMinHash } from '../../lsh/minHash.js';
import { checkOptionKeys } from '../options.js';
import { userCount } from '../common.js';
import { bucketSymbols, minHashBits } from '../../lsh/minHash.js';
import { packSymbols, type RealSet } from '../../lsh/releases.js';
import { bucketDisagreement, minhashBucketEpsilon, minhashNoisyEpsilon, noisyDisagreement } from '../../privacy/minhash.js';
import { realizedOtherCount, realizedOtherProbability } from '../../privacy/bucketRr.js';
import { randomizeSymbols } from '../../random/symbols.js';
import { laplaceNoisyValues } from '../../random/laplace.js';
import { UserError } from '../../util/errors.js';
import { BUCKETS_OPTION, MINHASH_BUCKET_FACTS, MINHASH_NOISY_FACTS } from './facts.js';

/*
 * Private MinHash (Aumüller, Bourgeat, Schmurr, SISAP 2020; their code maumueller/ldp-jaccard,
 * src/minhash.py; docs/PRIVACY.md "Private MinHash", docs/MECHANISMS.md). Both read the jaccard
 * family's MinHash of the trial (TrialHashing.minHash: the public tables and every user's argmin
 * item per position), so they run on metric jaccard only (facts `metric`).
 *
 * - minhash-bucket: per position, the argmin item's bucket among b under a public uniform random
 *   map of the items, one map per position (bucketSymbols: bytes 12–15 of the item's AES block).
 *   A uniform map, not the SISAP code's balanced partition, makes the per-position disagreement
 *   exactly d(1 − 1/b) (b a power of 2; never more otherwise), the p the accountants take, and
 *   needs no b dividing the number of items. Then b-ary randomized response with the per-position
 *   ε' (randomizeSymbols at realizedOtherCount: strictly below ε'). Released as symbols.
 * - minhash-noisy: per position, the 1-bit MinHash value (the family's own code bit) plus Laplace
 *   noise of scale 1/ε' (laplaceNoisyValues), released as reals.
 *
 * Noise: from ctx.rng only, in one fixed order (row-major users × κ). At ε' = ∞ (the clean release
 * the attacks compute, an unbounded exact budget) neither draws anything; at ε' = 0 (ξ = 0) the
 * buckets are uniform symbols and the noisy values the unit Laplace noise alone, independent of
 * the input (the random level).
 */

/** The buckets option of an entry (default BUCKETS_OPTION's), or a one-line UserError naming the mechanism. */
export function bucketsOption(options: Record<string, unknown> | undefined, mechanism = MINHASH_BUCKET_FACTS.name): number {
  const b = options?.buckets ?? BUCKETS_OPTION.default;
  if (typeof b !== 'number' || !Number.isInteger(b) || b < BUCKETS_OPTION.min || b > BUCKETS_OPTION.max) {
    throw new UserError(`mechanism ${mechanism}: option buckets must be an integer in [${BUCKETS_OPTION.min}, ${BUCKETS_OPTION.max}], got ${JSON.stringify(b)}`);
  }
  return b;
}

/** The accountant of an entry: its `accountant` option, else the unit's first (the default). */
function accountantOption(facts: MechanismFacts, options: Record<string, unknown> | undefined): string {
  const a = options?.accountant ?? facts.accountants![0]!;
  // an unknown name is refused by the accountant's own parse, with a did-you-mean
  return typeof a === 'string' ? a : String(a);
}

/** The trial's MinHash, or a one-line UserError: only the jaccard family hashes with MinHash. */
function minHashOf(ctx: MechanismContext, name: string): TrialMinHash {
  const mh = ctx.hashing.minHash;
  if (!mh) throw new UserError(`mechanism ${name} releases the jaccard family's MinHash and needs metric jaccard (this hashing has no MinHash)`);
  if (mh.minima.length !== userCount(ctx) * mh.tables.kappa) throw new RangeError(`mechanism ${name}: the MinHash holds ${mh.minima.length / mh.tables.kappa} users, the vectors ${userCount(ctx)}`);
  return mh;
}

/** The per-position ε' a release is asked for: a number >= 0 (Infinity: no noise). */
function positionEpsilon(name: string, eps: EpsilonInfo): number {
  const e = eps.epsilon;
  if (e === null || !(e >= 0)) throw new RangeError(`${name} needs a per-position eps >= 0, got ${e}`);
  return e;
}

/**
 * The budget tables' row (Mechanism.budgetRow): ε' per position and its pure-LDP equivalent, from
 * the mechanism's own `epsilon`. Every position's loss is at most ε' for any two inputs, so κε' is
 * a pure LDP bound (ldp_delta 0); ε' and κε' are Infinity where the exact accountant is unbounded
 * (no noise at all: no LDP guarantee).
 */
function ownRow(eps: EpsilonInfo): OwnBudgetRow {
  return {
    parameter: 'epsilon_position',
    value: eps.epsilon,
    epsilon_ldp: eps.ldpEpsilon,
    ldp_delta: 0,
    accountant: eps.accountant ?? null,
    fallback: eps.fallback,
  };
}

/** minhash-bucket: the MinHash's public bucket among b, then b-ary randomized response (see above). */
export const minhashBucketMechanism: Mechanism = {
  ...MINHASH_BUCKET_FACTS,
  /** ε' at the config's Jaccard distance (budgetDistance 'family'): minhashBucketEpsilon under the entry's accountant and b. */
  epsilon(xi: number, kappa: number, privacy: PrivacyParams, options?: Record<string, unknown>) {
    return minhashBucketEpsilon(xi, kappa, { jaccardDistance: privacy.d, delta: privacy.delta }, bucketsOption(options), accountantOption(MINHASH_BUCKET_FACTS, options));
  },
  budgetRow(xi, kappa, privacy, options) {
    return ownRow(minhashBucketMechanism.epsilon(xi, kappa, privacy, options));
  },
  /** d(1 − 1/b) at Jaccard distance d: the minima differ (d), then their buckets (1 − 1/b) */
  positionDisagreement: (d, options) => bucketDisagreement(d, bucketsOption(options)),
  /**
   * The audit's hypothesis (src/mechanisms/releaseLaw.ts): b-ary randomized response at the keep
   * rate the sampler realizes, each position differing with probability d(1 − 1/b) (privacy.d: the
   * Jaccard distance), or pure LDP under the ldp accountant. None where nothing is random to test:
   * ε' = 0 (the symbols ignore the input) and ε' = ∞ (no noise).
   */
  releaseLaw(eps, ctx, privacy) {
    const e = positionEpsilon(MINHASH_BUCKET_FACTS.name, eps);
    if (e === 0 || e === Infinity) return null;
    const b = bucketsOption(ctx.options);
    return {
      noise: { kind: 'bary-rr', alphabet: b, keep: 1 - (b - 1) * realizedOtherProbability(e, b) },
      claim: accountantOption(MINHASH_BUCKET_FACTS, ctx.options) === 'ldp' ? { kind: 'ldp' } : { kind: 'positions', disagreement: bucketDisagreement(privacy.d, b) },
    };
  },
  encode(ctx, eps) {
    const name = MINHASH_BUCKET_FACTS.name;
    checkOptionKeys(name, ctx.options, [...MINHASH_BUCKET_FACTS.optionKeys, 'accountant']);
    const b = bucketsOption(ctx.options);
    const e = positionEpsilon(name, eps);
    const { tables, minima } = minHashOf(ctx, name);
    const symbols = bucketSymbols(minima, tables, b);
    // each other symbol with probability exactly R/M, R above the law's: the realized ε' is
    // strictly below the accountant's (src/privacy/bucketRr.ts); ε' = ∞ gives R = 0 and no draw
    const released = randomizeSymbols(symbols, b, realizedOtherCount(e, b), ctx.rng);
    return packSymbols(released, userCount(ctx), tables.kappa, b);
  },
};

/** minhash-noisy: each 1-bit MinHash value plus Laplace noise of scale 1/ε' (see above). */
export const minhashNoisyMechanism: Mechanism = {
  ...MINHASH_NOISY_FACTS,
  /** ε' at the config's Jaccard distance (budgetDistance 'family'): minhashNoisyEpsilon under the entry's accountant. */
  epsilon(xi: number, kappa: number, privacy: PrivacyParams, options?: Record<string, unknown>) {
    return minhashNoisyEpsilon(xi, kappa, { jaccardDistance: privacy.d, delta: privacy.delta }, accountantOption(MINHASH_NOISY_FACTS, options));
  },
  budgetRow(xi, kappa, privacy, options) {
    return ownRow(minhashNoisyMechanism.epsilon(xi, kappa, privacy, options));
  },
  /** d/2 at Jaccard distance d: the minima differ, then their fair coins */
  positionDisagreement: (d) => noisyDisagreement(d),
  /** The audit's hypothesis: Laplace noise of scale 1/ε' on each value, positions differing with probability d/2, or pure LDP under ldp; none at ε' = 0 or ∞ (as bucket's). */
  releaseLaw(eps, ctx, privacy) {
    const e = positionEpsilon(MINHASH_NOISY_FACTS.name, eps);
    if (e === 0 || e === Infinity) return null;
    return {
      noise: { kind: 'laplace', scale: 1 / e },
      claim: accountantOption(MINHASH_NOISY_FACTS, ctx.options) === 'ldp' ? { kind: 'ldp' } : { kind: 'positions', disagreement: noisyDisagreement(privacy.d) },
    };
  },
  encode(ctx, eps): RealSet {
    const name = MINHASH_NOISY_FACTS.name;
    checkOptionKeys(name, ctx.options, [...MINHASH_NOISY_FACTS.optionKeys, 'accountant']);
    const e = positionEpsilon(name, eps);
    const { tables, minima } = minHashOf(ctx, name);
    // ε' = ∞: the values with no draw; ε' = 0: the unit noise alone (src/random/laplace.ts)
    return { kind: 'reals', dims: tables.kappa, values: laplaceNoisyValues(minHashBits(minima, tables), e, ctx.rng) };
  },
};
