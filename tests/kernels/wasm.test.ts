import { afterEach, describe, expect, it, vi } from 'vitest';
import { hammingKnn } from '../../src/lsh/hammingKnn.js';
import { emptyCodes, popcount32 } from '../../src/lsh/codes.js';
import { KERNELS_WASM_BASE64 } from '../../src/kernels/binary.js';
import { hammingKernelName, kernelsOff } from '../../src/kernels/instance.js';
import { wasmLaplaceNoise, wasmNormals, wasmProject, wasmProjectDense } from '../../src/kernels/releases.js';
import { wasmRankCounts } from '../../src/kernels/attack.js';
import { wasmScan, type WasmSelection } from '../../src/kernels/knn.js';
import { groupCodes, queriesByGroup } from '../../src/kernels/ties.js';
import { pairsFit, pairsScan, type PairsExports } from '../../src/kernels/pairs.js';
import { instance } from '../../src/kernels/instance.js';
import { fillZigguratNormals, zigguratState, ZIGGURAT_R } from '../../src/random/ziggurat.js';
import { drawHyperplanes, projectAll } from '../../src/lsh/hyperplanes.js';
import { flipBits } from '../../src/mechanisms/flips.js';
import { makeRng } from '../../src/random/rng.js';
// @ts-expect-error: a plain .mjs build script without type declarations
import { assembleKernelsWasm } from '../../scripts/build-wasm.mjs';

function randomCodes(users: number, bits: number, seed: string) {
  const set = emptyCodes(users, bits);
  flipBits(set, 0.5, makeRng(seed));
  return set;
}

