/**
 * The results folder: checked before anything is written (writable, not another config's), and
 * marked with an owner file naming the config that owns it. (The lock that keeps two runs out of
 * one folder at the same time is lock.ts.)
 */
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomicSync } from '../util/atomic.js';
import { UserError } from '../util/errors.js';
import { checkWritableFolder, makeFolderSync } from '../util/folders.js';
import { evaluations } from '../evaluations/index.js';

// the folder checks live in util/folders.ts (the data layer needs them too); re-exported for the runner
export { checkWritableFolder, makeFolderSync };

/** What `lshdp cluster` writes into a results folder before its merge (src/cluster). */
const CLUSTER_LAYOUT = ['cluster', 'cluster.json', 'shards'];

/** Names the config that owns the folder; not a lock (see lock.ts for that). */
export const OWNER_FILE = 'lshdp-results.json';

export interface FolderOwner {
  /** the config's name: a folder belongs to one name, and a config that keeps its name may change (grow) */
  name: string;
  config_hash: string;
  /** the results store format (src/machinery/store.ts) */
  store_format?: number;
  /** the effective config of the last run, to say what changed since */
  config?: Record<string, unknown>;
}

export function readOwner(dir: string): FolderOwner | null {
  try {
    const o = JSON.parse(readFileSync(join(dir, OWNER_FILE), 'utf8')) as FolderOwner;
    // lshdp 0.1 wrote configHash: still an lshdp folder (its old store is refused with one line)
    const legacy = (o as unknown as { configHash?: unknown }).configHash;
    if (typeof o.config_hash !== 'string' && typeof legacy === 'string') return { name: o.name, config_hash: legacy };
    return typeof o.config_hash === 'string' ? o : null;
  } catch {
    return null;
  }
}

/**
 * Can `dir` be (created and) written by this config? Throws a one-line UserError otherwise
 * (unwritable, a file in the way, another config's folder, a non-empty folder of something else).
 * Leaves nothing behind: the writability probe cleans up after itself.
 */
export function checkResultsFolder(dir: string, owner: FolderOwner, opts: { force?: boolean; flag?: string }): void {
  const flag = opts.flag ?? '--out';
  const existed = existsSync(dir);
  checkWritableFolder(dir, flag);
  if (!existed) return; // will be created
  const existing = readOwner(dir);
  if (existing) {
    // a config that keeps its name may change: its still-valid results are reused
    if (existing.name !== owner.name && !opts.force) {
      throw new UserError(`${dir} belongs to the config named "${existing.name}", not "${owner.name}"; use ${flag} DIR, or --force to replace its results`);
    }
    return;
  }
  // `lshdp cluster` keeps its scripts, record and shard folders inside the results folder
  const entries = readdirSync(dir).filter((f) => !f.startsWith('.') && !CLUSTER_LAYOUT.includes(f));
  if (entries.length > 0 && !opts.force) {
    throw new UserError(`${dir} is not empty and is not an lshdp results folder; use ${flag} DIR or --force`);
  }
}

/** Files lshdp writes into a results folder whatever the config (removed on --force). */
const OUTPUTS = ['utility.csv', 'nn_distances.csv', 'budgets.csv', 'datasets.json', 'manifest.json', 'config.yaml', 'claims.json', 'cells', 'figures', 'tables', 'assets', 'index.html'];

/**
 * Everything a run writes into a results folder: OUTPUTS and every evaluation's file and store
 * folder (attack.csv and attack/, infer.csv and infer/, recommend.csv), whether or not the new
 * config has its block: --force replaces the results, so an evaluation of the old run leaves
 * neither its CSV nor its records behind.
 */
export function resultsFolderOutputs(): string[] {
  const own = evaluations().flatMap((e) => [e.facts.file, ...(e.store?.where === 'own' ? [e.facts.store] : [])]);
  return [...new Set([...OUTPUTS, ...own])];
}

export function prepareResultsFolder(dir: string, owner: FolderOwner, opts: { force?: boolean; flag?: string }): void {
  makeFolderSync(dir, opts.flag ?? '--out');
  const existing = readOwner(dir);
  if (opts.force || (existing && existing.name !== owner.name)) {
    for (const f of resultsFolderOutputs()) rmSync(join(dir, f), { recursive: true, force: true });
  }
  writeFileAtomicSync(join(dir, OWNER_FILE), JSON.stringify(owner, null, 2) + '\n');
}
