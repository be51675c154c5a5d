import { TopK } from '../util/topK.js';
import type { CodeSet } from './codes.js';
import { UserError } from '../util/errors.js';
import { codeCount, popcount32 } from './codes.js';
import { queryKeyBase, tieKey } from './tieKey.js';
import { hammingKernelName } from '../kernels/instance.js';
import { wasmBucketKnn, wasmScan, WASM_MAX_BITS } from '../kernels/knn.js';

/**
 * Hamming k-nearest neighbours with deterministic, uniformly distributed tie-breaking (protocol §3).
 *
 * The answer for a query is the k users (the query excluded) with the smallest
 * (Hamming distance, tieKey(queryKeyBase(tieSeed, query), candidate)), in that order
 * (src/lsh/tieKey.ts). The keys are a pseudo-random permutation of the candidates per query, so
 * ties are broken uniformly; they depend on nothing but (tie seed, query, candidate), so every path
 * and kernel returns the very same lists and every k is a prefix of the answer for a larger k: one
 * call with kMax serves every k of a trial.
 *
 * Paths (identical answers):
 * - scan: one popcount pass over all users' packed words, with a bounded max-heap of the k best
 *   (distance, key) pairs; a user farther than the heap's worst costs one popcount and one compare,
 *   and keys are computed only for users within that distance. Codes of <= 64 bits run in the
 *   WebAssembly kernel (src/kernels) when it is available, longer ones in JS (`kernel` option);
 *   there, with every user a query, each pair's distance is computed once (src/kernels/pairs.wat);
 * - bucket (bits <= 16): users are grouped once by code, each query scans the distinct codes
 *   (at most 2^bits, usually far fewer), the distance histogram gives the boundary distance, and
 *   only users of buckets within it are keyed.
 */
export type HammingPath = 'auto' | 'scan' | 'bucket';

/** Which implementation runs the scan: the WebAssembly kernel when available, or plain JS. */
export type HammingKernel = 'auto' | 'js' | 'wasm';

/** Options of `hammingKnn`. */
export interface HammingOptions {
  path?: HammingPath;
  kernel?: HammingKernel;
}

/** The largest code length the bucket path accepts. */
export const BUCKET_MAX_BITS = 16;

/**
 * With the WebAssembly scan, the bucket path pays off only when users far outnumber the possible
 * codes: measured (scripts/bench-stage.mjs, tests/lsh/bench-lsh.mjs) bucket wins at 8 bits for 4k
 * users, 10 bits for 20k, 12-13 bits for 160k, and loses above; the JS scan loses to it up to 16 bits.
 */
export const BUCKET_USERS_PER_CODE = 12;

function autoBucket(bits: number, users: number, kernel: HammingKernel): boolean {
  if (bits > BUCKET_MAX_BITS) return false;
  if (kernel === 'js' || hammingKernelName() === 'js') return true;
  return (1 << bits) * BUCKET_USERS_PER_CODE <= users;
}

/** The checks every k-NN of released rows makes of its arguments (src/lsh/releases.ts too). */
export function checkKnnArgs(users: number, queries: Int32Array, k: number, tieSeed: number): void {
  if (!Number.isInteger(k) || k < 0) throw new UserError(`k must be a non-negative integer, got ${k}`);
  if (k > users - 1) {
    throw new UserError(`k = ${k} needs at least ${k + 1} users (a query is never its own neighbour), the data have ${users}`);
  }
  if (!Number.isInteger(tieSeed) || tieSeed < 0 || tieSeed > 0xffffffff) {
    throw new RangeError(`tieSeed must be an unsigned 32-bit integer, got ${tieSeed}`);
  }
  for (let i = 0; i < queries.length; i++) {
    const q = queries[i];
    if (q < 0 || q >= users) throw new RangeError(`query ${q} is not a user index (0..${users - 1})`);
  }
}

/** 2^32: the composite sort key of a candidate is distance * 2^32 + tie key (exact in a double). */
const TWO32 = 4294967296;

export function hammingKnn(set: CodeSet, queries: Int32Array, k: number, tieSeed: number, opts: HammingOptions = {}): Int32Array {
  const users = codeCount(set);
  checkKnnArgs(users, queries, k, tieSeed);
  const out = new Int32Array(queries.length * k);
  if (k === 0 || queries.length === 0) return out;
  if (set.bits + 1 > 0xffff) throw new RangeError(`codes of ${set.bits} bits are longer than supported (65534)`);
  const path = opts.path ?? 'auto';
  const bucket = path === 'bucket' || (path === 'auto' && autoBucket(set.bits, users, opts.kernel ?? 'auto'));
  if (bucket) {
    if (set.bits > BUCKET_MAX_BITS) throw new RangeError(`the bucket path needs bits <= ${BUCKET_MAX_BITS}, got ${set.bits}`);
    bucketPath(set, users, queries, k, tieSeed, out, opts.kernel !== 'js');
  } else {
    const kernel = opts.kernel ?? 'auto';
    if (kernel === 'js' || !wasmScan(set, users, queries, k, tieSeed, out)) {
      if (kernel === 'wasm') {
        throw new RangeError(`the WebAssembly kernel does not apply (kernel ${hammingKernelName()}, ${set.bits} bits; it takes <= ${WASM_MAX_BITS})`);
      }
      scanPath(set, users, queries, k, tieSeed, out);
    }
  }
  return out;
}

