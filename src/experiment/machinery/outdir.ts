/**
 * The results folder: checked before anything is written (writable, not another config's), and
 * marked with an owner file naming the config that owns it. (The lock that keeps two runs out of
 * one folder at the same time is lock.ts.)
 */
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, lstatSync, mkdirSync, openSync, readdirSync, readFileSync, rmdirSync, rmSync, statSync, writeSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { writeFileAtomicSync } from '../../util/atomic.js';
import { UserError } from '../../util/errors.js';

/** Names the config that owns the folder; not a lock (see lock.ts for that). */
export const OWNER_FILE = 'lshdp-results.json';

export interface FolderOwner {
  /** the config's name: a folder belongs to one name, and a config that keeps its name may change (grow) */
  name: string;
  configHash: string;
  /** the results store format (src/experiment/machinery/store.ts) */
  storeFormat?: number;
  /** the effective config of the last run, to say what changed since */
  config?: Record<string, unknown>;
}

export function readOwner(dir: string): FolderOwner | null {
  try {
    const o = JSON.parse(readFileSync(join(dir, OWNER_FILE), 'utf8')) as FolderOwner;
    return typeof o.configHash === 'string' ? o : null;
  } catch {
    return null;
  }
}

/** Why mkdir / a probe write failed, as the end of a one-line message. */
function fsProblem(e: unknown, where: string): string {
  const code = (e as NodeJS.ErrnoException).code ?? '';
  switch (code) {
    case 'EACCES':
      return `no write permission in ${where}`;
    case 'EPERM':
      return `not permitted in ${where}`;
    case 'EROFS':
      return `${where} is on a read-only file system`;
    case 'ENOSPC':
      return `no space left on the device of ${where}`;
    case 'EDQUOT':
      return `disk quota exceeded in ${where}`;
    case 'ENAMETOOLONG':
      return 'name too long';
    case 'ENOENT':
      // procfs and sysfs answer ENOENT to a new name under a folder that exists
      return `${where} does not accept new files or folders`;
    default:
      return `${code || (e as Error).message} in ${where}`;
  }
}

/**
 * Create `dir` and its missing parents, one level at a time, and return the folders created
 * (outermost first). Node's `mkdirSync(dir, { recursive: true })` is not used on a path nobody has
 * checked: where mkdir answers ENOENT although the parent exists (under /proc or /sys, or below a
 * broken symbolic link) it retries the parent and the child forever, at 100% CPU, inside one
 * synchronous call, so no signal handler can run either. Throws a one-line UserError naming `flag`.
 */
export function makeFolderSync(dir: string, flag: string): string[] {
  const abs = resolve(dir);
  const say = (problem: string) => new UserError(`${flag} ${dir}: ${problem}`);
  const missing: string[] = [];
  // walk up to the nearest path that exists; it must be a folder
  for (let p = abs; ; ) {
    let st;
    try {
      st = statSync(p);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw say(`cannot look at ${p} (${code ?? (e as Error).message})`);
      if (code === 'ENOENT' && lstatOrNull(p)?.isSymbolicLink()) throw say(`${p} is a broken symbolic link`);
      missing.unshift(p);
      const up = dirname(p);
      if (up === p) throw say(`the root ${p} does not exist`);
      p = up;
      continue;
    }
    if (!st.isDirectory()) throw say(p === abs ? 'it is a file, not a folder' : `${p} is a file, not a folder`);
    break;
  }
  const created: string[] = [];
  for (const p of missing) {
    try {
      mkdirSync(p);
      created.push(p);
    } catch (e) {
      // another process made it in the meantime: fine if it is a folder
      if ((e as NodeJS.ErrnoException).code === 'EEXIST' && lstatOrNull(p) && statSync(p, { throwIfNoEntry: false })?.isDirectory()) continue;
      removeFolders(created);
      throw say(`cannot create the folder: ${fsProblem(e, dirname(p))}`);
    }
  }
  return created;
}

function lstatOrNull(p: string) {
  try {
    return lstatSync(p);
  } catch {
    return null;
  }
}

/** Remove the (empty) folders `makeFolderSync` created, innermost first; best effort. */
function removeFolders(created: string[]): void {
  for (const p of [...created].reverse()) {
    try {
      rmdirSync(p);
    } catch {
      // not empty any more (someone else wrote there) or gone: leave it
    }
  }
}

/**
 * Is `dir` a folder this process can create and write files in? Checked for real: the missing
 * folders are created, a probe file is created and removed in `dir`, and the folders created for
 * the check are removed again, so nothing is left behind. Throws a one-line UserError naming
 * `flag` (e.g. `--out`, `--cache-dir`) otherwise. Call it before any work, for every folder the
 * command will write into.
 */
export function checkWritableFolder(dir: string, flag: string): void {
  const abs = resolve(dir);
  const created = makeFolderSync(dir, flag);
  try {
    const probe = join(abs, `.lshdp-probe-${process.pid}-${randomBytes(4).toString('hex')}`);
    let fd: number;
    try {
      fd = openSync(probe, 'wx');
    } catch (e) {
      throw new UserError(`${flag} ${dir}: cannot write there: ${fsProblem(e, abs)}`);
    }
    try {
      writeSync(fd, 'lshdp');
    } catch (e) {
      throw new UserError(`${flag} ${dir}: cannot write there: ${fsProblem(e, abs)}`);
    } finally {
      closeSync(fd);
      rmSync(probe, { force: true });
    }
  } finally {
    removeFolders(created);
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
  const entries = readdirSync(dir).filter((f) => !f.startsWith('.'));
  if (entries.length > 0 && !opts.force) {
    throw new UserError(`${dir} is not empty and is not an lshdp results folder; use ${flag} DIR or --force`);
  }
}

/** Files lshdp writes into a results folder (and removes on --force). */
const OUTPUTS = ['utility.csv', 'nn_distances.csv', 'budgets.csv', 'datasets.json', 'manifest.json', 'config.yaml', 'claims.json', 'cells', 'figures', 'tables', 'assets', 'index.html'];

export function prepareResultsFolder(dir: string, owner: FolderOwner, opts: { force?: boolean; flag?: string }): void {
  makeFolderSync(dir, opts.flag ?? '--out');
  const existing = readOwner(dir);
  if (opts.force || (existing && existing.name !== owner.name)) {
    for (const f of OUTPUTS) rmSync(join(dir, f), { recursive: true, force: true });
  }
  writeFileAtomicSync(join(dir, OWNER_FILE), JSON.stringify(owner, null, 2) + '\n');
}
