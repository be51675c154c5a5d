import { createCipheriv, createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { UserVectors } from '../../src/data/types.js';
import { codesFromMinima, itemSetVectors, jaccardFamily, minHashCodes, minHashMinima, minHashTables } from '../../src/lsh/families/index.js';
import { bucketJaccardEstimate, bucketOf, bucketReleaseAgreement, bucketSymbols, minHashBits, noisyJaccardEstimate } from '../../src/lsh/minHash.js';
import { getBit } from '../../src/lsh/codes.js';
import { makeRng } from '../../src/random/rng.js';
import { randomizeSymbols, symbolGrid } from '../../src/random/symbols.js';
import { laplaceNoisyValues } from '../../src/random/laplace.js';
import { bucketExactTail, realizedBucketEpsilon, realizedOtherCount } from '../../src/privacy/bucketRr.js';
import { bucketDisagreement } from '../../src/privacy/minhash.js';

/** Standard errors a Monte Carlo estimate may stray at a fixed seed (two-sided ≈ 6e-5 per check). */
const Z = 4;
const within = (observed: number, expected: number, se: number, tag: string) => expect(Math.abs(observed - expected), `${tag}: ${observed} vs ${expected} ± ${Z}×${se}`).toBeLessThanOrEqual(Z * se);

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

/** Rows of item sets as UserVectors (the jaccard family's prepared data). */
function setsAsVectors(sets: number[][], n: number): UserVectors {
  const rowPtr = new Int32Array(sets.length + 1);
  const cols: number[] = [];
  sets.forEach((s, i) => {
    cols.push(...[...new Set(s)].sort((a, b) => a - b));
    rowPtr[i + 1] = cols.length;
  });
  return itemSetVectors({
    dataset: 'sets',
    n,
    userIds: sets.map((_, i) => String(i)),
    itemIds: range(0, n).map((j) => `i${j}`),
    rowPtr,
    colIdx: Int32Array.from(cols),
    values: new Float64Array(cols.length),
    dropped: 0,
  });
}

/** Pairs of item sets over 20 items with their Jaccard similarity J (distance 1 − J). */
const PAIRS: { sets: [number[], number[]]; j: number }[] = [
  { sets: [range(0, 10), range(5, 15)], j: 1 / 3 },
  { sets: [range(0, 4), range(0, 12)], j: 1 / 3 },
  { sets: [range(0, 12), range(4, 16)], j: 1 / 2 },
  { sets: [range(0, 5), range(5, 10)], j: 0 },
  { sets: [range(0, 9), range(0, 10)], j: 9 / 10 },
];
const N_ITEMS = 20;
// one hashing of every pair's sets (rows 2t, 2t + 1) with many positions: each pair's positions are
// independent draws at its own J (the pairs share the tables, not the positions' independence)
const KAPPA = 20_000;
const DATA = setsAsVectors(
  PAIRS.flatMap((p) => p.sets),
  N_ITEMS,
);
const HASHED = jaccardFamily.hash(DATA, KAPPA, 'minhash-test');
const { tables, minima } = HASHED.minHash!;

/** Symbols of rows u and v agreeing at how many positions. */
function agreements(symbols: Uint8Array, u: number, v: number, kappa: number): number {
  let same = 0;
  for (let j = 0; j < kappa; j++) same += symbols[u * kappa + j] === symbols[v * kappa + j] ? 1 : 0;
  return same;
}

describe('MinHash tables: the bucket word', () => {
  it('is bytes 12–15 (big-endian) of the documented AES-CTR block, next to the rank (bytes 0–6) and the coin (byte 8)', () => {
    const seed = 'block-layout';
    const t = minHashTables(seed, 6, 9);
    for (const [j, c] of [
      [0, 0],
      [3, 7],
      [5, 8],
    ] as const) {
      const key = createHash('sha256')
        .update(JSON.stringify(['lshdp-minhash-v1', seed, j]))
        .digest()
        .subarray(0, 16);
      const cipher = createCipheriv('aes-128-ctr', key, Buffer.alloc(16));
      const stream = Buffer.concat([cipher.update(Buffer.alloc(16 * (c + 1))), cipher.final()]);
      const block = stream.subarray(16 * c);
      expect(t.bucketWord[j * 9 + c]).toBe(block.readUInt32BE(12));
      expect(t.coin[j * 9 + c]).toBe(block[8]! & 1);
      const rank = (block.readUInt32BE(0) * 2 ** 21 + (block.readUInt32BE(4) >>> 11)) / 2 ** 53;
      expect(t.rank[j * 9 + c]).toBe(rank);
    }
  });

  it('is uniform (moments) and independent of the coin and the rank (300 × 100 words)', () => {
    const t = minHashTables('word-moments', 300, 100);
    const n = t.bucketWord.length;
    let s = 0;
    let s2 = 0;
    let withRank = 0;
    const byCoin = [0, 0];
    const coins = [0, 0];
    for (let i = 0; i < n; i++) {
      const u = t.bucketWord[i]! / 2 ** 32;
      s += u;
      s2 += u * u;
      withRank += (u - 0.5) * (t.rank[i]! - 0.5);
      byCoin[t.coin[i]!] += u;
      coins[t.coin[i]!]++;
    }
    within(s / n, 0.5, Math.sqrt(1 / 12 / n), 'mean');
    within(s2 / n, 1 / 3, Math.sqrt((1 / 5 - 1 / 9) / n), 'second moment');
    // covariance with the rank: independent uniforms give mean 0, SD (1/12)/sqrt(n)
    within(withRank / n, 0, 1 / 12 / Math.sqrt(n), 'covariance with the rank');
    // mean word given the coin: equal for both coins (SE of a difference of two means)
    within(byCoin[1]! / coins[1]! - byCoin[0]! / coins[0]!, 0, Math.sqrt((1 / 12) * (1 / coins[0]! + 1 / coins[1]!)), 'mean by coin');
  });

  it('buckets: each of b gets floor or ceil(2^32/b) words (exactly 2^32/b when b is a power of 2)', () => {
    for (const b of [2, 3, 5, 7, 16, 100, 255, 256]) {
      const sizes: number[] = [];
      let first = 0;
      for (let k = 1; k <= b; k++) {
        const next = k === b ? 2 ** 32 : Math.ceil((k * 2 ** 32) / b);
        expect(bucketOf(first, b)).toBe(k - 1);
        expect(bucketOf(next - 1, b)).toBe(k - 1);
        if (k < b) expect(bucketOf(next, b)).toBe(k);
        sizes.push(next - first);
        first = next;
      }
      expect(Math.max(...sizes) - Math.min(...sizes)).toBeLessThanOrEqual(1);
      if ((b & (b - 1)) === 0) expect(new Set(sizes)).toEqual(new Set([2 ** 32 / b]));
    }
  });
});

describe('minima and the family hash', () => {
  it('minHashMinima is the brute-force argmin (ties to the smaller column); codes and bits follow from it', () => {
    const rng = makeRng('minima');
    const sets = range(0, 200).map(() => [...new Set(range(0, 1 + Math.floor(rng() * 8)).map(() => Math.floor(rng() * 30)))]);
    const data = setsAsVectors(sets, 30);
    const t = minHashTables('minima', 40, 30);
    const got = minHashMinima(data, t);
    sets.forEach((s, i) => {
      const sorted = [...s].sort((a, b) => a - b);
      for (let j = 0; j < 40; j++) {
        const best = sorted.reduce((m, c) => (t.rank[j * 30 + c]! < t.rank[j * 30 + m]! ? c : m), sorted[0]!);
        expect(got[i * 40 + j]).toBe(best);
      }
    });
    expect(codesFromMinima(got, t)).toEqual(minHashCodes(data, t));
    const bits = minHashBits(got, t);
    const codes = minHashCodes(data, t);
    for (let i = 0; i < 200; i++) for (let j = 0; j < 40; j++) expect(bits[i * 40 + j]).toBe(getBit(codes, i, j));
  });

  it('jaccardFamily.hash returns the tables and minima its codes come from', () => {
    const data = setsAsVectors([[1, 4], [2], [0, 3, 5]], 6);
    const h = jaccardFamily.hash(data, 37, 'family-hash');
    const t = minHashTables('family-hash', 37, 6);
    expect(h.minHash!.tables).toEqual(t);
    expect(h.minHash!.minima).toEqual(minHashMinima(data, t));
    expect(h.codes).toEqual(minHashCodes(data, t));
    // a one-item set's symbol is its item's bucket
    const symbols = bucketSymbols(h.minHash!.minima, t, 5);
    for (let j = 0; j < 37; j++) expect(symbols[1 * 37 + j]).toBe(bucketOf(t.bucketWord[j * 6 + 2]!, 5));
  });
});

describe('bucket MinHash on real tables', () => {
  it('Pr[equal buckets] = (1 − d) + d/b for pairs at known Jaccard distance (b 2, 4, 5, 16; 20k positions)', () => {
    for (const b of [2, 4, 5, 16]) {
      const symbols = bucketSymbols(minima, tables, b);
      PAIRS.forEach(({ j }, t) => {
        const d = 1 - j;
        const want = 1 - d + d / b;
        const got = agreements(symbols, 2 * t, 2 * t + 1, KAPPA) / KAPPA;
        if (want === 1) expect(got).toBe(1);
        else within(got, want, Math.sqrt((want * (1 - want)) / KAPPA), `b=${b} J=${j}`);
        // the disagreement the accountants take is its complement
        if (d > 0) expect(bucketDisagreement(d, b)).toBeCloseTo(1 - want, 14);
      });
    }
  });

  it("the SISAP estimate: released symbols agree with bucketReleaseAgreement's probability, and the estimate of J is unbiased", () => {
    const rng = makeRng('bucket-estimate');
    for (const b of [2, 4, 16]) {
      const clean = bucketSymbols(minima, tables, b);
      for (const eps of [1, 3]) {
        const other = realizedOtherCount(eps, b);
        const r = other / symbolGrid(b); // the law the sampler realizes
        const q = 1 - (b - 1) * r;
        const released = randomizeSymbols(clean, b, other, rng);
        PAIRS.forEach(({ j }, t) => {
          const tag = `b=${b} eps=${eps} J=${j}`;
          const p = bucketReleaseAgreement(j, b, q);
          const f = agreements(released, 2 * t, 2 * t + 1, KAPPA) / KAPPA;
          const seF = Math.sqrt((p * (1 - p)) / KAPPA);
          within(f, p, seF, `${tag} agreement`);
          // dĴ/df = b / ((b − 1)(q − r)²)
          within(bucketJaccardEstimate(f, b, q), j, (b / ((b - 1) * (q - r) ** 2)) * seF, `${tag} estimate`);
        });
      }
    }
  });

  it('the exact loss tail on real tables and the real sampler (kappa 10, 2000 groups of positions; LSHRR law would be 0.15 off)', () => {
    const kappa = 10;
    const groups = KAPPA / kappa; // the pair at J = 1/2 (rows 4, 5)
    const b = 4;
    const p = bucketDisagreement(0.5, b);
    const clean = bucketSymbols(minima, tables, b);
    const rng = makeRng('bucket-exact-tail');
    for (const [eps, xi] of [
      [1.3, 2],
      [0.7, 1],
      [2.5, 4],
    ] as const) {
      const other = realizedOtherCount(eps, b);
      const realized = realizedBucketEpsilon(eps, b); // the law the samples follow
      const out = randomizeSymbols(clean, b, other, rng);
      let hits = 0;
      for (let g = 0; g < groups; g++) {
        let score = 0; // N₊ − N₋ over the group's positions
        for (let j = g * kappa; j < (g + 1) * kappa; j++) {
          const x = clean[4 * KAPPA + j]!;
          const y = clean[5 * KAPPA + j]!;
          if (x === y) continue;
          const z = out[4 * KAPPA + j]!;
          score += z === x ? 1 : z === y ? -1 : 0;
        }
        if (realized * score > xi) hits++;
      }
      const want = bucketExactTail(kappa, p, b, realized, xi);
      within(hits / groups, want, Math.sqrt((want * (1 - want)) / groups), `eps=${eps} xi=${xi}`);
    }
  });
});

describe('noisy MinHash on real tables', () => {
  it('the SISAP estimate 1 − 2·mean (x − y)² + 8/eps² is unbiased (closed-form SE)', () => {
    const rng = makeRng('noisy-estimate');
    const bits = minHashBits(minima, tables);
    for (const eps of [1, 4]) {
      const noisy = laplaceNoisyValues(bits, eps, rng);
      const s = 1 / eps;
      PAIRS.forEach(({ j }, t) => {
        let sum = 0;
        for (let k = 0; k < KAPPA; k++) sum += (noisy[2 * t * KAPPA + k]! - noisy[(2 * t + 1) * KAPPA + k]!) ** 2;
        // Y = (Δ + L₁ − L₂)², Pr[Δ ≠ 0] = π = (1 − J)/2: Var Y = π(1 − π) + 16πs² + 56s⁴
        const pi = (1 - j) / 2;
        const varY = pi * (1 - pi) + 16 * pi * s * s + 56 * s ** 4;
        within(noisyJaccardEstimate(sum / KAPPA, eps), j, 2 * Math.sqrt(varY / KAPPA), `eps=${eps} J=${j}`);
      });
    }
  });
});
