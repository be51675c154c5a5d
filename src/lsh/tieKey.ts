/**
 * Tie-break keys of the Hamming k-NN (protocol §3: ties broken uniformly at random).
 *
 * Among users at equal Hamming distance from a query, the one with the smaller key comes first.
 * The key is a keyed hash of (trial tie seed, query user, candidate user) and nothing else: not k,
 * not the mechanism, not the kernel path, the thread or the shard. So every k is a prefix of the
 * same answer, every kernel (JS scan, bucket, WebAssembly) returns the same lists, and two
 * mechanisms of one trial break their ties alike (common random numbers).
 *
 * For a fixed query the key is a bijection of the candidate index (an odd multiplier and
 * murmur3's fmix32 are both bijections of 32-bit words), so keys never collide and the order they
 * induce is a pseudo-random permutation of the candidates: uniform tie-breaking, tested by
 * chi-square in tests/lsh.
 */
import { deriveSeed } from '../random/rng.js';

/** murmur3's 32-bit finalizer: a bijection with full avalanche. */
export function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** The tie seed of one trial: depends on (run seed, data set, n, kappa, trial) only. */
export function tieSeed(runSeed: number | string, dataset: string, n: number, kappa: number, trial: number): number {
  return Number.parseInt(deriveSeed(runSeed, 'ties', dataset, n, kappa, trial).slice(0, 8), 16) >>> 0;
}

/** The per-query part of the key (query = the query's user index). */
export function queryKeyBase(seed: number, query: number): number {
  return fmix32((seed ^ Math.imul(query + 1, 0x9e3779b1)) >>> 0);
}

/** The key of `candidate` (a user index) for the query whose base is `base`; unsigned 32-bit. */
export function tieKey(base: number, candidate: number): number {
  return fmix32((base ^ Math.imul(candidate + 1, 0x85ebca77)) >>> 0);
}
