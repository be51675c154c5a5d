// The inference ranks' call on a module's exports, as src/kernels/infer.ts wasmInferRanks makes it:
// the same memory layout and the same arguments, for the hand-written WAT module (src/kernels) and
// the AssemblyScript one (infer.wasm) alike, so both run on byte-identical memory. Used by time.mjs
// and tests/kernels/inferAssemblyScript.test.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HERE } from './build.mjs';

const align16 = (x) => (x + 15) & ~15;

/** The AssemblyScript module (infer.wasm), a fresh instance: its exports inferRank, inferRank4, memory. */
export function assemblyScriptInstance(file = join(HERE, 'infer.wasm')) {
  return new WebAssembly.Instance(new WebAssembly.Module(readFileSync(file)), {}).exports;
}

/**
 * Lays out `data` (src/kernels/infer.ts InferKernelData), the neighbours `nearest` (take a target,
 * every target in order) in `wasm`'s memory as wasmInferRanks does, and returns `run()`, which
 * ranks every target (one call of inferRank4 for take <= 15, else inferRank), and `out()`, the
 * 2T doubles it wrote.
 */
export function prepare(wasm, data, nearest, take, precAt) {
  const W = data.words64;
  const T = data.ptr.length - 1;
  const P = take <= 15 ? 4 : 32 - Math.clz32(take);
  const L = take + 1;
  const bitsAt = 0;
  const ptrAt = align16(data.auxBits.length * 4);
  const placesAt = align16(ptrAt + data.ptr.length * 4);
  const nearestAt = align16(placesAt + data.places.length * 4);
  const todoAt = align16(nearestAt + T * take * 4);
  const outAt = align16(todoAt + T * 4);
  const planesAt = align16(outAt + T * 16);
  const cntAt = align16(planesAt + W * P * 8);
  const baseAt = align16(cntAt + W * Math.max(L, 16) * 4);
  const nbsAt = align16(baseAt + L * 4);
  const pairsAt = align16(nbsAt + take * 4);
  const need = pairsAt + W * 64 + 16;
  const have = wasm.memory.buffer.byteLength;
  if (need > have) wasm.memory.grow(Math.ceil((need - have) / 65536));
  const buf = wasm.memory.buffer;
  new Uint8Array(buf).fill(0, 0, need);
  new Uint32Array(buf, bitsAt, data.auxBits.length).set(data.auxBits);
  new Int32Array(buf, ptrAt, data.ptr.length).set(data.ptr);
  new Int32Array(buf, placesAt, data.places.length).set(data.places);
  new Int32Array(buf, nearestAt, T * take).set(nearest.subarray(0, T * take));
  const list = new Int32Array(buf, todoAt, T);
  for (let i = 0; i < T; i++) list[i] = i;
  const run =
    take <= 15
      ? () => wasm.inferRank4(bitsAt, W, take, todoAt, T, ptrAt, placesAt, nearestAt, outAt, planesAt, cntAt, baseAt, nbsAt, pairsAt, data.n, precAt)
      : () => wasm.inferRank(bitsAt, W, P, take, todoAt, T, ptrAt, placesAt, nearestAt, outAt, planesAt, cntAt, baseAt, data.n, precAt);
  return { run, out: () => new Float64Array(wasm.memory.buffer.slice(outAt, outAt + T * 16)) };
}

/** Whether two arrays of doubles are the same bits (NaN's payload included). */
export function sameBits(a, b) {
  const x = new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
  const y = new Uint8Array(b.buffer, b.byteOffset, b.byteLength);
  return x.length === y.length && x.every((v, i) => v === y[i]);
}
