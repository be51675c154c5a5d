import { afterEach, describe, expect, it, vi } from 'vitest';
import type { UserVectors } from '../../src/data/types.js';
import { makeRng, type Rng } from '../../src/random/rng.js';
import { angularDistance, densifyRow, dotDenseRow, exactKnn } from '../../src/knn/angular.js';
import { UserError } from '../../src/util/errors.js';
import { hammingKernelName } from '../../src/kernels/instance.js';

/** Whether the WebAssembly module runs here (not under LSHDP_KERNEL=js). */
const wasmHere = hammingKernelName() === 'wasm-simd';

/** Random sparse unit rows with small-integer values (so exact ties are common), plus duplicated
 *  users and users with disjoint supports (distance exactly 0.5 to many queries). */
function randomVectors(rng: Rng, users: number, n: number, maxNnz: number, dupFraction: number): UserVectors {
  const rows: Map<number, number>[] = [];
  for (let u = 0; u < users; u++) {
    if (u > 0 && rng() < dupFraction) {
      rows.push(new Map(rows[Math.floor(rng() * u)]!));
      continue;
    }
    const row = new Map<number, number>();
    const nnz = 1 + Math.floor(rng() * maxNnz);
    while (row.size < nnz) {
      const v = [-2, -1, 1, 1, 2][Math.floor(rng() * 5)]!;
      row.set(Math.floor(rng() * n), v);
    }
    rows.push(row);
  }
  const rowPtr = new Int32Array(users + 1);
  const cols: number[] = [];
  const vals: number[] = [];
  rows.forEach((row, u) => {
    const entries = [...row.entries()].sort((a, b) => a[0] - b[0]);
    const norm = Math.sqrt(entries.reduce((s, [, v]) => s + v * v, 0));
    for (const [c, v] of entries) {
      cols.push(c);
      vals.push(v / norm);
    }
    rowPtr[u + 1] = cols.length;
  });
  return {
    dataset: 'synthetic',
    n,
    userIds: rows.map((_, u) => String(u)),
    itemIds: Array.from({ length: n }, (_, j) => String(j)),
    rowPtr,
    colIdx: Int32Array.from(cols),
    values: Float64Array.from(vals),
    dropped: 0,
  };
}

/** The definition, applied naively: dense dot over all columns, sort every other user. */
function bruteForceKnn(v: UserVectors, q: number, k: number): { idx: number[]; dist: number[] } {
  const users = v.rowPtr.length - 1;
  const dq = new Float64Array(v.n);
  const du = new Float64Array(v.n);
  densifyRow(v, q, dq);
  const all: [number, number][] = [];
  for (let u = 0; u < users; u++) {
    if (u === q) continue;
    densifyRow(v, u, du);
    let s = 0;
    for (let j = 0; j < v.n; j++) s += dq[j]! * du[j]!;
    all.push([Math.acos(Math.min(1, Math.max(-1, s))) / Math.PI, u]);
  }
  all.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return { idx: all.slice(0, k).map((x) => x[1]), dist: all.slice(0, k).map((x) => x[0]) };
}

