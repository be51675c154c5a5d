import { describe, expect, it } from 'vitest';
import { packSymbols, releaseKnn, type RealSet } from '../../src/lsh/releases.js';
import { hammingKernelName } from '../../src/kernels/instance.js';
import { wasmRealKnn } from '../../src/kernels/reals.js';
import { wasmSymbolKnn, WASM_MAX_POSITIONS } from '../../src/kernels/symbols.js';
import { makeRng } from '../../src/random/rng.js';
import { bruteForceKnn } from '../helpers/releases.js';

// The WebAssembly kernels of symbols and reals (src/kernels/symbols.wat knnSym, reals.wat knnReal) against
// the JS loop of src/lsh/releases.ts and a brute force written out plainly: the same neighbours,
// in the same order, on every path. Shapes cross the kernels' lane groups (16 users for symbols, 8
// for reals), word counts, odd and even coordinate counts, and heavy ties.

const wasm = hammingKernelName() === 'wasm-simd';

const bruteForce = bruteForceKnn;

function symbols(users: number, positions: number, letters: number, seed: string): Uint8Array {
  const rng = makeRng(seed);
  return Uint8Array.from({ length: users * positions }, () => Math.floor(rng() * letters));
}

/** Reals from {-1, 0, 1} (distances tie often) or uniform in [-0.5, 0.5). */
function reals(users: number, dims: number, seed: string, tied: boolean): RealSet {
  const rng = makeRng(seed);
  return { kind: 'reals', dims, values: Float64Array.from({ length: users * dims }, () => (tied ? Math.floor(rng() * 3) - 1 : rng() - 0.5)) };
}

const all = (users: number) => Int32Array.from({ length: users }, (_, i) => i);
const some = (users: number) => Int32Array.from([0, users - 1, Math.floor(users / 2), 0]); // a query twice

describe.runIf(wasm)('WebAssembly kernel of symbols', () => {
  it('gives the brute force on every width (2, 4, 8 bits) and layout (words, planes), across words and lane groups, with ties', () => {
    for (const [alphabet, positions, users] of [
      [3, 1, 2],
      [4, 16, 17],
      [4, 17, 33],
      [4, 50, 203],
      [4, 64, 35],
      [4, 33, 18],
      [16, 9, 31],
      [16, 50, 64],
      [17, 13, 47],
      [16, 61, 40],
      [200, 64, 21],
      [256, 40, 19],
      [256, 50, 100],
      [256, WASM_MAX_POSITIONS, 40],
    ] as const) {
      // a few letters of the alphabet only, so that distances tie often (and the highest letter, whose
      // bits differ from the others' in the top bit of a symbol)
      for (const letters of [alphabet, 2]) {
        const s = symbols(users, positions, letters, `s-${alphabet}-${positions}-${letters}`);
        if (letters === 2) for (let i = 0; i < s.length; i += 3) s[i] = alphabet - 1;
        const set = packSymbols(s, users, positions, alphabet);
        const unequal = (a: number, b: number) => {
          let d = 0;
          for (let j = 0; j < positions; j++) if (s[a * positions + j] !== s[b * positions + j]) d++;
          return d;
        };
        const k = Math.min(users - 1, 7);
        for (const queries of [all(users), some(users)]) {
          const expected = bruteForce(users, unequal, queries, k, 4242);
          const label = `b=${alphabet}, ${positions} positions, ${users} users, ${letters} letters, ${queries.length} queries`;
          expect(releaseKnn(set, queries, k, 4242, { kernel: 'wasm' }), label).toEqual(expected);
          expect(releaseKnn(set, queries, k, 4242, { kernel: 'js' }), label).toEqual(expected);
          // both layouts of the kernel, whichever 'auto' picks: packed words, and planes (<= 64 positions)
          for (const layout of ['words', 'planes'] as const) {
            const got = new Int32Array(queries.length * k);
            expect(wasmSymbolKnn(set, users, queries, k, 4242, got, { layout }), `${label}, ${layout}`).toBe(layout === 'words' || positions <= 64);
            if (layout === 'words' || positions <= 64) expect(got, `${label}, ${layout}`).toEqual(expected);
          }
        }
      }
    }
  });

  it('hands sets it does not take back to the JS loop (more positions than a byte holds)', () => {
    const positions = WASM_MAX_POSITIONS + 1;
    const s = symbols(20, positions, 4, 'long');
    const set = packSymbols(s, 20, positions, 4);
    expect(wasmSymbolKnn(set, 20, all(20), 3, 1, new Int32Array(60))).toBe(false);
    expect(() => releaseKnn(set, all(20), 3, 1, { kernel: 'wasm' })).toThrow(/does not apply/);
    expect(releaseKnn(set, all(20), 3, 1)).toEqual(releaseKnn(set, all(20), 3, 1, { kernel: 'js' }));
  });
});

