/**
 * The WebAssembly Hamming k-NN kernel (scan path, codes of at most 64 bits): loads the module of
 * src/kernels/hamming.wat once per thread (synchronously, at first use, so worker threads get
 * their own cached instance) and runs it on a CodeSet. Answers are those of the JS scan, bit for
 * bit (tests/kernels/wasm.test.ts).
 *
 * The same module holds the other hot loops of a trial cell that gain from SIMD without changing a
 * double: the k-NN of symbols and reals (wasmSymbolKnn, wasmRealKnn), the projections (projectAll)
 * and LapLSH's noise products; and the exact angular k-NN's tiles (wasmAngularTiles).
 *
 * The module uses WebAssembly SIMD; where it does not validate (an engine without SIMD), or when
 * the environment sets LSHDP_HAMMING_KERNEL=js, every caller runs its JS loop instead (the same
 * results: tests/lsh/kernels.cli.test.ts).
 */
import { HAMMING_WASM_BASE64 } from './binary.js';
import { ZIGGURAT_TABLE } from '../random/ziggurat.js';

/** Packed bit codes, one row of `words` 32-bit words per user (lsh/codes.ts `CodeSet`; stated here
 *  by shape, so that the kernels sit below every layer that calls them). */
interface CodeSet {
  codes: Uint32Array;
  bits: number;
  words: number;
}

/** The kernel that runs the Hamming scan in this thread. */
export type HammingKernelName = 'wasm-simd' | 'js';

/** The longest code the WebAssembly kernel takes (one 64-bit lane per user). */
export const WASM_MAX_BITS = 64;

interface Exports {
  memory: WebAssembly.Memory;
  knn32(codes: number, users: number, queries: number, nq: number, k: number, seed: number, bits: number, out: number, heap: number): void;
  knn64(codes: number, users: number, queries: number, nq: number, k: number, seed: number, bits: number, out: number, heap: number): void;
  knnCount(codes: number, users: number, queries: number, nq: number, k: number, seed: number, bits: number, out: number, heap: number, dist: number, wide: number): void;
  knnSet(codes: number, users: number, queries: number, nq: number, k: number, seed: number, bits: number, out: number, heap: number, dist: number, wide: number, tied: number): void;
  noise(usT: number, ws: number, scales: number, m: number, kappa: number, cols: number, out: number, lower: number): void;
  normals(state: number, table: number, out: number, count: number): void;
  project(rowPtr: number, colIdx: number, values: number, users: number, cols: number, kappa: number, out: number): void;
  projectBlocks(rowPtr: number, colIdx: number, values: number, users: number, cols: number, kappa: number, kp: number, out: number, scratch: number): void;
  rankCount(codes: number, users: number, probes: number, targets: number, np: number, stop: number, wide: number, out: number): void;
  bare64(codes: number, users: number, queries: number, nq: number): bigint;
  bare32(codes: number, users: number, queries: number, nq: number): number;
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
  knnReal(
    vals: number,
    users: number,
    dims: number,
    queries: number,
    nq: number,
    k: number,
    seed: number,
    out: number,
    heaps: number,
    bounds: number,
    sizes: number,
    bases: number,
    scratch: number,
    sym: number,
  ): void;
  inferRank(
    bits: number,
    W: number,
    P: number,
    take: number,
    todo: number,
    count: number,
    tPtr: number,
    tPlaces: number,
    nearest: number,
    out: number,
    planes: number,
    cnt: number,
    base: number,
    n: number,
    precAt: number,
  ): void;
  inferRank4(
    bits: number,
    W: number,
    take: number,
    todo: number,
    count: number,
    tPtr: number,
    tPlaces: number,
    nearest: number,
    out: number,
    planes: number,
    cnt: number,
    base: number,
    nbs: number,
    pairs: number,
    n: number,
    precAt: number,
  ): void;
  flipGrid(state: number, codes: number, n: number, words: number, mask: number, t: number): void;
  randomWords(state: number, codes: number, n: number, words: number, mask: number): void;
  signs(a: number, b: number, scale: number, m: number, kappa: number, out: number): void;
  knnBucket(
    codes: number,
    bcode: number,
    bstart: number,
    nb: number,
    busers: number,
    queries: number,
    nq: number,
    k: number,
    seed: number,
    bits: number,
    out: number,
    heap: number,
    bdist: number,
    hist: number,
  ): void;
  recScore(
    rowPtr: number,
    colIdx: number,
    values: number,
    trainPtr: number,
    trainCol: number,
    heldPtr: number,
    heldCol: number,
    queries: number,
    nq: number,
    answers: number,
    width: number,
    ks: number,
    nk: number,
    top: number,
    nt: number,
    disc: number,
    n: number,
    scores: number,
    rel: number,
    listScore: number,
    listCol: number,
    sums: number,
    guess: number,
    buf: number,
  ): void;
  exactDots(cPtr: number, cUser: number, cVal: number, len: number, qCol: number, qVal: number, qn: number, dot: number, thr: number, cand: number): number;
  exactTile(rPtr: number, p0: number, rCol: number, rVal: number, len: number, n: number, cPtr: number, cUser: number, cVal: number): number;
}

let cached: Exports | null | undefined;

/** The module, compiled once per thread (null where it does not validate: no WebAssembly SIMD). */
let compiled: WebAssembly.Module | null | undefined;

/** A new instance of the module, with its own memory; null where the kernel does not run in this thread. */
function newInstance(): Exports | null {
  if (process.env.LSHDP_HAMMING_KERNEL === 'js') return null;
  try {
    if (compiled === undefined) {
      const bytes = Buffer.from(HAMMING_WASM_BASE64, 'base64');
      compiled = WebAssembly.validate(bytes) ? new WebAssembly.Module(bytes) : null;
    }
    // the normals' slow path calls the engine's own exp and log: the JS twin's doubles
    return compiled ? (new WebAssembly.Instance(compiled, { math: { exp: Math.exp, log: Math.log } }).exports as unknown as Exports) : null;
  } catch {
    compiled = null;
    return null;
  }
}

function instance(): Exports | null {
  if (cached === undefined) cached = newInstance();
  return cached;
}

/** 'wasm-simd' when the WebAssembly kernel is available in this thread, else 'js'. */
export function hammingKernelName(): HammingKernelName {
  return instance() ? 'wasm-simd' : 'js';
}

const align16 = (x: number): number => (x + 15) & ~15;

/** Grows the module's memory to at least `bytes` (whole 64 KiB pages). */
function reserve(wasm: Exports, bytes: number): void {
  const have = wasm.memory.buffer.byteLength;
  if (bytes > have) wasm.memory.grow(Math.ceil((bytes - have) / 65536));
}