describe('exactKnn', () => {
  // The cases mix dense-path queries (postings >= users/4: knn-a, knn-c) and sparse-path ones
  // (knn-b, knn-d, where the scan for distance-0.5 users sharing no item matters); disabling
  // either path, or that scan, was checked to make these tests fail.
  const cases = [
    { seed: 'knn-a', users: 150, n: 20, maxNnz: 6, dup: 0.1, k: 10 },
    { seed: 'knn-b', users: 200, n: 120, maxNnz: 3, dup: 0.15, k: 25 }, // sparse: many 0.5 ties
    { seed: 'knn-c', users: 120, n: 8, maxNnz: 4, dup: 0.3, k: 40 }, // dense: many exact ties
    { seed: 'knn-d', users: 60, n: 500, maxNnz: 2, dup: 0.05, k: 59 }, // k = users - 1
  ];
  for (const c of cases) {
    it(`matches a dense brute force on both kernels (${c.seed}: ${c.users} users, n=${c.n}, k=${c.k})`, () => {
      const v = randomVectors(makeRng(c.seed), c.users, c.n, c.maxNnz, c.dup);
      const queries = Int32Array.from({ length: c.users }, (_, i) => i); // every user
      const res = exactKnn(v, queries, c.k, { kernel: 'js' });
      // the WebAssembly tiles, whole and cut into tiles of 7 users or 20 entries
      if (wasmHere) {
        for (const tile of [undefined, { users: 7, nnz: 20 }]) {
          const w = exactKnn(v, queries, c.k, { kernel: 'wasm', tile });
          expect(w.indices).toEqual(res.indices);
          expect(w.distances).toEqual(res.distances);
        }
      }
      expect(res.k).toBe(c.k);
      let halfTies = 0;
      for (let t = 0; t < queries.length; t++) {
        const ref = bruteForceKnn(v, queries[t]!, c.k);
        expect(Array.from(res.indices.subarray(t * c.k, (t + 1) * c.k))).toEqual(ref.idx);
        expect(Array.from(res.distances.subarray(t * c.k, (t + 1) * c.k))).toEqual(ref.dist);
        halfTies += ref.dist.filter((d) => d === 0.5).length;
        expect(ref.idx).not.toContain(queries[t]);
      }
      // the data must really exercise the distance-0.5 path and ties
      if (c.seed !== 'knn-c') expect(halfTies).toBeGreaterThan(0);
    });
  }

  it("all: every query row of distances to every user is dotDenseRow's, bit for bit, on both paths", () => {
    for (const c of cases) {
      const v = randomVectors(makeRng(c.seed), c.users, c.n, c.maxNnz, c.dup);
      // every other user as a query, in a shuffled order (rows follow the queries)
      const queries = Int32Array.from({ length: Math.ceil(c.users / 2) }, (_, i) => (i * 37 + 5) % c.users);
      const res = exactKnn(v, queries, c.k, { all: true });
      const plain = exactKnn(v, queries, c.k);
      expect(plain.all).toBeUndefined();
      expect(Array.from(res.indices)).toEqual(Array.from(plain.indices));
      expect(res.all!.length).toBe(queries.length * c.users);
      const dense = new Float64Array(v.n);
      let halves = 0;
      for (let t = 0; t < queries.length; t++) {
        densifyRow(v, queries[t]!, dense);
        for (let u = 0; u < c.users; u++) {
          const d = dotDenseRow(dense, v, u);
          const ref = Math.acos(Math.min(1, Math.max(-1, d))) / Math.PI;
          expect(Object.is(res.all![t * c.users + u], ref), `${c.seed} query ${queries[t]} user ${u}`).toBe(true);
          if (ref === 0.5) halves++;
        }
      }
      expect(halves).toBeGreaterThan(0);
    }
  });

  it('returns duplicates of the query first (distance 0), by smaller index', () => {
    const v = randomVectors(makeRng('dup'), 30, 10, 3, 0);
    // make users 5, 17 and 22 identical to user 9
    const rowOf = (u: number) => [Array.from(v.colIdx.subarray(v.rowPtr[u], v.rowPtr[u + 1])), Array.from(v.values.subarray(v.rowPtr[u], v.rowPtr[u + 1]))] as const;
    const rows = Array.from({ length: 30 }, (_, u) => rowOf(u));
    for (const u of [5, 17, 22]) rows[u] = rows[9]!;
    const rowPtr = new Int32Array(31);
    const cols: number[] = [];
    const vals: number[] = [];
    rows.forEach(([c, x], u) => {
      cols.push(...c);
      vals.push(...x);
      rowPtr[u + 1] = cols.length;
    });
    const w: UserVectors = { ...v, rowPtr, colIdx: Int32Array.from(cols), values: Float64Array.from(vals) };
    const res = exactKnn(w, Int32Array.of(9, 17), 3);
    expect(Array.from(res.indices.subarray(0, 3))).toEqual([5, 17, 22]);
    expect(Array.from(res.indices.subarray(3, 6))).toEqual([5, 9, 22]);
    for (const d of res.distances) expect(d).toBeLessThan(1e-7);
  });

  it('angularDistance and dotDenseRow agree with the brute force bit for bit', () => {
    const v = randomVectors(makeRng('pair'), 50, 15, 5, 0.1);
    const dense = new Float64Array(v.n);
    for (let i = 0; i < 50; i += 7) {
      densifyRow(v, i, dense);
      const ref = bruteForceKnn(v, i, 49);
      ref.idx.forEach((j, r) => {
        expect(angularDistance(v, i, j)).toBe(ref.dist[r]);
        const d = dotDenseRow(dense, v, j);
        expect(Math.acos(Math.min(1, Math.max(-1, d))) / Math.PI).toBe(ref.dist[r]);
      });
    }
    // opposite and orthogonal vectors
    const two: UserVectors = { ...v, n: 2, rowPtr: Int32Array.of(0, 1, 2, 3), colIdx: Int32Array.of(0, 0, 1), values: Float64Array.of(1, -1, 1) };
    expect(angularDistance(two, 0, 1)).toBe(1);
    expect(angularDistance(two, 0, 2)).toBe(0.5);
  });

  it('rejects k larger than the other users, and bad k or query indices, with UserError', () => {
    const v = randomVectors(makeRng('small'), 5, 4, 2, 0);
    expect(() => exactKnn(v, Int32Array.of(0), 5)).toThrow(UserError);
    expect(() => exactKnn(v, Int32Array.of(0), 5)).toThrow(/needs at least 6 users/);
    expect(() => exactKnn(v, Int32Array.of(0), 0)).toThrow(UserError);
    expect(() => exactKnn(v, Int32Array.of(7), 2)).toThrow(UserError);
    expect(exactKnn(v, Int32Array.of(0), 4).indices).toHaveLength(4);
  });
});

