/**
 * What a mechanism releases per user, and the distance its neighbours are found by (issue 42,
 * docs/MECHANISMS.md "Releases"). Three kinds:
 *
 * - `bits`: a bit code (CodeSet, src/lsh/codes.ts), Hamming distance: every mechanism of the paper;
 * - `symbols`: κ values of an alphabet of b ≤ 256 symbols (bucket MinHash), distance = the number
 *   of unequal positions. Packed `width` bits a symbol (1, 2, 4 or 8: the smallest with 2^width ≥ b),
 *   32/width symbols a word and none across two words, so two rows' distance is a popcount of their
 *   XOR with each symbol's bits folded into its lowest one (the JS loop; the WebAssembly kernel
 *   counts unequal nibbles or bytes instead: the same numbers);
 * - `reals`: κ doubles (JL projections with Gaussian noise, noisy MinHash), ranked by the squared
 *   Euclidean distance Σ_j (a_j − b_j)², summed in float64 in coordinate order from 0: one fixed
 *   order, so every thread, shard and path gets the same doubles (the squared distance orders the
 *   rows as the distance does, and cannot merge two distances that a square root would round alike).
 *   The WebAssembly kernel keeps it: its vector lanes are users, each summing in that order.
 *
 * Every kind breaks ties as the bit path does (protocol §3, src/lsh/tieKey.ts): among rows at equal
 * distance from a query the smaller tie key of (trial tie seed, query, candidate) comes first, so
 * the symbols of a two-letter alphabet give the very neighbours of the same bits.
 */
import type { CodeSet } from './codes.js';
import { codeCount, popcount32 } from './codes.js';
import { queryKeyBase, tieKey } from './tieKey.js';
import { TopK } from '../util/topK.js';
import { checkKnnArgs, hammingKnn, type HammingKernel } from './hammingKnn.js';
import { hammingKernelName } from '../kernels/instance.js';
import { wasmRealKnn } from '../kernels/reals.js';
import { wasmSymbolKnn, WASM_MAX_POSITIONS } from '../kernels/symbols.js';

/** What a mechanism releases per user (its facts' `release`; absent: bits). */
export type ReleaseKind = 'bits' | 'symbols' | 'reals';
export const RELEASE_KINDS: readonly ReleaseKind[] = ['bits', 'symbols', 'reals'];

/** Bits a packed symbol takes. */
export type SymbolWidth = 1 | 2 | 4 | 8;

/**
 * κ symbols of an alphabet of `alphabet` letters per user: position j of row i is bits
 * [(j % per)·width, +width) of word i·words + floor(j / per), per = 32 / width. Unused bits are 0.
 * (Its words are `packed`, not `codes`: a symbol set is never taken for a bit code by mistake.)
 */
export interface SymbolSet {
  readonly kind: 'symbols';
  alphabet: number;
  positions: number;
  width: SymbolWidth;
  words: number;
  packed: Uint32Array;
}

/** κ doubles per user, row-major (users × dims). */
export interface RealSet {
  readonly kind: 'reals';
  dims: number;
  values: Float64Array;
}

/** One release of every user: a bit code (no `kind`), symbols or reals. */
export type ReleaseSet = CodeSet | SymbolSet | RealSet;

/** The kind of a release. */
export function releaseKind(set: ReleaseSet): ReleaseKind {
  return 'kind' in set ? set.kind : 'bits';
}

/** Whether a release is a bit code. */
export function isBits(set: ReleaseSet): set is CodeSet {
  return !('kind' in set);
}

/** The rows (users) of a release. */
export function releaseRows(set: ReleaseSet): number {
  if (isBits(set)) return codeCount(set);
  if (set.kind === 'symbols') return set.words === 0 ? 0 : set.packed.length / set.words;
  return set.dims === 0 ? 0 : set.values.length / set.dims;
}

/** The length of one row: bits, symbol positions or real coordinates (κ for every built-in). */
export function releaseLength(set: ReleaseSet): number {
  if (isBits(set)) return set.bits;
  return set.kind === 'symbols' ? set.positions : set.dims;
}

/** A short description for messages ("20 bits", "20 symbols of 4", "20 reals"). */
export function describeRelease(set: ReleaseSet): string {
  if (isBits(set)) return `${set.bits}-bit codes`;
  return set.kind === 'symbols' ? `${set.positions} symbols of ${set.alphabet}` : `${set.dims} reals`;
}

/** Whether two releases can be compared row against row (same kind and shape). */
export function sameShape(a: ReleaseSet, b: ReleaseSet): boolean {
  if (isBits(a) || isBits(b)) return isBits(a) && isBits(b) && a.bits === b.bits && a.words === b.words;
  if (a.kind === 'symbols' && b.kind === 'symbols') return a.positions === b.positions && a.width === b.width;
  return a.kind === 'reals' && b.kind === 'reals' && a.dims === b.dims;
}

