/**
 * The linkage attack of config `attack` (docs/ATTACKS.md), exactly as stated there: the adversary
 * knows the trial's public hash functions, every user's released code and, for each target user, a
 * partial profile (a random subset of ⌊known · m + ½⌋, at least 1, of the user's m non-zero vector
 * entries, with their values). It hashes the partial vector without noise and ranks all N released
 * codes by Hamming distance to that probe. With a the number of codes strictly closer than the
 * target's own and t the number at the target's distance (the target's included):
 * reid@1 = [a = 0] / t and reid@10 = min(1, max(0, 10 − a) / t), the exact expectations of a hit
 * under uniform random tie-breaking. A trial's values are the means over its targets.
 *
 * Seeds (docs/ARCHITECTURE.md, "Seeds"): `attack-targets` (data set, n, trial) draws the target
 * sample when there are more kept users than `attack.targets`; `attack` (data set, n, trial,
 * known, user id) draws one user's subset. Neither has κ, a mechanism or ξ: every κ and every
 * mechanism of a trial attacks the same targets with the same partial profiles.
 */
import type { UserVectors } from '../../data/types.js';
import { popcount32, type CodeSet } from '../../lsh/codes.js';
import { describeRelease, distancesTo, isBits, releaseRows, sameShape, type ReleaseSet } from '../../lsh/releases.js';
import { deriveSeed, makeRng } from '../../random/rng.js';
import { sampleWithoutReplacement } from '../../random/samplers.js';
import { xoshiroUniform } from '../../random/ziggurat.js';
import { hammingKernelName } from '../../kernels/instance.js';
import { WASM_MAX_BITS } from '../../kernels/knn.js';
import { wasmRankCounts } from '../../kernels/attack.js';
import { sha256Hex, stableStringify } from '../../util/hash.js';

/** The version of the attack's algorithm (its draws and its ranking): in every attack entry's hash. */
export const ATTACK_VERSION = '1';

/** The rank the attack is scored at besides 1 (reid@10). */
export const REID_AT = 10;

/** One per-trial attack value of a result at one `known`: the means over the targets. */
export interface AttackValue {
  known: number;
  reid1: number;
  reid10: number;
  /** released codes ranked (the kept users) */
  users: number;
  /** targets the means are over */
  targets: number;
}

/** How many of a user's m non-zero entries the adversary knows: ⌊known · m + ½⌋, at least 1 (and at most m). */
export function subsetSize(m: number, known: number): number {
  return Math.min(m, Math.max(1, Math.floor(known * m + 0.5)));
}

/** The targets of a trial: every user when there are at most `max`, else a sample of `max` (ascending), from the `attack-targets` seed. */
export function attackTargets(users: number, max: number, runSeed: number | string, dataset: string, n: number, trial: number): Int32Array {
  if (users <= max) return sampleWithoutReplacement(() => 0, users, users);
  return sampleWithoutReplacement(makeRng(deriveSeed(runSeed, 'attack-targets', dataset, n, trial)), users, max);
}

/** The seed of one user's partial profile (role `attack`). */
export function subsetSeed(runSeed: number | string, dataset: string, n: number, trial: number, known: number, user: string): string {
  return deriveSeed(runSeed, 'attack', dataset, n, trial, known, user);
}

/** A xoshiro128++ state from the 128 bits of a derived seed (32 hex digits; never all zero). */
function stateOf(seed: string): Int32Array {
  const s = new Int32Array(4);
  for (let i = 0; i < 4; i++) s[i] = Number.parseInt(seed.slice(8 * i, 8 * i + 8), 16) | 0;
  if ((s[0]! | s[1]! | s[2]! | s[3]!) === 0) s[0] = 1;
  return s;
}

/**
 * The partial profiles of `targets` at `known`: row r holds a uniformly random subset of
 * subsetSize(m, known) of target r's m non-zero entries (partial Fisher–Yates on a per-user
 * xoshiro128++ stream seeded by subsetSeed), columns ascending, values as in `vectors` (not
 * renormalized: neither the sign of a projection nor a MinHash depends on the scale).
 */