/** Lays out codes, queries, out and heap in the module's memory; grows it when needed. */
function layout(wasm: Exports, set: CodeSet, users: number, nq: number, k: number) {
  const codes = 0;
  const queries = align16(users * set.words * 4 + 32);
  const out = align16(queries + nq * 4);
  const heap = align16(out + nq * k * 4);
  const dist = align16(heap + k * 12);
  // distance bytes padded to 256 (superblocks), then one 16-byte summary per superblock
  const padded = Math.ceil((users + 15) / 256) * 256;
  const end = dist + padded + (padded / 256) * 16 + 16;
  reserve(wasm, end);
  return { codes, queries, out, heap, dist };
}

/**
 * How the WebAssembly kernel selects: 'heap' keeps the k best while scanning (cheap per user, but
 * about k·ln(users/k) heap replacements per query); 'count' writes every distance as a byte, finds
 * the boundary distance by SIMD counting and keys only the users within it (two more passes over
 * one byte per user, few replacements). The same answers either way.
 */
export type WasmSelection = 'auto' | 'heap' | 'count';

/** 'auto' selects by counting for codes of <= 32 bits (their distance bytes come out of SIMD
 *  narrowing almost for free: faster at 4k and at 160k users), and for longer codes up to this many
 *  users (measured: counting wins at 8k users, draws at 32k, loses by ~20% at 160k, where the
 *  scalar byte stores cost more than the heap's replacements). */
export const COUNT_MAX_USERS = 32768;

/**
 * Writes the k best of every query into `out` (queries x k, best first) and returns true, or
 * returns false when this kernel does not apply (no WebAssembly, or codes longer than 64 bits).
 * Arguments are validated by the caller (hammingKnn).
 */
export function wasmScan(set: CodeSet, users: number, queries: Int32Array, k: number, tieSeed: number, out: Int32Array, selection: WasmSelection = 'auto'): boolean {
  const wasm = instance();
  if (!wasm || set.bits > WASM_MAX_BITS || set.words > 2) return false;
  const at = layout(wasm, set, users, queries.length, k);
  const buf = wasm.memory.buffer;
  new Uint32Array(buf, at.codes, users * set.words).set(set.codes.subarray(0, users * set.words));
  new Int32Array(buf, at.queries, queries.length).set(queries);
  if (selection === 'count' || (selection === 'auto' && (set.words === 1 || users <= COUNT_MAX_USERS))) {
    wasm.knnCount(at.codes, users, at.queries, queries.length, k, tieSeed | 0, set.bits, at.out, at.heap, at.dist, set.words - 1);
  } else {
    const knn = set.words === 1 ? wasm.knn32 : wasm.knn64; // little-endian word pairs are the u64 codes
    knn(at.codes, users, at.queries, queries.length, k, tieSeed | 0, set.bits, at.out, at.heap);
  }
  out.set(new Int32Array(wasm.memory.buffer, at.out, queries.length * k));
  return true;
}

/**
 * The k nearest of the `m` codes of `candidates` (gathered, one after another) to each of the
 * `probes.length / words` codes of `probes`, best first, into `out` (probes x k): hammingKnn's
 * answer for queries placed after the candidates (query i at index m + i, so never one of them),
 * ties by the tie key of (m + i, candidate index). With `asSet`, each probe's k in no order (the
 * same users; for a caller that only counts them). With `only`, the probes it lists alone (each
 * keeping its place m + i), their answers one after another in `out`. Returns false when this kernel does not apply
 * (no WebAssembly, codes longer than 64 bits, or k not below m: every candidate is then an answer).
 */
export function wasmNearestOf(candidates: Uint32Array, m: number, probes: Uint32Array, bits: number, k: number, tieSeed: number, out: Int32Array, asSet = false, only?: Int32Array): boolean {
  const wasm = instance();
  const words = Math.ceil(bits / 32);
  if (!wasm || bits > WASM_MAX_BITS || words > 2 || k >= m) return false;
  const np = probes.length / words;
  const nq = only ? only.length : np;
  const set: CodeSet = { codes: candidates, bits, words };
  const at = layout(wasm, set, m + np, nq, k);
  // the set search's tied users and their keys, after the distance bytes and their summaries
  const padded = Math.ceil((m + np + 15) / 256) * 256;
  const tied = align16(at.dist + padded + (padded / 256) * 16 + 16);
  if (asSet) reserve(wasm, tied + (2 * m + 8) * 4);
  const buf = wasm.memory.buffer;
  new Uint32Array(buf, at.codes, m * words).set(candidates.subarray(0, m * words));
  new Uint32Array(buf, at.codes + m * words * 4, np * words).set(probes);
  const queries = new Int32Array(buf, at.queries, nq);
  for (let i = 0; i < nq; i++) queries[i] = m + (only ? only[i]! : i);
  if (asSet) wasm.knnSet(at.codes, m, at.queries, nq, k, tieSeed | 0, bits, at.out, at.heap, at.dist, words - 1, tied);
  else wasm.knnCount(at.codes, m, at.queries, nq, k, tieSeed | 0, bits, at.out, at.heap, at.dist, words - 1);
  out.set(new Int32Array(wasm.memory.buffer, at.out, nq * k));
  return true;
}

/**
 * The linkage attack's counts (src/evaluations/attack/linkage.ts): for each probe row r (a code of
 * `probes`), out[2r] = the users of `set` strictly closer to it than user targets[r] and
 * out[2r + 1] = the users at that user's distance (it included), exactly as the JS loop counts
 * them, except that a probe's count stops once out[2r] reaches `stop` (then out[2r] >= stop and
 * out[2r + 1] is partial). Returns false when this kernel does not apply (no WebAssembly, codes
 * longer than 64 bits).
 */
export function wasmRankCounts(set: CodeSet, probes: CodeSet, rows: Int32Array, targets: Int32Array, stop: number, out: Int32Array): boolean {
  const wasm = instance();
  if (!wasm || set.bits > WASM_MAX_BITS || set.words > 2 || probes.words !== set.words) return false;
  const users = set.codes.length / set.words;
  const np = rows.length;
  const codes = 0;
  const probeAt = align16(users * set.words * 4 + 32);
  const targetAt = align16(probeAt + np * set.words * 4);
  const outAt = align16(targetAt + np * 4);
  reserve(wasm, outAt + np * 8 + 16);
  const buf = wasm.memory.buffer;
  new Uint32Array(buf, codes, users * set.words).set(set.codes);
  const p = new Uint32Array(buf, probeAt, np * set.words);
  for (let i = 0; i < np; i++) for (let w = 0; w < set.words; w++) p[i * set.words + w] = probes.codes[rows[i]! * set.words + w]!;
  new Int32Array(buf, targetAt, np).set(targets);
  // the kernel compares a as an unsigned i32: a stop past it means "never stop"
  wasm.rankCount(codes, users, probeAt, targetAt, np, Math.min(stop, 0x7fffffff), set.words - 1, outAt);
  out.set(new Int32Array(wasm.memory.buffer, outAt, 2 * np));
  return true;
}