/** The packing width of an alphabet of b letters (2 ≤ b ≤ 256). */
export function symbolWidth(alphabet: number): SymbolWidth {
  if (!Number.isInteger(alphabet) || alphabet < 2 || alphabet > 256) throw new RangeError(`an alphabet has 2 to 256 symbols, got ${alphabet}`);
  return alphabet <= 2 ? 1 : alphabet <= 4 ? 2 : alphabet <= 16 ? 4 : 8;
}

/** The packed symbol set of `symbols` (users × positions, row-major, each < alphabet). */
export function packSymbols(symbols: Uint8Array, users: number, positions: number, alphabet: number): SymbolSet {
  if (symbols.length !== users * positions) throw new RangeError(`symbols has ${symbols.length} entries, expected users*positions = ${users}*${positions}`);
  const width = symbolWidth(alphabet);
  const per = 32 / width;
  const words = Math.ceil(positions / per);
  const packed = new Uint32Array(users * words);
  for (let i = 0; i < users; i++) {
    for (let j = 0; j < positions; j++) {
      const s = symbols[i * positions + j]!;
      if (s >= alphabet) throw new RangeError(`symbol ${s} of user ${i} at position ${j} is not below the alphabet's ${alphabet}`);
      packed[i * words + Math.floor(j / per)]! |= s << ((j % per) * width);
    }
  }
  return { kind: 'symbols', alphabet, positions, width, words, packed };
}

/** Symbol j of row i. */
export function symbolAt(set: SymbolSet, i: number, j: number): number {
  const per = 32 / set.width;
  return (set.packed[i * set.words + Math.floor(j / per)]! >>> ((j % per) * set.width)) & ((1 << set.width) - 1);
}

/** Every symbol, unpacked (users × positions). */
export function unpackSymbols(set: SymbolSet): Uint8Array {
  const users = releaseRows(set);
  const out = new Uint8Array(users * set.positions);
  for (let i = 0; i < users; i++) for (let j = 0; j < set.positions; j++) out[i * set.positions + j] = symbolAt(set, i, j);
  return out;
}

/** The unequal symbols of one XOR word as set bits: each symbol's bits OR-folded into its lowest. */
function foldWord(x: number, width: SymbolWidth): number {
  if (width === 1) return x;
  if (width === 2) return (x | (x >>> 1)) & 0x55555555;
  if (width === 4) {
    x |= x >>> 1;
    return (x | (x >>> 2)) & 0x11111111;
  }
  x |= x >>> 1;
  x |= x >>> 2;
  return (x | (x >>> 4)) & 0x01010101;
}

/** Rows `rows` of a row-major array of `width` entries a row, in that order. */
function rowsOf<T extends Uint32Array | Float64Array>(from: T, width: number, rows: Int32Array, to: T): T {
  for (let g = 0; g < rows.length; g++) to.set(from.subarray(rows[g]! * width, (rows[g]! + 1) * width), g * width);
  return to;
}

/** The rows `rows` of a release, in that order (a release of rows.length users). */
export function selectRows(set: ReleaseSet, rows: Int32Array): ReleaseSet {
  if (isBits(set)) return { codes: rowsOf(set.codes, set.words, rows, new Uint32Array(rows.length * set.words)), bits: set.bits, words: set.words };
  if (set.kind === 'symbols') return { ...set, packed: rowsOf(set.packed, set.words, rows, new Uint32Array(rows.length * set.words)) };
  return { kind: 'reals', dims: set.dims, values: rowsOf(set.values, set.dims, rows, new Float64Array(rows.length * set.dims)) };
}

/**
 * The distance from row `row` of `probes` to every row of `set` (0 .. users − 1), into `out`: the
 * Hamming distance, the unequal symbols, or the squared Euclidean distance (module comment). The
 * two must have the same shape.
 */
export function distancesTo(set: ReleaseSet, probes: ReleaseSet, row: number, out: Float64Array): void {
  if (!sameShape(set, probes)) throw new RangeError(`cannot compare ${describeRelease(set)} with ${describeRelease(probes)}`);
  const users = releaseRows(set);
  if (isBits(set)) {
    const { codes, words } = set;
    const p = (probes as CodeSet).codes;
    for (let u = 0; u < users; u++) {
      let d = 0;
      for (let w = 0; w < words; w++) d += popcount32(codes[u * words + w]! ^ p[row * words + w]!);
      out[u] = d;
    }
    return;
  }
  if (set.kind === 'symbols') {
    const { packed, words, width } = set;
    const p = (probes as SymbolSet).packed;
    for (let u = 0; u < users; u++) {
      let d = 0;
      for (let w = 0; w < words; w++) d += popcount32(foldWord(packed[u * words + w]! ^ p[row * words + w]!, width));
      out[u] = d;
    }
    return;
  }
  const { values, dims } = set;
  const p = (probes as RealSet).values;
  const pb = row * dims;
  for (let u = 0; u < users; u++) {
    let s = 0;
    const ub = u * dims;
    for (let j = 0; j < dims; j++) {
      const e = values[ub + j]! - p[pb + j]!;
      s += e * e;
    }
    out[u] = s;
  }
}

