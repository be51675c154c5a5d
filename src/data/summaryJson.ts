/**
 * The data set summary as every JSON file and printout of lshdp spells it (datasets.json,
 * `lshdp data inspect --json`): snake_case keys, like the columns of utility.csv. Inside the code
 * the summary keeps TypeScript's camelCase; this is the one place the two meet.
 */
import type { DatasetSummary, RecommendSummary } from './types.js';

/** datasets.json's `recommend`: the split and how many users each step left out of the queries. */
export interface RecommendSummaryJson {
  split: RecommendSummary['split'];
  holdout: number;
  users_too_few_items: number;
  held_out: number;
  training: number;
  training_items: number;
  per_dim: { n: number; users_no_held_item: number; users_zero_training: number; users_eligible: number }[];
}

export interface DatasetSummaryJson {
  name: string;
  format: string;
  inputs: { path: string; sha256: string; bytes: number }[];
  rows_read: number;
  rows_skipped: number;
  skipped_lines: number[];
  users: number;
  items: number;
  interactions: number;
  center: string;
  per_dim: { n: number; users_kept: number; users_dropped: number; mean_nnz: number; item_ids: string[] }[];
  /** only with a recommendation split (absent otherwise, so files without one keep their bytes) */
  recommend?: RecommendSummaryJson;
}

function recommendToJson(r: RecommendSummary): RecommendSummaryJson {
  return {
    split: r.split,
    holdout: r.holdout,
    users_too_few_items: r.usersTooFew,
    held_out: r.heldOut,
    training: r.training,
    training_items: r.trainingItems,
    per_dim: r.perDim.map((p) => ({ n: p.n, users_no_held_item: p.usersNoHeldItem, users_zero_training: p.usersZeroTraining, users_eligible: p.usersEligible })),
  };
}

function recommendFromJson(r: RecommendSummaryJson): RecommendSummary {
  return {
    split: r.split,
    holdout: r.holdout,
    usersTooFew: r.users_too_few_items,
    heldOut: r.held_out,
    training: r.training,
    trainingItems: r.training_items,
    perDim: (r.per_dim ?? []).map((p) => ({ n: p.n, usersNoHeldItem: p.users_no_held_item, usersZeroTraining: p.users_zero_training, usersEligible: p.users_eligible })),
  };
}

export function summaryToJson(s: DatasetSummary): DatasetSummaryJson {
  return {
    name: s.name,
    format: s.format,
    inputs: s.inputs,
    rows_read: s.rowsRead,
    rows_skipped: s.rowsSkipped,
    skipped_lines: s.skippedLines,
    users: s.users,
    items: s.items,
    interactions: s.interactions,
    center: s.center,
    per_dim: s.perDim.map((p) => ({ n: p.n, users_kept: p.usersKept, users_dropped: p.usersDropped, mean_nnz: p.meanNnz, item_ids: p.itemIds })),
    ...(s.recommend ? { recommend: recommendToJson(s.recommend) } : {}),
  };
}

/** Back from datasets.json; also reads the camelCase keys lshdp 0.1 wrote. */
export function summaryFromJson(o: Partial<DatasetSummaryJson> & Partial<Omit<DatasetSummary, 'recommend'>>): DatasetSummary {
  const per = (o.per_dim ?? []).map((p) => ({ n: p.n, usersKept: p.users_kept, usersDropped: p.users_dropped, meanNnz: p.mean_nnz, itemIds: p.item_ids }));
  return {
    name: o.name ?? '',
    format: o.format ?? '',
    inputs: o.inputs ?? [],
    rowsRead: o.rows_read ?? o.rowsRead ?? 0,
    rowsSkipped: o.rows_skipped ?? o.rowsSkipped ?? 0,
    skippedLines: o.skipped_lines ?? o.skippedLines ?? [],
    users: o.users ?? 0,
    items: o.items ?? 0,
    interactions: o.interactions ?? 0,
    center: o.center ?? '',
    perDim: o.per_dim ? per : (o.perDim ?? []),
    ...(o.recommend ? { recommend: recommendFromJson(o.recommend) } : {}),
  };
}