/** Stored entries per chunk of users copied into the module's memory by `wasmProject`. */
const PROJECT_CHUNK_NNZ = 1 << 19;

/**
 * Projections of every user on the planes (users x kappa, row-major) into `out`, from the n x kappa
 * transposed planes `byColumn`; the same doubles as the JS loop of projectAll (see hamming.wat).
 * Users go through the module's memory in chunks of about PROJECT_CHUNK_NNZ stored entries, so its
 * memory stays small. Returns false without WebAssembly.
 */
export function wasmProject(rowPtr: Int32Array, colIdx: Int32Array, values: Float64Array, byColumn: Float64Array, kappa: number, out: Float64Array, chunkNnz = PROJECT_CHUNK_NNZ): boolean {
  const wasm = instance();
  if (!wasm) return false;
  const users = rowPtr.length - 1;
  let start = 0;
  while (start < users) {
    let end = start + 1;
    while (end < users && rowPtr[end + 1] - rowPtr[start] <= chunkNnz) end++;
    const count = end - start;
    const first = rowPtr[start];
    const nnz = rowPtr[end] - first;
    // the planes' rows padded with zeros to whole blocks of 8 columns (hamming.wat projectBlocks)
    const cols = 0;
    const kp = Math.ceil(kappa / 8) * 8;
    const n = byColumn.length / kappa;
    const scratchAt = align16(n * kp * 8);
    const ptrAt = scratchAt + 128;
    const colAt = align16(ptrAt + (count + 1) * 4);
    const valAt = align16(colAt + nnz * 4);
    const outAt = align16(valAt + nnz * 8);
    const need = outAt + count * kappa * 8;
    reserve(wasm, need);
    const buf = wasm.memory.buffer;
    if (start === 0) {
      const padded = new Float64Array(buf, cols, n * kp);
      if (kp === kappa) padded.set(byColumn);
      else {
        padded.fill(0);
        for (let c = 0; c < n; c++) padded.set(byColumn.subarray(c * kappa, (c + 1) * kappa), c * kp);
      }
    }
    const ptr = new Int32Array(buf, ptrAt, count + 1);
    for (let i = 0; i <= count; i++) ptr[i] = rowPtr[start + i] - first;
    new Int32Array(buf, colAt, nnz).set(colIdx.subarray(first, first + nnz));
    new Float64Array(buf, valAt, nnz).set(values.subarray(first, first + nnz));
    wasm.projectBlocks(ptrAt, colAt, valAt, count, cols, kappa, kp, outAt, scratchAt);
    out.set(new Float64Array(wasm.memory.buffer, outAt, count * kappa), start * kappa);
    start = end;
  }
  return true;
}

/**
 * LapLSH's projected noise added to m users' projections (src/mechanisms/laplsh/mechanism.ts): for user t and
 * row a, out[t·kappa + a] += scales[t] · Σ_b us[a][b] · ws[t·kappa + b], the sum in b order from 0,
 * two rows per f64x2: the same doubles as the JS loop. `usT` is us transposed (kappa x kappa, b
 * major). `lower`: us is lower triangular, and the sums skip its zeros (half the work). `out`
 * (m x kappa) is updated in place; `zeroed` says it holds only +0 (a fresh buffer), so the module
 * starts from its own zeros instead of a copy of it (the same sums: 0 + x either way). Returns
 * false without WebAssembly.
 */
export function wasmLaplaceNoise(usT: Float64Array, ws: Float64Array, scales: Float64Array, m: number, kappa: number, out: Float64Array, lower = false, zeroed = false): boolean {
  return rowProducts(usT, ws, scales, m, kappa, kappa, out, lower, zeroed);
}

/**
 * The κ projections of m dense vectors: out[t·kappa + a] = Σ_c planes[a][c] · vs[t·cols + c], the
 * sum in c order from 0 with a separate multiply and add (the JS loop's doubles; the noise kernel
 * with every scale 1 onto zeros, both exact). `planesT` is the κ x cols matrix transposed (cols x
 * kappa). The direct samplers' W v (src/mechanisms/directional/ and laplsh/). `out` (m x kappa)
 * is overwritten. Returns false without WebAssembly.
 */
export function wasmProjectDense(planesT: Float64Array, vs: Float64Array, m: number, kappa: number, cols: number, out: Float64Array): boolean {
  return rowProducts(planesT, vs, new Float64Array(m).fill(1), m, kappa, cols, out.fill(0, 0, m * kappa), false);
}

function rowProducts(usT: Float64Array, ws: Float64Array, scales: Float64Array, m: number, kappa: number, cols: number, out: Float64Array, lower: boolean, zeroed = false): boolean {
  const wasm = instance();
  if (!wasm) return false;
  const usAt = 0;
  const wsAt = align16(usT.length * 8);
  const scaleAt = align16(wsAt + m * cols * 8);
  const outAt = align16(scaleAt + m * 8);
  const need = outAt + m * kappa * 8;
  reserve(wasm, need);
  const buf = wasm.memory.buffer;
  new Float64Array(buf, usAt, usT.length).set(usT);
  new Float64Array(buf, wsAt, m * cols).set(ws.subarray(0, m * cols));
  new Float64Array(buf, scaleAt, m).set(scales.subarray(0, m));
  const o = new Float64Array(buf, outAt, m * kappa);
  if (zeroed) o.fill(0);
  else o.set(out.subarray(0, m * kappa));
  wasm.noise(usAt, wsAt, scaleAt, m, kappa, cols, outAt, lower ? 1 : 0);
  out.set(o);
  return true;
}

/**
 * `out.length` standard normals from the xoshiro128++ `state` (updated in place), by the ziggurat
 * of src/random/ziggurat.ts: the same doubles as fillZigguratNormals. Returns false without
 * WebAssembly (then the caller runs the JS twin).
 */
export function wasmNormals(state: Int32Array, out: Float64Array): boolean {
  const wasm = instance();
  if (!wasm) return false;
  const tableAt = 16;
  const outAt = align16(tableAt + ZIGGURAT_TABLE.length * 8);
  reserve(wasm, outAt + out.length * 8);
  const buf = wasm.memory.buffer;
  const st = new Int32Array(buf, 0, 4);
  st.set(state);
  new Float64Array(buf, tableAt, ZIGGURAT_TABLE.length).set(ZIGGURAT_TABLE);
  wasm.normals(0, tableAt, outAt, out.length);
  out.set(new Float64Array(buf, outAt, out.length));
  state.set(st);
  return true;
}

