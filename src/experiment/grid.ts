/**
 * The grid of a config as cells (docs/ARCHITECTURE.md): an exact cell per (dataset, n) and a trial
 * cell per (dataset, n, kappa, trial). Cells are the unit of work, of resume and of sharding; each
 * has a stable key (its file name in the store) and a hash of everything that determines it.
 */
import { deriveSeed } from '../random/rng.js';
import { sha256Hex, stableStringify } from '../util/hash.js';
import type { DatasetSummary } from '../data/types.js';
import type { ExperimentConfig } from './config.js';
import type { MechanismInfo, TrialCellSpec } from './machinery/engine.js';
import { ALGORITHM_VERSION } from './version.js';
import { UserError } from '../util/errors.js';

export interface ExactCell {
  kind: 'exact';
  key: string;
  dataset: string;
  n: number;
}
export interface TrialCell {
  kind: 'trial';
  key: string;
  dataset: string;
  n: number;
  kappa: number;
  trial: number;
}
export type Cell = ExactCell | TrialCell;

export function exactKey(dataset: string, n: number): string {
  return `exact_${dataset}_n${n}`;
}
export function trialKey(dataset: string, n: number, kappa: number, trial: number): string {
  return `trial_${dataset}_n${n}_kappa${kappa}_t${trial}`;
}

/** Every cell of the config in canonical order: dataset, n, then the exact cell, then kappa, trial. */
export function expandCells(cfg: ExperimentConfig): Cell[] {
  const cells: Cell[] = [];
  for (const ds of cfg.datasets) {
    for (const n of cfg.dims) {
      cells.push({ kind: 'exact', key: exactKey(ds.name, n), dataset: ds.name, n });
      for (const kappa of cfg.kappa) {
        for (let trial = 0; trial < cfg.trials; trial++) {
          cells.push({ kind: 'trial', key: trialKey(ds.name, n, kappa, trial), dataset: ds.name, n, kappa, trial });
        }
      }
    }
  }
  return cells;
}

/** The hashing mechanisms of the config (everything but exact), in config order. */
export function codeMechanisms(cfg: ExperimentConfig, info: (name: string) => MechanismInfo) {
  return cfg.mechanisms.filter((m) => info(m.name).kind === 'code');
}

/** What a trial cell computes, in the engine's terms. */
export function trialSpec(cfg: ExperimentConfig, cell: TrialCell, info: (name: string) => MechanismInfo): TrialCellSpec {
  return {
    dataset: cell.dataset,
    n: cell.n,
    kappa: cell.kappa,
    trial: cell.trial,
    mechanisms: codeMechanisms(cfg, info).map((m) => ({ name: m.name, xi: info(m.name).usesXi ? [...cfg.privacy.xi] : [], options: { ...m.options } })),
    k: [...cfg.k],
    privacy: { d: cfg.privacy.d, delta: cfg.privacy.delta },
    runSeed: cfg.seed,
  };
}

/** What identifies a data set's input: its spec, its files' hashes and how leniently it was read. */
export function inputIdentity(cfg: ExperimentConfig, dataset: string, summary: DatasetSummary, skipBadRows: boolean) {
  const spec = cfg.datasets.find((d) => d.name === dataset);
  return { spec, inputs: summary.inputs.map((i) => ({ sha256: i.sha256, bytes: i.bytes })), skipBadRows, rowsSkipped: summary.rowsSkipped };
}

/**
 * Hash of everything that determines a cell's numbers: its coordinates, the config values it uses,
 * the input's identity and the algorithms' version. A stored cell is reused only on an equal hash.
 */
export function cellHash(cfg: ExperimentConfig, cell: Cell, input: unknown, info: (name: string) => MechanismInfo): string {
  const common = { algorithm: ALGORITHM_VERSION, input, seed: cfg.seed, queries: cfg.queries, k: cfg.k };
  const body =
    cell.kind === 'exact'
      ? { ...common, cell: { kind: 'exact', dataset: cell.dataset, n: cell.n } }
      : { ...common, cell: { kind: 'trial', dataset: cell.dataset, n: cell.n, kappa: cell.kappa, trial: cell.trial }, spec: trialSpec(cfg, cell, info) };
  return sha256Hex(stableStringify(body));
}

/** The seeds a cell draws from (recorded in the manifest for provenance). */
export function cellSeeds(cfg: ExperimentConfig, cell: Cell): Record<string, string> {
  const seeds: Record<string, string> = { queries: deriveSeed(cfg.seed, 'queries', cell.dataset, cell.n) };
  if (cell.kind === 'trial') seeds.planes = deriveSeed(cfg.seed, 'planes', cell.dataset, cell.n, cell.kappa, cell.trial);
  return seeds;
}

/**
 * Relative cost of a cell, for balancing shards: a trial cell hashes every user once per
 * (mechanism, xi) and scans `users` codes (or the 2^kappa buckets when kappa <= 16) of `ceil(kappa/32)` words
 * per query and (mechanism, xi);
 * an exact cell compares each query with the users sharing an item (~ users × queries × density).
 */
export function estimateCost(cfg: ExperimentConfig, cell: Cell, users: number, queries: number, variants: number): number {
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
  const order = costs.map((c, i) => i).sort((a, b) => costs[b] - costs[a] || a - b);
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
}

export function parseShard(text: string): ShardSpec {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  if (!m) throw new UserError(`--shard: expected i/N (for example 2/3), got "${text}"`);
  const index = Number(m[1]);
  const count = Number(m[2]);
  if (count < 1 || index < 1 || index > count) throw new UserError(`--shard: need 1 <= i <= N, got "${text}"`);
  return { index, count };
}
