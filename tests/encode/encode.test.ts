import { describe, expect, it } from 'vitest';
import { cryptoRng } from '../../src/encode/noise.js';
import { encodeUsers, releaseHashSeed } from '../../src/encode/encode.js';
import { vectorsForItems } from '../../src/encode/items.js';
import { angularFamily, jaccardFamily } from '../../src/lsh/families/index.js';
import { getMechanism } from '../../src/mechanisms/registry.js';
import { lshrrEpsilon } from '../../src/privacy/index.js';
import { deriveSeed, makeRng } from '../../src/random/rng.js';
import { buildVectors, rankItems } from '../../src/data/vectors.js';
import type { Interactions } from '../../src/data/interactions.js';

describe('cryptoRng', () => {
  it('is uniform on [0, 1): mean 1/2, variance 1/12, and both halves of every bit (4.5 SE)', () => {
    const rng = cryptoRng();
    const N = 200_000;
    let s = 0;
    let s2 = 0;
    let low = 0;
    let min = 1;
    let max = 0;
    for (let i = 0; i < N; i++) {
      const u = rng();
      s += u;
      s2 += (u - 0.5) ** 2;
      if (u < 0.25) low++;
      min = Math.min(min, u);
      max = Math.max(max, u);
    }
    expect(min).toBeGreaterThanOrEqual(0);
    expect(max).toBeLessThan(1);
    expect(Math.abs(s / N - 0.5)).toBeLessThan(4.5 * Math.sqrt(1 / 12 / N));
    // Var((U - 1/2)^2) = 1/80 - 1/144
    expect(Math.abs(s2 / N - 1 / 12)).toBeLessThan(4.5 * Math.sqrt((1 / 80 - 1 / 144) / N));
    expect(Math.abs(low / N - 0.25)).toBeLessThan(4.5 * Math.sqrt((0.25 * 0.75) / N));
  });
});

/** Interactions of a few users (CSR by user, items ascending). */
function interactions(rows: [string, string, number][]): Interactions {
  const users = [...new Set(rows.map((r) => r[0]))].sort();
  const items = [...new Set(rows.map((r) => r[1]))].sort();
  const userPtr = new Int32Array(users.length + 1);
  const itemIdx: number[] = [];
  const values: number[] = [];
  users.forEach((u, i) => {
    const mine = rows.filter((r) => r[0] === u).sort((a, b) => items.indexOf(a[1]) - items.indexOf(b[1]));
    for (const r of mine) {
      itemIdx.push(items.indexOf(r[1]));
      values.push(r[2]);
    }
    userPtr[i + 1] = itemIdx.length;
  });
  return { userIds: users, itemIds: items, userPtr, itemIdx: Int32Array.from(itemIdx), values: Float64Array.from(values), rowsRead: rows.length, rowsSkipped: 0, skippedLines: [] };
}

describe('vectorsForItems', () => {
  const inter = interactions([
    ['a', 'x', 4],
    ['a', 'y', 2],
    ['a', 'z', 5],
    ['b', 'y', 3],
    ['b', 'w', 1],
    ['c', 'w', 2],
  ]);
  it('equals buildVectors with the data ranking when the list is the data top-n', () => {
    const ranking = rankItems(inter);
    const top = Array.from(ranking.subarray(0, 3), (i) => inter.itemIds[i]!);
    expect(vectorsForItems(inter, top, 'user', 'd')).toEqual(buildVectors(inter, ranking, 3, 'user', 'd'));
  });
  it('listed items the data never mention are empty columns; unlisted items are ignored', () => {
    const v = vectorsForItems(inter, ['q', 'x', 'y'], 'none', 'd');
    expect(v.itemIds).toEqual(['q', 'x', 'y']);
    expect(v.userIds).toEqual(['a', 'b']); // c has none of the items: dropped
    expect(Array.from(v.colIdx)).toEqual([1, 2, 2]);
    expect(v.dropped).toBe(1);
  });
});

describe('encodeUsers', () => {
  const inter = interactions(Array.from({ length: 60 }, (_, i) => [`u${i % 12}`, `i${(i * 7) % 10}`, 1 + (i % 4)] as [string, string, number]));
  const data = vectorsForItems(
    inter,
    Array.from({ length: 10 }, (_, j) => `i${j}`),
    'none',
    'd',
  );
  it('lsh: the clean codes of the family hashing with the public seed, whatever the noise source', () => {
    const seed = releaseHashSeed(5, 'd', 10, 24);
    expect(seed).toBe(deriveSeed(5, 'planes', 'd', 10, 24, 0));
    const a = encodeUsers({ data, family: angularFamily, kappa: 24, hashSeed: seed, mechanism: getMechanism('lsh'), xi: null, privacy: { d: 0.1, delta: 0.01 }, rng: cryptoRng() });
    expect(a.codes).toEqual(angularFamily.hash(data, 24, seed).codes);
  });
  it('lshrr on jaccard: the accountants get the per-bit probability d/2', () => {
    const sets = jaccardFamily.prepare(data);
    const r = encodeUsers({
      data: sets,
      family: jaccardFamily,
      kappa: 24,
      hashSeed: 's',
      mechanism: getMechanism('lshrr'),
      options: { accountant: 'paper' },
      xi: 5,
      privacy: { d: 0.2, delta: 0.01 },
      rng: makeRng('n'),
    });
    expect(r.eps.epsilon).toBe(lshrrEpsilon(5, 24, { d: 0.1, delta: 0.01 }).epsilon);
  });
  it('refuses the mechanisms that noise the vector on jaccard (laplsh, vmf, purkayastha: their unit says so) and a missing budget', () => {
    for (const name of ['laplsh', 'vmf', 'purkayastha']) {
      expect(() => encodeUsers({ data, family: jaccardFamily, kappa: 8, hashSeed: 's', mechanism: getMechanism(name), xi: 1, privacy: { d: 0.1, delta: 0.01 }, rng: makeRng('n') })).toThrow(
        `mechanism ${name} needs vectors and cannot run on the jaccard family`,
      );
    }
    expect(() => encodeUsers({ data, family: angularFamily, kappa: 8, hashSeed: 's', mechanism: getMechanism('lshrr'), xi: null, privacy: { d: 0.1, delta: 0.01 }, rng: makeRng('n') })).toThrow(
      /needs a budget/,
    );
  });
});
