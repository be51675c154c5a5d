/**
 * Attribute inference from a released code (issue 41; docs/ATTACKS.md, "Attribute inference"):
 * what an adversary learns about a user's items from the user's code alone. The science of one
 * trial, exactly as stated there, apart from how a trial cell hands it the codes:
 *
 * - a user's item set S is the set of the n items the user interacted with, before any centring;
 * - one permutation of the kept users per trial, from the `infer` seed (run seed, data set, n,
 *   trial); for each `aux` the auxiliary group is its first ⌊aux · N + ½⌋ users, so the groups of
 *   two aux values are nested; every other user is a target (above `targets`, a sample from the
 *   `infer-targets` seed, ascending);
 * - the adversary knows the auxiliary users' item sets and their clean codes; for a target it takes
 *   the k auxiliary users whose clean codes are nearest (Hamming) to the target's released code,
 *   ties broken by the project's seeded tie key (src/lsh/tieKey.ts) of the target's place (after
 *   the group's m users: m + its index among the targets) and the candidate's place in the group
 *   (the k-NN kernel's keys for queries appended to the candidates), and scores
 *   each item by how many of them hold it; items are ranked by score, then by popularity in the
 *   auxiliary group (more first), then by column;
 * - per target (skipped when S is empty or holds all n items): auc = the share of pairs (i in S,
 *   j not in S) ranked i first; prec10 = |top 10 ∩ S| / min(10, |S|); a trial's values are the
 *   means over its targets.
 *
 * The ranking is a total order (score, popularity, column), so the auc has no ties to split. The
 * `prior` baseline is the same ranking with every score 0 (the popularity order alone): what the
 * adversary knows without any code.
 */
import type { ItemSets } from '../../data/types.js';
import type { CodeSet } from '../../lsh/codes.js';
import { describeRelease, isBits, sameShape, selectRows, type ReleaseSet } from '../../lsh/releases.js';
import { deriveSeed, makeRng } from '../../random/rng.js';
import { sampleWithoutReplacement } from '../../random/samplers.js';
import { auxView, kernelData, PREC_AT, rankScratch, targetMetrics, type AuxView } from './ranking.js';
import { gather, gatherOf, nearestOfTargets, nearestOfTargetsIn } from './nearest.js';
import { hammingKernelName } from '../../kernels/instance.js';
import { wasmInferRanks, type InferKernelData } from '../../kernels/infer.js';
import { wasmNearestOf } from '../../kernels/knn.js';

export { PREC_AT };
export { nearestInGroup } from './nearest.js';

/** The version of the attack's algorithm (its draws and its ranking). */
export const INFER_VERSION = '1';

/** Each user's item set (src/data/types.ts): the columns of row u in colIdx[rowPtr[u] .. rowPtr[u + 1]). */
export type { ItemSets };

/** A uniformly random permutation of 0..users-1 (Fisher–Yates on the `infer` seed of the trial). */
export function inferPermutation(users: number, runSeed: number | string, dataset: string, n: number, trial: number): Int32Array {
  const rng = makeRng(deriveSeed(runSeed, 'infer', dataset, n, trial));
  const perm = new Int32Array(users);
  for (let i = 0; i < users; i++) perm[i] = i;
  for (let i = users - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    const t = perm[i]!;
    perm[i] = perm[j]!;
    perm[j] = t;
  }
  return perm;
}

/** The size of the auxiliary group: ⌊aux · N + ½⌋, within [0, N]. */
export function auxSize(aux: number, users: number): number {
  return Math.min(users, Math.max(0, Math.floor(aux * users + 0.5)));
}

/**
 * The auxiliary group (the first auxSize users of the permutation, ascending) and the targets
 * (every other user, or a sample of `maxTargets` of them from the `infer-targets` seed, ascending).
 */
