import { wasmCombinedSigns } from '../kernels/releases.js';

/** Packed bit codes of every user: row i occupies words [i*words, (i+1)*words), bit j of a row is
 *  bit (j % 32) of word floor(j / 32). Unused high bits of the last word are 0. */
export interface CodeSet {
  codes: Uint32Array;
  bits: number;
  words: number;
}

/** Number of 32-bit words a code of `bits` bits occupies. */
export function wordsFor(bits: number): number {
  return Math.ceil(bits / 32);
}

/** An all-zero code set for `users` codes of `bits` bits. */
export function emptyCodes(users: number, bits: number): CodeSet {
  const words = wordsFor(bits);
  return { codes: new Uint32Array(users * words), bits, words };
}

/** Number of users a code set holds. */
export function codeCount(codes: CodeSet): number {
  return codes.words === 0 ? 0 : codes.codes.length / codes.words;
}

/**
 * Sign bits of the projections (users x kappa, row-major): bit j of user i is 1 iff r_j . x_i >= 0
 * (protocol §4: zero hashes to 1). Layout as in CodeSet (src/mechanisms/types.ts).
 */
export function packSigns(projections: Float64Array, users: number, kappa: number): CodeSet {
  if (projections.length !== users * kappa) {
    throw new RangeError(`projections has ${projections.length} entries, expected users*kappa = ${users}*${kappa}`);
  }
  const set = emptyCodes(users, kappa);
  const { codes, words } = set;
  // a word at a time, each bit as +(v >= 0): no branch on the (random) signs, whose
  // mispredictions cost four times the rest of the loop
  for (let i = 0; i < users; i++) {
    const base = i * kappa;
    const row = i * words;
    for (let w = 0; w < words; w++) {
      const from = w * 32;
      const to = Math.min(kappa, from + 32);
      let word = 0;
      for (let j = from; j < to; j++) word |= +(projections[base + j] >= 0) << (j - from);
      codes[row + w] = word;
    }
  }
  return set;
}

/**
 * The codes of `along[i]·a + scale[i]·b` (row-major users × kappa, one coefficient pair per user;
 * `along` null means 1), as packSigns would give for that array, without allocating it: the
 * noisy projections of LapLSH and the directional mechanisms at one ξ, from their shared draws. A
 * fresh array of users × kappa doubles costs more to touch for the first time than this loop.
 */
export function packCombinedSigns(a: Float64Array, along: Float64Array | null, b: Float64Array, scale: Float64Array, kappa: number): CodeSet {
  const users = scale.length;
  if (a.length !== users * kappa || b.length !== users * kappa || (along !== null && along.length !== users)) {
    throw new RangeError(`packCombinedSigns: expected ${users} users × ${kappa}`);
  }
  const set = emptyCodes(users, kappa);
  const { codes, words } = set;
  // in the WebAssembly module, two columns per SIMD compare: the same bits (this loop is about
  // 3 ns a column in V8; with the copies into the module, 1.2-2x less time at 162,541 users)
  if (along === null && users > 0 && wasmCombinedSigns(a, b, scale, users, kappa, codes)) return set;
  // branch-free bits, a word at a time, as in packSigns
  for (let i = 0; i < users; i++) {
    const base = i * kappa;
    const row = i * words;
    const s = scale[i];
    const t = along === null ? 1 : along[i];
    for (let w = 0; w < words; w++) {
      const from = w * 32;
      const to = Math.min(kappa, from + 32);
      let word = 0;
      if (along === null) for (let j = from; j < to; j++) word |= +(a[base + j] + s * b[base + j] >= 0) << (j - from);
      else for (let j = from; j < to; j++) word |= +(t * a[base + j] + s * b[base + j] >= 0) << (j - from);
      codes[row + w] = word;
    }
  }
  return set;
}

/** Bit j of user i's code, as 0 or 1. */
export function getBit(set: CodeSet, user: number, j: number): number {
  return (set.codes[user * set.words + (j >>> 5)] >>> (j & 31)) & 1;
}

/** Mask of the bits of the last word that a code of `bits` bits uses. */
export function lastWordMask(bits: number): number {
  const r = bits & 31;
  return r === 0 ? 0xffffffff : ((1 << r) - 1) >>> 0;
}

/** Set bits of a 32-bit integer (SWAR: no table, no branch). */
export function popcount32(x: number): number {
  x = x - ((x >>> 1) & 0x55555555);
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return Math.imul((x + (x >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24;
}

/** Hamming distance between the codes of users a and b. */
export function hammingDistance(set: CodeSet, a: number, b: number): number {
  const { codes, words } = set;
  let d = 0;
  for (let w = 0; w < words; w++) d += popcount32(codes[a * words + w] ^ codes[b * words + w]);
  return d;
}
