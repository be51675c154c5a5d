import { describe, expect, it } from 'vitest';
import { getMechanism } from '../../src/mechanisms/registry.js';
import type { CodeSet } from '../../src/lsh/codes.js';
import type { MechanismContext } from '../../src/mechanisms/types.js';
import type { UserVectors } from '../../src/data/types.js';
import { drawHyperplanes, projectAll } from '../../src/lsh/hyperplanes.js';
import { popcount32 } from '../../src/lsh/codes.js';
import { makeRng } from '../../src/random/rng.js';
import { flipProbability } from '../../src/privacy/index.js';
import { binomialSe, transitionRates, Z } from '../lsh/stats.js';
import { vectorsFromDense } from '../lsh/synthetic.js';
import { bitsOf as asBits } from '../../src/lsh/releases.js';

const PRIVACY = { d: 0.1, delta: 0.01 };
const rappor = getMechanism('rappor');

function ctx(vectors: UserVectors, kappa: number, seed: string, options: Record<string, unknown> = {}): MechanismContext {
  const planes = drawHyperplanes(makeRng('unused-planes'), kappa, vectors.n);
  return { vectors, hashing: { kappa, n: vectors.n, planes, projections: projectAll(vectors, planes, kappa) }, rng: makeRng(seed), options };
}

/** Users over n = 30 items: some item sets, each repeated, with a few nested pairs. */
function itemSets(): { vectors: UserVectors; sets: number[][] } {
  const rng = makeRng('sets');
  const sets: number[][] = [];
  for (let i = 0; i < 600; i++) {
    const s = new Set<number>();
    const size = 1 + Math.floor(rng() * 5);
    while (s.size < size) s.add(Math.floor(rng() * 30));
    sets.push([...s].sort((a, b) => a - b));
  }
  sets.push([3], [3, 7], [3, 7, 11]); // nested
  const rows = sets.map((s) => {
    const r = new Array<number>(30).fill(0);
    for (const c of s) r[c] = rng() < 0.5 ? -1 - rng() : 1 + rng(); // sign of the value is irrelevant
    return r;
  });
  return { vectors: vectorsFromDense(rows), sets };
}

function bitsOf(set: CodeSet, u: number): number {
  let c = 0;
  for (let w = 0; w < set.words; w++) c += popcount32(set.codes[u * set.words + w]);
  return c;
}

describe('rappor', () => {
  const { vectors, sets } = itemSets();
  const kappa = 40;

  it('reports eps = ldpEpsilon = xi', () => {
    expect(rappor.epsilon(3, kappa, PRIVACY)).toEqual({ epsilon: 3, ldpEpsilon: 3, fallback: false });
  });

  it('without noise is a Bloom filter of the item set (same set → same bits, subset → subset, ≤ h bits per item)', () => {
    for (const h of [1, 2, 3]) {
      const clean = asBits(rappor.encode!(ctx(vectors, kappa, 'bloom', { hashes: h }), rappor.epsilon(1e9, kappa, PRIVACY)));
      const byKey = new Map<string, number>();
      sets.forEach((s, u) => {
        const n = bitsOf(clean, u);
        expect(n).toBeGreaterThanOrEqual(1);
        expect(n).toBeLessThanOrEqual(h * s.length);
        const key = s.join(',');
        const prev = byKey.get(key);
        if (prev !== undefined) expect(Array.from(clean.codes.subarray(u * 2, u * 2 + 2))).toEqual(Array.from(clean.codes.subarray(prev * 2, prev * 2 + 2)));
        else byKey.set(key, u);
      });
      const [a, b, c] = [600, 601, 602];
      for (let w = 0; w < 2; w++) {
        expect((clean.codes[a * 2 + w] & ~clean.codes[b * 2 + w]) >>> 0).toBe(0);
        expect((clean.codes[b * 2 + w] & ~clean.codes[c * 2 + w]) >>> 0).toBe(0);
      }
    }
  });

  it('flips filter bits 0→1 and 1→0 with probability 1/(1+e^(eps/2h))', () => {
    for (const [xi, h] of [
      [2, 2],
      [6, 3],
      [0, 2],
    ]) {
      const info = rappor.epsilon(xi, kappa, PRIVACY);
      // same noise seed: the hash positions are drawn first, so the filter is the same; eps = 1e9 adds no flips
      const clean = asBits(rappor.encode!(ctx(vectors, kappa, `seed-${xi}`, { hashes: h }), rappor.epsilon(1e9, kappa, PRIVACY)));
      const noisy = asBits(rappor.encode!(ctx(vectors, kappa, `seed-${xi}`, { hashes: h }), info));
      const p = flipProbability(xi / (2 * h));
      const { up, down, zeros, ones } = transitionRates(clean, noisy);
      expect(Math.abs(up - p)).toBeLessThan(Z * binomialSe(p, zeros));
      expect(Math.abs(down - p)).toBeLessThan(Z * binomialSe(p, ones));
    }
  });
});