export function inferGroups(perm: Int32Array, aux: number, maxTargets: number, at: { runSeed: number | string; dataset: string; n: number; trial: number }): { aux: Int32Array; targets: Int32Array } {
  const m = auxSize(aux, perm.length);
  const group = perm.slice(0, m).sort();
  const rest = perm.slice(m).sort();
  if (rest.length <= maxTargets) return { aux: group, targets: rest };
  const pick = sampleWithoutReplacement(makeRng(deriveSeed(at.runSeed, 'infer-targets', at.dataset, at.n, at.trial)), rest.length, maxTargets);
  return { aux: group, targets: Int32Array.from(pick, (i) => rest[i]!) };
}

/** How many users of `group` hold each item. */
export function popularity(sets: ItemSets, group: Int32Array): Int32Array {
  const pop = new Int32Array(sets.n);
  for (const u of group) for (let p = sets.rowPtr[u]!; p < sets.rowPtr[u + 1]!; p++) pop[sets.colIdx[p]!]!++;
  return pop;
}

/** The columns in the prior order: popularity descending, then column ascending. */
export function priorOrder(pop: Int32Array): Int32Array {
  const cols = Int32Array.from(pop.keys());
  return cols.sort((a, b) => pop[b]! - pop[a]! || a - b);
}

/** The prior baseline's scratch: a ranking written out and a membership mark per column, reset after each target. */
interface Scratch {
  inSet: Uint8Array;
  ranking: Int32Array;
}

/** auc and prec10 of one ranking against the item set of `target`, or null when its set is empty or holds every item. */
function metricsOf(s: Scratch, sets: ItemSets, target: number): { auc: number; prec10: number } | null {
  const from = sets.rowPtr[target]!;
  const size = sets.rowPtr[target + 1]! - from;
  const n = sets.n;
  if (size === 0 || size === n) return null;
  for (let p = from; p < from + size; p++) s.inSet[sets.colIdx[p]!] = 1;
  const others = n - size;
  let pairs = 0;
  let othersSeen = 0;
  let hits = 0;
  for (let r = 0; r < n; r++) {
    if (s.inSet[s.ranking[r]!] === 1) {
      // every item outside S that comes after this one is a pair ranked right
      pairs += others - othersSeen;
      if (r < PREC_AT) hits++;
    } else othersSeen++;
  }
  for (let p = from; p < from + size; p++) s.inSet[sets.colIdx[p]!] = 0;
  return { auc: pairs / (size * others), prec10: hits / Math.min(PREC_AT, size) };
}

/** The means over the targets of one trial (targets whose set is empty or full are skipped, and not counted). */
export interface InferMeans {
  auc: number;
  prec10: number;
  /** targets the means are over */
  targets: number;
}

/**
 * The attack on `released` (the code of every user, row = user index) with the auxiliary group's
 * clean codes `clean` (row = user index): each target's k nearest auxiliary users, its ranking and
 * its metrics (src/evaluations/infer/ranking.ts), averaged over the targets. `released` may be a
 * code per target instead (`row` maps a target to its row: the null baseline's random codes).
 * `view`: the targets' prior view when the caller keeps it (the same for every result of a trial).
 */
