import { describe, expect, it } from 'vitest';
import type { UserVectors } from '../../../src/data/types.js';
import { attackMeans, attackTargets, partialProfiles, rankCounts, reidOf, subsetSeed, subsetSize, type AttackValue } from '../../../src/evaluations/attack/linkage.js';
import { runTrialCell, type TrialCellSpec, type TrialResult } from '../../../src/experiment/trial.js';
import { getFamily } from '../../../src/lsh/families/index.js';
import { emptyCodes, type CodeSet } from '../../../src/lsh/codes.js';
import { packSymbols, type RealSet, type SymbolSet } from '../../../src/lsh/releases.js';
import { deriveSeed, makeRng } from '../../../src/random/rng.js';
import { clusteredVectors } from '../../lsh/synthetic.js';
import type { ExactKnn } from '../../../src/knn/angular.js';

/** Codes from plain numbers (one word per code, or [lo, hi] pairs). */
function codesOf(rows: number[][], bits: number): CodeSet {
  const set = emptyCodes(rows.length, bits);
  rows.forEach((r, i) => {
    r.forEach((w, j) => {
      set.codes[i * set.words + j] = w >>> 0;
    });
  });
  return set;
}

/** Brute force: every distance, then a and t, with no early stop and no shared code. */
function bruteCounts(released: CodeSet, probe: CodeSet, row: number, target: number): { a: number; t: number } {
  const dist = (u: number) => {
    let d = 0;
    for (let b = 0; b < released.bits; b++) {
      const x = (released.codes[u * released.words + (b >> 5)]! >>> (b & 31)) & 1;
      const y = (probe.codes[row * probe.words + (b >> 5)]! >>> (b & 31)) & 1;
      d += x ^ y;
    }
    return d;
  };
  const users = released.codes.length / released.words;
  const d0 = dist(target);
  let a = 0;
  let t = 0;
  for (let u = 0; u < users; u++) {
    const d = dist(u);
    if (d < d0) a++;
    else if (d === d0) t++;
  }
  return { a, t };
}

