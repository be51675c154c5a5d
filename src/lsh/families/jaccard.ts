import { createCipheriv, createHash } from 'node:crypto';
import type { LshFamily } from './types.js';
import type { UserVectors } from '../../data/types.js';
import type { CodeSet } from '../codes.js';
import { emptyCodes } from '../codes.js';
import { jaccardDistance, jaccardFromCounts, jaccardKnn } from '../../knn/jaccard.js';
import type { MinHashTables, TrialMinHash } from '../minHash.js';

export type { MinHashTables, TrialMinHash } from '../minHash.js';

const TWO_32 = 4294967296;

/**
 * The public MinHash tables of `kappa` positions over `n` items from `seed` (layout and PRF in
 * MinHashTables, src/lsh/minHash.ts): ranks, coins and bucket words, from one AES-CTR stream per
 * position.
 */
export function minHashTables(seed: string, kappa: number, n: number): MinHashTables {
  if (!Number.isInteger(kappa) || kappa < 1) throw new RangeError(`kappa must be a positive integer, got ${kappa}`);
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`n must be a positive integer, got ${n}`);
  const rank = new Float64Array(kappa * n);
  const coin = new Uint8Array(kappa * n);
  const bucketWord = new Uint32Array(kappa * n);
  const zeros = Buffer.alloc(16 * n);
  for (let j = 0; j < kappa; j++) {
    const key = createHash('sha256')
      .update(JSON.stringify(['lshdp-minhash-v1', seed, j]))
      .digest()
      .subarray(0, 16);
    const cipher = createCipheriv('aes-128-ctr', key, Buffer.alloc(16));
    const stream = Buffer.concat([cipher.update(zeros), cipher.final()]);
    for (let c = 0; c < n; c++) {
      const o = 16 * c;
      // 32 + 21 = 53 random bits: a uniform double on [0, 1) on the full 2^-53 grid
      rank[j * n + c] = (stream.readUInt32BE(o) * 2097152 + (stream.readUInt32BE(o + 4) >>> 11)) / (TWO_32 * 2097152);
      coin[j * n + c] = stream[o + 8]! & 1;
      // bytes 12–15, unused before: the public bucket map of the bucket mechanism (bucketOf)
      bucketWord[j * n + c] = stream.readUInt32BE(o + 12);
    }
  }
  return { kappa, n, rank, coin, bucketWord };
}

/**
 * Every user's MinHash: `minima[i*kappa + j]` = argmin_{c in S_i} rank_j(c), the item (column) of
 * user i's smallest rank at position j (users × kappa, row-major). Ties of the 53-bit values,
 * probability ~ n²·2^-54, go to the smaller column (the first in the row's ascending columns).
 * Only the support of each row is read.
 */
export function minHashMinima(data: UserVectors, tables: MinHashTables): Int32Array {
  const { kappa, n, rank } = tables;
  if (data.n !== n) throw new RangeError(`tables are for n = ${n}, the data have n = ${data.n}`);
  const users = data.rowPtr.length - 1;
  const minima = new Int32Array(users * kappa);
  const { rowPtr, colIdx } = data;
  for (let i = 0; i < users; i++) {
    const a = rowPtr[i]!;
    const b = rowPtr[i + 1]!;
    if (b === a) throw new RangeError(`user ${i} has an empty item set (such users are dropped when loading)`);
    for (let j = 0; j < kappa; j++) {
      const base = j * n;
      let best = colIdx[a]!;
      let bestRank = rank[base + best]!;
      for (let p = a + 1; p < b; p++) {
        const c = colIdx[p]!;
        const r = rank[base + c]!;
        if (r < bestRank) {
          bestRank = r;
          best = c;
        }
      }
      minima[i * kappa + j] = best;
    }
  }
  return minima;
}

