/**
 * The kernels' one WebAssembly module (src/kernels/*.wat, assembled in one by
 * scripts/build-wasm.mjs into binary.ts): compiled once per thread and instantiated synchronously
 * at first use, so worker threads get their own cached instance, with its own memory. Every
 * wrapper beside a kernel source (knn.ts beside knn.wat, ...) takes the shared instance from here,
 * or a private one (newInstance) when its data must stay in memory between calls.
 *
 * The module uses WebAssembly SIMD; where it does not validate (an engine without SIMD), or when
 * the environment sets LSHDP_KERNEL=js (or its older name LSHDP_HAMMING_KERNEL=js), every caller
 * runs its JS loop instead (the same results: tests/lsh/kernels.cli.test.ts).
 */
import { KERNELS_WASM_BASE64 } from './binary.js';

/** What every kernel's exports hold: the module's one memory. */
export interface KernelMemory {
  memory: WebAssembly.Memory;
}

/** The kernel that runs the Hamming scan (and every other kernel) in this thread. */
export type HammingKernelName = 'wasm-simd' | 'js';

let cached: KernelMemory | null | undefined;

/** The module, compiled once per thread (null where it does not validate: no WebAssembly SIMD). */
let compiled: WebAssembly.Module | null | undefined;

/**
 * Whether the environment turns every kernel off: LSHDP_KERNEL=js, or LSHDP_HAMMING_KERNEL=js, its
 * name from when the Hamming scan was the only kernel (kept as an alias).
 */
export function kernelsOff(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.LSHDP_KERNEL === 'js' || env.LSHDP_HAMMING_KERNEL === 'js';
}

/** A new instance of the module, with its own memory; null where the kernel does not run in this thread. */
export function newInstance<T extends KernelMemory>(): T | null {
  if (kernelsOff()) return null;
  try {
    if (compiled === undefined) {
      const bytes = Buffer.from(KERNELS_WASM_BASE64, 'base64');
      compiled = WebAssembly.validate(bytes) ? new WebAssembly.Module(bytes) : null;
    }
    // the normals' slow path calls the engine's own exp and log: the JS twin's doubles
    return compiled ? (new WebAssembly.Instance(compiled, { math: { exp: Math.exp, log: Math.log } }).exports as unknown as T) : null;
  } catch {
    compiled = null;
    return null;
  }
}

/** The thread's shared instance (the kernels that lay their arrays out from address 0 at every call). */
export function instance<T extends KernelMemory>(): T | null {
  if (cached === undefined) cached = newInstance<KernelMemory>();
  return cached as T | null;
}

/** 'wasm-simd' when the WebAssembly kernel is available in this thread, else 'js'. */
export function hammingKernelName(): HammingKernelName {
  return instance() ? 'wasm-simd' : 'js';
}

/** x rounded up to a multiple of 16 (the kernels' arrays start 16-aligned). */
export const align16 = (x: number): number => (x + 15) & ~15;

/** Grows the module's memory to at least `bytes` (whole 64 KiB pages). */
export function reserve(wasm: KernelMemory, bytes: number): void {
  const have = wasm.memory.buffer.byteLength;
  if (bytes > have) wasm.memory.grow(Math.ceil((bytes - have) / 65536));
}
