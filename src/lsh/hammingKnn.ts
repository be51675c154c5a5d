import type { CodeSet } from '../mechanisms/types.js';
import type { Rng } from '../random/rng.js';
import { UserError } from '../util/errors.js';
import { codeCount, popcount32 } from './codes.js';

/**
 * Hamming k-nearest neighbours with uniformly random tie-breaking (protocol §3).
 *
 * For each query the answer is: every user strictly closer than the boundary distance D (the
 * distance of the k-th nearest), plus a uniformly random subset of the right size among the users
 * at distance D; the list is ordered by distance, with a uniformly random order within equal
 * distances. Hence every prefix of length k' < k is itself a valid random-tie-break k'-NN answer,
 * and one call with kMax serves every k of a trial.
 *
 * Selection is O(users) per query through the histogram of distances (only bits+1 values), never a
 * sort. Two paths, same distribution of answers (not the same answers: they visit the boundary
 * candidates in different orders):
 * - scan: one popcount pass over all users' packed words;
 * - bucket (bits <= 16): users are grouped once by code, and each query scans the distinct codes
 *   instead of the users (at most 2^bits of them, usually far fewer).
 */
export type HammingPath = 'auto' | 'scan' | 'bucket';

/** The largest code length the bucket path accepts. */
export const BUCKET_MAX_BITS = 16;

export function hammingKnn(
  set: CodeSet,
  queries: Int32Array,
  k: number,
  rng: Rng,
  opts: { path?: HammingPath } = {},
): Int32Array {
  const users = codeCount(set);
  if (!Number.isInteger(k) || k < 0) throw new UserError(`k must be a non-negative integer, got ${k}`);
  if (k > users - 1) {
    throw new UserError(`k = ${k} needs at least ${k + 1} users (a query is never its own neighbour), the data have ${users}`);
  }
  for (let i = 0; i < queries.length; i++) {
    const q = queries[i];
    if (q < 0 || q >= users) throw new RangeError(`query ${q} is not a user index (0..${users - 1})`);
  }
  const out = new Int32Array(queries.length * k);
  if (k === 0 || queries.length === 0) return out;
  if (set.bits + 1 > 0xffff) throw new RangeError(`codes of ${set.bits} bits are longer than supported (65534)`);
  const path = opts.path ?? 'auto';
  const bucket = path === 'bucket' || (path === 'auto' && set.bits <= BUCKET_MAX_BITS);
  if (bucket) {
    if (set.bits > BUCKET_MAX_BITS) throw new RangeError(`the bucket path needs bits <= ${BUCKET_MAX_BITS}, got ${set.bits}`);
    bucketPath(set, users, queries, k, rng, out);
  } else {
    scanPath(set, users, queries, k, rng, out);
  }
  return out;
}

/** Scratch shared by both paths: the distance histogram and per-distance write positions. */
interface Selection {
  hist: Int32Array; // users at each distance 0..bits (query excluded)
  groupPos: Int32Array; // next write offset of each distance group within the answer
  ranks: Int32Array; // chosen ranks among the boundary candidates, ascending
  boundary: number; // D
  below: number; // users strictly closer than D
  need: number; // how many to take at distance D
}

function newSelection(bits: number, k: number): Selection {
  return {
    hist: new Int32Array(bits + 2),
    groupPos: new Int32Array(bits + 2),
    ranks: new Int32Array(k),
    boundary: 0,
    below: 0,
    need: 0,
  };
}

/** From the histogram: the boundary distance, the write offsets of each group and the random ranks
 *  (among the candidates at the boundary, in the order the path visits them) to keep. */
function planSelection(sel: Selection, k: number, rng: Rng): void {
  const { hist, groupPos } = sel;
  let cum = 0;
  let d = 0;
  while (cum + hist[d] < k) {
    groupPos[d] = cum;
    cum += hist[d];
    d++;
  }
  groupPos[d] = cum;
  sel.boundary = d;
  sel.below = cum;
  sel.need = k - cum;
  chooseRanks(rng, hist[d], sel.need, sel.ranks);
}

/** floor(rng() * m): uniform on 0..m-1. */
function randInt(rng: Rng, m: number): number {
  return Math.floor(rng() * m);
}

/**
 * Floyd's algorithm: a uniformly random `need`-subset of 0..m-1 in O(need log need) time and draws,
 * written ascending into out[0..need). Used instead of materialising the (possibly huge) list of
 * boundary candidates.
 */
export function chooseRanks(rng: Rng, m: number, need: number, out: Int32Array): void {
  let size = 0;
  for (let j = m - need; j < m; j++) {
    const t = randInt(rng, j + 1);
    let lo = 0;
    let hi = size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (out[mid] < t) lo = mid + 1;
      else hi = mid;
    }
    if (lo < size && out[lo] === t) {
      out[size++] = j; // every element so far is < j: j goes last
    } else {
      out.copyWithin(lo + 1, lo, size);
      out[lo] = t;
      size++;
    }
  }
}

/** Fisher–Yates shuffle of a[from..to). */
function shuffleRange(a: Int32Array, from: number, to: number, rng: Rng): void {
  for (let i = to - 1; i > from; i--) {
    const j = from + randInt(rng, i - from + 1);
    const t = a[i];
    a[i] = a[j];
    a[j] = t;
  }
}

