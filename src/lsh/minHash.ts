/*
 * What a MinHash hashing holds beyond the 1-bit codes, for the private MinHash mechanisms
 * (minhash-bucket, minhash-noisy; docs/PRIVACY.md "Private MinHash"): the public tables, each user's
 * argmin item per position, and the two public maps of an item at one position: its coin (the
 * 1-bit MinHash value) and its bucket among b. The tables are drawn in families/jaccard.ts; this
 * file has no imports so that hyperplanes.ts (TrialHashing) can name these types without a circle.
 */

/**
 * The public MinHash tables of kappa MinHash functions over n items (columns).
 * `rank[j*n + c]` is item c's uniform value for position j (53 random bits, as a double in [0, 1)),
 * `coin[j*n + c]` its fair bit b_j(c) and `bucketWord[j*n + c]` a uniform 32-bit word, the
 * item's public bucket map at position j (bucketOf).
 *
 * All three come from a keyed pseudo-random function of (seed, position, item): AES-128 in counter
 * mode, keyed per position with the first 16 bytes of SHA-256("lshdp-minhash-v1", seed, j), block c
 * of the key stream for item c (bytes 0–6: the rank; byte 8, lowest bit: the coin; bytes 12–15,
 * big-endian: the bucket word). Distinct bytes of a PRF block are independent for all practical
 * purposes, so the bucket word is independent of the rank and the coin (and across items and
 * positions), and adding it left the ranks and coins, hence every code, unchanged.
 */
export interface MinHashTables {
  kappa: number;
  n: number;
  rank: Float64Array;
  coin: Uint8Array;
  bucketWord: Uint32Array;
}

/**
 * The MinHash state of one trial's hashing (TrialHashing.minHash): the tables and every user's
 * argmin item per position (`minima[i*kappa + j]`, users × kappa, row-major), computed once with
 * the codes so that the private MinHash mechanisms neither redraw the AES stream nor rescan the
 * item sets. Read-only for mechanisms.
 */
export interface TrialMinHash {
  tables: MinHashTables;
  minima: Int32Array;
}

/** The bucket counts the bucket mechanism accepts: symbols are stored in a Uint8Array. */
export const MIN_BUCKETS = 2;
/** See MIN_BUCKETS. */
export const MAX_BUCKETS = 256;

const TWO_32 = 4294967296;

/** Checks a bucket count b (an integer in [2, 256]); a programming error otherwise (configs check it first). */
export function checkBuckets(b: number): void {
  if (!(Number.isInteger(b) && b >= MIN_BUCKETS && b <= MAX_BUCKETS)) throw new RangeError(`buckets must be an integer in [${MIN_BUCKETS}, ${MAX_BUCKETS}], got ${b}`);
}

/**
 * The bucket of a uniform 32-bit word among b: floor(word·b / 2^32) (word·b < 2^40: exact in
 * doubles). Each bucket receives floor(2^32/b) or ceil(2^32/b) words, so it is exactly uniform when
 * b is a power of 2 and otherwise within 2^-32 of 1/b per bucket (a relative bias below b/2^32 ≤
 * 2^-24). Two distinct items then share a bucket with probability Σ_k P(k)² ∈ [1/b, 1/b + b·2^-64]:
 * never below 1/b, so the per-position disagreement d·(1 − Σ P(k)²) never exceeds the
 * d·(1 − 1/b) the accountants assume.
 */
export function bucketOf(word: number, b: number): number {
  return Math.floor((word * b) / TWO_32);
}

function checkMinima(minima: Int32Array, tables: MinHashTables): number {
  if (minima.length % tables.kappa !== 0) throw new RangeError(`minima has ${minima.length} entries, not a multiple of kappa = ${tables.kappa}`);
  return minima.length / tables.kappa;
}

/**
 * Bucket MinHash symbols (users × kappa, row-major): symbol j of user i is the bucket among b of
 * user i's argmin item at position j, bucketOf(bucketWord[j*n + minima[i*kappa + j]], b). Two users
 * at Jaccard distance d get different symbols at a position with probability d·(1 − 1/b) (exactly
 * for b a power of 2; see bucketOf): the minima differ with probability d, and then the two items'
 * buckets are independent and uniform.
 */
