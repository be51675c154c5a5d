/**
 * Private MinHash, bucketed (minhash-bucket) and noisy (minhash-noisy), after Aumüller, Bourgeat
 * and Schmurr (SISAP 2020): the plain facts of the unit (src/mechanisms/types.ts `Mechanism` for
 * what each means), without its code, so the catalog, `lshdp mechanisms` and a run's currency check
 * (its algorithm version) read them without loading a sampler or accountant. The code
 * (mechanism.ts) spreads them into its Mechanism.
 */
import { declareFacts, type OptionSpec } from '../types.js';
import { MINHASH_BUCKET_ACCOUNTANTS, MINHASH_NOISY_ACCOUNTANTS } from '../../privacy/accountantNames.js';

/**
 * minhash-bucket's option: the number b of public buckets an item is mapped to per position. The
 * range is that of the symbols a release holds (src/lsh/minHash.ts MIN_BUCKETS, MAX_BUCKETS: one
 * byte a symbol) and the default that of the accountants (src/privacy/minhash.ts DEFAULT_BUCKETS);
 * written here as numbers so that the facts load no code (tests/mechanisms/minhash.test.ts checks
 * they agree).
 */
export const BUCKETS_OPTION = {
  type: 'integer',
  min: 2,
  max: 256,
  default: 4,
  noun: 'buckets',
} as const satisfies OptionSpec;

export const MINHASH_BUCKET_FACTS = declareFacts({
  name: 'minhash-bucket',
  description: "MinHash's item mapped to one of b public buckets per position, then b-ary randomized response (metric jaccard)",
  kind: 'code',
  usesKappa: true,
  usesXi: true,
  hasFallback: true,
  // The version of its own draws (Mechanism.algorithm): bump it when a change alters its numbers;
  // its stored results are recomputed, the other mechanisms' reused. History: 1: one 32-bit word
  // per symbol on the grid b·floor(2^32/b) (src/random/symbols.ts randomizeSymbols).
  algorithm: '1',
  // ε' per position goes to the epsilon_bit column (b = 2 is LSHRR's per-bit ε)
  epsilonKind: 'bit',
  // the accountants take the Jaccard distance itself and convert it (src/privacy/minhash.ts)
  budgetDistance: 'family',
  metric: 'jaccard',
  release: 'symbols',
  releaseRule: 'symbol j = floor(w_j(c)·b / 2^32) for the same argmin item c, w_j(c) bytes 12–15 (big-endian) of block c, then b-ary randomized response',
  accountants: MINHASH_BUCKET_ACCOUNTANTS,
  optionSchema: { buckets: BUCKETS_OPTION },
  budgetRows: 'own',
  ldpNote: 'κ·ε′ for private MinHash (ε′ per position)',
  roles: ['bucket-minhash'],
});

export const MINHASH_NOISY_FACTS = declareFacts({
  name: 'minhash-noisy',
  description: 'each 1-bit MinHash value plus Laplace noise of scale 1/eps, released as reals (metric jaccard)',
  kind: 'code',
  usesKappa: true,
  usesXi: true,
  hasFallback: true,
  // The version of its own draws (Mechanism.algorithm), as above. History: 1: a standard Laplace
  // variate from two 32-bit words per value (src/random/laplace.ts laplaceSource).
  algorithm: '1',
  epsilonKind: 'bit',
  budgetDistance: 'family',
  metric: 'jaccard',
  release: 'reals',
  releaseRule: 'value j = that bit plus Laplace noise of scale 1/eps (the epsilon_bit of privacy), as a double',
  accountants: MINHASH_NOISY_ACCOUNTANTS,
  budgetRows: 'own',
  ldpNote: 'κ·ε′ for private MinHash (ε′ per position)',
  roles: ['noisy-minhash'],
});