describe('exactKnn: the WebAssembly tiles against the JS inverted index', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  /** Both answers identical: indices, and distances (and `all`) as doubles, -0 apart from +0. */
  function expectSame(a: ReturnType<typeof exactKnn>, b: ReturnType<typeof exactKnn>, what: string): void {
    expect(Array.from(a.indices), what).toEqual(Array.from(b.indices));
    expect(
      a.distances.every((d, i) => Object.is(d, b.distances[i])),
      what,
    ).toBe(true);
    expect(a.all === undefined, what).toBe(b.all === undefined);
    if (a.all)
      expect(
        a.all.every((d, i) => Object.is(d, b.all![i])),
        what,
      ).toBe(true);
  }

  // heavy ties (values ±1, ±2 over few columns), duplicated rows, users sharing no item with a
  // query (distance exactly 0.5); the queries repeat some users and come in no order
  const sets = [
    { seed: 'tiles-a', users: 900, n: 30, maxNnz: 8, dup: 0.2 },
    { seed: 'tiles-b', users: 700, n: 400, maxNnz: 5, dup: 0.3 }, // sparse: many 0.5 ties
    { seed: 'tiles-c', users: 400, n: 6, maxNnz: 4, dup: 0.4 }, // dense: every dot tied many times
  ];
  // one tile; tiles of a few users; tiles cut by entries (a user over the bound alone in its tile)
  const tiles = [undefined, { users: 5, nnz: 1000 }, { users: 64, nnz: 9 }];

  it.skipIf(!wasmHere)('give the same neighbours and distance doubles for k 1, 5, 10, with and without all, whole and in tiles', () => {
    for (const c of sets) {
      const v = randomVectors(makeRng(c.seed), c.users, c.n, c.maxNnz, c.dup);
      const rng = makeRng(`${c.seed}-queries`);
      const queries = Int32Array.from({ length: 150 }, () => Math.floor(rng() * c.users));
      for (const k of [1, 5, 10]) {
        for (const all of [false, true]) {
          const js = exactKnn(v, queries, k, { kernel: 'js', all });
          for (const tile of tiles) expectSame(exactKnn(v, queries, k, { kernel: 'wasm', all, tile }), js, `${c.seed} k ${k} all ${all} tile ${JSON.stringify(tile)}`);
        }
      }
    }
  });

  it.skipIf(!wasmHere)('agree with the naive dense loop on a set where queries have duplicates and ties at the k-th place', () => {
    const v = randomVectors(makeRng('tiles-naive'), 300, 12, 3, 0.5);
    const queries = Int32Array.from({ length: 60 }, (_, i) => (i * 53) % 300);
    for (const k of [1, 5, 10]) {
      const w = exactKnn(v, queries, k, { kernel: 'wasm', tile: { users: 16, nnz: 40 } });
      let kthTies = 0;
      for (let t = 0; t < queries.length; t++) {
        const ref = bruteForceKnn(v, queries[t]!, k + 1);
        expect(Array.from(w.indices.subarray(t * k, (t + 1) * k))).toEqual(ref.idx.slice(0, k));
        expect(Array.from(w.distances.subarray(t * k, (t + 1) * k))).toEqual(ref.dist.slice(0, k));
        if (ref.dist[k] === ref.dist[k - 1]) kthTies++;
      }
      // the k-th place is tied with the next for many queries: the smaller index must win
      expect(kthTies).toBeGreaterThan(5);
    }
  });

  it.skipIf(!wasmHere)('refuse a column out of range in a tile (the module reads without bounds checks)', () => {
    const v = randomVectors(makeRng('tiles-bad'), 40, 10, 3, 0);
    const colIdx = v.colIdx.slice();
    colIdx[colIdx.length - 1] = v.n; // the last user's last entry
    const bad = { ...v, colIdx };
    expect(() => exactKnn(bad, Int32Array.of(0, 1), 3, { kernel: 'wasm' })).toThrow(RangeError);
    expect(() => exactKnn(bad, Int32Array.of(0, 1), 3, { kernel: 'wasm', tile: { users: 4, nnz: 100 } })).toThrow(/out of range/);
  });

  it('runs the JS inverted index where the module does not (LSHDP_KERNEL=js): the same answers', async () => {
    const v = randomVectors(makeRng('tiles-env'), 300, 25, 6, 0.2);
    const queries = Int32Array.from({ length: 40 }, (_, i) => (i * 7) % 300);
    const expected = exactKnn(v, queries, 5, { all: true });
    vi.stubEnv('LSHDP_KERNEL', 'js');
    vi.resetModules();
    const fresh = await import('../../src/knn/angular.js');
    const kernel = await import('../../src/kernels/instance.js');
    expect(kernel.hammingKernelName()).toBe('js');
    expectSame(fresh.exactKnn(v, queries, 5, { all: true }), expected, 'LSHDP_KERNEL=js');
    expect(() => fresh.exactKnn(v, queries, 5, { kernel: 'wasm' })).toThrow(RangeError);
  });
});
