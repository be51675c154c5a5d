import { createCipheriv, createHash } from 'node:crypto';
import type { LshFamily } from './types.js';
import type { UserVectors } from '../../data/types.js';
import type { CodeSet } from '../codes.js';
import { emptyCodes } from '../codes.js';
import { jaccardDistance, jaccardFromCounts, jaccardKnn } from '../../knn/jaccard.js';

/**
 * The public MinHash tables of kappa 1-bit MinHash functions over n items (columns).
 * `rank[j*n + c]` is item c's uniform value for bit j (53 random bits, as a double in [0, 1)) and
 * `coin[j*n + c]` its fair bit b_j(c).
 *
 * Both come from a keyed pseudo-random function of (seed, bit, item): AES-128 in counter mode,
 * keyed per bit with the first 16 bytes of SHA-256("lshdp-minhash-v1", seed, j), block c of the
 * key stream for item c (bytes 0–6: the value; byte 8, lowest bit: the coin). A PRF makes the
 * values of distinct items independent and uniform for all practical purposes, hence min-wise
 * independent — unlike (a·x + b) mod p, which is not.
 */
export interface MinHashTables {
  kappa: number;
  n: number;
  rank: Float64Array;
  coin: Uint8Array;
}

const TWO_32 = 4294967296;

export function minHashTables(seed: string, kappa: number, n: number): MinHashTables {
  if (!Number.isInteger(kappa) || kappa < 1) throw new RangeError(`kappa must be a positive integer, got ${kappa}`);
  if (!Number.isInteger(n) || n < 1) throw new RangeError(`n must be a positive integer, got ${n}`);
  const rank = new Float64Array(kappa * n);
  const coin = new Uint8Array(kappa * n);
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
    }
  }
  return { kappa, n, rank, coin };
}

/**
 * 1-bit MinHash codes: bit j of user S is coin_j(argmin_{c in S} rank_j(c)) (ties of the 53-bit
 * values, probability ~ n²·2^-54, go to the smaller column). Only the support of each row is read.
 */
export function minHashCodes(data: UserVectors, tables: MinHashTables): CodeSet {
  const { kappa, n, rank, coin } = tables;
  if (data.n !== n) throw new RangeError(`tables are for n = ${n}, the data have n = ${data.n}`);
  const users = data.rowPtr.length - 1;
  const set = emptyCodes(users, kappa);
  const { codes, words } = set;
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
      if (coin[base + best]) codes[i * words + (j >>> 5)] |= 1 << (j & 31);
    }
  }
  return set;
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
    const codes = minHashCodes(data, minHashTables(seed, kappa, data.n));
    // no planes or projections: mechanisms that need them (laplsh) are refused on this family
    return { kappa, n: data.n, planes: new Float64Array(0), projections: new Float64Array(0), codes };
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
