/**
 * The recommendation split (config `recommend`, docs/RECOMMEND.md, "The split"): per user, the
 * distinct items are split into training items and `holdout` held-out items, and every
 * interaction with a held-out item leaves the training data. Pure functions over Interactions:
 * the loader (load.ts) reads, splits, ranks the items over the training data and builds the
 * training vectors; `recommendData` then lists, per vector row, its training and held-out columns.
 */
import { deriveSeed, makeRng } from '../random/rng.js';
import { sampleWithoutReplacement } from '../random/samplers.js';
import { UserError } from '../util/errors.js';
import { timedData } from './formats/index.js';
import type { Interactions } from './interactions.js';
import type { DatasetSpec } from './spec.js';
import type { RecommendData, RecommendDimSummary, RecommendSplit, UserVectors } from './types.js';

export interface SplitInteractions {
  /**
   * the training interactions: the pairs of held-out items removed, the same users (every user
   * keeps at least one item), and only the items with a training pair (ids in the same order)
   */
  train: Interactions;
  /** per user of the input (and of `train`): the held-out items, as input item indices ascending (CSR) */
  heldPtr: Int32Array;
  heldItem: Int32Array;
  /** input item index → its index in `train.itemIds`, or -1 where the item has no training pair */
  trainItemOf: Int32Array;
  /** users with fewer than holdout + 1 distinct items (all their items train, none is held out) */
  usersTooFew: number;
}

/**
 * Why data sets cannot be split this way, as one config line naming the key and the data sets, or
 * null: `split: last` orders by time, which generated data and an `interactions` entry without a
 * `time` column do not have.
 */
export function splitProblem(specs: readonly DatasetSpec[], split: RecommendSplit): string | null {
  if (split.split !== 'last') return null;
  const untimed = specs.filter((d) => !timedData(d));
  if (untimed.length === 0) return null;
  const which = untimed.map((d) => `"${d.name}" (format ${d.format})`).join(', ');
  const has = untimed.length === 1 ? `data set ${which} has` : `data sets ${which} have`;
  return `recommend.split: last orders each user's items by time, and ${has} no interaction times (a file read as interactions gives them with a time: column); use split: random`;
}

/** Where a split draws or orders from: the run's seed and the data set's name (`random`). */
export interface SplitContext {
  seed: number | string;
  dataset: string;
}

/**
 * The positions (into the user's pair range [a, b)) of the `holdout` items held out. `last`: the
 * items ordered by the pair's time (Interactions.times: the time of the user's first interaction
 * with the item, or with `combine: last` of the row kept), ties by item index (the id order), and
 * the last `holdout` taken. `random`: `holdout` of the user's items drawn uniformly from the seed
 * of (run seed, `split`, data set, user id), the same for every trial and call.
 */
function heldPositions(inter: Interactions, split: RecommendSplit, ctx: SplitContext, u: number): number[] {
  const a = inter.userPtr[u]!;
  const b = inter.userPtr[u + 1]!;
  if (split.split === 'random') {
    const rng = makeRng(deriveSeed(ctx.seed, 'split', ctx.dataset, inter.userIds[u]!));
    return Array.from(sampleWithoutReplacement(rng, b - a, split.holdout), (k) => a + k);
  }
  const times = inter.times!;
  const order = Array.from({ length: b - a }, (_, k) => a + k);
  // within a user, pairs are in item index order: the position breaks ties by the id order
  order.sort((p, q) => times[p]! - times[q]! || p - q);
  return order.slice(order.length - split.holdout);
}

