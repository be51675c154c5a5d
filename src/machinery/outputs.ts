/**
 * The files of a results folder, written from the store (run and merge share this): a finished
 * folder gets utility.csv, nn_distances.csv, budgets.csv (recommend.csv with `recommend`, attack.csv with `attack`),
 * datasets.json, manifest.json and config.yaml; a shard folder only datasets.json and manifest.json (`lshdp merge` writes the rest).
 * The claims and the report come after, from these files (src/pipeline/report.ts).
 */
import { existsSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { DatasetSummary } from '../data/types.js';
import { stringify as stringifyYaml } from '../vendor/yaml.js';
import { writeFileAtomicSync } from '../util/atomic.js';
import { summaryToJson } from '../data/summaryJson.js';
import { accountantsOf, budgetsCsv, directionalMechanismsOf, nnDistancesCsv } from '../experiment/aggregate.js';
import { directionalBudgetRows } from '../privacy/budget.js';
import { ownBudgetRows } from '../mechanisms/ownBudget.js';
import { getMechanism } from '../mechanisms/registry.js';
import type { ExperimentConfig } from '../experiment/config/schema.js';
import type { Engine } from './engine.js';
import type { CellRecord } from '../experiment/records.js';
import type { OwnRecords } from './ownStores.js';
import { CELLS_FOLDER } from './store.js';
import { evaluationCsv, hasDirectional, walkRows } from '../experiment/walk.js';
import type { WalkedRows } from '../experiment/values.js';
import { evaluations, evaluationsIn } from '../evaluations/index.js';
import type { Manifest } from './manifest.js';

/**
 * The CSVs, datasets.json, manifest.json and config.yaml of a finished (unsharded or merged)
 * folder. Returns the rows of each evaluation's walk of the grid, by name: the claims read the
 * same rows (src/claims/write.ts claimsInputOf), so a run walks the grid once.
 */
export function writeResultFiles(
  outDir: string,
  cfg: ExperimentConfig,
  records: Map<string, CellRecord>,
  summaries: DatasetSummary[],
  manifest: Manifest,
  engine: Pick<Engine, 'mechanism' | 'budgetRows'>,
  /** the records of the config's own store folders (attack/: attack.csv), by folder */
  ownRecords: OwnRecords = new Map(),
): WalkedRows {
  const info = (name: string) => engine.mechanism(name);
  // build every text first, so a problem in the store writes nothing: each evaluation's file from
  // the one walk of the grid (utility.csv always; recommend.csv, attack.csv where the config has
  // their blocks; utility.csv is on the training vectors with `recommend`)
  const stores = new Map<string, ReadonlyMap<string, unknown>>([[CELLS_FOLDER, records], ...ownRecords]);
  const walked = new Map(evaluationsIn(cfg).map((e) => [e.facts.name, walkRows(cfg, stores, e.rows, info)]));
  const directional = hasDirectional(cfg, info);
  const files = evaluationsIn(cfg).map((e) => ({ file: e.facts.file, text: evaluationCsv(e.facts, walked.get(e.facts.name)!, directional) }));
  const nn = nnDistancesCsv(cfg, records);
  // the accountants take the per-bit disagreement probability: d itself for angular, d/2 for
  // jaccard; the d column keeps the config's distance
  const disagreement = cfg.metric === 'jaccard' ? (d: number) => d / 2 : undefined;
  const grid = { d: [cfg.privacy.d], kappa: cfg.kappa, xi: cfg.privacy.xi, delta: cfg.privacy.delta };
  const own = ownBudgetRows(
    cfg.mechanisms.flatMap((m) => {
      const mechanism = getMechanism(m.name);
      return mechanism.budgetRows === 'own' ? [{ label: m.label, mechanism, options: m.options }] : [];
    }),
    grid,
    disagreement,
  );
  const budgets = budgetsCsv(engine.budgetRows({ accountants: accountantsOf(cfg), ...grid, disagreement }), directionalBudgetRows({ mechanisms: directionalMechanismsOf(cfg, info), ...grid }), own);
  for (const { file, text } of files) writeFileAtomicSync(join(outDir, file), text);
  writeFileAtomicSync(join(outDir, 'nn_distances.csv'), nn);
  writeFileAtomicSync(join(outDir, 'budgets.csv'), budgets);
  // a folder whose config dropped an evaluation keeps its records (for regrowth), not a stale file
  const written = new Set(files.map((f) => f.file));
  for (const e of evaluations()) if (!written.has(e.facts.file) && existsSync(join(outDir, e.facts.file))) unlinkSync(join(outDir, e.facts.file));
  writeShardFiles(outDir, summaries, manifest);
  // the effective config, runnable as is: `lshdp run results/<name>/config.yaml`
  writeFileAtomicSync(join(outDir, 'config.yaml'), `# the effective config of this results folder (overrides applied, input paths absolute)\n${stringifyYaml(manifest.config)}`);
  return walked;
}

/** datasets.json and manifest.json: all a shard folder holds besides its cells. */
export function writeShardFiles(outDir: string, summaries: DatasetSummary[], manifest: Manifest): void {
  writeFileAtomicSync(join(outDir, 'datasets.json'), JSON.stringify(summaries.map(summaryToJson), null, 2) + '\n');
  writeFileAtomicSync(join(outDir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
}