export function partialProfiles(vectors: UserVectors, targets: Int32Array, known: number, seedOf: (user: string) => string): UserVectors {
  const { rowPtr, colIdx, values } = vectors;
  // the non-zero entries of each target, and how many of them are known
  const sizes = new Int32Array(targets.length);
  let total = 0;
  let widest = 0;
  for (let r = 0; r < targets.length; r++) {
    const u = targets[r]!;
    let m = 0;
    for (let p = rowPtr[u]!; p < rowPtr[u + 1]!; p++) if (values[p] !== 0) m++;
    if (m === 0) throw new RangeError(`user ${vectors.userIds[u]} has no non-zero entry`);
    sizes[r] = subsetSize(m, known);
    total += sizes[r]!;
    widest = Math.max(widest, m);
  }
  const outPtr = new Int32Array(targets.length + 1);
  const cols = new Int32Array(total);
  const vals = new Float64Array(total);
  const nonZero = new Int32Array(widest);
  let q = 0;
  for (let r = 0; r < targets.length; r++) {
    const u = targets[r]!;
    let m = 0;
    for (let p = rowPtr[u]!; p < rowPtr[u + 1]!; p++) if (values[p] !== 0) nonZero[m++] = p;
    const s = sizes[r]!;
    const state = stateOf(seedOf(vectors.userIds[u]!));
    for (let i = 0; i < s; i++) {
      const j = i + Math.floor(xoshiroUniform(state) * (m - i));
      const t = nonZero[i]!;
      nonZero[i] = nonZero[j]!;
      nonZero[j] = t;
    }
    // stored positions ascend with the columns in a CSR row
    const chosen = nonZero.subarray(0, s).sort();
    for (let i = 0; i < s; i++) {
      cols[q] = colIdx[chosen[i]!]!;
      vals[q++] = values[chosen[i]!]!;
    }
    outPtr[r + 1] = q;
  }
  return { ...vectors, rowPtr: outPtr, colIdx: cols, values: vals, userIds: Array.from(targets, (u) => vectors.userIds[u]!) };
}

/** The exact expectations of a hit at rank 1 and within rank 10 under uniform tie-breaking, from a (strictly closer) and t (tied, the target included). */
export function reidOf(a: number, t: number): [number, number] {
  // REID_AT or more codes strictly closer: no hit at rank 1 or within rank 10, whatever the ties
  if (a >= REID_AT) return [0, 0];
  return [a === 0 ? 1 / t : 0, Math.min(1, Math.max(0, REID_AT - a) / t)];
}

/**
 * a and t of one target: its probe (row `probeRow` of `probes`) against every released code,
 * with the project's popcount (src/lsh/codes.ts). The scan stops once a reaches `stopAt` (then
 * both reid values are 0 and t is not needed): a is returned as `stopAt` and t as counted so far.
 */
export function rankCounts(released: CodeSet, probes: CodeSet, probeRow: number, target: number, stopAt = REID_AT): { a: number; t: number } {
  const d0 = distanceTo(released, probes, probeRow, target);
  const at = new Int32Array(2);
  countFrom(released, released.codes.length / released.words, probes, probeRow, d0, stopAt, at);
  return { a: at[0]!, t: at[1]! };
}

/** The Hamming distance between released code `target` and probe row `probeRow`. */
function distanceTo(released: CodeSet, probes: CodeSet, probeRow: number, target: number): number {
  const { codes, words } = released;
  let d0 = 0;
  for (let w = 0; w < words; w++) d0 += popcount32(codes[target * words + w]! ^ probes.codes[probeRow * words + w]!);
  return d0;
}

/**
 * a (codes strictly closer than d0, stopping at `stopAt`) and t (codes at d0) over the first
 * `users` codes, into at[0] and at[1]: an array the caller reuses, since this runs once per
 * (target, release) and an object per call was a measurable share of the attack's time.
 */
function countFrom(released: CodeSet, users: number, probes: CodeSet, probeRow: number, d0: number, stopAt: number, at: Int32Array): void {
  const { codes, words } = released;
  const p = probes.codes;
  const pb = probeRow * words;
  let a = 0;
  let t = 0;
  if (words === 1) {
    const q = p[pb]!;
    for (let v = 0; v < users; v++) {
      const d = popcount32(codes[v]! ^ q);
      if (d < d0) {
        if (++a >= stopAt) break;
      } else if (d === d0) t++;
    }
  } else if (words === 2) {
    const q0 = p[pb]!;
    const q1 = p[pb + 1]!;
    for (let v = 0, o = 0; v < users; v++, o += 2) {
      const d = popcount32(codes[o]! ^ q0) + popcount32(codes[o + 1]! ^ q1);
      if (d < d0) {
        if (++a >= stopAt) break;
      } else if (d === d0) t++;
    }
  } else {
    for (let v = 0; v < users; v++) {
      let d = 0;
      for (let w = 0; w < words; w++) d += popcount32(codes[v * words + w]! ^ p[pb + w]!);
      if (d < d0) {
        if (++a >= stopAt) break;
      } else if (d === d0) t++;
    }
  }
  at[0] = a;
  at[1] = t;
}

