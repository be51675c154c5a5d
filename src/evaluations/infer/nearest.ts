/**
 * Attribute inference's search (src/evaluations/infer/inference.ts): the k auxiliary users whose
 * clean codes are nearest (Hamming) to a target's released code, ties by the tie key of the
 * target's place after the group's m users and the candidate's place in the group; in the k-NN
 * kernel (src/kernels/knn.ts wasmNearestOf, as a set) where it applies, else in the JS loop here.
 */
import type { CodeSet } from '../../lsh/codes.js';
import { popcount32 } from '../../lsh/codes.js';
import { distancesTo, nearestByDistance, type ReleaseSet } from '../../lsh/releases.js';
import { queryKeyBase, tieKey } from '../../lsh/tieKey.js';
import { hammingKernelName } from '../../kernels/instance.js';
import { wasmNearestOf } from '../../kernels/knn.js';
import { TopK } from '../../util/topK.js';

/**
 * The k users of `group` whose codes in `clean` are nearest in Hamming distance to code `row` of
 * `released`, nearest first; ties by the project's seeded tie key (src/lsh/tieKey.ts) of the
 * query's place `query` and the candidate's place in the group (inferMeans puts target i at
 * m + i, after the group's m users, as the k-NN kernel sees queries appended to the candidates).
 */
export function nearestInGroup(released: CodeSet, row: number, clean: CodeSet, group: Int32Array, k: number, tie: { seed: number; query: number }): Int32Array {
  if (clean.words !== released.words) throw new RangeError(`released codes have ${released.words} words, the clean ones ${clean.words}`);
  const near = nearScratch(group.length, released.words);
  const packed = gather(clean, group);
  const count = nearestPacked(near, released.codes.subarray(row * released.words, (row + 1) * released.words), packed, group.length, k, tie);
  return Int32Array.from(near.idx.subarray(0, count), (g) => group[g]!);
}

/** Scratch of the nearest-k search over a group of m users. */
interface NearScratch {
  dist: Int32Array;
  counts: Int32Array;
  idx: Int32Array;
  keys: Float64Array;
}

const nearScratch = (m: number, words: number): NearScratch => ({ dist: new Int32Array(m), counts: new Int32Array(words * 32 + 1), idx: new Int32Array(m), keys: new Float64Array(m) });

/** The codes of `group`'s users, one after another (words per code as in `clean`; `group` may be any rows). */
export function gather(clean: CodeSet, group: Int32Array): Uint32Array {
  const { words } = clean;
  const out = new Uint32Array(group.length * words);
  const { codes } = clean;
  // word by word: a subarray per user costs more than its one or two words
  for (let g = 0; g < group.length; g++) for (let w = 0, from = group[g]! * words; w < words; w++) out[g * words + w] = codes[from + w]!;
  return out;
}

/**
 * The JavaScript search: leaves in near.idx[0 .. count) the group places of the nearest to the
 * code `probe` among the m gathered codes `packed`, nearest first, and returns count = min(k, m).
 * The distances are counted into a histogram first, so only the users up to the k-th distance are
 * ordered by key.
 */
function nearestPacked(near: NearScratch, probe: Uint32Array, packed: Uint32Array, m: number, k: number, tie: { seed: number; query: number }): number {
  const words = probe.length;
  const { dist, counts, idx, keys } = near;
  const take = Math.min(k, m);
  counts.fill(0);
  for (let g = 0, o = 0; g < m; g++, o += words) {
    let d = 0;
    for (let w = 0; w < words; w++) d += popcount32(probe[w]! ^ packed[o + w]!);
    dist[g] = d;
    counts[d]!++;
  }
  // the distance of the take-th nearest: every user at or below it is a candidate
  let threshold = 0;
  for (let seen = 0; threshold < counts.length; threshold++) {
    seen += counts[threshold]!;
    if (seen >= take) break;
  }
  const base = queryKeyBase(tie.seed, tie.query);
  let c = 0;
  for (let g = 0; g < m; g++) if (dist[g]! <= threshold) idx[c++] = g;
  const cand = idx.subarray(0, c);
  for (const g of cand) keys[g] = tieKey(base, g);
  cand.sort((x, y) => dist[x]! - dist[y]! || keys[x]! - keys[y]!);
  return take;
}

/**
 * Every target's k nearest auxiliary users (group places, targets x min(k, m), nearest first) for a
 * release of symbols or reals, in its own distance (src/lsh/releases.ts), with the bit path's tie
 * rule: the query's place m + i, the candidate's place in the group.
 */
export function nearestOfTargetsIn(released: ReleaseSet, rows: Int32Array, group: ReleaseSet, m: number, k: number, seed: number): Int32Array {
  const take = Math.min(k, m);
  const out = new Int32Array(rows.length * take);
  const dist = new Float64Array(m);
  const heap = new TopK(take);
  for (let i = 0; i < rows.length; i++) {
    distancesTo(group, released, rows[i]!, dist);
    nearestByDistance(dist, m, take, -1, queryKeyBase(seed, m + i), out, i * take, heap);
  }
  return out;
}

/**
 * Every target's k nearest auxiliary users (group places, targets x min(k, m); nearest first from
 * the JavaScript search, in no order from the kernel): one pass of the WebAssembly k-NN kernel over
 * the gathered codes with the targets' codes appended, or the same search in JavaScript where the
 * kernel does not apply (the same users).
 */
export function nearestOfTargets(released: CodeSet, rows: Int32Array, packed: Uint32Array, m: number, k: number, seed: number): Int32Array {
  const { words, bits } = released;
  const take = Math.min(k, m);
  const out = new Int32Array(rows.length * take);
  const probes = gather(released, rows);
  // each target's neighbours as a set: the votes do not depend on their order
  if (hammingKernelName() !== 'js' && wasmNearestOf(packed, m, probes, bits, take, seed, out, true)) return out;
  const near = nearScratch(m, words);
  for (let i = 0; i < rows.length; i++) {
    nearestPacked(near, probes.subarray(i * words, (i + 1) * words), packed, m, take, { seed, query: m + i });
    out.set(near.idx.subarray(0, take), i * take);
  }
  return out;
}

/**
 * The auxiliary users' clean codes gathered, kept per clean code set while it lives: the results of
 * a cell whose clean release is the family's code (most mechanisms) share one set.
 */
const gathered = new WeakMap<CodeSet, { aux: Int32Array; packed: Uint32Array }>();

export function gatherOf(clean: CodeSet, aux: Int32Array): Uint32Array {
  const kept = gathered.get(clean);
  if (kept && kept.aux === aux) return kept.packed;
  const packed = gather(clean, aux);
  gathered.set(clean, { aux, packed });
  return packed;
}