export function inferMeans(args: {
  sets: ItemSets;
  released: ReleaseSet;
  clean: ReleaseSet;
  aux: Int32Array;
  targets: Int32Array;
  k: number;
  tieSeed: number;
  row?: (target: number, index: number) => number;
  view?: AuxView;
}): InferMeans {
  const { sets, released, clean, aux, targets, k, tieSeed } = args;
  if (!sameShape(clean, released)) throw new RangeError(`released ${describeRelease(released)}, the clean ones are ${describeRelease(clean)}`);
  const view = args.view ?? auxView(sets, priorOrder(popularity(sets, aux)), targets);
  const m = aux.length;
  const take = Math.min(k, m);
  const { row } = args;
  const rows = row ? Int32Array.from(targets, (t, i) => row(t, i)) : targets;
  const kept = isBits(released) && isBits(clean) ? keptMeans(sets, view, released, rows, clean, aux, targets, take, tieSeed) : null;
  if (kept) return kept;
  const nearest =
    isBits(released) && isBits(clean) ? nearestOfTargets(released, rows, gatherOf(clean, aux), m, take, tieSeed) : nearestOfTargetsIn(released, rows, selectRows(clean, aux), m, take, tieSeed);
  if (hammingKernelName() !== 'js') {
    const ranks = new Float64Array(2 * targets.length);
    if (wasmInferRanks(kernelDataOf(sets, view, aux, targets), nearest, take, PREC_AT, ranks)) return meansOfRanks(ranks);
  }
  const s = rankScratch(sets.n, take);
  const voters = new Int32Array(take);
  return meansOver(targets, (t, i) => {
    for (let q = 0; q < take; q++) voters[q] = aux[nearest[i * take + q]!]!;
    return targetMetrics(s, sets, view, t, i, voters, take);
  });
}

/**
 * What a cell's targets were worth for codes met before: a target's neighbours, hence its auc and
 * prec10, depend only on its released code once the auxiliary users' clean codes, k, the tie seed
 * and the view are fixed, and the results of a cell often release the same code for a target (lsh
 * and the mechanisms at large ξ: 27% of a target's codes on the shared MovieLens grid). Kept per
 * gathered clean codes (one set a cell), for codes of at most 53 bits (a code is then one exact
 * number); the values are the very doubles computed the first time, so the means are bit for bit
 * those of a fresh computation.
 */
interface KeptRanks {
  view: AuxView;
  take: number;
  seed: number;
  /**
   * Per target KEPT_PER_TARGET slots, each a code (low word + high word · 2^32; −1: empty) and its
   * auc and prec10: typed arrays, no object per entry. A code takes the slot of its low bits, so a
   * code met again after another took its slot is ranked again (the same values).
   */
  codes: Float64Array;
  values: Float64Array;
}

/** Codes kept per target and cell, 2^KEPT_BITS (a cell has about 50 results). */
const KEPT_BITS = 4;
const KEPT_PER_TARGET = 1 << KEPT_BITS;

/** The slot of code `key` of target i: its low bits mixed, so that nearby codes spread. */
const slotOf = (i: number, key: number): number => i * KEPT_PER_TARGET + (Math.imul(key | 0, 0x9e3779b1) >>> (32 - KEPT_BITS));

/** Per gathered clean code set: its kept values, or null once seen (a set met once, such as a RAPPOR result's own clean release, never gets any). */
const keptRanks = new WeakMap<Uint32Array, KeptRanks | null>();

/**
 * The means of a release of codes of at most 53 bits with the kernel, each target's values taken
 * from the cell's kept ones where its code was met before, the others ranked (and kept once the
 * clean codes are met a second time); null where this does not apply (the JavaScript kernel, longer
 * codes, k not below the group), for the caller's path.
 */
