/**
 * The draws and products of a release (src/kernels/releases.wat): the projections on the planes
 * (wasmProject), LapLSH's noise products and the direct samplers' W v (wasmLaplaceNoise,
 * wasmProjectDense), the standard normals (wasmNormals), the randomized response's flips and words
 * (wasmFlipGrid, wasmRandomWords) and the signs of a + scale·b (wasmCombinedSigns). Each gives its
 * JS twin's doubles or bits (the twins and tests: releases.wat's header).
 */

import { ZIGGURAT_TABLE } from '../random/ziggurat.js';
import { align16, instance, reserve, type KernelMemory } from './instance.js';

/** The exports of releases.wat. */
interface ReleaseExports extends KernelMemory {
  noise(usT: number, ws: number, scales: number, m: number, kappa: number, cols: number, out: number, lower: number): void;
  normals(state: number, table: number, out: number, count: number): void;
  projectBlocks(rowPtr: number, colIdx: number, values: number, users: number, cols: number, kappa: number, kp: number, out: number, scratch: number): void;
  flipGrid(state: number, codes: number, n: number, words: number, mask: number, t: number): void;
  randomWords(state: number, codes: number, n: number, words: number, mask: number): void;
  signs(a: number, b: number, scale: number, m: number, kappa: number, out: number): void;
}

/** Stored entries per chunk of users copied into the module's memory by `wasmProject`. */
const PROJECT_CHUNK_NNZ = 1 << 19;

/**
 * Projections of every user on the planes (users x kappa, row-major) into `out`, from the n x kappa
 * transposed planes `byColumn`; the same doubles as the JS loop of projectAll (see releases.wat).
 * Users go through the module's memory in chunks of about PROJECT_CHUNK_NNZ stored entries, so its
 * memory stays small. Returns false without WebAssembly.
 */
export function wasmProject(rowPtr: Int32Array, colIdx: Int32Array, values: Float64Array, byColumn: Float64Array, kappa: number, out: Float64Array, chunkNnz = PROJECT_CHUNK_NNZ): boolean {
  const wasm = instance<ReleaseExports>();
  if (!wasm) return false;
  const users = rowPtr.length - 1;
  let start = 0;
  while (start < users) {
    let end = start + 1;
    while (end < users && rowPtr[end + 1] - rowPtr[start] <= chunkNnz) end++;
    const count = end - start;
    const first = rowPtr[start];
    const nnz = rowPtr[end] - first;
    // the planes' rows padded with zeros to whole blocks of 8 columns (releases.wat projectBlocks)
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
  const wasm = instance<ReleaseExports>();
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
  const wasm = instance<ReleaseExports>();
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

// ---- the randomized response's draws on seedrandom's xor4096 (src/mechanisms/flips.ts) ----

/** The bytes of an xor4096 state in the module's memory (src/random/rng.ts: X[0..127], i, w). */
const XOR_STATE_BYTES = 130 * 4;

/**
 * Runs `draw` on the module with the generator's `state` and `users` x `words` code words copied in
 * (state at 0, codes after it), then copies both back: the codes as the JS loop leaves them and the
 * state as that many draws leave it. Returns false without WebAssembly.
 */
function onCodes(state: Int32Array, codes: Uint32Array, users: number, words: number, draw: (wasm: ReleaseExports, st: number, at: number) => void): boolean {
  const wasm = instance<ReleaseExports>();
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
  const wasm = instance<ReleaseExports>();
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
