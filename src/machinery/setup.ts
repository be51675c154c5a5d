/**
 * Before any work: the config (overrides applied), the results folder (checked, not written), the
 * threads and the cache folder. Every problem here is the user's and is reported before anything
 * is loaded or written.
 */
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { UserError } from '../util/errors.js';
import { sha256Hex, stableStringify } from '../util/hash.js';
import type { ExperimentConfig } from '../experiment/config/schema.js';
import { configToDocument, loadConfig } from '../experiment/config.js';
import { accountantsOf } from '../experiment/aggregate.js';
import { naiveAccountantWarning, usesNaiveAccountant } from '../privacy/accountants.js';
import type { ShardSpec } from './shards.js';
import { checkResultsFolder, checkWritableFolder, readOwner, type FolderOwner } from './outdir.js';
import { CellStore, STORE_FORMAT } from './store.js';

export interface SetupOptions {
  config: string;
  out?: string;
  threads?: number;
  force?: boolean;
  shard?: ShardSpec | null;
  skipBadRows?: boolean;
  cacheDir?: string | null;
  overrides?: readonly string[];
  /** the data folder of `dataset:` names */
  dataDir?: string;
}

/** What every later stage of a run reads. */
export interface RunSetup {
  cfg: ExperimentConfig;
  /** the effective config as a document (manifest.json, config.yaml, lshdp-results.json) */
  document: Record<string, unknown>;
  configHash: string;
  outDir: string;
  owner: FolderOwner;
  /** the folder's owner before this run (to say what changed), or null */
  previous: FolderOwner | null;
  threads: number;
  cacheDir: string | null;
  skipBadRows: boolean;
  /** the `--set` overrides the config was read with (an error of their keys names them) */
  overrides: readonly string[];
}

export function configHashOf(cfg: ExperimentConfig): string {
  return sha256Hex(stableStringify(cfg));
}

export function setUpRun(opts: SetupOptions): RunSetup {
  const cfg = loadConfig(opts.config, { checkFiles: true, overrides: opts.overrides, dataDir: opts.dataDir });
  if (usesNaiveAccountant(accountantsOf(cfg))) process.stderr.write(`${naiveAccountantWarning(opts.config)}\n`);
  // shards default to folders of their own: merge needs each cell in exactly one folder
  const outDir = opts.out ?? join('results', opts.shard ? `${cfg.name}-shard${opts.shard.index}of${opts.shard.count}` : cfg.name);
  const configHash = configHashOf(cfg);
  const document = configToDocument(cfg);
  const owner = { name: cfg.name, config_hash: configHash, store_format: STORE_FORMAT, config: document };
  checkResultsFolder(outDir, owner, { force: opts.force });
  const previous = readOwner(outDir);
  const oldStore = new CellStore(outDir).formatPresent();
  if (oldStore !== null && oldStore !== STORE_FORMAT && !opts.force) {
    throw new UserError(
      `${outDir} holds results of an older lshdp (results store format ${oldStore}); they cannot be reused, since ties are now broken by keyed hashes: rerun with --force to recompute, or use another --out`,
    );
  }
  const threads = opts.threads ?? availableParallelism();
  if (!Number.isInteger(threads) || threads < 1) throw new UserError(`--threads: must be a positive integer, got ${threads}`);
  const cacheDir = opts.cacheDir === undefined ? join('data', 'cache') : opts.cacheDir;
  // an unwritable cache fails now, not after minutes of loading
  if (cacheDir) checkWritableFolder(cacheDir, '--cache-dir');
  return { cfg, document, configHash, outDir, owner, previous, threads, cacheDir, skipBadRows: opts.skipBadRows ?? false, overrides: opts.overrides ?? [] };
}