/**
 * A candidate's heap key: distance · 2³² + its 32-bit tie key (src/lsh/tieKey.ts), so the k best
 * are the k nearest with ties broken by the keyed hash, and the distance of the worst kept one is
 * floor(key / 2³²): a candidate farther than it can never enter.
 */
function distanceOfKey(k: number): number {
  return Math.floor(k / TWO32);
}

/** The tie key of src/lsh/tieKey.ts (one definition; V8 inlines the small call). */
const key = tieKey;

function scanPath(set: CodeSet, users: number, queries: Int32Array, k: number, tieSeed: number, out: Int32Array): void {
  const { codes, words, bits } = set;
  const best = new TopK(k);
  for (let qi = 0; qi < queries.length; qi++) {
    const q = queries[qi];
    const base = queryKeyBase(tieSeed, q);
    best.reset();
    let bound = bits;
    // one loop per word count, so the hot loop has no branch on it
    if (words === 1) {
      const c0 = codes[q];
      for (let u = 0; u < users; u++) {
        const d = popcount32(codes[u] ^ c0);
        if (d <= bound && u !== q) {
          best.offer(d * TWO32 + key(base, u), u);
          if (best.full) bound = distanceOfKey(best.worstKey);
        }
      }
    } else if (words === 2) {
      const c0 = codes[2 * q];
      const c1 = codes[2 * q + 1];
      for (let u = 0; u < users; u++) {
        let d = popcount32(codes[2 * u] ^ c0);
        if (d > bound) continue; // most users: the first word already rules them out
        d += popcount32(codes[2 * u + 1] ^ c1);
        if (d <= bound && u !== q) {
          best.offer(d * TWO32 + key(base, u), u);
          if (best.full) bound = distanceOfKey(best.worstKey);
        }
      }
    } else {
      const qb = q * words;
      for (let u = 0; u < users; u++) {
        const ub = u * words;
        let d = 0;
        for (let w = 0; w < words; w++) d += popcount32(codes[ub + w] ^ codes[qb + w]);
        if (d <= bound && u !== q) {
          best.offer(d * TWO32 + key(base, u), u);
          if (best.full) bound = distanceOfKey(best.worstKey);
        }
      }
    }
    best.drain(out, null, qi * k);
  }
}

function bucketPath(set: CodeSet, users: number, queries: Int32Array, k: number, tieSeed: number, out: Int32Array, kernel = true): void {
  const { codes, bits } = set;
  // Group users by code once (counting sort).
  const size = 1 << bits;
  const count = new Int32Array(size);
  for (let u = 0; u < users; u++) count[codes[u]]++;
  let distinct = 0;
  for (let c = 0; c < size; c++) if (count[c] > 0) distinct++;
  const bucketCode = new Int32Array(distinct);
  const bucketStart = new Int32Array(distinct + 1);
  const slotOf = new Int32Array(size);
  for (let c = 0, t = 0; c < size; c++) {
    if (count[c] === 0) continue;
    bucketCode[t] = c;
    bucketStart[t + 1] = bucketStart[t] + count[c];
    slotOf[c] = t;
    t++;
  }
  const fill = bucketStart.slice(0, distinct);
  const bucketUsers = new Int32Array(users);
  for (let u = 0; u < users; u++) bucketUsers[fill[slotOf[codes[u]]]++] = u;
  // the queries in the WebAssembly module, with the scans' heap and tie keys: the same answers
  if (kernel && wasmBucketKnn(codes, bits, bucketCode, bucketStart, bucketUsers, queries, k, tieSeed, out)) return;

  const bucketDist = new Uint8Array(distinct);
  const hist = new Int32Array(bits + 1);
  const best = new TopK(k);
  for (let qi = 0; qi < queries.length; qi++) {
    const q = queries[qi];
    const c = codes[q];
    const base = queryKeyBase(tieSeed, q);
    hist.fill(0);
    for (let t = 0; t < distinct; t++) {
      const d = popcount32(bucketCode[t] ^ c);
      bucketDist[t] = d;
      hist[d] += bucketStart[t + 1] - bucketStart[t];
    }
    hist[0]--; // the query itself
    // the boundary D: the distance of the k-th nearest
    let D = 0;
    for (let cum = hist[0]; cum < k; cum += hist[++D]);
    best.reset();
    for (let t = 0; t < distinct; t++) {
      const d = bucketDist[t];
      if (d > D) continue;
      for (let p = bucketStart[t]; p < bucketStart[t + 1]; p++) {
        const u = bucketUsers[p];
        if (u !== q) best.offer(d * TWO32 + key(base, u), u);
      }
    }
    best.drain(out, null, qi * k);
  }
}
