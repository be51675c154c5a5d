import { afterEach, describe, expect, it, vi } from 'vitest';
import { hammingKnn } from '../../src/lsh/hammingKnn.js';
import { emptyCodes } from '../../src/lsh/codes.js';
import { HAMMING_WASM_BASE64 } from '../../src/lsh/wasm/binary.js';
import { hammingKernelName } from '../../src/lsh/wasm/kernel.js';
import { flipBits } from '../../src/mechanisms/flips.js';
import { makeRng } from '../../src/random/rng.js';
// @ts-expect-error: a plain .mjs build script without type declarations
import { assembleHammingWasm } from '../../scripts/build-wasm.mjs';

function randomCodes(users: number, bits: number, seed: string) {
  const set = emptyCodes(users, bits);
  flipBits(set, 0.5, makeRng(seed));
  return set;
}

describe('WebAssembly Hamming kernel', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  it('is the committed build of src/lsh/wasm/hamming.wat (rebuilt byte for byte)', async () => {
    const bytes: Buffer = await assembleHammingWasm();
    expect(bytes.equals(Buffer.from(HAMMING_WASM_BASE64, 'base64'))).toBe(true);
  });

  it('runs on this Node (WebAssembly SIMD) unless the JS kernel is forced', () => {
    if (process.env.LSHDP_HAMMING_KERNEL === 'js') return;
    expect(hammingKernelName()).toBe('wasm-simd');
  });

  it('equals the JS kernel on larger sets: every lane, the SIMD groups and the scalar tail', () => {
    for (const [users, bits] of [[2_001, 7], [3_333, 20], [1_027, 32], [2_049, 33], [3_001, 50], [999, 64]]) {
      const set = randomCodes(users, bits, `big-${bits}`);
      const queries = Int32Array.from({ length: 40 }, (_, i) => (i * 7919) % users);
      const js = hammingKnn(set, queries, 10, 4242, { path: 'scan', kernel: 'js' });
      expect(hammingKnn(set, queries, 10, 4242, { path: 'scan', kernel: 'wasm' }), `${users} users, ${bits} bits`).toEqual(js);
    }
  });

  it('falls back to the JS kernel when WebAssembly is switched off (same answers)', async () => {
    const set = randomCodes(500, 40, 'fallback');
    const queries = Int32Array.from([0, 1, 499]);
    const expected = hammingKnn(set, queries, 5, 9);
    vi.stubEnv('LSHDP_HAMMING_KERNEL', 'js');
    vi.resetModules();
    const fresh = await import('../../src/lsh/hammingKnn.js');
    const kernel = await import('../../src/lsh/wasm/kernel.js');
    expect(kernel.hammingKernelName()).toBe('js');
    expect(fresh.hammingKnn(set, queries, 5, 9)).toEqual(expected);
    expect(() => fresh.hammingKnn(set, queries, 5, 9, { path: 'scan', kernel: 'wasm' })).toThrow(RangeError);
  });

  it('leaves codes longer than 64 bits to the JS kernel', () => {
    const set = randomCodes(300, 65, 'long');
    const queries = Int32Array.from([3, 4]);
    expect(hammingKnn(set, queries, 6, 1)).toEqual(hammingKnn(set, queries, 6, 1, { path: 'scan', kernel: 'js' }));
    expect(() => hammingKnn(set, queries, 6, 1, { kernel: 'wasm' })).toThrow(RangeError);
  });
});
