/**
 * manifest.json: what a results folder was computed from (versions, effective config, inputs,
 * per-cell seeds and result hashes, timings). Merge checks shards against each other with it, and
 * `lshdp claims`, `status` and `compare` read a folder's effective config from it.
 */
import type { ShardSpec } from './shards.js';
import type { DatasetSummary } from '../data/types.js';
import type { ExperimentConfig } from '../experiment/config/schema.js';
import { cellSeeds, type Cell } from '../experiment/grid.js';
import type { CellRecord } from '../experiment/records.js';

/** What a manifest says about one cell of the grid. */
export interface GridEntry {
  key: string;
  kind: 'exact' | 'trial';
  dataset: string;
  n: number;
  kappa?: number;
  trial?: number;
  /** exact cells: the hash of everything that determines them */
  hash?: string;
  /** trial cells: result id → the hash of everything that determines that result */
  results?: Record<string, string>;
  /**
   * Trial cells of a config with an evaluation of its own store folder: under the folder's name
   * (`attack`), entry key → the hash of everything that determines it (read with ownHashesOf,
   * src/machinery/ownStores.ts). The key is the store folder's name, not a fixed field.
   */
  [ownStore: string]: unknown;
  seeds: Record<string, string>;
  /** 1-based shard that computes it (sharded runs only) */
  shard?: number;
  /** computation wall time in ms, when this folder holds the cell */
  ms?: number;
}

export interface Manifest {
  lshdp: string;
  algorithm: string;
  /** the mechanisms of the config that carry their own algorithm version (Mechanism.algorithm) */
  mechanism_algorithms?: Record<string, string>;
  git_commit: string | null;
  node: string;
  /** the Hamming k-NN kernel that ran (src/kernels/); results do not depend on it */
  kernel?: string;
  config_file: string;
  config_hash: string;
  /** the effective config (overrides applied, paths absolute): a valid config that reruns as is */
  config: Record<string, unknown>;
  skip_bad_rows: boolean;
  /** `training` with `recommend`: the vectors (hence utility.csv's loss and recall) are the split's training vectors; absent otherwise */
  utility_vectors?: 'training';
  inputs: { dataset: string; path: string; sha256: string; bytes: number }[];
  users: { dataset: string; n: number; kept: number; dropped: number }[];
  shard: ShardSpec | null;
  /** sharded folders merged into this one */
  merged_from?: string[];
  threads: number;
  timings: { total_ms: number; load_ms: Record<string, number>; cells_computed: number; cells_reused: number; results_computed?: number; results_reused?: number };
  grid: GridEntry[];
}

/** The manifest's inputs and users, from the data set summaries. */
export function manifestBasics(summaries: DatasetSummary[]) {
  return {
    inputs: summaries.flatMap((s) => s.inputs.map((i) => ({ dataset: s.name, path: i.path, sha256: i.sha256, bytes: i.bytes }))),
    users: summaries.flatMap((s) => s.perDim.map((p) => ({ dataset: s.name, n: p.n, kept: p.usersKept, dropped: p.usersDropped }))),
  };
}

/** Compute time of a stored cell, ms: the exact cell's, or the sum over the trial cell's results. */
export function recordMs(rec: CellRecord): number {
  return rec.kind === 'exact' ? rec.ms : Object.values(rec.results).reduce((s, r) => s + r.ms, 0);
}

/** What the manifest says about one cell: its coordinates, seeds, the hashes of the results it holds for this config. */
export function gridEntry(
  cfg: ExperimentConfig,
  c: Cell,
  exactHashes: Map<string, string>,
  resultHashes: Map<string, Map<string, string>>,
  records: Map<string, CellRecord>,
  shard: number | undefined,
  /** per store folder of an evaluation of its own store (attack/): cell key → entry key → hash */
  ownHashes: ReadonlyMap<string, ReadonlyMap<string, ReadonlyMap<string, string>>> = new Map(),
): GridEntry {
  const own: Record<string, Record<string, string>> = {};
  if (c.kind === 'trial') for (const [folder, hashes] of ownHashes) if (hashes.has(c.key)) own[folder] = Object.fromEntries(hashes.get(c.key)!);
  const rec = records.get(c.key);
  const ms = rec ? recordMs(rec) : undefined;
  return {
    key: c.key,
    kind: c.kind,
    dataset: c.dataset,
    n: c.n,
    ...(c.kind === 'trial' ? { kappa: c.kappa, trial: c.trial, results: Object.fromEntries(resultHashes.get(c.key)!) } : { hash: exactHashes.get(c.key)! }),
    ...own,
    seeds: cellSeeds(cfg, c),
    ...(shard !== undefined ? { shard } : {}),
    ...(ms !== undefined ? { ms } : {}),
  };
}