/**
 * The k nearest of `m` candidates with distances `dist[0 .. m)`, nearest first, ties by the tie key
 * of (`base`, candidate) (src/lsh/tieKey.ts); candidate `skip` (a query's own row, or −1) never
 * counts. Writes them at out[offset .. offset + k). A bounded heap finds the k-th distance, then
 * the candidates within it are ordered by (distance, key): only ties at that distance need keys.
 */
export function nearestByDistance(dist: Float64Array, m: number, k: number, skip: number, base: number, out: Int32Array, offset: number, heap = new TopK(k)): void {
  heap.reset();
  for (let g = 0; g < m; g++) if (g !== skip && heap.accepts(dist[g]!, g)) heap.offer(dist[g]!, g);
  if (heap.size < k) throw new RangeError(`${k} neighbours asked of ${m - (skip >= 0 ? 1 : 0)} candidates`);
  const bound = heap.worstKey;
  const cand: number[] = [];
  for (let g = 0; g < m; g++) if (g !== skip && dist[g]! <= bound) cand.push(g);
  // a key (a few multiplications) only where two distances tie: no map of keys per query
  cand.sort((x, y) => dist[x]! - dist[y]! || tieKey(base, x) - tieKey(base, y));
  for (let i = 0; i < k; i++) out[offset + i] = cand[i]!;
}

/** Options of `releaseKnn`: which implementation runs (tests and measurements; the answers are the same). */
export interface ReleaseKnnOptions {
  kernel?: HammingKernel;
}

/**
 * The k nearest rows of every query row (the query excluded), nearest first: the smallest
 * (distance, tieKey(queryKeyBase(tieSeed, query), candidate)). Bits go to hammingKnn (its
 * kernels, src/lsh/hammingKnn.ts), and so do symbols of two letters (packed as the bits are, the
 * same distances). Symbols and reals run in the WebAssembly kernel where it applies
 * (src/kernels/symbols.ts wasmSymbolKnn, reals.ts wasmRealKnn: the same answers), else in the JS loop here:
 * one distance pass per query, then nearestByDistance.
 */
export function releaseKnn(set: ReleaseSet, queries: Int32Array, k: number, tieSeed: number, opts: ReleaseKnnOptions = {}): Int32Array {
  const kernel = opts.kernel ?? 'auto';
  if (isBits(set)) return hammingKnn(set, queries, k, tieSeed, { kernel });
  if (set.kind === 'symbols' && set.width === 1) {
    return hammingKnn({ codes: set.packed, bits: set.positions, words: set.words }, queries, k, tieSeed, { kernel: kernel === 'js' ? 'js' : 'auto' });
  }
  const users = releaseRows(set);
  checkKnnArgs(users, queries, k, tieSeed);
  const out = new Int32Array(queries.length * k);
  if (k === 0 || queries.length === 0) return out;
  if (kernel !== 'js') {
    const done = set.kind === 'symbols' ? wasmSymbolKnn(set, users, queries, k, tieSeed, out) : wasmRealKnn(set.values, set.dims, users, queries, k, tieSeed, out);
    if (done) return out;
    if (kernel === 'wasm') {
      const limit = set.kind === 'symbols' ? `at most ${WASM_MAX_POSITIONS} positions` : 'finite reals';
      throw new RangeError(`the WebAssembly kernel does not apply (kernel ${hammingKernelName()}, ${describeRelease(set)}; it takes ${limit})`);
    }
  }
  const dist = new Float64Array(users);
  const heap = new TopK(k);
  for (let qi = 0; qi < queries.length; qi++) {
    const q = queries[qi]!;
    distancesTo(set, set, q, dist);
    nearestByDistance(dist, users, k, q, queryKeyBase(tieSeed, q), out, qi * k, heap);
  }
  return out;
}

/** A release that must be bits (the bit mechanisms' own code and tests), or a RangeError saying what it is. */
export function bitsOf(set: ReleaseSet): CodeSet {
  if (!isBits(set)) throw new RangeError(`expected bit codes, got ${describeRelease(set)}`);
  return set;
}
