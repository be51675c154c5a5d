/**
 * Folders lshdp writes into: created one level at a time (never with Node's recursive mkdir on a
 * path nobody has checked) and probed for writability before any work, each failure one line.
 */
import { randomBytes } from 'node:crypto';
import { closeSync, lstatSync, mkdirSync, openSync, rmdirSync, rmSync, type Stats, statSync, writeSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { UserError } from './errors.js';

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
export function makeFolderSync(dir: string, flag: string, mkdir: (path: string) => void = mkdirSync): string[] {
  // A parent made by another process can vanish before this one's child is made: that process
  // checked the folder (checkWritableFolder) and took away the parents it had made, still empty,
  // as Slurm array tasks writing shards/1of3, shards/2of3 … at once do. Then the walk starts
  // again, a few times; a parent that stays (procfs answering ENOENT) is an error at once.
  for (let attempt = 1; ; attempt++) {
    try {
      return makeFolderOnce(dir, flag, mkdir);
    } catch (e) {
      if (!(e instanceof ParentVanished)) throw e;
      if (attempt >= 3) throw e.error;
    }
  }
}

/** A parent that existed when its child was tried was gone (another process removed it). */
class ParentVanished extends Error {
  constructor(readonly error: UserError) {
    super(error.message);
  }
}

function makeFolderOnce(dir: string, flag: string, mkdir: (path: string) => void): string[] {
  const abs = resolve(dir);
  if (flag.startsWith('--')) rememberFolderOption(dir, flag);
  const say = (problem: string) => new UserError(`${flag} ${dir}: ${problem}`);
  const missing: string[] = [];
  // walk up to the nearest path that exists; it must be a folder
  for (let p = abs; ; ) {
    let st: Stats;
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
      mkdir(p);
      created.push(p);
    } catch (e) {
      // another process made it in the meantime: fine if it is a folder
      if ((e as NodeJS.ErrnoException).code === 'EEXIST' && lstatOrNull(p) && statSync(p, { throwIfNoEntry: false })?.isDirectory()) continue;
      removeFolders(created);
      const error = say(`cannot create the folder: ${fsProblem(e, dirname(p))}`);
      if ((e as NodeJS.ErrnoException).code === 'ENOENT' && !statSync(dirname(p), { throwIfNoEntry: false })) throw new ParentVanished(error);
      throw error;
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
 * The folders this process was told to write into, each with the option that chose it (`--out`,
 * `--cache-dir`, `--data-dir`), so an error met later (a full disk) can name the option to change.
 */
const FOLDER_OPTIONS = new Map<string, { flag: string; dir: string }>();

/** Remember that `flag` chose `dir` (done by `makeFolderSync` and `checkWritableFolder` when given
 *  an option; a command that makes its folder otherwise says it here). */
export function rememberFolderOption(dir: string, flag: string): void {
  FOLDER_OPTIONS.set(resolve(dir), { flag, dir });
}

/** The option that chose the folder holding `path` (the innermost one), or null. */
export function folderOptionOf(path: string): { flag: string; dir: string; abs: string } | null {
  const abs = resolve(path);
  let best: { flag: string; dir: string; abs: string } | null = null;
  for (const [folder, o] of FOLDER_OPTIONS) {
    const inside = abs === folder || abs.startsWith(folder.endsWith(sep) ? folder : folder + sep);
    if (inside && (!best || folder.length > best.abs.length)) best = { ...o, abs: folder };
  }
  return best;
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