describe('WebAssembly Hamming kernel', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  it('is the committed build of src/kernels/*.wat (rebuilt byte for byte)', async () => {
    const bytes: Buffer = await assembleKernelsWasm();
    expect(bytes.equals(Buffer.from(KERNELS_WASM_BASE64, 'base64'))).toBe(true);
  });

  it('runs on this Node (WebAssembly SIMD) unless the JS kernel is forced', () => {
    if (kernelsOff()) return;
    expect(hammingKernelName()).toBe('wasm-simd');
  });

  it('equals the JS kernel on larger sets: every lane, the SIMD groups and the scalar tail', () => {
    for (const [users, bits] of [
      [2_001, 7],
      [3_333, 20],
      [1_027, 32],
      [2_049, 33],
      [3_001, 50],
      [999, 64],
    ]) {
      const set = randomCodes(users, bits, `big-${bits}`);
      const queries = Int32Array.from({ length: 40 }, (_, i) => (i * 7919) % users);
      const js = hammingKnn(set, queries, 10, 4242, { path: 'scan', kernel: 'js' });
      expect(hammingKnn(set, queries, 10, 4242, { path: 'scan', kernel: 'wasm' }), `${users} users, ${bits} bits`).toEqual(js);
      const heap = new Int32Array(queries.length * 10);
      wasmScan(set, users, queries, 10, 4242, heap, 'heap');
      expect(heap, `${users} users, ${bits} bits, heap`).toEqual(js);
    }
  });

  it('selects alike by heap, counting, groups and gathering, for every kappa 1..64, with heavy ties', () => {
    for (let bits = 1; bits <= 64; bits++) {
      const users = 203 + bits; // any remainder modulo the lane groups
      const set = randomCodes(users, bits, `select-${bits}`);
      for (let u = 150; u < 190; u++) set.codes.copyWithin(u * set.words, (u % 7) * set.words, ((u % 7) + 1) * set.words);
      const queries = Int32Array.from([0, 3, 6, 160, users - 1]);
      const k = Math.min(25, users - 1);
      const js = hammingKnn(set, queries, k, bits, { path: 'scan', kernel: 'js' });
      for (const selection of ['heap', 'count', 'groups', 'gather'] as const) {
        const out = new Int32Array(queries.length * k);
        expect(wasmScan(set, users, queries, k, bits, out, selection)).toBe(true);
        expect(out, `${bits} bits, ${selection}`).toEqual(js);
      }
    }
  });

  /** Users of `groups` distinct codes, user u in group pattern(u) (groups scattered over the users). */
  function groupedCodes(users: number, bits: number, groups: number, pattern: (u: number) => number, seed: string) {
    const base = randomCodes(groups, bits, seed);
    const set = emptyCodes(users, bits);
    for (let u = 0; u < users; u++) set.codes.set(base.codes.subarray(pattern(u) * set.words, (pattern(u) + 1) * set.words), u * set.words);
    return set;
  }

  /** Every selection of wasmScan against the JS twin, for each k. */
  function expectAllAlike(set: ReturnType<typeof emptyCodes>, users: number, queries: Int32Array, ks: number[], seed: number, label: string) {
    for (const k of ks) {
      const js = hammingKnn(set, queries, k, seed, { path: 'scan', kernel: 'js' });
      for (const selection of ['auto', 'heap', 'count', 'groups', 'gather'] as WasmSelection[]) {
        const out = new Int32Array(queries.length * k);
        expect(wasmScan(set, users, queries, k, seed, out, selection)).toBe(true);
        expect(out, `${label}, k ${k}, ${selection}`).toEqual(js);
      }
    }
  }

  it('groups users by code: every user once, equal codes together, distinct codes apart', () => {
    for (const bits of [10, 33, 64]) {
      const set = groupedCodes(500, bits, 37, (u) => (u * 7) % 37, `part-${bits}`);
      const g = groupCodes(set, 500);
      expect(g.count, `${bits} bits: 37 random codes`).toBe(37);
      expect(g.count, `${bits} bits`).toBe(new Set(Array.from({ length: 500 }, (_, u) => Array.from(set.codes.subarray(u * set.words, (u + 1) * set.words)).join())).size);
      expect([...g.users].sort((a, b) => a - b)).toEqual(Array.from({ length: 500 }, (_, u) => u));
      for (let t = 0; t < g.count; t++) {
        for (let i = g.start[t]!; i < g.start[t + 1]!; i++) {
          const u = g.users[i]!;
          expect(g.groupOf[u]).toBe(t);
          expect(Array.from(set.codes.subarray(u * set.words, (u + 1) * set.words))).toEqual(Array.from(g.codes.subarray(t * set.words, (t + 1) * set.words)));
          if (i > g.start[t]!) expect(u).toBeGreaterThan(g.users[i - 1]!);
        }
      }
    }
  });

  it('answers heavy code ties alike on every selection: all codes equal, k at a group boundary, groups straddling k, k = users - 1', () => {
    for (const bits of [1, 10, 20, 32, 33, 50, 64]) {
      // all codes equal: the tie keys alone decide, at every k up to users - 1
      const same = groupedCodes(97, bits, 1, () => 0, `same-${bits}`);
      expectAllAlike(same, 97, Int32Array.from([0, 1, 50, 96]), [1, 5, 10, 95, 96], bits, `${bits} bits, all equal`);
      // 6 groups of sizes 5, 6, 7, ... (the query's group holds 4 others): k = 4, 10 and 17 end
      // exactly at group boundaries when the groups lie at increasing distances; 3, 7 and 12 cut groups
      const sizes = [5, 6, 7, 8, 9, 10];
      const groupOf: number[] = [];
      sizes.forEach((n, t) => {
        for (let i = 0; i < n; i++) groupOf.push(t);
      });
      const users = groupOf.length;
      const perm = Array.from({ length: users }, (_, u) => (u * 11) % users); // scatter the groups
      const nested = emptyCodes(users, bits);
      for (let u = 0; u < users; u++) {
        // group t's code: the first t bits set, so group t lies at distance |t - t'| from group t'
        const t = groupOf[perm[u]!]!;
        for (let j = 0; j < Math.min(t, bits); j++) nested.codes[u * nested.words + (j >>> 5)] |= 1 << (j & 31);
      }
      const q0 = perm.findIndex((v) => groupOf[v] === 0);
      const q2 = perm.findIndex((v) => groupOf[v] === 2);
      expectAllAlike(nested, users, Int32Array.from([q0, q2]), [1, 3, 4, 7, 10, 12, 17, users - 1], bits * 3 + 1, `${bits} bits, nested groups`);
      expect(() => hammingKnn(nested, Int32Array.from([q0]), users, 1, { kernel: 'wasm' })).toThrow(/needs at least/);
    }
  });

  it('groups: the queries of one code share its distances and boundary, each keyed alone (every user, shuffled, repeated, a subset)', () => {
    for (const bits of [6, 10, 33, 64]) {
      // 400 users over 23 codes of uneven sizes (group t holds about t users): many queries a code
      const set = groupedCodes(400, bits, 23, (u) => Math.floor(Math.sqrt((u * 7919) % 529)), `share-${bits}`);
      const every = Int32Array.from({ length: 400 }, (_, i) => (i * 173) % 400); // every user, in a shuffled order
      const repeated = Int32Array.from([5, 17, 5, 399, 17, 0, 5, 233, 0]); // the same user twice, its code's others between
      const subset = Int32Array.from({ length: 60 }, (_, i) => (i * 37) % 400);
      for (const [label, queries] of [
        ['every user', every],
        ['repeated', repeated],
        ['subset', subset],
      ] as const) {
        for (const k of [1, 4, 10, 30]) {
          const js = hammingKnn(set, queries, k, 77 + bits, { path: 'scan', kernel: 'js' });
          const out = new Int32Array(queries.length * k);
          expect(wasmScan(set, 400, queries, k, 77 + bits, out, 'groups')).toBe(true);
          expect(same(out, js), `${bits} bits, ${label}, k ${k}`).toBe(true);
        }
      }
    }
  });

  it('orders the queries by the group of their user, in query order within a group', () => {
    const set = groupedCodes(50, 10, 4, (u) => u % 4, 'order');
    const groups = groupCodes(set, 50);
    const queries = Int32Array.from([7, 2, 3, 7, 0, 49, 12, 1]);
    const order = new Int32Array(queries.length);
    queriesByGroup(queries, groups, order);
    expect([...order].sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    const gs = [...order].map((qi) => groups.groupOf[queries[qi]!]!);
    expect(gs).toEqual([...gs].sort((a, b) => a - b));
    for (let i = 1; i < order.length; i++) if (gs[i] === gs[i - 1]) expect(order[i]).toBeGreaterThan(order[i - 1]!);
  });

  /** Codes near a few centres (each user a centre with `flips` random bits flipped): boundaries
   *  spread from 0 (a user's own centre's copies) to many bits. */
  function clusteredCodes(users: number, bits: number, centres: number, flips: number, seed: string) {
    const base = randomCodes(centres, bits, `${seed}-centres`);
    const set = emptyCodes(users, bits);
    const rng = makeRng(seed);
    for (let u = 0; u < users; u++) {
      const c = Math.floor(rng() * centres);
      set.codes.set(base.codes.subarray(c * set.words, (c + 1) * set.words), u * set.words);
      const f = Math.floor(rng() * (flips + 1));
      for (let i = 0; i < f; i++) {
        const b = Math.floor(rng() * bits);
        set.codes[u * set.words + (b >>> 5)] ^= 1 << (b & 31);
      }
    }
    return set;
  }

  /** Whether two answer arrays are equal (a byte compare: toEqual on large typed arrays is slow). */
  const same = (a: Int32Array, b: Int32Array) => a.length === b.length && Buffer.from(a.buffer, a.byteOffset, a.byteLength).equals(Buffer.from(b.buffer, b.byteOffset, b.byteLength));

  it('lists each pair once for every user a query: the JS twin for every kappa 1..64, k at a group boundary, lists overflowing', () => {
    const wasm = instance<PairsExports>();
    if (!wasm) return;
    for (let bits = 1; bits <= 64; bits++) {
      const users = 203 + 3 * bits; // any remainder modulo the lane groups
      const set = bits % 2 ? clusteredCodes(users, bits, 9, bits >>> 2, `pairs-${bits}`) : randomCodes(users, bits, `pairs-${bits}`);
      for (let u = 150; u < 190; u++) set.codes.copyWithin(u * set.words, (u % 7) * set.words, ((u % 7) + 1) * set.words);
      const identity = Int32Array.from({ length: users }, (_, u) => u);
      const shuffled = Int32Array.from({ length: users }, (_, u) => (u * 101) % users); // 101 is prime to every users here
      for (const k of [1, 7, 25]) {
        const js = hammingKnn(set, identity, k, bits, { path: 'scan', kernel: 'js' });
        const jsShuffled = new Int32Array(users * k);
        for (let i = 0; i < users; i++) jsShuffled.set(js.subarray(shuffled[i]! * k, (shuffled[i]! + 1) * k), i * k);
        for (const [queries, expected] of [
          [identity, js],
          [shuffled, jsShuffled],
        ] as const) {
          const out = new Int32Array(users * k);
          expect(wasmScan(set, users, queries, k, bits, out, 'pairs')).toBe(true);
          expect(same(out, expected), `${bits} bits, k ${k}`).toBe(true);
          // lists of capacity k alone overflow for most users (their full rows then scanned), and
          // capacity 2k for some: the same answers
          for (const cap of [k, 2 * k]) {
            const small = new Int32Array(users * k);
            pairsScan(wasm, set, users, queries, k, bits, small, cap);
            expect(same(small, expected), `${bits} bits, k ${k}, cap ${cap}`).toBe(true);
          }
        }
      }
    }
  });

  it('lists each pair once on heavy code ties and on larger sets (auto takes it from 512 users)', () => {
    for (const bits of [1, 10, 20, 32, 33, 50, 64]) {
      const equal = groupedCodes(97, bits, 1, () => 0, `same-${bits}`);
      const all97 = Int32Array.from({ length: 97 }, (_, u) => u);
      for (const k of [1, 10, 95, 96]) {
        const out = new Int32Array(97 * k);
        wasmScan(equal, 97, all97, k, bits, out, 'pairs');
        expect(same(out, hammingKnn(equal, all97, k, bits, { path: 'scan', kernel: 'js' })), `${bits} bits, all equal, k ${k}`).toBe(true);
      }
      const users = 1_500 + bits;
      const set = clusteredCodes(users, bits, 40, Math.max(1, bits >>> 3), `pairs-big-${bits}`);
      const all = Int32Array.from({ length: users }, (_, u) => u);
      const js = hammingKnn(set, all, 10, 77, { path: 'scan', kernel: 'js' });
      for (const selection of ['auto', 'pairs'] as WasmSelection[]) {
        const out = new Int32Array(users * 10);
        expect(wasmScan(set, users, all, 10, 77, out, selection)).toBe(true);
        expect(same(out, js), `${bits} bits, ${selection}`).toBe(true);
      }
    }
    const set = randomCodes(600, 20, 'pairs-refused');
    expect(() => wasmScan(set, 600, Int32Array.from([0, 1, 2]), 5, 1, new Int32Array(15), 'pairs')).toThrow(/every user a query/);
    // 'auto' lists pairs only while the lists fit their bound (and a user fits an entry's 24 bits)
    expect(pairsFit(3_751, 10)).toBe(true);
    expect(pairsFit(129_055, 10)).toBe(true); // 129,055 lists of 130 entries: 64 MiB
    expect(pairsFit(129_056, 10)).toBe(false);
    expect(pairsFit(1 << 24, 0)).toBe(false);
  });

  it('falls back to the JS kernel when WebAssembly is switched off (same answers)', async () => {
    const set = randomCodes(500, 40, 'fallback');
    const queries = Int32Array.from([0, 1, 499]);
    const expected = hammingKnn(set, queries, 5, 9);
    vi.stubEnv('LSHDP_HAMMING_KERNEL', 'js'); // the old name of the switch (an alias of LSHDP_KERNEL)
    vi.resetModules();
    const fresh = await import('../../src/lsh/hammingKnn.js');
    const kernel = await import('../../src/kernels/instance.js');
    expect(kernel.hammingKernelName()).toBe('js');
    expect(fresh.hammingKnn(set, queries, 5, 9)).toEqual(expected);
    expect(() => fresh.hammingKnn(set, queries, 5, 9, { path: 'scan', kernel: 'wasm' })).toThrow(RangeError);
  });

  it.each(['LSHDP_KERNEL', 'LSHDP_HAMMING_KERNEL'])('turns every kernel off with %s=js (the new name and the old one)', async (name) => {
    const set = randomCodes(300, 20, 'switch');
    const queries = Int32Array.from([0, 7, 299]);
    const expected = hammingKnn(set, queries, 4, 3);
    vi.stubEnv('LSHDP_KERNEL', '');
    vi.stubEnv('LSHDP_HAMMING_KERNEL', '');
    vi.stubEnv(name, 'js');
    vi.resetModules();
    const kernel = await import('../../src/kernels/instance.js');
    expect(kernel.kernelsOff()).toBe(true);
    expect(kernel.hammingKernelName()).toBe('js');
    // the private instances too (infer, recommend) and every wrapper: each declines
    const recommend = await import('../../src/kernels/recommend.js');
    const rows = { n: 3, rowPtr: Int32Array.of(0, 1, 2), colIdx: Int32Array.of(0, 1), values: Float64Array.of(1, 1) };
    const split = { trainPtr: Int32Array.of(0, 0, 0), trainCol: new Int32Array(0), heldPtr: Int32Array.of(0, 1, 2), heldCol: Int32Array.of(2, 2) };
    expect(recommend.wasmRecommendSums(rows, split, Int32Array.of(0), Int32Array.of(1), 1, [1], [1], Float64Array.of(1))).toBeNull();
    const releases = await import('../../src/kernels/releases.js');
    expect(releases.wasmNormals(Int32Array.of(1, 2, 3, 4), new Float64Array(4))).toBe(false);
    const fresh = await import('../../src/lsh/hammingKnn.js');
    expect(fresh.hammingKnn(set, queries, 4, 3)).toEqual(expected);
    expect(() => fresh.hammingKnn(set, queries, 4, 3, { path: 'scan', kernel: 'wasm' })).toThrow(RangeError);
  });

  it('reads the switch from either name, and nothing else turns it on', () => {
    expect(kernelsOff({ LSHDP_KERNEL: 'js' })).toBe(true);
    expect(kernelsOff({ LSHDP_HAMMING_KERNEL: 'js' })).toBe(true);
    expect(kernelsOff({})).toBe(false);
    expect(kernelsOff({ LSHDP_KERNEL: 'wasm', LSHDP_HAMMING_KERNEL: '' })).toBe(false);
  });

  it('leaves codes longer than 64 bits to the JS kernel', () => {
    const set = randomCodes(300, 65, 'long');
    const queries = Int32Array.from([3, 4]);
    expect(hammingKnn(set, queries, 6, 1)).toEqual(hammingKnn(set, queries, 6, 1, { path: 'scan', kernel: 'js' }));
    expect(() => hammingKnn(set, queries, 6, 1, { kernel: 'wasm' })).toThrow(RangeError);
  });
});

