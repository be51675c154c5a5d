/**
 * The inference kernels. The nearest auxiliary users as a set (wasmNearestOf with asSet, knn.wat
 * knnSet) against the ranked search (knnCount): the same users for every probe, with many ties at
 * the boundary (few bits), codes of one and two words, k from 1 to m - 1, and for some probes alone. The metrics
 * (src/kernels/infer.ts wasmInferRanks, infer.wat inferRank and inferRank4) against the JavaScript metrics (src/evaluations/infer/ranking.ts targetMetrics,
 * itself checked against the pairwise definitions in tests/evaluations/infer/inference.test.ts):
 * the same doubles for every target, over item counts on both sides of a 64-bit word, neighbour
 * lists of 1 to 40 (one to six vote planes; the four-plane path up to 15), targets holding no item
 * or every item, and two views used in turn (the kernel keeps one view's data in its memory). The
 * values a cell keeps for codes met before: the means of a fresh computation.
 */
import { describe, expect, it } from 'vitest';
import { queryKeyBase, tieKey } from '../../src/lsh/tieKey.js';
import { hammingKernelName } from '../../src/kernels/instance.js';
import { INFER_MAX_TAKE, wasmInferRanks } from '../../src/kernels/infer.js';
import { wasmNearestOf } from '../../src/kernels/knn.js';
import { auxView, kernelData, PREC_AT, rankScratch, targetMetrics } from '../../src/evaluations/infer/ranking.js';
import { inferGroups, inferMeans, inferPermutation, popularity, priorOrder } from '../../src/evaluations/infer/inference.js';
import type { ItemSets } from '../../src/data/types.js';
import { makeRng } from '../../src/random/rng.js';

/** Random item sets of `users` users over n items, each item held with its own rate (a popularity skew); user 0 holds none, user 1 every item. */
function randomSets(users: number, n: number, seed: string): ItemSets {
  const rng = makeRng(seed);
  const rate = Array.from({ length: n }, () => rng() ** 2);
  const rowPtr = new Int32Array(users + 1);
  const cols: number[] = [];
  for (let u = 0; u < users; u++) {
    for (let c = 0; c < n; c++) if (u === 1 || (u > 1 && rng() < rate[c]!)) cols.push(c);
    rowPtr[u + 1] = cols.length;
  }
  return { rowPtr, colIdx: Int32Array.from(cols), n };
}

/** A view of the even users as the auxiliary group, user 0 and the odd ones as targets, with random distinct neighbours. */
function caseOf(n: number, take: number, seed: string) {
  const users = 2 * Math.max(take, 8) + 20;
  const sets = randomSets(users, n, seed);
  const aux = Int32Array.from({ length: users / 2 }, (_, i) => 2 * i);
  const targets = Int32Array.from({ length: users / 2 }, (_, i) => (i === 0 ? 0 : 2 * i - 1));
  const view = auxView(sets, priorOrder(popularity(sets, aux)), targets);
  const rng = makeRng(`${seed}-nb`);
  const nearest = new Int32Array(targets.length * take);
  for (let i = 0; i < targets.length; i++) {
    const order = Array.from(aux.keys()).sort(() => rng() - 0.5);
    nearest.set(order.slice(0, take), i * take);
  }
  return { sets, aux, targets, view, nearest };
}

/** targetMetrics of every target, as the kernel lays them out (NaN, NaN for a skipped target). */
function jsRanks(c: ReturnType<typeof caseOf>, take: number): Float64Array {
  const out = new Float64Array(2 * c.targets.length);
  const s = rankScratch(c.sets.n, take);
  const voters = new Int32Array(take);
  c.targets.forEach((t, i) => {
    for (let q = 0; q < take; q++) voters[q] = c.aux[c.nearest[i * take + q]!]!;
    const m = targetMetrics(s, c.sets, c.view, t, i, voters, take);
    out[2 * i] = m ? m.auc : Number.NaN;
    out[2 * i + 1] = m ? m.prec10 : Number.NaN;
  });
  return out;
}