describe.runIf(wasm)('WebAssembly kernel of reals', () => {
  it('gives the brute force, each pair summed once or per query, at every shape and odd or even k, with ties', () => {
    for (const [users, dims] of [
      [2, 1],
      [3, 2],
      [9, 3],
      [16, 7],
      [17, 20],
      [41, 64],
      [130, 50],
    ] as const) {
      for (const tied of [false, true]) {
        const set = reals(users, dims, `r-${users}-${dims}`, tied);
        // the plain definition: a sum in coordinate order from 0 (the contract's doubles)
        const squared = (a: number, b: number) => {
          let d = 0;
          for (let j = 0; j < dims; j++) d += (set.values[a * dims + j]! - set.values[b * dims + j]!) ** 2;
          return d;
        };
        // odd and even k: the kernel's lists are vectors of two entries, the last half-used when k is odd
        for (const k of new Set([1, 5, 6, 10].map((x) => Math.min(users - 1, x)))) {
          const reversed = all(users).reverse();
          for (const queries of [all(users), reversed, some(users)]) {
            const expected = bruteForce(users, squared, queries, k, 99);
            const label = `${users} users, ${dims} dims, ${tied ? 'tied' : 'uniform'}, ${queries.length} queries`;
            expect(releaseKnn(set, queries, k, 99, { kernel: 'js' }), label).toEqual(expected);
            expect(releaseKnn(set, queries, k, 99, { kernel: 'wasm' }), label).toEqual(expected);
            const each = new Int32Array(queries.length * k);
            expect(wasmRealKnn(set.values, dims, users, queries, k, 99, each, { pairing: 'each' })).toBe(true);
            expect(each, `${label}, each`).toEqual(expected);
          }
          const once = new Int32Array(users * k);
          wasmRealKnn(set.values, dims, users, reversed, k, 99, once, { pairing: 'once' });
          expect(once).toEqual(bruteForce(users, squared, reversed, k, 99));
        }
      }
    }
  });

  it('ranks differences that overflow to infinity, and equal rows, as the JS loop does', () => {
    const values = Float64Array.from([1e200, 0, -1e200, 0, 0, 0, 0, 0, 1e200, 0, 5, 5]);
    const set: RealSet = { kind: 'reals', dims: 2, values };
    for (const k of [1, 3, 5]) expect(releaseKnn(set, all(6), k, 3, { kernel: 'wasm' })).toEqual(releaseKnn(set, all(6), k, 3, { kernel: 'js' }));
  });

  it('hands sets with values that are not finite back to the JS loop', () => {
    const set = reals(12, 3, 'nan', false);
    set.values[7] = Number.NaN;
    expect(wasmRealKnn(set.values, 3, 12, all(12), 2, 5, new Int32Array(24))).toBe(false);
    expect(() => releaseKnn(set, all(12), 2, 5, { kernel: 'wasm' })).toThrow(/does not apply/);
    expect(releaseKnn(set, all(12), 2, 5)).toEqual(releaseKnn(set, all(12), 2, 5, { kernel: 'js' }));
    // pairing once needs every user a query exactly once
    expect(() => wasmRealKnn(reals(12, 3, 'ok', false).values, 3, 12, some(12), 2, 5, new Int32Array(8), { pairing: 'once' })).toThrow(RangeError);
  });
});

describe('k-NN of releases without the WebAssembly kernel', () => {
  it('gives the same lists with the JS loop (the LSHDP_KERNEL=js path)', () => {
    const set = reals(50, 5, 'js', true);
    const sym = packSymbols(symbols(50, 30, 4, 'js'), 50, 30, 4);
    for (const r of [set, sym]) expect(releaseKnn(r, all(50), 4, 8, { kernel: 'js' })).toEqual(releaseKnn(r, all(50), 4, 8));
  });
});
