import { describe, expect, it } from 'vitest';
import type { UserVectors } from '../../src/data/types.js';
import { makeRng, type Rng } from '../../src/random/rng.js';
import { densifyRow, exactKnn } from '../../src/knn/angular.js';
import { DistanceSum } from '../../src/knn/distanceSum.js';
import { jaccardDistance, jaccardKnn } from '../../src/knn/jaccard.js';
import { hammingKernelName } from '../../src/kernels/kernel.js';

const wasmHere = hammingKernelName() === 'wasm-simd';

/** Sparse unit rows of small integers (ties, users sharing no item, duplicates). */
function randomVectors(rng: Rng, users: number, n: number, maxNnz: number, dup: number): UserVectors {
  const rowPtr = new Int32Array(users + 1);
  const cols: number[] = [];
  const vals: number[] = [];
  const rows: [number, number][][] = [];
  for (let u = 0; u < users; u++) {
    let entries: [number, number][];
    if (u > 0 && rng() < dup) entries = rows[Math.floor(rng() * u)]!;
    else {
      const row = new Map<number, number>();
      const nnz = 1 + Math.floor(rng() * maxNnz);
      while (row.size < nnz) row.set(Math.floor(rng() * n), [-2, -1, 1, 1, 2][Math.floor(rng() * 5)]!);
      entries = [...row.entries()].sort((a, b) => a[0] - b[0]);
    }
    rows.push(entries);
    const norm = Math.sqrt(entries.reduce((s, [, x]) => s + x * x, 0));
    for (const [c, x] of entries) {
      cols.push(c);
      vals.push(x / norm);
    }
    rowPtr[u + 1] = cols.length;
  }
  const ids = (m: number) => Array.from({ length: m }, (_, i) => String(i));
  return { dataset: 'synthetic', n, userIds: ids(users), itemIds: ids(n), rowPtr, colIdx: Int32Array.from(cols), values: Float64Array.from(vals), dropped: 0 };
}

/** Every distance from q to every other user, by a dense dot over all columns (the definition). */
function bruteDistances(v: UserVectors, q: number): number[] {
  const users = v.rowPtr.length - 1;
  const dq = new Float64Array(v.n);
  const du = new Float64Array(v.n);
  densifyRow(v, q, dq);
  const out: number[] = [];
  for (let u = 0; u < users; u++) {
    if (u === q) continue;
    densifyRow(v, u, du);
    let s = 0;
    for (let j = 0; j < v.n; j++) s += dq[j]! * du[j]!;
    out.push(Math.acos(Math.min(1, Math.max(-1, s))) / Math.PI);
  }
  return out;
}

describe('DistanceSum', () => {
  it('is the same double in any order, and within a rounding of the exact sum', () => {
    const rng = makeRng('distance-sum');
    const xs = Array.from({ length: 5000 }, () => (rng() < 0.3 ? 0.5 : rng()));
    const forward = new DistanceSum();
    for (const x of xs) forward.add(x);
    const backward = new DistanceSum();
    for (let i = xs.length - 1; i >= 0; i--) backward.add(xs[i]!);
    expect(Object.is(forward.value(), backward.value())).toBe(true);
    // the halves as one count give the same bits
    const counted = new DistanceSum();
    const halves = xs.filter((x) => x === 0.5).length;
    for (const x of xs) if (x !== 0.5) counted.add(x);
    counted.addTimes(0.5, halves);
    expect(Object.is(counted.value(), forward.value())).toBe(true);
    // against a compensated (Neumaier) sum: relative error at a double's rounding
    let s = 0;
    let c = 0;
    for (const x of xs) {
      const t = s + x;
      c += Math.abs(s) >= Math.abs(x) ? s - t + x : x - t + s;
      s = t;
    }
    expect(Math.abs(forward.value() - (s + c)) / (s + c)).toBeLessThan(4e-16);
    expect(new DistanceSum().value()).toBe(0);
  });
});