describe('rappor-vector (the whole vector is the one value)', () => {
  const rv = getMechanism('rappor-vector');
  const { vectors, sets } = itemSets();
  const kappa = 64;
  const noNoise = rv.epsilon(1e9, kappa, PRIVACY);

  it('without noise sets at most h bits; equal vectors get equal filters', () => {
    for (const h of [1, 2, 4]) {
      const clean = asBits(rv.encode!(ctx(vectors, kappa, 'vec', { hashes: h }), noNoise));
      for (let u = 0; u < sets.length; u++) {
        expect(bitsOf(clean, u)).toBeGreaterThanOrEqual(1);
        expect(bitsOf(clean, u)).toBeLessThanOrEqual(h);
      }
    }
    const twins = vectorsFromDense([
      [0, 1, 2, 0],
      [0, 1, 2, 0],
      [0, 1, 2.0000001, 0],
    ]);
    const c = asBits(rv.encode!(ctx(twins, kappa, 'twins', { hashes: 3 }), noNoise));
    expect(Array.from(c.codes.subarray(0, c.words))).toEqual(Array.from(c.codes.subarray(c.words, 2 * c.words)));
  });

  it('puts two nearly equal vectors at unrelated positions: agreement rate 1/m over trials', () => {
    // rows 0 and 1 differ in one tiny value; with h = 1 each filter is one bit
    const pair = vectorsFromDense([
      [0, 1, 2, 0, 3],
      [0, 1, 2.0001, 0, 3],
    ]);
    const T = 4000;
    let same = 0;
    for (let t = 0; t < T; t++) {
      const c = asBits(rv.encode!(ctx(pair, kappa, `pair-${t}`, { hashes: 1 }), noNoise));
      if (c.codes[0] === c.codes[c.words] && c.codes[1] === c.codes[c.words + 1]) same++;
    }
    const p = 1 / kappa;
    expect(Math.abs(same / T - p)).toBeLessThan(Z * binomialSe(p, T));
  });

  it('flips filter bits in both directions at 1/(1+e^(eps/2h))', () => {
    const h = 2;
    const eps = rv.epsilon(3, kappa, PRIVACY);
    const p = flipProbability(3 / (2 * h));
    const clean = asBits(rv.encode!(ctx(vectors, kappa, 'flip', { hashes: h }), noNoise));
    const noisy = asBits(rv.encode!(ctx(vectors, kappa, 'flip', { hashes: h }), eps));
    const { up, down, zeros, ones } = transitionRates(clean, noisy);
    expect(Math.abs(down - p)).toBeLessThan(Z * binomialSe(p, ones));
    expect(Math.abs(up - p)).toBeLessThan(Z * binomialSe(p, zeros));
  });
});

describe('rappor: the clean release it keeps on the way', () => {
  const { vectors } = itemSets();
  it('is its own encode at ε = ∞ on a fresh stream of the same seed (both variants, several h), and the release still flips from it', () => {
    for (const name of ['rappor', 'rappor-vector'])
      for (const h of [1, 3]) {
        const mech = getMechanism(name);
        let kept: CodeSet | undefined;
        const c = ctx(vectors, 40, `keep-${name}-${h}`, { hashes: h });
        const noisy = asBits(mech.encode!({ ...c, keepClean: (x) => (kept = asBits(x)) }, mech.epsilon(1, 40, PRIVACY)));
        const again = asBits(mech.encode!(ctx(vectors, 40, `keep-${name}-${h}`, { hashes: h }), mech.epsilon(Number.POSITIVE_INFINITY, 40, PRIVACY)));
        expect(kept).toBeDefined();
        expect(Array.from(kept!.codes)).toEqual(Array.from(again.codes));
        // the kept copy is not the released array, and at ξ = 1 the release differs from it
        expect(kept!.codes).not.toBe(noisy.codes);
        expect(Array.from(noisy.codes)).not.toEqual(Array.from(kept!.codes));
      }
  });
});

describe('rappor: who keeps a clean release', () => {
  it('the built-ins state it; a registered mechanism wrapping one (its fields spread, its release changed) does not', async () => {
    const { registerMechanism, unregisterMechanism } = await import('../../src/mechanisms/registry.js');
    const inner = getMechanism('rappor-vector');
    expect(getMechanism('rappor').keepsClean).toBe(true);
    expect(inner.keepsClean).toBe(true);
    const key = registerMechanism({
      ...inner,
      name: 'inverted-rappor',
      // a wrapper that changes the release: RAPPOR's filters are not its clean release
      encode: (ctx, eps) => {
        const set = asBits(inner.encode!(ctx, eps));
        for (let i = 0; i < set.codes.length; i++) set.codes[i] = ~set.codes[i]! >>> 0;
        return set;
      },
    });
    try {
      expect(getMechanism(key).keepsClean).toBeUndefined();
    } finally {
      unregisterMechanism(key);
    }
  });
});
