import { afterEach, describe, expect, it, vi } from 'vitest';
import { hashingFor, replicated } from '../helpers/mechanisms.js';
import { makeRng } from '../../src/random/rng.js';
import { bitsOf } from '../../src/lsh/releases.js';

/** Distinct sparse-ish unit-free rows (vectorsFromDense normalizes them). */
function rows(n: number, count: number, seed: string): number[][] {
  const rng = makeRng(seed);
  return Array.from({ length: count }, (_, i) => {
    const r = Array.from({ length: n }, () => (rng() < 0.3 ? rng() * 2 - 1 : 0));
    r[i % n] = 1;
    return r;
  });
}

// Direct samplers (n ≤ κ + 1: their W v products) and projected ones (the directional row-space
// parts L⁻¹Wx and LapLSH's noise products), over more users than one chunk of the direct products.
const CASES = [
  { name: 'laplsh', n: 12, kappa: 12, c: 3 },
  { name: 'vmf', n: 12, kappa: 12, c: 40 },
  { name: 'purkayastha', n: 9, kappa: 10, c: 40 },
  { name: 'laplsh', n: 40, kappa: 7, c: 3 },
  { name: 'vmf', n: 40, kappa: 7, c: 40 },
  { name: 'purkayastha', n: 40, kappa: 8, c: 40 },
];

async function codesOfEveryCase(): Promise<number[][]> {
  const { getMechanism } = await import('../../src/mechanisms/registry.js');
  const { makeRng: freshRng } = await import('../../src/random/rng.js');
  return CASES.map(({ name, n, kappa, c }) => {
    const vectors = replicated(rows(n, 7, `fallback-${name}-${n}`), 43);
    const hashing = hashingFor(vectors, kappa, `fallback-planes-${n}-${kappa}`);
    const set = bitsOf(getMechanism(name).encode!({ vectors, hashing, rng: freshRng(`fallback-noise-${name}-${n}`), options: {} }, { epsilon: c, ldpEpsilon: null, fallback: false }));
    return Array.from(set.codes);
  });
}

describe('mechanisms without WebAssembly', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.resetModules();
  });

  it('draw the same codes with the JS loops as with the kernel (direct and projected samplers)', async () => {
    const wasm = await codesOfEveryCase();
    vi.stubEnv('LSHDP_KERNEL', 'js');
    vi.resetModules();
    const kernel = await import('../../src/kernels/instance.js');
    expect(kernel.hammingKernelName()).toBe('js');
    const js = await codesOfEveryCase();
    CASES.forEach((c, i) => {
      expect(js[i], `${c.name} n ${c.n} κ ${c.kappa}`).toEqual(wasm[i]);
    });
    // the codes are not trivial: copies of one input differ (noise), inputs differ
    expect(new Set(wasm[0]).size).toBeGreaterThan(10);
  });
});
