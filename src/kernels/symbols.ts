/**
 * The k-NN of symbol releases (src/kernels/symbols.wat): the JS loop of src/lsh/releases.ts, bit
 * for bit (tests/lsh/releaseKernels.test.ts).
 */

import { align16, instance, reserve, type KernelMemory } from './instance.js';

/** The exports of symbols.wat. */
interface SymbolExports extends KernelMemory {
  knnSym(
    codes: number,
    users: number,
    words: number,
    queries: number,
    nq: number,
    k: number,
    seed: number,
    positions: number,
    out: number,
    heap: number,
    dist: number,
    tab: number,
    mode: number,
  ): void;
  knnPlanes(codes: number, users: number, width: number, queries: number, nq: number, k: number, seed: number, positions: number, out: number, heap: number, dist: number, narrow: number): void;
}

/** Packed symbols, `words` 32-bit words a row (lsh/releases.ts `SymbolSet`, stated by shape). */
interface SymbolRows {
  packed: Uint32Array;
  positions: number;
  width: number;
  words: number;
}

/** The most symbol positions the WebAssembly kernel takes (a distance and the pad 255 in a byte). */
export const WASM_MAX_POSITIONS = 254;

/** The unequal 2-bit symbols of each nibble of a XOR (the kernel's lookup table for width 2;
 *  widths 4 and 8 compare nibbles and bytes for equality instead). */
const NIBBLE_TABLE = Uint8Array.from({ length: 16 }, (_, n) => Number((n & 3) !== 0) + Number(n >> 2 !== 0));

/** The k nearest a user's distance bytes need: the rows' layout of knnCount (distance bytes, summaries). */
function distBytes(users: number): number {
  const padded = Math.ceil((users + 15) / 256) * 256;
  return padded + (padded / 256) * 16 + 16;
}

/**
 * The k nearest of every query among packed symbols (the unequal positions; ties by the tie key,
 * the query excluded), best first into `out` (queries x k): the answer of src/lsh/releases.ts's JS
 * loop. Rows are copied into the module in groups of 16 users, word-major (symbols.wat
 * `knnSym`). Returns false when the kernel does not apply (no WebAssembly, or more than
 * WASM_MAX_POSITIONS positions). Arguments are validated by the caller.
 */
export function wasmSymbolKnn(set: SymbolRows, users: number, queries: Int32Array, k: number, tieSeed: number, out: Int32Array, opts: SymbolKnnOptions = {}): boolean {
  const wasm = instance<SymbolExports>();
  if (!wasm || ![2, 4, 8].includes(set.width) || set.positions < 1 || set.positions > WASM_MAX_POSITIONS || set.words < 1) return false;
  const layout = opts.layout ?? 'auto';
  // 'auto': planes wherever they apply (at most 64 positions): as fast as the packed words or
  // faster at every kappa and b measured (10 / 20 / 50, b = 4, 16; 610 and 3,716 users)
  if (layout === 'planes' || layout === 'auto') {
    if (set.positions <= 64) return planeKnn(wasm, set, users, queries, k, tieSeed, out);
    if (layout === 'planes') return false;
  }
  const W = set.words;
  const nq = queries.length;
  const groups = Math.ceil(users / 16);
  const codes = 0;
  const queriesAt = align16(groups * W * 64);
  const outAt = align16(queriesAt + nq * 4);
  const heapAt = align16(outAt + nq * k * 4);
  const tabAt = align16(heapAt + k * 12);
  const distAt = tabAt + 16;
  reserve(wasm, distAt + distBytes(users));
  new Uint8Array(wasm.memory.buffer, tabAt, 16).set(NIBBLE_TABLE);
  const rows = new Uint32Array(wasm.memory.buffer, codes, groups * W * 16).fill(0);
  const { packed } = set;
  for (let u = 0; u < users; u++) {
    const at = (u >>> 4) * W * 16 + (u & 15);
    for (let w = 0; w < W; w++) rows[at + w * 16] = packed[u * W + w]!;
  }
  new Int32Array(wasm.memory.buffer, queriesAt, nq).set(queries);
  wasm.knnSym(codes, users, W, queriesAt, nq, k, tieSeed | 0, set.positions, outAt, heapAt, distAt, tabAt, set.width === 2 ? 0 : set.width === 8 ? 1 : 2);
  out.set(new Int32Array(wasm.memory.buffer, outAt, nq * k));
  return true;
}

/** How the symbols kernel lays its rows out: 'words' as packed (knnSym), 'planes' bit-sliced
 *  (knnPlanes, at most 64 positions), 'auto' planes where they apply, else words. */
export type SymbolLayout = 'auto' | 'words' | 'planes';

/** Options of wasmSymbolKnn (measurement and tests; the default is the measured best). */
export interface SymbolKnnOptions {
  layout?: SymbolLayout;
}