/**
 * The means over the targets of reid@1 and reid@10: target r's probe is row r of `probes`. Each
 * target's count stops once 10 codes are strictly closer than its own (then both reid values are
 * 0, whatever the ties): most targets of a noisy release stop within their first codes, the others
 * are counted over every code. With the WebAssembly kernel every target is counted there (one
 * SIMD pass per probe that compares the distances as it computes them, checking the stop every 64
 * codes: several times faster than the JavaScript scan it replaced, even on the targets that stop
 * early); without it (`kernel: 'js'`, or codes longer than 64 bits) in JavaScript. The same counts
 * either way.
 */
export function attackMeans(released: ReleaseSet, probes: ReleaseSet, targets: Int32Array, opts: { kernel?: 'auto' | 'js' } = {}): { reid1: number; reid10: number } {
  if (!sameShape(released, probes)) throw new RangeError(`released ${describeRelease(released)}, the probes are ${describeRelease(probes)}`);
  const out = new Int32Array(2 * targets.length);
  if (isBits(released)) bitCounts(released, probes as CodeSet, targets, out, opts.kernel === 'js');
  else releaseCounts(released, probes, targets, out);
  let s1 = 0;
  let s10 = 0;
  // the sums of reidOf over the targets, without its pair per target (millions per grid): a
  // target with REID_AT or more closer codes adds 0 to both, and adding 0 leaves a sum's bits as they are
  for (let r = 0; r < targets.length; r++) {
    const a = out[2 * r]!;
    if (a >= REID_AT) continue;
    const t = out[2 * r + 1]!;
    if (a === 0) s1 += 1 / t;
    s10 += Math.min(1, (REID_AT - a) / t);
  }
  return { reid1: s1 / targets.length, reid10: s10 / targets.length };
}

/** a and t of every target (into out[2r], out[2r + 1]) over bit codes: the WebAssembly kernel, else JavaScript. */
function bitCounts(released: CodeSet, probes: CodeSet, targets: Int32Array, out: Int32Array, js: boolean): void {
  const users = released.codes.length / released.words;
  const kernel = !js && released.bits <= WASM_MAX_BITS && hammingKernelName() === 'wasm-simd';
  // probe row r is target r's (a plain loop: Int32Array.from with a callback cost more than the counts)
  const rows = new Int32Array(targets.length);
  for (let r = 0; r < rows.length; r++) rows[r] = r;
  if (kernel && wasmRankCounts(released, probes, rows, targets, REID_AT, out)) return;
  const at = new Int32Array(2);
  for (let r = 0; r < targets.length; r++) {
    countFrom(released, users, probes, r, distanceTo(released, probes, r, targets[r]!), REID_AT, at);
    out[2 * r] = at[0]!;
    out[2 * r + 1] = at[1]!;
  }
}

/**
 * a and t of every target over a release of symbols or reals, in the release's own distance
 * (src/lsh/releases.ts: unequal symbols, or the squared Euclidean distance in one fixed order, so a
 * target's own distance and every other are the same doubles whatever the thread): a counted up
 * to REID_AT, where both reid values are 0 whatever the ties.
 */
function releaseCounts(released: ReleaseSet, probes: ReleaseSet, targets: Int32Array, out: Int32Array): void {
  const users = releaseRows(released);
  const dist = new Float64Array(users);
  for (let r = 0; r < targets.length; r++) {
    distancesTo(released, probes, r, dist);
    const d0 = dist[targets[r]!]!;
    let a = 0;
    let t = 0;
    for (let v = 0; v < users; v++) {
      const d = dist[v]!;
      if (d < d0) {
        if (++a >= REID_AT) break;
      } else if (d === d0) t++;
    }
    out[2 * r] = a;
    out[2 * r + 1] = t;
  }
}

/**
 * The hash of everything that determines one attack entry: the hash of the result whose codes it
 * ranks (src/experiment/grid.ts resultHash: input, seed, cell, mechanism identity, privacy,
 * versions), `known`, the number of targets actually drawn (min(attack.targets, users)) and the
 * attack's version.
 */
export function attackHash(resultHash: string, known: number, targets: number): string {
  return sha256Hex(stableStringify({ attack: ATTACK_VERSION, result: resultHash, known, targets }));
}

/** An attack entry's key in its cell's record: the result id and `known`. */
export function attackEntryKey(resultId: string, known: number): string {
  return `${resultId}_known${known}`;
}