describe('the subset rule', () => {
  it('knows floor(known * m + 1/2) entries, at least 1 and at most m', () => {
    expect(subsetSize(1, 0.25)).toBe(1); // floor(0.75) = 0 -> at least 1
    expect(subsetSize(4, 0.25)).toBe(1); // floor(1.5)
    expect(subsetSize(5, 0.5)).toBe(3); // floor(3.0): a half rounds up
    expect(subsetSize(7, 0.25)).toBe(2); // floor(2.25)
    expect(subsetSize(6, 0.75)).toBe(5); // floor(5.0)
    expect(subsetSize(9, 1)).toBe(9);
    expect(subsetSize(3, 0.1)).toBe(1);
  });

  const vectors: UserVectors = {
    n: 8,
    rowPtr: Int32Array.from([0, 6, 9]),
    colIdx: Int32Array.from([0, 1, 2, 4, 5, 7, 1, 3, 6]),
    values: Float64Array.from([0.5, -0.25, 0, 0.75, 0.125, -0.5, 0.6, 0, -0.8]),
    userIds: ['u1', 'u2'],
    itemIds: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'],
  } as unknown as UserVectors;

  it('draws a subset of the non-zero entries with their values, from (run seed, data set, n, trial, known, user) only', () => {
    const seedOf = (known: number) => (user: string) => subsetSeed(1, 'ds', 8, 0, known, user);
    const p = partialProfiles(vectors, Int32Array.from([0, 1]), 0.5, seedOf(0.5));
    // user u1: 5 non-zero entries (column 2 holds 0) -> 3 known; u2: 2 non-zero -> 1
    expect(Array.from(p.rowPtr)).toEqual([0, 3, 4]);
    for (let p0 = 0; p0 < 4; p0++) {
      const c = p.colIdx[p0]!;
      const row = p0 < 3 ? 0 : 1;
      const at = vectors.colIdx.subarray(vectors.rowPtr[row]!, vectors.rowPtr[row + 1]!).indexOf(c);
      expect(at).toBeGreaterThanOrEqual(0);
      expect(p.values[p0]).toBe(vectors.values[vectors.rowPtr[row]! + at]);
      expect(p.values[p0]).not.toBe(0);
    }
    expect(p.colIdx[0]! < p.colIdx[1]! && p.colIdx[1]! < p.colIdx[2]!).toBe(true);
    // the same seeds give the same subsets (no κ, mechanism or ξ enters them)
    expect(partialProfiles(vectors, Int32Array.from([0, 1]), 0.5, seedOf(0.5))).toEqual(p);
    // pinned: the subsets of this seed (a change to the draw shows here)
    expect(Array.from(p.colIdx)).toEqual(PINNED_COLUMNS);
  });

  it('chooses every non-zero entry with probability s/m (Monte Carlo over users, 5 SE)', () => {
    // 4000 copies of u1 under different user ids: each of its 5 non-zero entries is known with probability 3/5
    const copies = 4000;
    const row = [0, 1, 4, 5, 7];
    const many = {
      n: 8,
      rowPtr: Int32Array.from({ length: copies + 1 }, (_, i) => 5 * i),
      colIdx: Int32Array.from({ length: 5 * copies }, (_, i) => row[i % 5]!),
      values: Float64Array.from({ length: 5 * copies }, (_, i) => 0.1 + (i % 5)),
      userIds: Array.from({ length: copies }, (_, i) => `u${i}`),
      itemIds: vectors.itemIds,
    } as unknown as UserVectors;
    const p = partialProfiles(
      many,
      Int32Array.from({ length: copies }, (_, i) => i),
      0.5,
      (u) => subsetSeed(3, 'mc', 8, 1, 0.5, u),
    );
    const se = Math.sqrt((0.6 * 0.4) / copies);
    for (const c of row) {
      const share = Array.from(p.colIdx).filter((x) => x === c).length / copies;
      expect(Math.abs(share - 0.6)).toBeLessThan(5 * se);
    }
    // and both ways: an entry known in one draw is unknown in another
    expect(new Set(Array.from({ length: 20 }, (_, u) => Array.from(p.colIdx.subarray(p.rowPtr[u]!, p.rowPtr[u + 1]!)).join())).size).toBeGreaterThan(3);
  });
});

const PINNED_COLUMNS = [0, 4, 7, 6];

describe('reid@1 and reid@10', () => {
  it('are the expectations under uniform tie-breaking', () => {
    expect(reidOf(0, 1)).toEqual([1, 1]);
    expect(reidOf(0, 4)).toEqual([0.25, 1]);
    expect(reidOf(0, 20)).toEqual([0.05, 0.5]);
    expect(reidOf(3, 2)).toEqual([0, 1]);
    expect(reidOf(8, 4)).toEqual([0, 0.5]);
    expect(reidOf(9, 3)).toEqual([0, 1 / 3]);
    expect(reidOf(10, 1)).toEqual([0, 0]);
    expect(reidOf(12, 0)).toEqual([0, 0]);
  });

  it('on a release built by hand (ties included)', () => {
    // 4-bit codes of 5 users; the probes of targets 0, 2 and 4
    const released = codesOf([[0b0000], [0b0001], [0b0011], [0b0001], [0b1111]], 4);
    const probes = codesOf([[0b0001], [0b0011], [0b0000]], 4);
    // target 0 (code 0000) vs probe 0001: distances 1,0,1,0,3 -> a = 2 (users 1, 3), t = 2 (users 0, 2)
    expect(rankCounts(released, probes, 0, 0, Infinity)).toEqual({ a: 2, t: 2 });
    // target 2 (0011) vs probe 0011: distances 2,1,0,1,2 -> a = 0, t = 1
    expect(rankCounts(released, probes, 1, 2, Infinity)).toEqual({ a: 0, t: 1 });
    // target 4 (1111) vs probe 0000: distances 0,1,2,1,4 -> a = 4, t = 1
    expect(rankCounts(released, probes, 2, 4, Infinity)).toEqual({ a: 4, t: 1 });
    const m = attackMeans(released, probes, Int32Array.from([0, 2, 4]));
    expect(m.reid1).toBeCloseTo((0 + 1 + 0) / 3, 15);
    expect(m.reid10).toBeCloseTo((1 + 1 + 1) / 3, 15);
  });

  it('counts as a brute force does, for 1-, 2- and 3-word codes (many ties)', () => {
    const rng = makeRng('attack-brute');
    for (const bits of [6, 40, 70]) {
      const users = 300;
      const words = Math.ceil(bits / 32);
      const released = emptyCodes(users, bits);
      const probes = emptyCodes(users, bits);
      for (let i = 0; i < users * words; i++) {
        const w = i % words;
        const mask = w === words - 1 && bits % 32 !== 0 ? 2 ** (bits % 32) - 1 : 4294967295;
        // few distinct values per word: many equal distances
        released.codes[i] = (Math.floor(rng() * 4) * 0x11111111) & mask;
        probes.codes[i] = (Math.floor(rng() * 4) * 0x11111111) & mask;
      }
      for (let r = 0; r < users; r++) {
        const target = Math.floor(rng() * users);
        const brute = bruteCounts(released, probes, r, target);
        expect(rankCounts(released, probes, r, target, Infinity)).toEqual(brute);
        const early = rankCounts(released, probes, r, target);
        expect(reidOf(early.a, early.t)).toEqual(reidOf(brute.a, brute.t));
      }
    }
  });
});

