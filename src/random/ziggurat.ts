import type { Rng } from './rng.js';

/*
 * Fast exact standard normals for the hot loops (LapLSH's and the directional mechanisms' κ
 * normals per user): xoshiro128++ (Blackman & Vigna 2018) as the uniform source, the 128-layer
 * ziggurat of Marsaglia & Tsang (2000) in Doornik's (2005) form as the normal sampler.
 *
 * - The ziggurat is exact: a layer is chosen uniformly, a point in it accepted at once when it
 *   lies under the next layer's edge (98.8% of draws: one multiply), else by the density's wedge
 *   test, and the base layer's tail beyond R by Marsaglia's exponential rejection. Doornik's
 *   correction: the layer index and the sign come from bits that do not enter the uniform (the
 *   original takes both from one 32-bit word).
 * - Each draw takes two 32-bit words: 53 bits for the uniform u (the upper 27 and 26 bits), 7 of
 *   the 11 bits left for the layer and one for the sign.
 * - The same doubles in JavaScript (`fillZigguratNormals`) and in the WebAssembly kernel
 *   (src/kernels/releases.ts `wasmNormals`, which imports Math.exp and Math.log for the rare slow
 *   path); tests/random/ziggurat.test.ts checks the law, the kernel test checks the doubles.
 * - A state is 4 words (Int32Array), seeded from a seeded source (seedrandom keeps deriving the
 *   seeds: `zigguratState(rng)`), never all zero.
 */

/** Layers of the ziggurat, its base strip's right edge R and the common area V of every layer. */
export const ZIGGURAT_LAYERS = 128;
export const ZIGGURAT_R = 3.442619855899;
const ZIGGURAT_V = 9.91256303526217e-3;

/**
 * The table: X[0..128] the layers' right edges (X[0] = V/f(R) the base strip's virtual width,
 * X[1] = R, X[128] = 0), then RATIO[0..127] = X[i+1]/X[i] (the fast-accept bound), 257 doubles.
 */
export const ZIGGURAT_TABLE: Float64Array = (() => {
  const t = new Float64Array(2 * ZIGGURAT_LAYERS + 1);
  const f = (x: number) => Math.exp(-0.5 * x * x);
  t[0] = ZIGGURAT_V / f(ZIGGURAT_R);
  t[1] = ZIGGURAT_R;
  for (let i = 2; i < ZIGGURAT_LAYERS; i++) t[i] = Math.sqrt(-2 * Math.log(ZIGGURAT_V / t[i - 1]! + f(t[i - 1]!)));
  t[ZIGGURAT_LAYERS] = 0;
  for (let i = 0; i < ZIGGURAT_LAYERS; i++) t[ZIGGURAT_LAYERS + 1 + i] = t[i + 1]! / t[i]!;
  return t;
})();

/** A xoshiro128++ state seeded by four 32-bit words of `rng` (never all zero). */
export function zigguratState(rng: Rng): Int32Array {
  const s = new Int32Array(4);
  for (let i = 0; i < 4; i++) s[i] = Math.floor(rng() * 4294967296) | 0;
  if ((s[0]! | s[1]! | s[2]! | s[3]!) === 0) s[0] = 1;
  return s;
}

/** One xoshiro128++ step: the next 32-bit word (as a signed int), the state updated in place. */
export function xoshiro128pp(s: Int32Array): number {
  const s0 = s[0]!;
  const s1 = s[1]!;
  const s3 = s[3]!;
  const sum = (s0 + s3) | 0;
  const result = (((sum << 7) | (sum >>> 25)) + s0) | 0;
  const t = s1 << 9;
  const s2 = s[2]! ^ s0;
  const n3 = s3 ^ s1;
  s[1] = s1 ^ s2;
  s[0] = s0 ^ n3;
  s[2] = s2 ^ t;
  s[3] = (n3 << 11) | (n3 >>> 21);
  return result;
}

/** A uniform double in [0, 1) with 53 random bits (two words: the upper 27, then the upper 26). */
export function xoshiroUniform(s: Int32Array): number {
  const a = xoshiro128pp(s) >>> 5;
  const b = xoshiro128pp(s) >>> 6;
  return (a * 67108864 + b) * 1.1102230246251565e-16;
}

/**
 * A standard normal conditioned on X > R (Marsaglia 1964): R + e with e exponential of rate R,
 * accepted with probability exp(−e²/2) (the kernel inlines the same steps).
 */
export function normalTail(s: Int32Array): number {
  let e: number;
  let y: number;
  do {
    e = -Math.log(1 - xoshiroUniform(s)) / ZIGGURAT_R;
    y = -Math.log(1 - xoshiroUniform(s));
  } while (2 * y < e * e);
  return ZIGGURAT_R + e;
}

/** Fill `out` with independent standard normals (the JS twin of the kernel's `normals`). */
export function fillZigguratNormals(s: Int32Array, out: Float64Array): void {
  const X = ZIGGURAT_TABLE;
  const RATIO = ZIGGURAT_LAYERS + 1;
  const len = out.length;
  let k = 0;
  while (k < len) {
    const w1 = xoshiro128pp(s);
    const w2 = xoshiro128pp(s);
    const u = ((w1 >>> 5) * 67108864 + (w2 >>> 6)) * 1.1102230246251565e-16;
    const i = (w1 & 31) | ((w2 & 3) << 5);
    const xi = X[i]!;
    let x = u * xi;
    if (u >= X[RATIO + i]!) {
      if (i === 0) {
        x = normalTail(s);
      } else {
        // the wedge between layer i's edge and the next: accept under the density
        const xi1 = X[i + 1]!;
        const f0 = Math.exp(-0.5 * (xi * xi - x * x));
        const f1 = Math.exp(-0.5 * (xi1 * xi1 - x * x));
        if (f1 + xoshiroUniform(s) * (f0 - f1) >= 1) continue;
      }
    }
    out[k++] = (w2 & 4) !== 0 ? -x : x;
  }
}