/**
 * Bench baseline: the bare distance loop without selection over the same codes and queries
 * (i64.popcnt unrolled for 33..64 bits, SIMD for <= 32 bits); returns a checksum (the sum of
 * distances, or null without WebAssembly).
 */
export function wasmBareScan(set: CodeSet, queries: Int32Array): number | null {
  const wasm = instance();
  if (!wasm || set.words > 2) return null;
  const users = set.codes.length / set.words;
  const at = layout(wasm, set, users, queries.length, 0);
  const buf = wasm.memory.buffer;
  new Uint32Array(buf, at.codes, users * set.words).set(set.codes);
  new Int32Array(buf, at.queries, queries.length).set(queries);
  return set.words === 1 ? wasm.bare32(at.codes, users, at.queries, queries.length) : Number(wasm.bare64(at.codes, users, at.queries, queries.length));
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
 * loop. Rows are copied into the module in groups of 16 users, word-major (hamming.wat
 * `knnSym`). Returns false when the kernel does not apply (no WebAssembly, or more than
 * WASM_MAX_POSITIONS positions). Arguments are validated by the caller.
 */
export function wasmSymbolKnn(set: SymbolRows, users: number, queries: Int32Array, k: number, tieSeed: number, out: Int32Array, opts: SymbolKnnOptions = {}): boolean {
  const wasm = instance();
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
 * plane (hamming.wat `$distPlanes`), so that two
 * rows' unequal positions are popcount(OR of the planes' XORs). Word w's per = 32 / width symbols
 * land on bits [w·per, (w + 1)·per) of each plane: per divides 32, so never across two halves.
 */
function planeKnn(wasm: Exports, set: SymbolRows, users: number, queries: Int32Array, k: number, tieSeed: number, out: Int32Array): boolean {
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

/** How the reals kernel pairs its rows: 'auto' sums each pair once when every user is a query once. */
export type RealPairing = 'auto' | 'each' | 'once';

/** Options of wasmRealKnn (measurement and tests; the defaults are the measured best). */
export interface RealKnnOptions {
  pairing?: RealPairing;
}

/** Whether `queries` holds every one of `users` users exactly once. */
function everyUserOnce(queries: Int32Array, users: number): boolean {
  if (queries.length !== users) return false;
  const seen = new Uint8Array(users);
  for (let i = 0; i < queries.length; i++) {
    const q = queries[i]!;
    if (seen[q]) return false;
    seen[q] = 1;
  }
  return true;
}

/**
 * The k nearest of every query among `users` rows of `dims` doubles (row-major `values`) by the
 * squared Euclidean distance summed in float64 in coordinate order from 0, ties by the tie key, the
 * query excluded; best first into `out` (queries x k): the answer of src/lsh/releases.ts's JS loop
 * (the same doubles: lanes are users, each summing its terms in order). Rows are copied into the
 * module in groups of 8 users, coordinate-major (hamming.wat `knnReal`). Returns false when the
 * kernel does not apply (no WebAssembly, no coordinates, or a value that is not finite: then an
 * infinite difference makes NaN, and the JS loop's order of NaN is the reference).
 */
export function wasmRealKnn(values: Float64Array, dims: number, users: number, queries: Int32Array, k: number, tieSeed: number, out: Int32Array, opts: RealKnnOptions = {}): boolean {
  const wasm = instance();
  if (!wasm || dims < 1) return false;
  const n = users * dims;
  for (let i = 0; i < n; i++) if (!Number.isFinite(values[i]!)) return false;
  const nq = queries.length;
  const pairing = opts.pairing ?? 'auto';
  const once = pairing === 'once' || (pairing === 'auto' && everyUserOnce(queries, users));
  if (once && !everyUserOnce(queries, users)) throw new RangeError('pairing once needs every user a query exactly once');
  const heaps = once ? users : 1;
  const groups = Math.ceil(users / 8);
  const vals = 0;
  const queriesAt = align16(groups * dims * 64);
  const outAt = align16(queriesAt + nq * 4);
  const heapAt = align16(outAt + (once ? users : nq) * k * 4);
  // a list: (k rounded up to even, plus a sentinel) distances and as many u64 users (hamming.wat $rList)
  const boundsAt = align16(heapAt + heaps * (((k + 1) & ~1) + 1) * 16);
  const sizesAt = align16(boundsAt + groups * 8 * 8);
  const basesAt = align16(sizesAt + heaps * 4);
  const scratchAt = align16(basesAt + heaps * 4);
  reserve(wasm, scratchAt + 64);
  const buf = wasm.memory.buffer;
  // padding users: 1e300 makes every squared difference with a real row infinite (never within a finite bound)
  const rows = new Float64Array(buf, vals, groups * dims * 8).fill(1e300);
  for (let u = 0; u < users; u++) {
    const at = (u >>> 3) * dims * 8 + (u & 7);
    for (let j = 0; j < dims; j++) rows[at + j * 8] = values[u * dims + j]!;
  }
  // the padding users' bounds: never within (a distance is >= 0)
  new Float64Array(buf, boundsAt, groups * 8).fill(-1);
  new Int32Array(buf, queriesAt, nq).set(queries);
  wasm.knnReal(vals, users, dims, queriesAt, nq, k, tieSeed | 0, outAt, heapAt, boundsAt, sizesAt, basesAt, scratchAt, once ? 1 : 0);
  const answers = new Int32Array(wasm.memory.buffer, outAt, (once ? users : nq) * k);
  if (!once) out.set(answers);
  else for (let qi = 0; qi < nq; qi++) out.set(answers.subarray(queries[qi]! * k, (queries[qi]! + 1) * k), qi * k);
  return true;
}

// ---- attribute inference ----

/**
 * What the targets of one (trial, aux) hand the inference kernel once: each auxiliary user's items
 * as a bit set over prior places (aux index-major, `words64` little-endian u64 words a user, so
 * 2 · words64 u32 words), and the targets' item places one after another (target i's at
 * places[ptr[i] .. ptr[i + 1])).
 */
export interface InferKernelData {
  n: number;
  words64: number;
  auxBits: Uint32Array;
  ptr: Int32Array;
  places: Int32Array;
}

/**
 * The inference's own instance of the module (as the recommendations' one, below): its data stay in
 * its memory between the results of a trial, where the other kernels' calls would overwrite them.
 */
let inferWasm: { wasm: Exports; loaded: InferKernelData | null } | null | undefined;

function inferInstance(): { wasm: Exports; loaded: InferKernelData | null } | null {
  if (inferWasm === undefined) {
    const wasm = newInstance();
    inferWasm = wasm ? { wasm, loaded: null } : null;
  }
  return inferWasm;
}

/** The longest neighbour list the inference kernel takes (votes counted in at most 8 bit planes). */
export const INFER_MAX_TAKE = 255;

/**
 * Attribute inference's auc and prec@`precAt` of every target (out[2i], out[2i + 1]; NaN for a
 * target whose item set is empty or holds all n items) ranked from its first `take` neighbours
 * `nearest[i · take ..]` (aux indices): the doubles of src/evaluations/infer/ranking.ts
 * targetMetrics, counted from bit sets (see hamming.wat, inferRank). With `todo`, only the targets
 * it lists (ascending), the j-th ranked from nearest[j · take ..]; the others' entries of `out` are
 * left as they are. Returns false when this kernel does not apply (no WebAssembly, or more than
 * INFER_MAX_TAKE neighbours).
 */
export function wasmInferRanks(data: InferKernelData, nearest: Int32Array, take: number, precAt: number, out: Float64Array, todo?: Int32Array): boolean {
  const own = inferInstance();
  if (!own || take > INFER_MAX_TAKE) return false;
  const { wasm } = own;
  const W = data.words64;
  const T = data.ptr.length - 1;
  const count = todo ? todo.length : T;
  // at most 15 neighbours: four planes in locals (inferRank4); more: P planes in memory
  const P = take <= 15 ? 4 : 32 - Math.clz32(take);
  const L = take + 1;
  const bitsAt = 0;
  const ptrAt = align16(data.auxBits.length * 4);
  const placesAt = align16(ptrAt + data.ptr.length * 4);
  const nearestAt = align16(placesAt + data.places.length * 4);
  const todoAt = align16(nearestAt + count * take * 4);
  const outAt = align16(todoAt + count * 4);
  const planesAt = align16(outAt + T * 16);
  const cntAt = align16(planesAt + W * P * 8);
  // inferRank4 keeps 16 levels a word (a shift to find them), inferRank take + 1
  const baseAt = align16(cntAt + W * Math.max(L, 16) * 4);
  const nbsAt = align16(baseAt + L * 4);
  // per word: the places of each pair of plane bits (see inferRank4)
  const pairsAt = align16(nbsAt + take * 4);
  reserve(wasm, pairsAt + W * 64 + 16);
  const buf = wasm.memory.buffer;
  if (own.loaded !== data) {
    new Uint32Array(buf, bitsAt, data.auxBits.length).set(data.auxBits);
    new Int32Array(buf, ptrAt, data.ptr.length).set(data.ptr);
    new Int32Array(buf, placesAt, data.places.length).set(data.places);
    own.loaded = data;
  }
  new Int32Array(buf, nearestAt, count * take).set(nearest.subarray(0, count * take));
  const list = new Int32Array(buf, todoAt, count);
  if (todo) list.set(todo);
  else for (let i = 0; i < T; i++) list[i] = i;
  if (take <= 15) wasm.inferRank4(bitsAt, W, take, todoAt, count, ptrAt, placesAt, nearestAt, outAt, planesAt, cntAt, baseAt, nbsAt, pairsAt, data.n, precAt);
  else wasm.inferRank(bitsAt, W, P, take, todoAt, count, ptrAt, placesAt, nearestAt, outAt, planesAt, cntAt, baseAt, data.n, precAt);
  const ranks = new Float64Array(wasm.memory.buffer, outAt, 2 * T);
  if (!todo) out.set(ranks);
  else
    for (const t of todo) {
      out[2 * t] = ranks[2 * t]!;
      out[2 * t + 1] = ranks[2 * t + 1]!;
    }
  return true;
}

// ---- recommendation scoring ----

/** A user-vectors matrix as the recommendation scoring reads it (data/types.ts `UserVectors`, stated by shape). */
interface ScoredRows {
  /** the number of item columns */
  n: number;
  rowPtr: Int32Array;
  colIdx: Int32Array;
  values: Float64Array;
}

/** A recommendation split's training and held-out columns (data/types.ts `RecommendData`, stated by shape). */
interface SplitColumns {
  trainPtr: Int32Array;
  trainCol: Int32Array;
  heldPtr: Int32Array;
  heldCol: Int32Array;
}

/** The sums over the queries of HR, NDCG and item recall per (k, N) cell, not yet divided by their number. */
export interface RecommendSums {
  hr: Float64Array;
  ndcg: Float64Array;
  itemRecall: Float64Array;
}

/**
 * The most bytes of vectors and split the recommendation instance keeps in its memory (about 5M
 * stored entries). A WebAssembly memory never shrinks, and each thread has its own: a larger data
 * set is scored by the JS loop, where the other work of a trial cell (a k-NN over that many users)
 * outweighs the lists anyway.
 */
export const RECOMMEND_MAX_BYTES = 64 << 20;

let recCached: Exports | null | undefined;

/**
 * A second instance of the module for the recommendation scoring alone: the other kernels lay out
 * their arrays from address 0 of their instance's memory at every call, and would overwrite the
 * vectors and split that this one keeps from call to call (the same for every result of a trial
 * cell). Null where the first instance is (no WebAssembly SIMD, or LSHDP_HAMMING_KERNEL=js).
 */
function recInstance(): Exports | null {
  if (recCached === undefined) recCached = newInstance();
  return recCached;
}

/**
 * What the recommendation instance holds from an earlier call: its source arrays (by identity,
 * weakly: a group's data released by its thread are not kept alive here) and their addresses.
 */
interface HeldRows {
  sources: readonly WeakRef<ArrayBufferView>[];
  rowPtr: number;
  colIdx: number;
  values: number;
  trainPtr: number;
  trainCol: number;
  heldPtr: number;
  heldCol: number;
  /** the first free byte after them */
  end: number;
}

let held: HeldRows | null = null;

/** Whether every row of a CSR matrix holds distinct columns in ascending order (the kernel lists a row's columns as they are). */
function rowsAscending(rowPtr: Int32Array, colIdx: Int32Array): boolean {
  for (let u = 0; u + 1 < rowPtr.length; u++) for (let p = rowPtr[u]! + 1; p < rowPtr[u + 1]!; p++) if (!(colIdx[p]! > colIdx[p - 1]!)) return false;
  return true;
}

/** Whether the CSR offsets `ptr` run from 0 up to at most `length` without going down. */
function offsetsOf(ptr: Int32Array, length: number): boolean {
  if (ptr[0] !== 0 || !(ptr[ptr.length - 1]! <= length)) return false;
  for (let i = 1; i < ptr.length; i++) if (!(ptr[i]! >= ptr[i - 1]!)) return false;
  return true;
}

/**
 * Copies the vectors and split into the recommendation instance's memory unless the same arrays
 * (by identity: the data of a group are never changed once loaded) are there from the call before;
 * null when an offset or column is out of range (the kernel reads without bounds checks) or a row's
 * columns are not distinct and ascending: the JS loop then runs. The checks run with the copy, once
 * per data, not per call.
 */
function holdRows(wasm: Exports, vectors: ScoredRows, rec: SplitColumns): HeldRows | null {
  const sources = [vectors.rowPtr, vectors.colIdx, vectors.values, rec.trainPtr, rec.trainCol, rec.heldPtr, rec.heldCol];
  if (held?.sources.every((a, i) => a.deref() === sources[i])) return held;
  held = null;
  const n = vectors.n;
  const users = vectors.rowPtr.length - 1;
  if (vectors.values.length !== vectors.colIdx.length || rec.trainPtr.length !== users + 1 || rec.heldPtr.length !== users + 1) return null;
  if (!offsetsOf(vectors.rowPtr, vectors.colIdx.length) || !offsetsOf(rec.trainPtr, rec.trainCol.length) || !offsetsOf(rec.heldPtr, rec.heldCol.length)) return null;
  if (!indicesBelow(vectors.colIdx, n) || !indicesBelow(rec.trainCol, n) || !indicesBelow(rec.heldCol, n)) return null;
  if (!rowsAscending(vectors.rowPtr, vectors.colIdx)) return null;
  // values first: the doubles 8-aligned at 0, every other part 16-aligned after
  const values = 0;
  const rowPtr = align16(vectors.values.length * 8);
  const colIdx = align16(rowPtr + vectors.rowPtr.length * 4);
  const trainPtr = align16(colIdx + vectors.colIdx.length * 4);
  const trainCol = align16(trainPtr + rec.trainPtr.length * 4);
  const heldPtr = align16(trainCol + rec.trainCol.length * 4);
  const heldCol = align16(heldPtr + rec.heldPtr.length * 4);
  const end = align16(heldCol + rec.heldCol.length * 4);
  reserve(wasm, end);
  const buf = wasm.memory.buffer;
  new Float64Array(buf, values, vectors.values.length).set(vectors.values);
  new Int32Array(buf, rowPtr, vectors.rowPtr.length).set(vectors.rowPtr);
  new Int32Array(buf, colIdx, vectors.colIdx.length).set(vectors.colIdx);
  new Int32Array(buf, trainPtr, rec.trainPtr.length).set(rec.trainPtr);
  new Int32Array(buf, trainCol, rec.trainCol.length).set(rec.trainCol);
  new Int32Array(buf, heldPtr, rec.heldPtr.length).set(rec.heldPtr);
  new Int32Array(buf, heldCol, rec.heldCol.length).set(rec.heldCol);
  held = { sources: sources.map((a) => new WeakRef<ArrayBufferView>(a)), rowPtr, colIdx, values, trainPtr, trainCol, heldPtr, heldCol, end };
  return held;
}

/** Whether every entry of `a` is an index in [0, bound). */
function indicesBelow(a: Int32Array, bound: number): boolean {
  for (let i = 0; i < a.length; i++) if (!(a[i]! >= 0 && a[i]! < bound)) return false;
  return true;
}

/**
 * The sums over `queries` (in query order) of src/evaluations/recommend/lists.ts's per-query HR,
 * NDCG and item recall at every (k of `ks`, N of `top`), cell ki * top.length + ni, the neighbours
 * of query q at k being answers[q * width .. q * width + k): the very doubles of the JS loop there,
 * which divides them by the number of queries. `disc` holds 1/log2(r + 1) for r = 1..N of the last
 * N, as that loop computes it. The vectors and split stay in the module's memory from one call to
 * the next while they are the same arrays (every result of a trial cell). Returns null when the
 * kernel does not apply (no WebAssembly, data over RECOMMEND_MAX_BYTES, an index out of range, a
 * row whose columns are not distinct and ascending, or a query without a held-out item: the JS
 * loop then runs, or reports it). Arguments are otherwise validated by the caller.
 */
export function wasmRecommendSums(
  vectors: ScoredRows,
  rec: SplitColumns,
  queries: Int32Array,
  answers: Int32Array,
  width: number,
  ks: readonly number[],
  top: readonly number[],
  disc: Float64Array,
): RecommendSums | null {
  const wasm = recInstance();
  if (!wasm) return null;
  const users = vectors.rowPtr.length - 1;
  const n = vectors.n;
  const bytes = vectors.values.length * 8 + (vectors.rowPtr.length + vectors.colIdx.length) * 4 + (rec.trainPtr.length + rec.trainCol.length + rec.heldPtr.length + rec.heldCol.length) * 4;
  if (bytes > RECOMMEND_MAX_BYTES) return null;
  if (!indicesBelow(queries, users) || !indicesBelow(answers, users)) return null;
  for (let q = 0; q < queries.length; q++) if (!(rec.heldPtr[queries[q]! + 1]! > rec.heldPtr[queries[q]!]!)) return null;
  const rows = holdRows(wasm, vectors, rec);
  if (!rows) return null;
  const nq = queries.length;
  const nk = ks.length;
  const nt = top.length;
  const nMax = top[nt - 1]!;
  const cells = nk * nt;
  const queriesAt = rows.end;
  const answersAt = align16(queriesAt + nq * 4);
  const ksAt = align16(answersAt + answers.length * 4);
  const topAt = align16(ksAt + nk * 4);
  const discAt = align16(topAt + nt * 4);
  const scoresAt = align16(discAt + nMax * 8);
  const relAt = align16(scoresAt + (n + 16) * 8);
  const listScoreAt = align16(relAt + n);
  const listColAt = align16(listScoreAt + nMax * 8);
  const sumsAt = align16(listColAt + nMax * 4);
  const guessAt = align16(sumsAt + 3 * cells * 8);
  const bufAt = align16(guessAt + nk * 8);
  reserve(wasm, bufAt + n * 4);
  const buf = wasm.memory.buffer;
  new Int32Array(buf, queriesAt, nq).set(queries);
  new Int32Array(buf, answersAt, answers.length).set(answers);
  new Int32Array(buf, ksAt, nk).set(ks);
  new Int32Array(buf, topAt, nt).set(top);
  new Float64Array(buf, discAt, nMax).set(disc.subarray(0, nMax));
  // the 16 doubles after the n scores: NaN, never listed (the last block of 16 columns may read them)
  new Float64Array(buf, scoresAt + n * 8, 16).fill(Number.NaN);
  new Uint8Array(buf, relAt, n).fill(0);
  const sums = new Float64Array(buf, sumsAt, 3 * cells).fill(0);
  // no guess yet of each k's floor (hamming.wat recTop): the first query's passes are over every column
  new Float64Array(buf, guessAt, nk).fill(Number.NEGATIVE_INFINITY);
  wasm.recScore(
    rows.rowPtr,
    rows.colIdx,
    rows.values,
    rows.trainPtr,
    rows.trainCol,
    rows.heldPtr,
    rows.heldCol,
    queriesAt,
    nq,
    answersAt,
    width,
    ksAt,
    nk,
    topAt,
    nt,
    discAt,
    n,
    scoresAt,
    relAt,
    listScoreAt,
    listColAt,
    sumsAt,
    guessAt,
    bufAt,
  );
  return { hr: sums.slice(0, cells), ndcg: sums.slice(cells, 2 * cells), itemRecall: sums.slice(2 * cells) };
}

// ---- The exact angular k-NN's tiles (src/knn/angular.ts exactKnn) ----

/**
 * The most users of one tile: their places are u16 in the module, and their dots (8 bytes each)
 * should stay in the first-level cache while a query's postings are added into them.
 */
export const ANGULAR_TILE_USERS = 8192;

/**
 * The stored entries a tile of users is cut at (a user with more is a tile alone): the tile's
 * transposed rows (10 bytes an entry) are read again by every query, from the second-level cache.
 */
export const ANGULAR_TILE_NNZ = 65536;

/**
 * One block of queries against the users, tile by tile, in the module's memory (hamming.wat
 * `exactDots`): `load` transposes a tile of users by column, `dots` computes one query's dots
 * against it into `dot` and lists in `cand` the tile's places whose dot is not below a threshold.
 */
export interface AngularTiles {
  /** the dots of the loaded tile's users (place j: user u0 + j) for the last query (a view of the module's memory) */
  readonly dot: Float64Array;
  /** the places the last `dots` found not below its threshold, ascending (a view of the module's memory) */
  readonly cand: Int32Array;
  /** Transposes users [u0, u1) (at most the maxUsers and maxNnz given) into the module. */
  load(u0: number, u1: number): void;
  /** Query `i` of the block against the loaded tile; returns the count of places in `cand`. */
  dots(i: number, thr: number): number;
}

/**
 * The tiles of `rows` for the block `queries`, or null when the kernel does not apply (no
 * WebAssembly, a tile over ANGULAR_TILE_USERS users, or a query's column out of range: the kernel
 * reads without bounds checks; `load` throws on a tile's). `maxNnz`: the most stored entries of any tile that will be loaded. Each
 * query's columns go in its row's order, so its dots are the sums of the JS pass (see hamming.wat).
 */
export function wasmAngularTiles(rows: ScoredRows, queries: Int32Array, maxUsers: number, maxNnz: number): AngularTiles | null {
  const wasm = instance();
  if (!wasm || maxUsers > ANGULAR_TILE_USERS) return null;
  const { n, rowPtr, colIdx, values } = rows;
  const nq = queries.length;
  const qPtr = new Int32Array(nq + 1);
  for (let i = 0; i < nq; i++) qPtr[i + 1] = qPtr[i]! + rowPtr[queries[i]! + 1]! - rowPtr[queries[i]!]!;
  const qnnz = qPtr[nq]!;
  // the doubles first, each part 16-aligned; the tile's rows as they are (rPtr, rCol, rVal), then
  // transposed by the module (cPtr, cUser, cVal)
  const qValAt = 0;
  const rValAt = align16(qnnz * 8);
  const cValAt = align16(rValAt + maxNnz * 8);
  const dotAt = align16(cValAt + maxNnz * 8);
  const qColAt = align16(dotAt + maxUsers * 8);
  const rColAt = align16(qColAt + qnnz * 4);
  const rPtrAt = align16(rColAt + maxNnz * 4);
  const cPtrAt = align16(rPtrAt + (maxUsers + 1) * 4);
  const cUserAt = align16(cPtrAt + (n + 1) * 4);
  const candAt = align16(cUserAt + maxNnz * 2);
  reserve(wasm, candAt + maxUsers * 4);
  const buf = wasm.memory.buffer;
  const qCol = new Int32Array(buf, qColAt, qnnz);
  const qVal = new Float64Array(buf, qValAt, qnnz);
  for (let i = 0; i < nq; i++) {
    const q = queries[i]!;
    const from = rowPtr[q]!;
    const count = rowPtr[q + 1]! - from;
    qCol.set(colIdx.subarray(from, from + count), qPtr[i]!);
    qVal.set(values.subarray(from, from + count), qPtr[i]!);
  }
  for (let i = 0; i < qnnz; i++) if (!(qCol[i]! >= 0 && qCol[i]! < n)) return null;
  const rPtr = new Int32Array(buf, rPtrAt, maxUsers + 1);
  const rCol = new Int32Array(buf, rColAt, maxNnz);
  const rVal = new Float64Array(buf, rValAt, maxNnz);
  let len = 0;
  return {
    dot: new Float64Array(buf, dotAt, maxUsers),
    cand: new Int32Array(buf, candAt, maxUsers),
    load(u0: number, u1: number): void {
      const p0 = rowPtr[u0]!;
      const p1 = rowPtr[u1]!;
      if (u1 - u0 > maxUsers || p1 - p0 > maxNnz) throw new RangeError(`wasmAngularTiles: tile ${u0}..${u1} over ${maxUsers} users or ${maxNnz} entries`);
      len = u1 - u0;
      rPtr.set(rowPtr.subarray(u0, u1 + 1));
      rCol.set(colIdx.subarray(p0, p1));
      rVal.set(values.subarray(p0, p1));
      if (wasm.exactTile(rPtrAt, p0, rColAt, rValAt, len, n, cPtrAt, cUserAt, cValAt) !== 0) {
        throw new RangeError(`wasmAngularTiles: a column of users ${u0}..${u1 - 1} is out of range 0..${n - 1}`);
      }
    },
    dots(i: number, thr: number): number {
      return wasm.exactDots(cPtrAt, cUserAt, cValAt, len, qColAt + qPtr[i]! * 4, qValAt + qPtr[i]! * 8, qPtr[i + 1]! - qPtr[i]!, dotAt, thr, candAt);
    },
  };
}

// ---- the randomized response's draws on seedrandom's xor4096 (src/mechanisms/flips.ts) ----

/** The bytes of an xor4096 state in the module's memory (src/random/rng.ts: X[0..127], i, w). */
const XOR_STATE_BYTES = 130 * 4;

/**
 * Runs `draw` on the module with the generator's `state` and `users` x `words` code words copied in
 * (state at 0, codes after it), then copies both back: the codes as the JS loop leaves them and the
 * state as that many draws leave it. Returns false without WebAssembly.
 */
function onCodes(state: Int32Array, codes: Uint32Array, users: number, words: number, draw: (wasm: Exports, st: number, at: number) => void): boolean {
  const wasm = instance();
  if (!wasm) return false;
  if (state.length !== XOR_STATE_BYTES / 4) throw new RangeError(`an xor4096 state holds ${XOR_STATE_BYTES / 4} int32, got ${state.length}`);
  const at = align16(XOR_STATE_BYTES);
  const count = users * words;
  reserve(wasm, at + count * 4);
  const buf = wasm.memory.buffer;
  const st = new Int32Array(buf, 0, state.length);
  st.set(state);
  const c = new Uint32Array(buf, at, count);
  c.set(codes.subarray(0, count));
  draw(wasm, 0, at);
  codes.set(c);
  state.set(st);
  return true;
}

/**
 * flipBitsOnGrid's flips (src/mechanisms/flips.ts) on the generator whose xor4096 `state` it is:
 * each of the `users` x `words` code words XORed with bernoulliWord(t) (0 < t < 2^31), the last
 * word of a row masked by `mask`, the draws in the JS loop's order. The same codes and the same
 * state after as the JS loop. Returns false without WebAssembly.
 */
export function wasmFlipGrid(state: Int32Array, codes: Uint32Array, users: number, words: number, mask: number, t: number): boolean {
  if (!(Number.isInteger(t) && t > 0 && t < 2 ** 31)) throw new RangeError(`wasmFlipGrid: t must be an integer in (0, 2^31), got ${t}`);
  return onCodes(state, codes, users, words, (wasm, st, at) => wasm.flipGrid(st, at, users, words, mask | 0, t));
}

/** randomizeAll's words (src/mechanisms/flips.ts): one draw a code word, a row's last word masked by `mask`; as wasmFlipGrid. */
export function wasmRandomWords(state: Int32Array, codes: Uint32Array, users: number, words: number, mask: number): boolean {
  return onCodes(state, codes, users, words, (wasm, st, at) => wasm.randomWords(st, at, users, words, mask | 0));
}

// ---- the signs of a + scale·b (src/lsh/codes.ts packCombinedSigns) ----

/** Users per chunk of wasmCombinedSigns: their rows of a and b (2 x 8·kappa bytes each) stay in the cache. */
const SIGNS_CHUNK = 1024;

/**
 * The codes of a[i] + scale[i]·b[i] (row-major users x kappa; bit j of user i is 1 iff
 * a[i·kappa + j] + scale[i]·b[i·kappa + j] >= 0, the product and the sum rounded as the JS loop
 * rounds them) into `codes` (users x ceil(kappa / 32) words, every word written): packCombinedSigns'
 * bits. Users go through the module's memory in chunks. Returns false without WebAssembly.
 */
export function wasmCombinedSigns(a: Float64Array, b: Float64Array, scale: Float64Array, users: number, kappa: number, codes: Uint32Array): boolean {
  const wasm = instance();
  if (!wasm) return false;
  const words = Math.ceil(kappa / 32);
  const chunk = Math.min(users, SIGNS_CHUNK);
  const bAt = align16(chunk * kappa * 8);
  const scaleAt = align16(bAt + chunk * kappa * 8);
  const outAt = align16(scaleAt + chunk * 8);
  reserve(wasm, outAt + chunk * words * 4);
  const buf = wasm.memory.buffer;
  const av = new Float64Array(buf, 0, chunk * kappa);
  const bv = new Float64Array(buf, bAt, chunk * kappa);
  const sv = new Float64Array(buf, scaleAt, chunk);
  const ov = new Uint32Array(buf, outAt, chunk * words);
  for (let start = 0; start < users; start += chunk) {
    const m = Math.min(chunk, users - start);
    av.set(a.subarray(start * kappa, (start + m) * kappa));
    bv.set(b.subarray(start * kappa, (start + m) * kappa));
    sv.set(scale.subarray(start, start + m));
    wasm.signs(0, bAt, scaleAt, m, kappa, outAt);
    codes.set(m === chunk ? ov : ov.subarray(0, m * words), start * words);
  }
  return true;
}

// ---- the bucket path of the Hamming k-NN (src/lsh/hammingKnn.ts) ----

/**
 * The k nearest of every query (best first into `out`, queries x k) over users grouped by code
 * (codes of at most 16 bits, one word a user): `bucketCode` the distinct codes, bucket t's users
 * at bucketUsers[bucketStart[t] .. bucketStart[t + 1]). hammingKnn's bucket path, with the heap
 * and tie keys of the scans (hamming.wat knnBucket): the same answers. Returns false without
 * WebAssembly. Arguments are validated by the caller (k below the number of users).
 */
export function wasmBucketKnn(
  codes: Uint32Array,
  bits: number,
  bucketCode: Int32Array,
  bucketStart: Int32Array,
  bucketUsers: Int32Array,
  queries: Int32Array,
  k: number,
  tieSeed: number,
  out: Int32Array,
): boolean {
  const wasm = instance();
  if (!wasm || bits > 16) return false;
  const users = bucketUsers.length;
  const nb = bucketCode.length;
  const nq = queries.length;
  const codesAt = 0;
  const bcodeAt = align16(users * 4);
  const bstartAt = align16(bcodeAt + nb * 4);
  const busersAt = align16(bstartAt + (nb + 1) * 4);
  const queriesAt = align16(busersAt + users * 4);
  const outAt = align16(queriesAt + nq * 4);
  const heapAt = align16(outAt + nq * k * 4);
  const bdistAt = align16(heapAt + k * 12);
  const histAt = align16(bdistAt + nb);
  reserve(wasm, histAt + (bits + 1) * 4);
  const buf = wasm.memory.buffer;
  new Uint32Array(buf, codesAt, users).set(codes.subarray(0, users));
  new Int32Array(buf, bcodeAt, nb).set(bucketCode);
  new Int32Array(buf, bstartAt, nb + 1).set(bucketStart);
  new Int32Array(buf, busersAt, users).set(bucketUsers);
  new Int32Array(buf, queriesAt, nq).set(queries);
  wasm.knnBucket(codesAt, bcodeAt, bstartAt, nb, busersAt, queriesAt, nq, k, tieSeed | 0, bits, outAt, heapAt, bdistAt, histAt);
  out.set(new Int32Array(wasm.memory.buffer, outAt, nq * k));
  return true;
}