describe('the ranking over many codes (the WebAssembly count, and the JavaScript scan without it)', () => {
  it('gives the means of the brute force, with and without the kernel', () => {
    const rng = makeRng('attack-many');
    for (const bits of [20, 50, 70]) {
      const users = 5000;
      const words = Math.ceil(bits / 32);
      const released = emptyCodes(users, bits);
      const probes = emptyCodes(120, bits);
      const mask = (w: number) => (w === words - 1 && bits % 32 !== 0 ? 2 ** (bits % 32) - 1 : 4294967295);
      for (let i = 0; i < users * words; i++) released.codes[i] = Math.floor(rng() * 4294967296) & mask(i % words);
      const targets = Int32Array.from({ length: 120 }, () => Math.floor(rng() * users));
      // half the probes a few bits from their target's code (found), half random (not found)
      for (let r = 0; r < 120; r++) {
        for (let w = 0; w < words; w++) {
          const own = released.codes[targets[r]! * words + w]!;
          probes.codes[r * words + w] = (r % 2 === 0 ? own ^ (rng() < 0.5 ? 1 << Math.floor(rng() * Math.min(32, bits)) : 0) : Math.floor(rng() * 4294967296)) & mask(w);
        }
      }
      let s1 = 0;
      let s10 = 0;
      for (let r = 0; r < 120; r++) {
        const b = bruteCounts(released, probes, r, targets[r]!);
        const [x, y] = reidOf(b.a, b.t);
        s1 += x;
        s10 += y;
      }
      const want = { reid1: s1 / 120, reid10: s10 / 120 };
      expect(want.reid1).toBeGreaterThan(0.3);
      const got = attackMeans(released, probes, targets);
      const js = attackMeans(released, probes, targets, { kernel: 'js' });
      expect(got.reid1).toBeCloseTo(want.reid1, 12);
      expect(got.reid10).toBeCloseTo(want.reid10, 12);
      expect(js).toEqual(got);
    }
  });
});

