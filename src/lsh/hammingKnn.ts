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

/**
 * Candidates of one query on the scan path, with a shrinking bound: `bound` is the smallest
 * distance D such that at least k users seen so far lie within D. A user farther than `bound` can
 * never be among the k nearest (the bound only shrinks), so only users within it are counted and
 * kept, in ascending user order; far users cost a popcount and a compare. The counts of every
 * distance <= the final bound are then exact. The query's own distance-0 entry is pre-subtracted
 * from hist[0] (so the bound never shrinks early) and skipped when collecting.
 */
class ScanCandidates {
  user: Int32Array;
  dist: Uint16Array;
  count = 0;
  bound = 0;
  private below = 0;
  constructor(
    readonly hist: Int32Array,
    readonly k: number,
  ) {
    const capacity = Math.max(1024, 4 * k);
    this.user = new Int32Array(capacity);
    this.dist = new Uint16Array(capacity);
  }
  reset(bits: number): void {
    this.hist.fill(0);
    this.hist[0] = -1; // the query itself, met at distance 0
    this.bound = bits;
    this.below = -1;
    this.count = 0;
  }
  /** Records user u at distance d <= bound. */
  add(u: number, d: number): void {
    const hist = this.hist;
    hist[d]++;
    if (this.count === this.user.length) this.compact();
    this.user[this.count] = u;
    this.dist[this.count] = d;
    this.count++;
    if (d < this.bound) {
      this.below++;
      while (this.below >= this.k) {
        this.bound--;
        this.below -= hist[this.bound];
      }
    }
  }
  /** Drops candidates the bound has since excluded; grows when that frees too little. */
  private compact(): void {
    const { user, dist, bound } = this;
    let kept = 0;
    for (let t = 0; t < this.count; t++) {
      if (dist[t] <= bound) {
        user[kept] = user[t];
        dist[kept] = dist[t];
        kept++;
      }
    }
    this.count = kept;
    if (kept > user.length >>> 1) {
      const nu = new Int32Array(user.length * 2);
      nu.set(user.subarray(0, kept));
      this.user = nu;
      const nd = new Uint16Array(user.length * 2);
      nd.set(dist.subarray(0, kept));
      this.dist = nd;
    }
  }
}

function scanPath(set: CodeSet, users: number, queries: Int32Array, k: number, rng: Rng, out: Int32Array): void {
  const { codes, words, bits } = set;
  const sel = newSelection(bits, k);
  const { groupPos, ranks } = sel;
  const cand = new ScanCandidates(sel.hist, k);
  for (let qi = 0; qi < queries.length; qi++) {
    const q = queries[qi];
    cand.reset(bits);
    let bound = cand.bound;
    // one loop per word count, so the hot loop has no branch on it
    if (words === 1) {
      const c0 = codes[q];
      for (let u = 0; u < users; u++) {
        const d = popcount32(codes[u] ^ c0);
        if (d <= bound) {
          cand.add(u, d);
          bound = cand.bound;
        }
      }
    } else if (words === 2) {
      const c0 = codes[2 * q];
      const c1 = codes[2 * q + 1];
      for (let u = 0; u < users; u++) {
        let d = popcount32(codes[2 * u] ^ c0);
        if (d > bound) continue; // most users: the first word already rules them out
        d += popcount32(codes[2 * u + 1] ^ c1);
        if (d <= bound) {
          cand.add(u, d);
          bound = cand.bound;
        }
      }
    } else {
      const qb = q * words;
      for (let u = 0; u < users; u++) {
        const ub = u * words;
        let d = 0;
        for (let w = 0; w < words; w++) d += popcount32(codes[ub + w] ^ codes[qb + w]);
        if (d <= bound) {
          cand.add(u, d);
          bound = cand.bound;
        }
      }
    }
    planSelection(sel, k, rng);
    const D = sel.boundary;
    const need = sel.need;
    const base = qi * k;
    const { user, dist, count } = cand;
    let rank = 0;
    let ptr = 0;
    let placed = 0;
    for (let t = 0; t < count; t++) {
      const d = dist[t];
      if (d > D) continue;
      const u = user[t];
      if (u === q) continue;
      if (d < D) {
        out[base + groupPos[d]++] = u;
        if (++placed === k) break;
      } else {
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
