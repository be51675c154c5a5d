/**
 * The results folder: checked before anything is written (writable, not another config's), and
 * marked with a lock file naming the config that owns it.
 */
import { accessSync, constants, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { writeFileAtomicSync } from '../../util/atomic.js';
import { UserError } from '../../util/errors.js';

export const LOCK_FILE = 'lshdp-results.json';

export interface FolderOwner {
  name: string;
  configHash: string;
}

export function readOwner(dir: string): FolderOwner | null {
  try {
    const o = JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8')) as FolderOwner;
    return typeof o.configHash === 'string' ? o : null;
  } catch {
    return null;
  }
}

/**
 * Can `dir` be (created and) written by this config? Throws a one-line UserError otherwise.
 * Writes nothing.
 */
export function checkResultsFolder(dir: string, owner: FolderOwner, opts: { force?: boolean; flag?: string }): void {
  const flag = opts.flag ?? '--out';
  let probe = resolve(dir);
  // the nearest existing ancestor must be a writable folder
  while (!existsSync(probe)) {
    const up = dirname(probe);
    if (up === probe) break;
    probe = up;
  }
  const st = statSync(probe);
  if (!st.isDirectory()) throw new UserError(`${dir}: cannot create the results folder: ${probe === resolve(dir) ? 'it' : 'a parent'} is a file, not a folder`);
  try {
    accessSync(probe, constants.W_OK | constants.X_OK);
  } catch {
    throw new UserError(`${dir}: cannot write the results folder (no write permission${probe === resolve(dir) ? '' : ` on ${probe}`})`);
  }
  if (probe !== resolve(dir)) return; // will be created
  const existing = readOwner(dir);
  if (existing) {
    if (existing.configHash !== owner.configHash && !opts.force) {
      throw new UserError(`${dir} was written by another config (name ${existing.name}); use ${flag} DIR or --force`);
    }
    return;
  }
  const entries = readdirSync(dir).filter((f) => !f.startsWith('.'));
  if (entries.length > 0 && !opts.force) {
    throw new UserError(`${dir} is not empty and is not an lshdp results folder; use ${flag} DIR or --force`);
  }
}

/** Files lshdp writes into a results folder (and removes on --force). */
const OUTPUTS = ['utility.csv', 'nn_distances.csv', 'budgets.csv', 'datasets.json', 'manifest.json', 'cells', 'figures', 'tables', 'assets', 'index.html'];

export function prepareResultsFolder(dir: string, owner: FolderOwner, opts: { force?: boolean }): void {
  mkdirSync(dir, { recursive: true });
  const existing = readOwner(dir);
  if (opts.force || (existing && existing.configHash !== owner.configHash)) {
    for (const f of OUTPUTS) rmSync(join(dir, f), { recursive: true, force: true });
  }
  writeFileAtomicSync(join(dir, LOCK_FILE), JSON.stringify(owner, null, 2) + '\n');
}