describe('WebAssembly projections', () => {
  /** A random CSR matrix (some empty rows, columns ascending, signed values). */
  function randomVectors(users: number, n: number, seed: string) {
    const rng = makeRng(seed);
    const rowPtr = new Int32Array(users + 1);
    const cols: number[] = [];
    const vals: number[] = [];
    for (let i = 0; i < users; i++) {
      const row = new Set<number>();
      const m = i % 11 === 0 ? 0 : 1 + Math.floor(rng() * 12);
      while (row.size < m) row.add(Math.floor(rng() * n));
      for (const c of [...row].sort((a, b) => a - b)) {
        cols.push(c);
        vals.push(rng() - 0.5);
      }
      rowPtr[i + 1] = cols.length;
    }
    return { dataset: 't', n, userIds: [], itemIds: [], rowPtr, colIdx: Int32Array.from(cols), values: Float64Array.from(vals), dropped: 0 };
  }
  const bytes = (a: Float64Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);

  it('gives the same doubles as the JS loop, for odd and even kappa and in chunks', () => {
    const n = 37;
    const vectors = randomVectors(203, n, 'proj');
    // kappa below, at and across the blocks of 8 columns of projectBlocks
    for (const kappa of [1, 2, 7, 8, 9, 16, 17, 20, 50, 65]) {
      const planes = drawHyperplanes(makeRng(`planes-${kappa}`), kappa, n);
      const js = projectAll(vectors, planes, kappa, { kernel: 'js' });
      expect(bytes(projectAll(vectors, planes, kappa)).equals(bytes(js)), `kappa ${kappa}`).toBe(true);
      const byColumn = new Float64Array(n * kappa);
      for (let j = 0; j < kappa; j++) for (let c = 0; c < n; c++) byColumn[c * kappa + j] = planes[j * n + c];
      const chunked = new Float64Array(203 * kappa);
      expect(wasmProject(vectors.rowPtr, vectors.colIdx, vectors.values, byColumn, kappa, chunked, 40)).toBe(true);
      expect(bytes(chunked).equals(bytes(js)), `kappa ${kappa} in chunks`).toBe(true);
    }
  });
});

