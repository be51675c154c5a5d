/**
 * The linkage attack's counts (src/kernels/attack.wat rankCount) on codes of at most 64 bits: the
 * JS loop of src/evaluations/attack/linkage.ts, bit for bit (tests/kernels/wasm.test.ts 'rankCount').
 */

import { align16, instance, reserve, type KernelMemory } from './instance.js';
import { WASM_MAX_BITS } from './knn.js';
import type { CodeSet } from './shapes.js';

/** The exports of attack.wat. */
interface AttackExports extends KernelMemory {
  rankCount(codes: number, users: number, probes: number, targets: number, np: number, stop: number, wide: number, out: number): void;
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
  const wasm = instance<AttackExports>();
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