describe.skipIf(hammingKernelName() === 'js')('the inference kernel', () => {
  it('finds each probe the same k users as a set as the ranked search does', () => {
    const rng = makeRng('near-set');
    let probesChecked = 0;
    for (const bits of [3, 10, 32, 40, 64])
      for (const m of [11, 16, 17, 40, 305]) {
        const words = Math.ceil(bits / 32);
        const word = (w: number) => {
          const rest = bits - 32 * w;
          const x = Math.floor(rng() * 0x100000000) >>> 0;
          return rest >= 32 ? x : x & ((1 << rest) - 1);
        };
        const candidates = Uint32Array.from({ length: m * words }, (_, i) => word(i % words));
        const np = 23;
        const probes = Uint32Array.from({ length: np * words }, (_, i) => word(i % words));
        for (const k of [1, 5, 10, m - 1]) {
          if (k >= m) continue;
          const ranked = new Int32Array(np * k);
          const asSet = new Int32Array(np * k);
          expect(wasmNearestOf(candidates, m, probes, bits, k, 77, ranked)).toBe(true);
          expect(wasmNearestOf(candidates, m, probes, bits, k, 77, asSet, true)).toBe(true);
          for (let i = 0; i < np; i++) {
            const a = Array.from(ranked.subarray(i * k, (i + 1) * k)).sort((x, y) => x - y);
            const b = Array.from(asSet.subarray(i * k, (i + 1) * k)).sort((x, y) => x - y);
            expect(b).toEqual(a);
            probesChecked++;
          }
          // some probes alone keep their places (m + i), so their ties break as in the whole search
          const only = Int32Array.from({ length: np }, (_, i) => i).filter((i) => i % 3 !== 1);
          const part = new Int32Array(only.length * k);
          expect(wasmNearestOf(candidates, m, probes, bits, k, 77, part, true, only)).toBe(true);
          only.forEach((i, j) => {
            expect(Array.from(part.subarray(j * k, (j + 1) * k))).toEqual(Array.from(asSet.subarray(i * k, (i + 1) * k)));
          });
        }
      }
    expect(probesChecked).toBeGreaterThan(1500);
  });

  it('a tied user whose key is 0xFFFFFFFF (the pad of the kernel’s minima) is the last of its ties, as in the ranked search', () => {
    // a seed that gives candidate u of the query at place m the key 0xFFFFFFFF (fmix32 inverted)
    const inverse = (a: number) => {
      let x = a;
      for (let i = 0; i < 5; i++) x = Math.imul(x, 2 - Math.imul(a, x));
      return x >>> 0;
    };
    const unfmix = (h: number) => {
      h ^= h >>> 16;
      h = Math.imul(h, inverse(0xc2b2ae35));
      h ^= (h >>> 13) ^ (h >>> 26);
      h = Math.imul(h, inverse(0x85ebca6b));
      h ^= h >>> 16;
      return h >>> 0;
    };
    const m = 40;
    const u = 20;
    const base = (unfmix(0xffffffff) ^ Math.imul(u + 1, 0x85ebca77)) >>> 0;
    const seed = (unfmix(base) ^ Math.imul(m + 1, 0x9e3779b1)) >>> 0;
    expect(tieKey(queryKeyBase(seed, m), u)).toBe(0xffffffff);
    // 6 users at distance 1, 4 at distance 2 (u among them), the rest at 5: k = 8 and 9 take two and
    // three of the four at distance 2 by their keys, never u; k = 10 takes all ten (no tie to break)
    const code = (d: number) => (1 << d) - 1;
    const candidates = Uint32Array.from({ length: m }, (_, g) => (g < 6 ? code(1) : g === 17 || g === 18 || g === 19 || g === u ? code(2) : code(5)));
    for (const k of [8, 9, 10]) {
      const asSet = new Int32Array(k);
      const ranked = new Int32Array(k);
      expect(wasmNearestOf(candidates, m, Uint32Array.of(0), 10, k, seed | 0, asSet, true)).toBe(true);
      expect(wasmNearestOf(candidates, m, Uint32Array.of(0), 10, k, seed | 0, ranked)).toBe(true);
      expect(Array.from(asSet).sort((a, b) => a - b)).toEqual(Array.from(ranked).sort((a, b) => a - b));
      expect(asSet.includes(u)).toBe(k === 10);
    }
  });

  it('gives targetMetrics’ doubles for every target (n across word boundaries, 1 to 40 neighbours)', () => {
    let compared = 0;
    for (const n of [1, 7, 63, 64, 65, 130, 700])
      for (const take of [1, 2, 3, 7, 8, 15, 16, 40]) {
        const c = caseOf(n, take, `rank-${n}-${take}`);
        const got = new Float64Array(2 * c.targets.length);
        expect(wasmInferRanks(kernelData(c.sets, c.view, c.aux, c.targets), c.nearest, take, PREC_AT, got)).toBe(true);
        const want = jsRanks(c, take);
        expect(Array.from(got)).toEqual(Array.from(want));
        compared += want.filter((x) => !Number.isNaN(x)).length / 2;
        // user 0 (no item) is skipped; the target holding every item is skipped too
        expect([got[0], got[1], got[2], got[3]].every(Number.isNaN)).toBe(true);
      }
    expect(compared).toBeGreaterThan(1000);
  });

  it('keeps the right view when two are used in turn, and declines more than INFER_MAX_TAKE neighbours', () => {
    const a = caseOf(200, 10, 'turn-a');
    const b = caseOf(90, 10, 'turn-b');
    const da = kernelData(a.sets, a.view, a.aux, a.targets);
    const db = kernelData(b.sets, b.view, b.aux, b.targets);
    for (let round = 0; round < 2; round++)
      for (const [c, d] of [
        [a, da],
        [b, db],
      ] as const) {
        const got = new Float64Array(2 * c.targets.length);
        wasmInferRanks(d, c.nearest, 10, PREC_AT, got);
        expect(Array.from(got)).toEqual(Array.from(jsRanks(c, 10)));
      }
    expect(wasmInferRanks(da, new Int32Array(a.targets.length * (INFER_MAX_TAKE + 1)), INFER_MAX_TAKE + 1, PREC_AT, new Float64Array(2 * a.targets.length))).toBe(false);
  });
});