describe('WebAssembly LapLSH noise products', () => {
  it('gives the same doubles as the JS loop of projectedNoise, for odd and even kappa', () => {
    const rng = makeRng('noise-products');
    for (const kappa of [1, 2, 7, 20, 33, 50]) {
      const m = 37;
      const fill = (a: Float64Array) =>
        a.forEach((_, i) => {
          a[i] = (rng() - 0.5) * 10;
        });
      const us = new Float64Array(kappa * kappa);
      const ws = new Float64Array(m * kappa);
      const scales = new Float64Array(m);
      const out = new Float64Array(m * kappa);
      for (const a of [us, ws, scales, out]) fill(a);
      const expected = out.slice();
      for (let t = 0; t < m; t++) {
        for (let a = 0; a < kappa; a++) {
          let s = 0;
          for (let b = 0; b < kappa; b++) s += us[a * kappa + b] * ws[t * kappa + b];
          expected[t * kappa + a] += scales[t] * s;
        }
      }
      const usT = new Float64Array(kappa * kappa);
      for (let a = 0; a < kappa; a++) for (let b = 0; b < kappa; b++) usT[b * kappa + a] = us[a * kappa + b];
      const start = out.slice();
      expect(wasmLaplaceNoise(usT, ws, scales, m, kappa, out)).toBe(true);
      expect(Buffer.from(out.buffer).equals(Buffer.from(expected.buffer)), `kappa ${kappa}`).toBe(true);
      // lower triangular: the sums that skip the zeros above the diagonal give the full sums' doubles
      for (let a = 0; a < kappa; a++) for (let b = a + 1; b < kappa; b++) usT[b * kappa + a] = 0;
      const lowerExpected = start.slice();
      for (let t = 0; t < m; t++) {
        for (let a = 0; a < kappa; a++) {
          let s = 0;
          for (let b = 0; b < kappa; b++) s += usT[b * kappa + a] * ws[t * kappa + b];
          lowerExpected[t * kappa + a] += scales[t] * s;
        }
      }
      const lowerOut = start.slice();
      expect(wasmLaplaceNoise(usT, ws, scales, m, kappa, lowerOut, true)).toBe(true);
      expect(Buffer.from(lowerOut.buffer).equals(Buffer.from(lowerExpected.buffer)), `lower, kappa ${kappa}`).toBe(true);
      // and the full loop over a triangular matrix agrees too (the flag only skips work)
      const fullOut = start.slice();
      wasmLaplaceNoise(usT, ws, scales, m, kappa, fullOut);
      expect(Buffer.from(fullOut.buffer).equals(Buffer.from(lowerExpected.buffer)), `full over lower, kappa ${kappa}`).toBe(true);
    }
  });

  it("projectDense: W v of dense vectors, the JS loop's doubles (κ odd and even, n above, at and below κ), into a dirty out", () => {
    const rng = makeRng('wasm-project-dense');
    for (const [kappa, n, m] of [
      [5, 9, 7],
      [10, 50, 33],
      [50, 50, 256],
      [51, 20, 3],
      [1, 1, 1],
    ]) {
      const planes = new Float64Array(kappa * n).map(() => (rng() - 0.5) * 4);
      const vs = new Float64Array(m * n).map(() => (rng() < 0.2 ? 0 : (rng() - 0.5) * 10));
      const expected = new Float64Array(m * kappa);
      for (let t = 0; t < m; t++) {
        for (let r = 0; r < kappa; r++) {
          let s = 0;
          for (let c = 0; c < n; c++) s += planes[r * n + c] * vs[t * n + c];
          expected[t * kappa + r] = s;
        }
      }
      const planesT = new Float64Array(n * kappa);
      for (let r = 0; r < kappa; r++) for (let c = 0; c < n; c++) planesT[c * kappa + r] = planes[r * n + c];
      const out = new Float64Array(m * kappa).fill(Number.NaN);
      expect(wasmProjectDense(planesT, vs, m, kappa, n, out)).toBe(true);
      expect(Buffer.from(out.buffer).equals(Buffer.from(expected.buffer)), `kappa ${kappa}, n ${n}`).toBe(true);
    }
  });

  it("normals: the JS twin's doubles and final state, through the fast path, the wedges and the tail", () => {
    const js = zigguratState(makeRng('wasm-normals'));
    const wasm = js.slice();
    for (const count of [1, 7, 300_000, 50]) {
      const a = new Float64Array(count);
      const b = new Float64Array(count);
      fillZigguratNormals(js, a);
      expect(wasmNormals(wasm, b)).toBe(true);
      expect(Buffer.from(b.buffer).equals(Buffer.from(a.buffer)), `count ${count}`).toBe(true);
      expect(Array.from(wasm), `state after ${count}`).toEqual(Array.from(js));
      // 300,000 draws reach the tail (rate 5.8e-4) and the wedges (about 1.2%)
      if (count === 300_000) expect(a.filter((x) => Math.abs(x) > ZIGGURAT_R).length).toBeGreaterThan(100);
    }
  });
});