/** The 1-bit MinHash codes of given minima (users × kappa): bit j of user i is coin_j(minima[i*kappa + j]). */
export function codesFromMinima(minima: Int32Array, tables: MinHashTables): CodeSet {
  const { kappa, n, coin } = tables;
  const users = minima.length / kappa;
  if (!Number.isInteger(users)) throw new RangeError(`minima has ${minima.length} entries, not a multiple of kappa = ${kappa}`);
  const set = emptyCodes(users, kappa);
  const { codes, words } = set;
  for (let i = 0; i < users; i++) {
    for (let j = 0; j < kappa; j++) {
      if (coin[j * n + minima[i * kappa + j]!]) codes[i * words + (j >>> 5)] |= 1 << (j & 31);
    }
  }
  return set;
}

/**
 * 1-bit MinHash codes: bit j of user S is coin_j(argmin_{c in S} rank_j(c)) (minHashMinima, its
 * tie rule), the codes of codesFromMinima.
 */
export function minHashCodes(data: UserVectors, tables: MinHashTables): CodeSet {
  return codesFromMinima(minHashMinima(data, tables), tables);
}

/**
 * The item sets as user data: the same support, values 1/sqrt(|S|) (so rows keep the UserVectors
 * contract: unit length, at least one non-zero). Vectors loaded with `center: none` have exactly
 * the items with value ≠ 0 before centring as their support (src/data/vectors.ts), and users with
 * an empty set are already dropped there.
 */
export function itemSetVectors(vectors: UserVectors): UserVectors {
  const { rowPtr } = vectors;
  const values = new Float64Array(vectors.colIdx.length);
  for (let i = 0; i + 1 < rowPtr.length; i++) {
    const v = 1 / Math.sqrt(rowPtr[i + 1]! - rowPtr[i]!);
    values.fill(v, rowPtr[i]!, rowPtr[i + 1]!);
  }
  return { ...vectors, values };
}

/**
 * 1-bit MinHash for the Jaccard distance d_J = 1 − |S∩S'|/|S∪S'| (paper Sect. 3.2 names the
 * family; b-bit MinHash with b = 1). The two minima coincide with probability J = 1 − d_J, and
 * otherwise the two coins are independent and fair, so Pr[bits differ] = d_J / 2 exactly.
 */
export const jaccardFamily: LshFamily = {
  name: 'jaccard',
  description: '1-bit MinHash (keyed-PRF ranks and coins), Jaccard distance of the item sets',
  vectorMechanisms: false,
  dataSpec: (spec) => ({ ...spec, center: 'none' }),
  prepare: itemSetVectors,
  hash(data, kappa, seed) {
    // one AES stream and one scan of the item sets per trial: the private MinHash mechanisms read
    // the tables and minima (TrialHashing.minHash) instead of hashing again
    const tables = minHashTables(seed, kappa, data.n);
    const minima = minHashMinima(data, tables);
    const codes = codesFromMinima(minima, tables);
    const minHash: TrialMinHash = { tables, minima };
    // no planes or projections: mechanisms that need them (laplsh) are refused on this family
    return { kappa, n: data.n, planes: new Float64Array(0), projections: new Float64Array(0), codes, minHash };
  },
  disagreement: (d) => d / 2,
  distance: jaccardDistance,
  exactKnn: jaccardKnn,
  distanceFrom(data) {
    const inQuery = new Uint8Array(data.n);
    const { rowPtr, colIdx } = data;
    let last = -1;
    return (query) => {
      if (last >= 0) for (let p = rowPtr[last]!; p < rowPtr[last + 1]!; p++) inQuery[colIdx[p]!] = 0;
      for (let p = rowPtr[query]!; p < rowPtr[query + 1]!; p++) inQuery[colIdx[p]!] = 1;
      last = query;
      const sizeQ = rowPtr[query + 1]! - rowPtr[query]!;
      return (user) => {
        let c = 0;
        for (let p = rowPtr[user]!, e = rowPtr[user + 1]!; p < e; p++) c += inQuery[colIdx[p]!]!;
        return jaccardFromCounts(c, sizeQ, rowPtr[user + 1]! - rowPtr[user]!);
      };
    };
  },
};