describe.skipIf(hammingKernelName() === 'js')('the inference of a cell with codes met before', () => {
  it('gives the means of a fresh computation for releases sharing some targets’ codes (values kept per cell; codes of one and two words)', () => {
    const rng = makeRng('kept-ranks');
    const sets = randomSets(120, 90, 'kept-ranks-sets');
    const perm = inferPermutation(120, 3, 'x', 90, 0);
    const { aux, targets } = inferGroups(perm, 0.5, 1000, { runSeed: 3, dataset: 'x', n: 90, trial: 0 });
    const prior = priorOrder(popularity(sets, aux));
    for (const bits of [8, 40]) {
      const view = auxView(sets, prior, targets);
      const words = Math.ceil(bits / 32);
      // few distinct values per word: ties at the boundary, and codes that repeat
      const row = () => Array.from({ length: words }, (_, w) => Math.floor(rng() * (w === 0 ? 256 : 1 << (bits - 32))));
      const codesOf = (rows: number[][]) => ({ codes: Uint32Array.from(rows.flat()), bits, words });
      const clean = codesOf(Array.from({ length: 120 }, row));
      // releases that agree with the first on about half of the rows (and with each other more)
      const first = Array.from({ length: 120 }, row);
      const releases = [first, ...[0.5, 0.8, 1].map((keep) => first.map((c) => (rng() < keep ? c : row())))];
      let shared = 0;
      for (const [r, rel] of releases.entries()) {
        const released = codesOf(rel);
        const kept = inferMeans({ sets, released, clean, aux, targets, k: 5, tieSeed: 11, view });
        // a copy of the clean codes and a new view: nothing kept for them, every target ranked afresh
        const fresh = inferMeans({ sets, released, clean: { ...clean, codes: clean.codes.slice() }, aux, targets, k: 5, tieSeed: 11, view: auxView(sets, prior, targets) });
        expect(kept).toEqual(fresh);
        if (r > 0) shared += targets.filter((t) => rel[t] === first[t]).length;
      }
      expect(shared).toBeGreaterThan(targets.length);
    }
  });
});