describe('the ranking over releases of symbols and reals', () => {
  it("gives the means of a brute force in the release's own distance (many ties), and of the bits for a two-letter alphabet", () => {
    const rng = makeRng('attack-kinds');
    const users = 400;
    const targets = Int32Array.from({ length: 60 }, () => Math.floor(rng() * users));
    // reals of few distinct values (ties), probes half near their target's row, half anywhere
    const dims = 4;
    const released: RealSet = { kind: 'reals', dims, values: Float64Array.from({ length: users * dims }, () => Math.floor(rng() * 3)) };
    const probes: RealSet = { kind: 'reals', dims, values: new Float64Array(60 * dims) };
    targets.forEach((t, r) => {
      for (let j = 0; j < dims; j++) probes.values[r * dims + j] = r % 2 === 0 ? released.values[t * dims + j]! + (j === 0 ? 1 : 0) : Math.floor(rng() * 3);
    });
    const dist = (r: number, u: number) => {
      let d = 0;
      for (let j = 0; j < dims; j++) d += (released.values[u * dims + j]! - probes.values[r * dims + j]!) ** 2;
      return d;
    };
    let s1 = 0;
    let s10 = 0;
    targets.forEach((t, r) => {
      const d0 = dist(r, t);
      let a = 0;
      let tied = 0;
      for (let u = 0; u < users; u++) {
        if (dist(r, u) < d0) a++;
        else if (dist(r, u) === d0) tied++;
      }
      const [x, y] = reidOf(a, tied);
      s1 += x;
      s10 += y;
    });
    const got = attackMeans(released, probes, targets);
    expect(got.reid10).toBeGreaterThan(0.05);
    expect(got.reid1).toBeCloseTo(s1 / 60, 12);
    expect(got.reid10).toBeCloseTo(s10 / 60, 12);
    // symbols of two letters are packed as bits: the same means as the bit path's
    const letters = Uint8Array.from({ length: users * 12 }, () => (rng() < 0.5 ? 1 : 0));
    const probeLetters = Uint8Array.from({ length: 60 * 12 }, (_, i) => (i % 24 < 12 ? letters[targets[Math.floor(i / 12)]! * 12 + (i % 12)]! : rng() < 0.5 ? 1 : 0));
    const sym = packSymbols(letters, users, 12, 2);
    const symProbes = packSymbols(probeLetters, 60, 12, 2);
    const asBits = (s: SymbolSet): CodeSet => ({ codes: s.packed, bits: 12, words: s.words });
    expect(attackMeans(sym, symProbes, targets)).toEqual(attackMeans(asBits(sym), asBits(symProbes), targets));
    expect(() => attackMeans(sym, probes, targets)).toThrow(/released 12 symbols of 2, the probes are 4 reals/);
  });
});

describe('targets', () => {
  it('are every user up to the limit, else a seeded sample of the limit, ascending', () => {
    expect(Array.from(attackTargets(5, 5, 1, 'd', 10, 0))).toEqual([0, 1, 2, 3, 4]);
    const s = attackTargets(100, 10, 1, 'd', 10, 0);
    expect(s).toHaveLength(10);
    expect(new Set(s).size).toBe(10);
    expect(Array.from(s)).toEqual([...s].sort((a, b) => a - b));
    expect(attackTargets(100, 10, 1, 'd', 10, 0)).toEqual(s);
    expect(attackTargets(100, 10, 1, 'd', 10, 1)).not.toEqual(s);
  });
});

/** Small synthetic vectors (centred, unit rows) for trial cells. */
function smallVectors(n: number, users: number, seed: string): UserVectors {
  return clusteredVectors({ users, n, clusters: 6, seed });
}

function trialSpec(results: TrialCellSpec['results'], kappa: number, trial: number): TrialCellSpec {
  return { dataset: 'd', n: 0, kappa, trial, results, privacy: { d: 0.1, delta: 0.01 }, runSeed: 5 };
}

/** A result's attack values (its `attack` evaluation's value). */
const attackOf = (r: TrialResult) => r.values.attack as AttackValue[];

const NO_TRUTH = { indices: new Int32Array(0), distances: new Float64Array(0), k: 0 } as unknown as ExactKnn;

