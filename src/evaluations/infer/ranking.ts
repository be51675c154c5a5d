/**
 * The metrics of one target's item ranking (docs/ATTACKS.md, "Attribute inference") counted
 * without sorting. The ranking is the touched items T (held by a neighbour) by score descending,
 * then prior place, followed by every other item in the prior order. With S the target's items
 * (m of them, `others` = n − m outside), the pairs (i in S, j not in S) ranked i first number
 * m · others − (Σ_{i in S} pos_i − m(m − 1)/2), pos_i being i's place in the ranking. One pass
 * over the prior order gives every place: an item of T with score s comes after the items of T
 * with a higher score (counted from the scores' histogram) and the items of score s already
 * passed; an item outside T comes after all of T and the items outside T already passed. The
 * same integer count, hence the same auc, as the ranking written out and sorted (tested against
 * the pairwise definitions), without a sort per target.
 */
import type { ItemSets } from '../../data/types.js';
import type { InferKernelData } from '../../kernels/infer.js';

/** The rank its precision is taken at (prec10). */
export const PREC_AT = 10;

/**
 * What the targets of one (trial, aux) share: each target's number of items, and every user's items
 * as prior places (`places[p]` = the prior place of column colIdx[p]), so that a target's scan runs
 * along the prior order without an indirection.
 */
export interface AuxView {
  ptr: Int32Array;
  places: Int32Array;
}

export function auxView(sets: ItemSets, prior: Int32Array, targets: Int32Array): AuxView {
  const ptr = new Int32Array(targets.length + 1);
  for (let i = 0; i < targets.length; i++) ptr[i + 1] = ptr[i]! + sets.rowPtr[targets[i]! + 1]! - sets.rowPtr[targets[i]!]!;
  const rankOf = new Int32Array(sets.n);
  for (let r = 0; r < prior.length; r++) rankOf[prior[r]!] = r;
  // plain loops: a callback per stored entry costs more than the lookups (once per trial and aux)
  const { colIdx } = sets;
  const places = new Int32Array(colIdx.length);
  for (let p = 0; p < colIdx.length; p++) places[p] = rankOf[colIdx[p]!]!;
  return { ptr, places };
}

/** Per prior place scratch, all zero between targets, and per-score counts. */
export interface RankScratch {
  score: Int32Array;
  inSet: Uint8Array;
  touched: Int32Array;
  /** per score: the items of T above it, and those of it passed so far */
  greater: Int32Array;
  seen: Int32Array;
}

export const rankScratch = (n: number, votes: number): RankScratch => ({
  score: new Int32Array(n),
  inSet: new Uint8Array(n),
  touched: new Int32Array(n),
  greater: new Int32Array(votes + 2),
  seen: new Int32Array(votes + 2),
});

/**
 * auc and prec10 of target `t` (index `ti` of the view's targets) ranked from its first `count`
 * `neighbours`, or null when its item set is empty or holds every item. Leaves the scratch zero.
 */
export function targetMetrics(s: RankScratch, sets: ItemSets, view: AuxView, t: number, ti: number, neighbours: Int32Array, count: number): { auc: number; prec10: number } | null {
  const n = sets.n;
  const m = view.ptr[ti + 1]! - view.ptr[ti]!;
  if (m === 0 || m === n) return null;
  const { score, inSet, touched, greater, seen } = s;
  const { places } = view;
  const { rowPtr } = sets;
  // the votes of the neighbours, by prior place
  let nT = 0;
  for (let q = 0; q < count; q++) {
    const v = neighbours[q]!;
    for (let p = rowPtr[v]!; p < rowPtr[v + 1]!; p++) {
      // without a branch (a place is touched at random): written always, kept when first touched
      const r = places[p]!;
      touched[nT] = r;
      nT += +(score[r] === 0);
      score[r]!++;
    }
  }
  // greater[s]: the items of T with a score above s
  greater.fill(0, 0, count + 2);
  seen.fill(0, 0, count + 2);
  for (let i = 0; i < nT; i++) seen[score[touched[i]!]!]!++;
  for (let sc = count, above = 0; sc >= 1; sc--) {
    greater[sc] = above;
    above += seen[sc]!;
    seen[sc] = 0;
  }
  for (let p = rowPtr[t]!; p < rowPtr[t + 1]!; p++) inSet[places[p]!] = 1;
  let sumPos = 0;
  let hits = 0;
  let tPassed = 0;
  // along the prior order, up to the last item of S (no later place changes a sum)
  // without branches: whether a place is in T, or in S, is a coin flip to the processor (seen[0]
  // and greater[0] are scratch the places outside T write and never read)
  for (let r = 0, left = m; left > 0; r++) {
    const sc = score[r]!;
    const inT = +(sc !== 0);
    const outside = nT + r - tPassed;
    const pos = outside + inT * (greater[sc]! + seen[sc]! - outside);
    seen[sc]! += inT;
    tPassed += inT;
    const mine = inSet[r]!;
    sumPos += mine * pos;
    hits += mine & +(pos < PREC_AT);
    left -= mine;
  }
  for (let i = 0; i < nT; i++) score[touched[i]!] = 0;
  for (let p = rowPtr[t]!; p < rowPtr[t + 1]!; p++) inSet[places[p]!] = 0;
  const others = n - m;
  const pairs = m * others - (sumPos - (m * (m - 1)) / 2);
  return { auc: pairs / (m * others), prec10: hits / Math.min(PREC_AT, m) };
}

/**
 * The view as the inference kernel takes it (src/kernels/infer.ts wasmInferRanks): each auxiliary
 * user's prior places as a bit set (aux index-major, ⌈n/64⌉ u64 words a user) and the targets'
 * places one after another. Built once per (trial, aux) and kept with the view.
 */
export function kernelData(sets: ItemSets, view: AuxView, aux: Int32Array, targets: Int32Array): InferKernelData {
  const words64 = Math.ceil(sets.n / 64);
  const auxBits = new Uint32Array(aux.length * words64 * 2);
  aux.forEach((u, a) => {
    const row = a * words64 * 2;
    for (let p = sets.rowPtr[u]!; p < sets.rowPtr[u + 1]!; p++) {
      const r = view.places[p]!;
      auxBits[row + (r >>> 5)]! |= 1 << (r & 31);
    }
  });
  const places = new Int32Array(view.ptr[targets.length]!);
  targets.forEach((t, i) => {
    places.set(view.places.subarray(sets.rowPtr[t]!, sets.rowPtr[t + 1]!), view.ptr[i]!);
  });
  return { n: sets.n, words64, auxBits, ptr: view.ptr, places };
}
