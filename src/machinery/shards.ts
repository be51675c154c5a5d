/**
 * How a run's cells are split over shards (`--shard i/N`, docs/RUNNING.md): a cost model of a
 * cell's work, the balanced assignment every shard computes alike, and the shard a command line or
 * an engine task names. Machinery: no number of a result depends on it.
 */
import { UserError } from '../util/errors.js';
import type { Cell } from '../experiment/grid.js';
import type { ExperimentConfig } from '../experiment/config/schema.js';

/**
 * Relative cost of a cell, for balancing shards: a trial cell hashes every user once per
 * (mechanism, xi) and scans `users` codes (or the 2^kappa buckets when kappa <= 16) of `ceil(kappa/32)` words
 * per query and (mechanism, xi);
 * an exact cell compares each query with the users sharing an item (~ users × queries × density).
 */
export function estimateCost(_cfg: ExperimentConfig, cell: Cell, users: number, queries: number, variants: number): number {
  if (cell.kind === 'exact') return users * queries * 0.5 + users * cell.n * 0.01;
  const words = Math.ceil(cell.kappa / 32);
  // codes of <= 16 bits are searched by bucket (at most 2^kappa distinct codes), not user by user
  const scanned = cell.kappa <= 16 ? Math.min(users, 2 ** cell.kappa) : users;
  return variants * (users * cell.kappa * 0.05 + scanned * queries * words) + users * cell.n * cell.kappa * 0.01;
}

/**
 * Assign cells to `count` shards, balanced by cost: longest first to the least loaded shard
 * (ties: canonical order, lower shard). Deterministic, so every shard computes the same plan.
 */
export function assignShards(costs: readonly number[], count: number): Int32Array {
  const order = costs.map((_, i) => i).sort((a, b) => costs[b] - costs[a] || a - b);
  const load = new Float64Array(count);
  const shardOf = new Int32Array(costs.length);
  for (const i of order) {
    let best = 0;
    for (let s = 1; s < count; s++) if (load[s] < load[best]) best = s;
    shardOf[i] = best;
    load[best] += costs[i];
  }
  return shardOf;
}

export interface ShardSpec {
  index: number; // 1-based, as typed on the command line
  count: number;
  /** `--shard auto`: the engine task that gave the index (src/cluster/engineShard.ts) */
  task?: EngineTask;
}

/** What an engine said about the task that runs a shard (recorded in manifest.json's `shard`). */
export interface EngineTask {
  engine: 'slurm' | 'kubernetes';
  /** the variable the index came from */
  variable: 'SLURM_ARRAY_TASK_ID' | 'JOB_COMPLETION_INDEX';
  index: number;
  /** Slurm: SLURM_ARRAY_JOB_ID; Kubernetes: the pod's job name (JOB_NAME) when set */
  job: string | null;
  /** Slurm: SLURM_RESTART_COUNT (a requeued task counts up); null elsewhere */
  restart: number | null;
}

export function parseShard(text: string): ShardSpec {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  if (!m) throw new UserError(`--shard: expected i/N (for example 2/3), got "${text}"`);
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (count < 1 || index < 1 || index > count) throw new UserError(`--shard: need 1 <= i <= N, got "${text}"`);
  return { index, count };
}