describe('the attack in a trial cell', () => {
  it('on clean LSH with known = 1 gives reid@1 = 1/(users sharing the target code)', () => {
    const vectors = smallVectors(30, 200, 'clean');
    const kappa = 4; // 16 codes for 200 users: many shared
    const spec = { ...trialSpec([{ id: 'lsh', base: 'lsh', options: {}, xi: null, ks: [], asks: { attack: { known: [1], targets: 100000 } } }], kappa, 0), n: vectors.n };
    const [r] = runTrialCell(vectors, new Int32Array(0), NO_TRUTH, spec);
    const codes = getFamily('angular').hash(vectors, kappa, deriveSeed(5, 'planes', 'd', vectors.n, kappa, 0)).codes;
    const count = new Map<number, number>();
    for (const c of codes.codes) count.set(c, (count.get(c) ?? 0) + 1);
    const expected = Array.from(codes.codes).reduce((s, c) => s + 1 / count.get(c)!, 0) / 200;
    const expected10 = Array.from(codes.codes).reduce((s, c) => s + Math.min(1, 10 / count.get(c)!), 0) / 200;
    expect(attackOf(r!)).toHaveLength(1);
    expect(attackOf(r!)[0]!.reid1).toBeCloseTo(expected, 12);
    expect(attackOf(r!)[0]!.reid10).toBeCloseTo(expected10, 12);
    expect(attackOf(r!)[0]).toMatchObject({ known: 1, users: 200, targets: 200 });
    expect(Object.keys(r!.values)).toEqual(['attack']);
  });

  it('at xi = 0 is at chance: 1/N and 10/N within 3 SE over trials', () => {
    const vectors = smallVectors(30, 150, 'chance');
    const n = vectors.n;
    const trials = 12;
    const r1: number[] = [];
    const r10: number[] = [];
    for (let t = 0; t < trials; t++) {
      const spec = { ...trialSpec([{ id: 'rr', base: 'lshrr', options: {}, xi: 0, ks: [], asks: { attack: { known: [1], targets: 100000 } } }], 12, t), n };
      const v = attackOf(runTrialCell(vectors, new Int32Array(0), NO_TRUTH, spec)[0]!)[0]!;
      r1.push(v.reid1);
      r10.push(v.reid10);
    }
    const check = (xs: number[], want: number) => {
      const mean = xs.reduce((s, x) => s + x, 0) / xs.length;
      const sd = Math.sqrt(xs.reduce((s, x) => s + (x - mean) ** 2, 0) / (xs.length - 1));
      expect(Math.abs(mean - want)).toBeLessThan(3 * (sd / Math.sqrt(xs.length)));
    };
    check(r1, 1 / 150);
    check(r10, 10 / 150);
  });

  it('attacks the same targets with the same partial profiles at every kappa: those drawn without the cell, hashed with its planes', () => {
    const vectors = smallVectors(30, 120, 'same');
    const spec = (kappa: number) => ({ ...trialSpec([{ id: 'lsh', base: 'lsh', options: {}, xi: null, ks: [], asks: { attack: { known: [0.5], targets: 40 } } }], kappa, 0), n: vectors.n });
    const a = attackOf(runTrialCell(vectors, new Int32Array(0), NO_TRUTH, spec(8))[0]!)[0]!;
    expect(a).toMatchObject({ targets: 40, users: 120 });
    // the partial profiles come from the seeds without kappa: the same rows whichever cell draws them
    const targets = attackTargets(120, 40, 5, 'd', vectors.n, 0);
    const rows = partialProfiles(vectors, targets, 0.5, (u) => subsetSeed(5, 'd', vectors.n, 0, 0.5, u));
    for (const kappa of [8, 16]) {
      const hashing = getFamily('angular').hash(rows, kappa, deriveSeed(5, 'planes', 'd', vectors.n, kappa, 0));
      const released = getFamily('angular').hash(vectors, kappa, deriveSeed(5, 'planes', 'd', vectors.n, kappa, 0)).codes;
      const want = attackMeans(released, hashing.codes, targets);
      const got = attackOf(runTrialCell(vectors, new Int32Array(0), NO_TRUTH, spec(kappa))[0]!)[0]!;
      expect(got.reid1).toBe(want.reid1);
      expect(got.reid10).toBe(want.reid10);
    }
  });
});