/** Every other bit of x (bits 0, 2, ..., 30) gathered into its low 16 bits. */
function gather2(x: number): number {
  x &= 0x55555555;
  x = (x | (x >>> 1)) & 0x33333333;
  x = (x | (x >>> 2)) & 0x0f0f0f0f;
  x = (x | (x >>> 4)) & 0x00ff00ff;
  return (x | (x >>> 8)) & 0xffff;
}

/** Every fourth bit of x (bits 0, 4, ..., 28) gathered into its low 8 bits. */
function gather4(x: number): number {
  x &= 0x11111111;
  x = (x | (x >>> 3)) & 0x03030303;
  x = (x | (x >>> 6)) & 0x000f000f;
  return (x | (x >>> 12)) & 0xff;
}

/** Every eighth bit of x (bits 0, 8, 16, 24) gathered into its low 4 bits. */
function gather8(x: number): number {
  x &= 0x01010101;
  x = (x | (x >>> 7)) & 0x00030003;
  return (x | (x >>> 14)) & 0xf;
}

/**
 * knnPlanes on symbols of at most 64 positions: each row sliced into `width` planes of a u64
 * (plane b: bit b of every position's symbol, position j at bit j), in pairs of users plane by
 * plane (symbols.wat `$distPlanes`), so that two
 * rows' unequal positions are popcount(OR of the planes' XORs). Word w's per = 32 / width symbols
 * land on bits [w·per, (w + 1)·per) of each plane: per divides 32, so never across two halves.
 */
function planeKnn(wasm: SymbolExports, set: SymbolRows, users: number, queries: Int32Array, k: number, tieSeed: number, out: Int32Array): boolean {
  const { packed, width, words: W } = set;
  const nq = queries.length;
  const codes = 0;
  // at most 32 positions: u32 planes, 4 users a vector ($distPlanes32); else u64, 2 users a vector
  const narrow = set.positions <= 32;
  const padded = Math.ceil(users / 16) * 16;
  const queriesAt = align16(padded * width * 8);
  const outAt = align16(queriesAt + nq * 4);
  const heapAt = align16(outAt + nq * k * 4);
  const distAt = align16(heapAt + k * 12);
  reserve(wasm, distAt + distBytes(users));
  const rows = new Uint32Array(wasm.memory.buffer, codes, padded * width * 2).fill(0);
  // u32 index of plane 0's half holding word w of user u: narrow, group (u >> 2) of width*4 u32s
  // and user (u & 3) in it; wide, pair (u >> 1) and user (u & 1), two halves each; then plane b 4
  // u32s further either way (one v128 a plane); one loop a width, so that each stays monomorphic (a shared loop
  // calling its gather through a variable took 0.1 ms at b = 16, 610 users, 50 positions)
  if (width === 2) {
    for (let u = 0; u < users; u++) {
      const row = narrow ? (u >>> 2) * 8 + (u & 3) : (u >>> 1) * 8 + (u & 1) * 2;
      for (let w = 0; w < W; w++) {
        const x = packed[u * W + w]!;
        const half = row + (w >>> 1);
        const shift = (w & 1) << 4;
        rows[half] |= gather2(x) << shift;
        rows[half + 4] |= gather2(x >>> 1) << shift;
      }
    }
  } else if (width === 4) {
    for (let u = 0; u < users; u++) {
      const row = narrow ? (u >>> 2) * 16 + (u & 3) : (u >>> 1) * 16 + (u & 1) * 2;
      for (let w = 0; w < W; w++) {
        const x = packed[u * W + w]!;
        const half = row + (w >>> 2);
        const shift = (w & 3) << 3;
        rows[half] |= gather4(x) << shift;
        rows[half + 4] |= gather4(x >>> 1) << shift;
        rows[half + 8] |= gather4(x >>> 2) << shift;
        rows[half + 12] |= gather4(x >>> 3) << shift;
      }
    }
  } else {
    for (let u = 0; u < users; u++) {
      const row = narrow ? (u >>> 2) * 32 + (u & 3) : (u >>> 1) * 32 + (u & 1) * 2;
      for (let w = 0; w < W; w++) {
        const x = packed[u * W + w]!;
        const half = row + (w >>> 3);
        const shift = (w & 7) << 2;
        for (let b = 0; b < 8; b++) rows[half + 4 * b] |= gather8(x >>> b) << shift;
      }
    }
  }
  new Int32Array(wasm.memory.buffer, queriesAt, nq).set(queries);
  wasm.knnPlanes(codes, users, width, queriesAt, nq, k, tieSeed | 0, set.positions, outAt, heapAt, distAt, narrow ? 1 : 0);
  out.set(new Int32Array(wasm.memory.buffer, outAt, nq * k));
  return true;
}