export function bucketSymbols(minima: Int32Array, tables: MinHashTables, b: number): Uint8Array {
  checkBuckets(b);
  const users = checkMinima(minima, tables);
  const { kappa, n, bucketWord } = tables;
  const out = new Uint8Array(users * kappa);
  for (let i = 0; i < users; i++) {
    const row = i * kappa;
    for (let j = 0; j < kappa; j++) out[row + j] = bucketOf(bucketWord[j * n + minima[row + j]!]!, b);
  }
  return out;
}

/**
 * The 1-bit MinHash values as 0/1 bytes (users × kappa, row-major): coin_j of user i's argmin item
 * at position j, the bits of the family's codes (minHashCodes) unpacked; what noisy MinHash adds
 * its Laplace noise to.
 */
export function minHashBits(minima: Int32Array, tables: MinHashTables): Uint8Array {
  const users = checkMinima(minima, tables);
  const { kappa, n, coin } = tables;
  const out = new Uint8Array(users * kappa);
  for (let i = 0; i < users; i++) {
    const row = i * kappa;
    for (let j = 0; j < kappa; j++) out[row + j] = coin[j * n + minima[row + j]!]!;
  }
  return out;
}

/*
 * Estimating the Jaccard similarity J = 1 − d from two released sketches (Aumüller, Bourgeat,
 * Schmurr, SISAP 2020, for our uniform bucket map). Positions are independent, so the fraction of
 * positions with equal released symbols (bucket) or the mean squared difference of the released
 * values (noisy) is an average of κ independent terms whose expectation is derived below; solving
 * that expectation for J gives estimates unbiased in the fraction (linear in it).
 */

/** Pr[two users' bucket symbols agree at a position] = J + (1 − J)/b (the minima agree, or not and the buckets still do). */
export function bucketCollisionProbability(jaccard: number, b: number): number {
  return jaccard + (1 - jaccard) / b;
}

/**
 * Pr[the two released symbols agree] after b-ary randomized response keeping with probability q
 * (each other symbol r = (1 − q)/(b − 1)), independently for the two users:
 * s·A + (1 − s)·B with s = bucketCollisionProbability(J, b), A = q² + (b − 1)r² (equal inputs: both
 * kept, or both moved to the same other symbol) and B = 2qr + (b − 2)r² (different inputs: one kept
 * and the other moved onto it, or both moved to the same third symbol). A − B = (q − r)².
 */
export function bucketReleaseAgreement(jaccard: number, b: number, q: number): number {
  const r = (1 - q) / (b - 1);
  const s = bucketCollisionProbability(jaccard, b);
  const a = q * q + (b - 1) * r * r;
  const bb = 2 * q * r + (b - 2) * r * r;
  return s * a + (1 - s) * bb;
}

/**
 * The Jaccard estimate from the fraction of equal released bucket symbols: bucketReleaseAgreement
 * solved for J, ŝ = (f − B)/(q − r)², Ĵ = (b·ŝ − 1)/(b − 1). Unbiased (linear in f) and not clamped
 * to [0, 1]; undefined (NaN) at q = r (ε' = 0: the release says nothing).
 */
export function bucketJaccardEstimate(equalFraction: number, b: number, q: number): number {
  const r = (1 - q) / (b - 1);
  const bb = 2 * q * r + (b - 2) * r * r;
  const gap = (q - r) * (q - r);
  if (gap === 0) return Number.NaN;
  const s = (equalFraction - bb) / gap;
  return (b * s - 1) / (b - 1);
}

/**
 * The Jaccard estimate from noisy MinHash values with Laplace noise of scale σ = 1/ε': the squared
 * difference at a position has mean (1 − J)/2 + 4σ² (the bits differ with probability (1 − J)/2;
 * the difference of two independent Laplace(σ) has variance 4σ²), so Ĵ = 1 − 2·m + 8σ² for the mean
 * squared difference m (the SISAP code's estimate_noisy_minhash). Unbiased; not clamped.
 */
export function noisyJaccardEstimate(meanSquaredDifference: number, eps: number): number {
  const scale = 1 / eps;
  return 1 - 2 * meanSquaredDifference + 8 * scale * scale;
}