/** Split each user's distinct items (see `heldPositions`); users with too few items keep all. */
export function splitInteractions(inter: Interactions, split: RecommendSplit, ctx: SplitContext): SplitInteractions {
  if (!Number.isInteger(split.holdout) || split.holdout < 1) throw new RangeError(`holdout must be a positive integer, got ${split.holdout}`);
  if (split.split === 'last' && !inter.times) throw new UserError(`dataset ${ctx.dataset}: recommend.split: last orders each user's items by time, and these interactions were read without times`);
  const nUsers = inter.userIds.length;
  const pairs = inter.itemIdx.length;
  const held = new Uint8Array(pairs);
  const heldPtr = new Int32Array(nUsers + 1);
  let usersTooFew = 0;
  for (let u = 0; u < nUsers; u++) {
    const m = inter.userPtr[u + 1]! - inter.userPtr[u]!;
    if (m < split.holdout + 1) usersTooFew++;
    else for (const p of heldPositions(inter, split, ctx, u)) held[p] = 1;
  }
  // the held-out items per user (ascending: pairs are in item order within a user)
  const heldList: number[] = [];
  const trainPairs = new Uint8Array(inter.itemIds.length);
  let kept = 0;
  for (let u = 0; u < nUsers; u++) {
    for (let p = inter.userPtr[u]!; p < inter.userPtr[u + 1]!; p++) {
      if (held[p]) heldList.push(inter.itemIdx[p]!);
      else {
        trainPairs[inter.itemIdx[p]!] = 1;
        kept++;
      }
    }
    heldPtr[u + 1] = heldList.length;
  }
  const trainItemOf = new Int32Array(inter.itemIds.length).fill(-1);
  const itemIds: string[] = [];
  for (let i = 0; i < inter.itemIds.length; i++) {
    if (!trainPairs[i]) continue;
    trainItemOf[i] = itemIds.length;
    itemIds.push(inter.itemIds[i]!);
  }
  const userPtr = new Int32Array(nUsers + 1);
  const itemIdx = new Int32Array(kept);
  const values = new Float64Array(kept);
  const times = inter.times ? new Float64Array(kept) : undefined;
  let q = 0;
  for (let u = 0; u < nUsers; u++) {
    for (let p = inter.userPtr[u]!; p < inter.userPtr[u + 1]!; p++) {
      if (held[p]) continue;
      itemIdx[q] = trainItemOf[inter.itemIdx[p]!]!;
      values[q] = inter.values[p]!;
      if (times) times[q] = inter.times![p]!;
      q++;
    }
    userPtr[u + 1] = q;
  }
  const train: Interactions = { ...inter, itemIds, userPtr, itemIdx, values, ...(times ? { times } : {}) };
  return { train, heldPtr, heldItem: Int32Array.from(heldList), trainItemOf, usersTooFew };
}

/**
 * What a recommendation run needs beside the training vectors of one n (RecommendData, types.ts):
 * per vector row, every column of the n that the user has a training pair with (also one whose
 * centred value is 0) and the held-out items among the n columns; and how many users each step
 * leaves out of the queries: too few items, then no held-out item among the n columns, then an
 * all-zero training vector (not a row). `ranking` is the training ranking the vectors were built with.
 */
export function recommendData(split: SplitInteractions, ranking: Int32Array, vectors: UserVectors, holdout: number): { data: RecommendData; dim: RecommendDimSummary } {
  const { train } = split;
  const n = vectors.n;
  const colOf = new Int32Array(train.itemIds.length).fill(-1);
  for (let j = 0; j < n; j++) colOf[ranking[j]!] = j;
  const rows = vectors.userIds.length;
  const trainPtr = new Int32Array(rows + 1);
  const heldPtr = new Int32Array(rows + 1);
  const trainCol: number[] = [];
  const heldCol: number[] = [];
  const dim: RecommendDimSummary = { n, usersNoHeldItem: 0, usersZeroTraining: 0, usersEligible: 0 };
  let r = 0;
  for (let u = 0; u < train.userIds.length; u++) {
    const isRow = r < rows && vectors.userIds[r] === train.userIds[u];
    const tooFew = train.userPtr[u + 1]! - train.userPtr[u]! + (split.heldPtr[u + 1]! - split.heldPtr[u]!) < holdout + 1;
    const held: number[] = [];
    for (let q = split.heldPtr[u]!; q < split.heldPtr[u + 1]!; q++) {
      const t = split.trainItemOf[split.heldItem[q]!]!;
      if (t >= 0 && colOf[t]! >= 0) held.push(colOf[t]!);
    }
    if (!tooFew) {
      if (held.length === 0) dim.usersNoHeldItem++;
      else if (!isRow) dim.usersZeroTraining++;
      else dim.usersEligible++;
    }
    if (!isRow) continue;
    const cols: number[] = [];
    for (let p = train.userPtr[u]!; p < train.userPtr[u + 1]!; p++) if (colOf[train.itemIdx[p]!]! >= 0) cols.push(colOf[train.itemIdx[p]!]!);
    trainCol.push(...cols.sort((x, y) => x - y));
    heldCol.push(...held.sort((x, y) => x - y));
    r++;
    trainPtr[r] = trainCol.length;
    heldPtr[r] = heldCol.length;
  }
  if (r !== rows) throw new Error(`recommendData: ${rows - r} vector rows are not users of the training interactions`);
  return { data: { trainPtr, trainCol: Int32Array.from(trainCol), heldPtr, heldCol: Int32Array.from(heldCol) }, dim };
}
