/**
 * The files of a results folder, written from the store (run and merge share this): a finished
 * folder gets utility.csv, nn_distances.csv, budgets.csv (recommend.csv with `recommend`, attack.csv with `attack`),
 * datasets.json, manifest.json and config.yaml; a shard folder only datasets.json and manifest.json (`lshdp merge` writes the rest).
 * The claims and the report come after, from these files (src/pipeline/report.ts).
 */
import { existsSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { DatasetSummary } from '../data/types.js';
import { stringify as stringifyYaml } from 'yaml';
import { writeFileAtomicSync } from '../util/atomic.js';
import { summaryToJson } from '../data/summaryJson.js';
import { accountantsOf, budgetsCsv, directionalMechanismsOf, nnDistancesCsv, utilityCsv } from '../experiment/aggregate.js';
import { directionalBudgetRows } from '../privacy/budget.js';
import { recommendCsv } from '../experiment/recommendRows.js';
import type { ExperimentConfig } from '../experiment/config/schema.js';
import type { Engine } from './engine.js';
import type { AttackRecord, CellRecord } from '../experiment/records.js';
import { attackCsv, attackRows } from '../experiment/attackCsv.js';
import type { Manifest } from './manifest.js';

/** The CSVs, datasets.json, manifest.json and config.yaml of a finished (unsharded or merged) folder. */
export function writeResultFiles(
  outDir: string,
  cfg: ExperimentConfig,
  records: Map<string, CellRecord>,
  summaries: DatasetSummary[],
  manifest: Manifest,
  engine: Pick<Engine, 'mechanism' | 'budgetRows'>,
  /** the attack records (config `attack`): attack.csv; a config without it writes no such file */
  attack: Map<string, AttackRecord> = new Map(),
): void {
  const info = (name: string) => engine.mechanism(name);
  // build every text first, so a problem in the store writes nothing
  const utility = utilityCsv(cfg, records, info);
  const nn = nnDistancesCsv(cfg, records);
  // with `recommend`: the recommendations' quality beside the loss (utility.csv is then on the training vectors)
  const recommend = cfg.recommend ? recommendCsv(cfg, records, info) : null;
  // the accountants take the per-bit disagreement probability: d itself for angular, d/2 for
  // jaccard; the d column keeps the config's distance
  const disagreement = cfg.metric === 'jaccard' ? (d: number) => d / 2 : undefined;
  const grid = { d: [cfg.privacy.d], kappa: cfg.kappa, xi: cfg.privacy.xi, delta: cfg.privacy.delta };
  const attackText = cfg.attack ? attackCsv(cfg, attackRows(cfg, attack, info), info) : null;
  const budgets = budgetsCsv(engine.budgetRows({ accountants: accountantsOf(cfg), ...grid, disagreement }), directionalBudgetRows({ mechanisms: directionalMechanismsOf(cfg, info), ...grid }));
  writeFileAtomicSync(join(outDir, 'utility.csv'), utility);
  writeFileAtomicSync(join(outDir, 'nn_distances.csv'), nn);
  if (recommend !== null) writeFileAtomicSync(join(outDir, 'recommend.csv'), recommend);
  writeFileAtomicSync(join(outDir, 'budgets.csv'), budgets);
  if (attackText !== null) writeFileAtomicSync(join(outDir, 'attack.csv'), attackText);
  // a folder whose config dropped `attack` keeps its attack/ entries (for regrowth), not a stale table
  else if (existsSync(join(outDir, 'attack.csv'))) unlinkSync(join(outDir, 'attack.csv'));
  writeShardFiles(outDir, summaries, manifest);
  // the effective config, runnable as is: `lshdp run results/<name>/config.yaml`
  writeFileAtomicSync(join(outDir, 'config.yaml'), `# the effective config of this results folder (overrides applied, input paths absolute)\n${stringifyYaml(manifest.config)}`);
}

/** datasets.json and manifest.json: all a shard folder holds besides its cells. */
export function writeShardFiles(outDir: string, summaries: DatasetSummary[], manifest: Manifest): void {
  writeFileAtomicSync(join(outDir, 'datasets.json'), JSON.stringify(summaries.map(summaryToJson), null, 2) + '\n');
  writeFileAtomicSync(join(outDir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
}
