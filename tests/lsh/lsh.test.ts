import { describe, expect, it } from 'vitest';
import { drawHyperplanes, projectAll } from '../../src/lsh/hyperplanes.js';
import { codeCount, emptyCodes, getBit, hammingDistance, packCombinedSigns, packSigns, popcount32 } from '../../src/lsh/codes.js';
import { makeRng } from '../../src/random/rng.js';
import { binomialSe, Z } from './stats.js';
import { clusteredVectors, vectorsFromDense } from './synthetic.js';

function naivePopcount(x: number): number {
  let c = 0;
  for (let b = 0; b < 32; b++) c += (x >>> b) & 1;
  return c;
}

describe('popcount32', () => {
  it('matches a bit-by-bit count on edge cases and random words', () => {
    const rng = makeRng('popcount');
    const cases = [0, 1, 0xffffffff, 0x80000000, 0x7fffffff, 0x55555555, 0xaaaaaaaa, -1];
    for (let i = 0; i < 2000; i++) cases.push((rng() * 4294967296) >>> 0);
    for (const x of cases) expect(popcount32(x)).toBe(naivePopcount(x >>> 0));
  });
});

describe('projectAll', () => {
  it('equals the dense product W x for every user and plane', () => {
    const vectors = clusteredVectors({ users: 40, n: 30, clusters: 4 });
    const kappa = 7;
    const planes = drawHyperplanes(makeRng('planes'), kappa, 30);
    const proj = projectAll(vectors, planes, kappa);
    for (let i = 0; i < 40; i++) {
      const dense = new Float64Array(30);
      for (let p = vectors.rowPtr[i]; p < vectors.rowPtr[i + 1]; p++) dense[vectors.colIdx[p]] = vectors.values[p];
      for (let j = 0; j < kappa; j++) {
        let s = 0;
        for (let c = 0; c < 30; c++) s += planes[j * 30 + c] * dense[c];
        expect(Math.abs(proj[i * kappa + j] - s)).toBeLessThan(1e-12);
      }
    }
  });

  it('draws planes with mean 0 and variance 1 (within standard errors)', () => {
    const planes = drawHyperplanes(makeRng('moments'), 50, 400);
    const m = planes.length;
    let s = 0;
    let s2 = 0;
    for (const v of planes) {
      s += v;
      s2 += v * v;
    }
    const mean = s / m;
    const variance = s2 / m - mean * mean;
    expect(Math.abs(mean)).toBeLessThan(Z * Math.sqrt(1 / m));
    expect(Math.abs(variance - 1)).toBeLessThan(Z * Math.sqrt(2 / m)); // Var(sample var) ≈ 2σ⁴/m
  });
});

describe('packSigns', () => {
  it('sets bit j iff the projection is >= 0 (zero hashes to 1), for one and several words', () => {
    const rng = makeRng('pack');
    for (const kappa of [1, 10, 32, 33, 70]) {
      const users = 9;
      const proj = new Float64Array(users * kappa);
      for (let i = 0; i < proj.length; i++) proj[i] = rng() < 0.1 ? 0 : rng() - 0.5;
      const set = packSigns(proj, users, kappa);
      expect(set.words).toBe(Math.ceil(kappa / 32));
      expect(codeCount(set)).toBe(users);
      for (let i = 0; i < users; i++) {
        for (let j = 0; j < kappa; j++) expect(getBit(set, i, j)).toBe(proj[i * kappa + j] >= 0 ? 1 : 0);
        // unused high bits of the last word stay 0
        const last = set.codes[i * set.words + set.words - 1];
        const used = kappa - 32 * (set.words - 1);
        if (used < 32) expect(last >>> used).toBe(0);
      }
    }
    expect(emptyCodes(3, 5).codes.length).toBe(3);
  });

  it('packCombinedSigns gives the codes of along·a + scale·b computed first, with and without along', () => {
    const rng = makeRng('combined');
    const value = () => (rng() < 0.1 ? (rng() < 0.5 ? 0 : -0) : rng() - 0.5);
    for (const kappa of [1, 10, 32, 33, 64, 70]) {
      const users = 11;
      const a = Float64Array.from({ length: users * kappa }, value);
      const b = Float64Array.from({ length: users * kappa }, value);
      const scale = Float64Array.from({ length: users }, value);
      const along = Float64Array.from({ length: users }, value);
      for (const t of [null, along]) {
        const full = a.map((x, e) => (t === null ? x : t[Math.floor(e / kappa)] * x) + scale[Math.floor(e / kappa)] * b[e]);
        expect(packCombinedSigns(a, t, b, scale, kappa)).toEqual(packSigns(full, users, kappa));
      }
    }
    expect(() => packCombinedSigns(new Float64Array(4), null, new Float64Array(3), new Float64Array(2), 2)).toThrow(RangeError);
  });

  it('packCombinedSigns gives those codes over several chunks of the kernel (2,100 users), with odd kappa and values that are not finite', () => {
    const rng = makeRng('combined-chunks');
    const special = [0, -0, Number.NaN, Infinity, -Infinity, Number.MIN_VALUE, -Number.MIN_VALUE, 1e308, -1e308];
    const value = () => (rng() < 0.02 ? special[Math.floor(rng() * special.length)]! : rng() < 0.05 ? 0 : (rng() - 0.5) * 2 ** Math.floor(rng() * 40 - 20));
    for (const kappa of [7, 20, 50]) {
      const users = 2100;
      const a = Float64Array.from({ length: users * kappa }, value);
      const b = Float64Array.from({ length: users * kappa }, value);
      const scale = Float64Array.from({ length: users }, () => rng() * 1000);
      const full = a.map((x, e) => x + scale[Math.floor(e / kappa)]! * b[e]!);
      expect(packCombinedSigns(a, null, b, scale, kappa)).toEqual(packSigns(full, users, kappa));
    }
  });
});

describe('random-projection LSH', () => {
  it('makes two vectors at angle θ disagree on a bit with probability θ/π', () => {
    // One call with many hyperplanes = many independent hash bits of the same pair.
    const bits = 40_000;
    const n = 6;
    for (const frac of [0.05, 0.25, 0.5, 0.8]) {
      const theta = frac * Math.PI;
      // x = e0 + 0.3 e2 (normalised), y its rotation by θ in the plane spanned by x and e1.
      const x = [1, 0, 0.3, 0, 0, 0];
      const nx = Math.hypot(...x);
      const xu = x.map((v) => v / nx);
      const y = xu.map((v, c) => Math.cos(theta) * v + (c === 1 ? Math.sin(theta) : 0));
      const vectors = vectorsFromDense([xu, y]);
      const planes = drawHyperplanes(makeRng(`angle-${frac}`), bits, n);
      const codes = packSigns(projectAll(vectors, planes, bits), 2, bits);
      const rate = hammingDistance(codes, 0, 1) / bits;
      expect(Math.abs(rate - frac)).toBeLessThan(Z * binomialSe(frac, bits));
    }
  });
});