describe('rankCount (the linkage attack)', () => {
  it('counts a and t as a brute force does (SIMD blocks, the scalar tail, ties), and stops only once a reaches the stop', () => {
    const rng = makeRng('wasm-rank');
    for (const bits of [3, 10, 32, 33, 50, 64]) {
      const words = Math.ceil(bits / 32);
      const mask = (w: number) => (w === words - 1 && bits % 32 !== 0 ? 2 ** (bits % 32) - 1 : 4294967295);
      for (const users of [1, 15, 16, 17, 63, 64, 65, 257, 601]) {
        const set = emptyCodes(users, bits);
        // few distinct codes (many ties and equal codes) for small bits, near-random ones above
        for (let i = 0; i < users * words; i++) set.codes[i] = Math.floor(rng() * 4294967296) & mask(i % words);
        const np = 40;
        const probes = emptyCodes(np, bits);
        const targets = Int32Array.from({ length: np }, () => Math.floor(rng() * users));
        for (let r = 0; r < np; r++) {
          for (let w = 0; w < words; w++) {
            const own = set.codes[targets[r]! * words + w]!;
            // most probes a bit or two from their target's code (a small), the others random (a large)
            probes.codes[r * words + w] = (r % 4 !== 0 ? own ^ (rng() < 0.5 ? 1 << Math.floor(rng() * Math.min(32, bits)) : 0) : Math.floor(rng() * 4294967296)) & mask(w);
          }
        }
        const rows = Int32Array.from({ length: np }, (_, r) => r);
        const exact = new Int32Array(2 * np);
        const stopped = new Int32Array(2 * np);
        expect(wasmRankCounts(set, probes, rows, targets, Infinity, exact)).toBe(true);
        expect(wasmRankCounts(set, probes, rows, targets, 10, stopped)).toBe(true);
        for (let r = 0; r < np; r++) {
          let d0 = 0;
          for (let w = 0; w < words; w++) d0 += popcount32(set.codes[targets[r]! * words + w]! ^ probes.codes[r * words + w]!);
          let a = 0;
          let t = 0;
          for (let v = 0; v < users; v++) {
            let d = 0;
            for (let w = 0; w < words; w++) d += popcount32(set.codes[v * words + w]! ^ probes.codes[r * words + w]!);
            if (d < d0) a++;
            else if (d === d0) t++;
          }
          expect([exact[2 * r], exact[2 * r + 1]]).toEqual([a, t]);
          if (a < 10) expect([stopped[2 * r], stopped[2 * r + 1]]).toEqual([a, t]);
          else expect(stopped[2 * r]).toBeGreaterThanOrEqual(10);
        }
      }
    }
  });
});
