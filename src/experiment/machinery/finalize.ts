/**
 * The files of a finished results folder, written from the store (run and merge share this):
 * utility.csv, nn_distances.csv, budgets.csv, datasets.json, manifest.json, then the report.
 */
import { join } from 'node:path';
import type { DatasetSummary } from '../../data/types.js';
import { stringify as stringifyYaml } from 'yaml';
import { writeFileAtomicSync } from '../../util/atomic.js';
import { summaryToJson } from '../../data/summaryJson.js';
import { accountantsOf, budgetsCsv, nnDistancesCsv, utilityCsv } from '../aggregate.js';
import type { ExperimentConfig } from '../config.js';
import type { Engine } from './engine.js';
import type { CellRecord } from '../records.js';

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
  seeds: Record<string, string>;
  /** 1-based shard that computes it (sharded runs only) */
  shard?: number;
  /** computation wall time in ms, when this folder holds the cell */
  ms?: number;
}

export interface Manifest {
  lshdp: string;
  algorithm: string;
  git_commit: string | null;
  node: string;
  /** the Hamming k-NN kernel that ran (src/lsh/wasm/kernel.ts); results do not depend on it */
  kernel?: string;
  config_file: string;
  config_hash: string;
  /** the effective config (overrides applied, paths absolute): a valid config that reruns as is */
  config: Record<string, unknown>;
  skip_bad_rows: boolean;
  inputs: { dataset: string; path: string; sha256: string; bytes: number }[];
  users: { dataset: string; n: number; kept: number; dropped: number }[];
  shard: { index: number; count: number } | null;
  /** sharded folders merged into this one */
  merged_from?: string[];
  threads: number;
  timings: { total_ms: number; load_ms: Record<string, number>; cells_computed: number; cells_reused: number; results_computed?: number; results_reused?: number };
  grid: GridEntry[];
}

export function manifestBasics(summaries: DatasetSummary[]) {
  return {
    inputs: summaries.flatMap((s) => s.inputs.map((i) => ({ dataset: s.name, path: i.path, sha256: i.sha256, bytes: i.bytes }))),
    users: summaries.flatMap((s) => s.perDim.map((p) => ({ dataset: s.name, n: p.n, kept: p.usersKept, dropped: p.usersDropped }))),
  };
}

type BuildOutputs = (dir: string, opts?: { png?: boolean; quiet?: boolean }) => Promise<void>;

/** The report module, imported only when a report is wanted. */
async function reportBuilder(): Promise<BuildOutputs> {
  const mod = await import('../../report/index.js');
  return mod.buildOutputs;
}

export async function writeFinalOutputs(
  outDir: string,
  cfg: ExperimentConfig,
  records: Map<string, CellRecord>,
  summaries: DatasetSummary[],
  manifest: Manifest,
  engine: Pick<Engine, 'mechanism' | 'budgetRows'>,
  opts: { report?: boolean; png?: boolean; quiet?: boolean; log?: (line: string) => void },
): Promise<void> {
  const info = (name: string) => engine.mechanism(name);
  // build every text first, so a problem in the store writes nothing
  const utility = utilityCsv(cfg, records, info);
  const nn = nnDistancesCsv(cfg, records);
  // the accountants take the per-bit disagreement probability: d itself for angular, d/2 for
  // jaccard; the d column keeps the config's distance
  const disagreement = cfg.metric === 'jaccard' ? (d: number) => d / 2 : undefined;
  const budgets = budgetsCsv(engine.budgetRows({ accountants: accountantsOf(cfg), d: [cfg.privacy.d], kappa: cfg.kappa, xi: cfg.privacy.xi, delta: cfg.privacy.delta, disagreement }));
  writeFileAtomicSync(join(outDir, 'utility.csv'), utility);
  writeFileAtomicSync(join(outDir, 'nn_distances.csv'), nn);
  writeFileAtomicSync(join(outDir, 'budgets.csv'), budgets);
  writeFileAtomicSync(join(outDir, 'datasets.json'), JSON.stringify(summaries.map(summaryToJson), null, 2) + '\n');
  writeFileAtomicSync(join(outDir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
  // the effective config, runnable as is: `lshdp run results/<name>/config.yaml`
  writeFileAtomicSync(join(outDir, 'config.yaml'), `# the effective config of this results folder (overrides applied, input paths absolute)\n${stringifyYaml(manifest.config)}`);
  // the paper's claims, tested on this run (before the report, which shows them first)
  const claims = await import('../../claims/index.js');
  const written = claims.writeClaims(outDir);
  if (!opts.quiet) for (const line of written.lines) (opts.log ?? ((l: string) => process.stderr.write(l + '\n')))(line);
  if (opts.report !== false) {
    const build = await reportBuilder();
    await build(outDir, { png: opts.png, quiet: opts.quiet });
  }
}