describe('ExactKnn.meanDistance: every other user, on every exact path', () => {
  // dense-path (postings >= users/4) and sparse-path data, users sharing no item (distance 0.5)
  const cases = [
    { seed: 'mean-a', users: 150, n: 20, maxNnz: 6, dup: 0.1, k: 10 },
    { seed: 'mean-b', users: 200, n: 120, maxNnz: 3, dup: 0.15, k: 25 },
    { seed: 'mean-c', users: 60, n: 500, maxNnz: 2, dup: 0.05, k: 59 },
  ];
  for (const c of cases) {
    it(`angular: brute force over all pairs, and the same bits on kernel js and wasm (${c.seed})`, () => {
      const v = randomVectors(makeRng(c.seed), c.users, c.n, c.maxNnz, c.dup);
      const queries = Int32Array.from({ length: c.users }, (_, i) => (i * 37 + 5) % c.users);
      const js = exactKnn(v, queries, c.k, { kernel: 'js', means: true });
      let halves = 0;
      queries.forEach((q, t) => {
        const ds = bruteDistances(v, q);
        halves += ds.filter((d) => d === 0.5).length;
        const naive = ds.reduce((a, b) => a + b, 0) / (c.users - 1);
        expect(js.meanDistance![t]).toBeCloseTo(naive, 13);
        const exact = new DistanceSum();
        for (const d of ds) exact.add(d);
        expect(Object.is(js.meanDistance![t], exact.value() / (c.users - 1)), `query ${q}`).toBe(true);
      });
      expect(halves).toBeGreaterThan(0);
      expect(exactKnn(v, queries, c.k, { kernel: 'js', all: true, means: true }).meanDistance).toEqual(js.meanDistance);
      // asked only where u_rand is computed; the neighbours the same either way
      const plain = exactKnn(v, queries, c.k, { kernel: 'js' });
      expect(plain.meanDistance).toBeUndefined();
      expect(plain.indices).toEqual(js.indices);
      if (wasmHere) {
        for (const tile of [undefined, { users: 7, nnz: 20 }]) {
          const w = exactKnn(v, queries, c.k, { kernel: 'wasm', tile, means: true });
          expect(w.meanDistance).toEqual(js.meanDistance);
          expect(exactKnn(v, queries, c.k, { kernel: 'wasm', tile }).meanDistance).toBeUndefined();
        }
      }
    });
  }

  it('jaccard: brute force over all pairs (users sharing no item at distance 1)', () => {
    const rng = makeRng('mean-jaccard');
    const users = 120;
    const n = 40;
    const rowPtr = new Int32Array(users + 1);
    const cols: number[] = [];
    for (let u = 0; u < users; u++) {
      const s = new Set<number>();
      const size = 1 + Math.floor(rng() * 4);
      while (s.size < size) s.add(Math.floor(rng() * n));
      cols.push(...[...s].sort((a, b) => a - b));
      rowPtr[u + 1] = cols.length;
    }
    const ids = (m: number) => Array.from({ length: m }, (_, i) => String(i));
    const data: UserVectors = { dataset: 'sets', n, userIds: ids(users), itemIds: ids(n), rowPtr, colIdx: Int32Array.from(cols), values: new Float64Array(cols.length).fill(1), dropped: 0 };
    const queries = Int32Array.from({ length: users }, (_, i) => i);
    const got = jaccardKnn(data, queries, 8);
    let ones = 0;
    for (const q of queries) {
      const ds = Array.from({ length: users }, (_, u) => u)
        .filter((u) => u !== q)
        .map((u) => jaccardDistance(data, q, u));
      ones += ds.filter((d) => d === 1).length;
      expect(got.meanDistance![q]).toBeCloseTo(ds.reduce((a, b) => a + b, 0) / (users - 1), 13);
      const exact = new DistanceSum();
      for (const d of ds) exact.add(d);
      expect(Object.is(got.meanDistance![q], exact.value() / (users - 1))).toBe(true);
    }
    expect(ones).toBeGreaterThan(0);
  });
});