/** Random order within each distance group of one answer (groups are contiguous after placement). */
function shuffleGroups(out: Int32Array, base: number, sel: Selection, rng: Rng): void {
  let start = base;
  for (let d = 0; d < sel.boundary; d++) {
    const len = sel.hist[d];
    if (len > 1) shuffleRange(out, start, start + len, rng);
    start += len;
  }
  if (sel.need > 1) shuffleRange(out, start, start + sel.need, rng);
}

function scanPath(set: CodeSet, users: number, queries: Int32Array, k: number, rng: Rng, out: Int32Array): void {
  const { codes, words, bits } = set;
  const dist = new Uint16Array(users);
  const sel = newSelection(bits, k);
  const { hist, groupPos, ranks } = sel;
  const excluded = bits + 1; // larger than any boundary
  for (let qi = 0; qi < queries.length; qi++) {
    const q = queries[qi];
    hist.fill(0);
    if (words === 1) {
      const c = codes[q];
      for (let u = 0; u < users; u++) {
        const d = popcount32(codes[u] ^ c);
        dist[u] = d;
        hist[d]++;
      }
    } else if (words === 2) {
      const c0 = codes[2 * q];
      const c1 = codes[2 * q + 1];
      for (let u = 0; u < users; u++) {
        const d = popcount32(codes[2 * u] ^ c0) + popcount32(codes[2 * u + 1] ^ c1);
        dist[u] = d;
        hist[d]++;
      }
    } else {
      const qb = q * words;
      for (let u = 0; u < users; u++) {
        const ub = u * words;
        let d = 0;
        for (let w = 0; w < words; w++) d += popcount32(codes[ub + w] ^ codes[qb + w]);
        dist[u] = d;
        hist[d]++;
      }
    }
    hist[0]--; // the query itself
    dist[q] = excluded;
    planSelection(sel, k, rng);
    const D = sel.boundary;
    const need = sel.need;
    const base = qi * k;
    let rank = 0;
    let ptr = 0;
    let placed = 0;
    for (let u = 0; u < users; u++) {
      const d = dist[u];
      if (d < D) {
        out[base + groupPos[d]++] = u;
        if (++placed === k) break;
      } else if (d === D) {
        if (ptr < need && rank === ranks[ptr]) {
          out[base + groupPos[D]++] = u;
          ptr++;
          if (++placed === k) break;
        }
        rank++;
      }
    }
    shuffleGroups(out, base, sel, rng);
  }
}

function bucketPath(set: CodeSet, users: number, queries: Int32Array, k: number, rng: Rng, out: Int32Array): void {
  const { codes, bits } = set;
  // Group users by code once (counting sort: users stay ascending within a bucket).
  const size = 1 << bits;
  const count = new Int32Array(size);
  for (let u = 0; u < users; u++) count[codes[u]]++;
  let distinct = 0;
  for (let c = 0; c < size; c++) if (count[c] > 0) distinct++;
  const bucketCode = new Int32Array(distinct);
  const bucketStart = new Int32Array(distinct + 1);
  const slotOf = new Int32Array(size);
  for (let c = 0, t = 0; c < size; c++) {
    if (count[c] === 0) continue;
    bucketCode[t] = c;
    bucketStart[t + 1] = bucketStart[t] + count[c];
    slotOf[c] = t;
    t++;
  }
  const fill = bucketStart.slice(0, distinct);
  const bucketUsers = new Int32Array(users);
  for (let u = 0; u < users; u++) bucketUsers[fill[slotOf[codes[u]]]++] = u;

  const bucketDist = new Uint8Array(distinct);
  const sel = newSelection(bits, k);
  const { hist, groupPos, ranks } = sel;
  for (let qi = 0; qi < queries.length; qi++) {
    const q = queries[qi];
    const c = codes[q];
    hist.fill(0);
    for (let t = 0; t < distinct; t++) {
      const d = popcount32(bucketCode[t] ^ c);
      bucketDist[t] = d;
      hist[d] += bucketStart[t + 1] - bucketStart[t];
    }
    hist[0]--; // the query itself
    planSelection(sel, k, rng);
    const D = sel.boundary;
    const need = sel.need;
    const base = qi * k;
    let rank = 0;
    let ptr = 0;
    let placed = 0;
    for (let t = 0; t < distinct && placed < k; t++) {
      const d = bucketDist[t];
      if (d > D) continue;
      const b0 = bucketStart[t];
      const b1 = bucketStart[t + 1];
      if (d < D) {
        for (let p = b0; p < b1; p++) {
          const u = bucketUsers[p];
          if (u === q) continue;
          out[base + groupPos[d]++] = u;
          placed++;
        }
        continue;
      }
      if (ptr >= need) continue;
      const candidates = b1 - b0 - (bucketCode[t] === c ? 1 : 0);
      if (ranks[ptr] >= rank + candidates) {
        rank += candidates; // no chosen rank in this bucket
        continue;
      }
      for (let p = b0; p < b1 && ptr < need; p++) {
        const u = bucketUsers[p];
        if (u === q) continue;
        if (rank === ranks[ptr]) {
          out[base + groupPos[D]++] = u;
          ptr++;
          placed++;
        }
        rank++;
      }
    }
    shuffleGroups(out, base, sel, rng);
  }
}