function keptMeans(sets: ItemSets, view: AuxView, released: CodeSet, rows: Int32Array, clean: CodeSet, aux: Int32Array, targets: Int32Array, take: number, seed: number): InferMeans | null {
  const m = aux.length;
  if (hammingKernelName() === 'js' || released.bits > 53 || take >= m) return null;
  const packed = gatherOf(clean, aux);
  let kept = keptRanks.get(packed);
  // the first release against these clean codes: every target ranked, nothing kept yet
  if (kept === undefined) keptRanks.set(packed, null);
  else if (!kept || kept.view !== view || kept.take !== take || kept.seed !== seed) {
    const slots = targets.length * KEPT_PER_TARGET;
    kept = { view, take, seed, codes: new Float64Array(slots).fill(-1), values: new Float64Array(2 * slots) };
    keptRanks.set(packed, kept);
  }
  const table = kept ?? null;
  const n = targets.length;
  const ranks = new Float64Array(2 * n);
  const keys = new Float64Array(n);
  // each target's code as one exact number, word by word (a closure per code cost a visible share)
  const rc = released.codes;
  if (released.words === 1) for (let i = 0; i < n; i++) keys[i] = rc[rows[i]!]!;
  else for (let i = 0; i < n; i++) keys[i] = rc[2 * rows[i]!]! + rc[2 * rows[i]! + 1]! * 4294967296;
  const todo = new Int32Array(n);
  let count = 0;
  if (table === null) for (let i = 0; i < n; i++) todo[count++] = i;
  else
    for (let i = 0; i < n; i++) {
      const s = slotOf(i, keys[i]!);
      if (table.codes[s] !== keys[i]) todo[count++] = i;
      else {
        ranks[2 * i] = table.values[2 * s]!;
        ranks[2 * i + 1] = table.values[2 * s + 1]!;
      }
    }
  if (count > 0) {
    const only = todo.subarray(0, count);
    const nearest = new Int32Array(count * take);
    const probes = gather(released, rows);
    if (!wasmNearestOf(packed, m, probes, released.bits, take, seed, nearest, true, only)) return null;
    if (!wasmInferRanks(kernelDataOf(sets, view, aux, targets), nearest, take, PREC_AT, ranks, only)) return null;
    if (table)
      for (let j = 0; j < count; j++) {
        const i = only[j]!;
        const s = slotOf(i, keys[i]!);
        table.codes[s] = keys[i]!;
        table.values[2 * s] = ranks[2 * i]!;
        table.values[2 * s + 1] = ranks[2 * i + 1]!;
      }
  }
  return meansOfRanks(ranks);
}

/** The means of the kernel's per-target values (auc, prec10 pairs; NaN: a skipped target), in target order as meansOver adds them. */
function meansOfRanks(ranks: Float64Array): InferMeans {
  let auc = 0;
  let prec10 = 0;
  let counted = 0;
  for (let i = 0; i < ranks.length; i += 2) {
    if (Number.isNaN(ranks[i]!)) continue;
    auc += ranks[i]!;
    prec10 += ranks[i + 1]!;
    counted++;
  }
  return { auc: counted ? auc / counted : Number.NaN, prec10: counted ? prec10 / counted : Number.NaN, targets: counted };
}

/** The kernel's form of each view, kept while the view lives (the same aux and targets for every result of a trial). */
const kernelViews = new WeakMap<AuxView, { aux: Int32Array; targets: Int32Array; data: InferKernelData }>();

function kernelDataOf(sets: ItemSets, view: AuxView, aux: Int32Array, targets: Int32Array): InferKernelData {
  const kept = kernelViews.get(view);
  if (kept && kept.aux === aux && kept.targets === targets) return kept.data;
  const data = kernelData(sets, view, aux, targets);
  kernelViews.set(view, { aux, targets, data });
  return data;
}

/** The means of the targets' metrics, in target order (targets without metrics skipped and not counted). */
function meansOver(targets: Int32Array, metrics: (target: number, index: number) => { auc: number; prec10: number } | null): InferMeans {
  let auc = 0;
  let prec10 = 0;
  let counted = 0;
  targets.forEach((t, i) => {
    const m = metrics(t, i);
    if (!m) return;
    auc += m.auc;
    prec10 += m.prec10;
    counted++;
  });
  return { auc: counted ? auc / counted : Number.NaN, prec10: counted ? prec10 / counted : Number.NaN, targets: counted };
}

/** The `prior` baseline: every target ranked by the auxiliary group's popularity alone (`prior`: that order, when the caller has it). */
export function priorMeans(sets: ItemSets, aux: Int32Array, targets: Int32Array, prior = priorOrder(popularity(sets, aux))): InferMeans {
  const s: Scratch = { inSet: new Uint8Array(sets.n), ranking: Int32Array.from(prior) };
  return meansOver(targets, (t) => metricsOf(s, sets, t));
}
