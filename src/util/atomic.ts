import { closeSync, existsSync, openSync, readdirSync, renameSync, statSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { writeFile, rename, unlink } from 'node:fs/promises';
import { dirname, basename, join } from 'node:path';
import { withPath } from './errors.js';
import { makeFolderSync } from './folders.js';

/**
 * The folder of `path`, made one level at a time (never Node's recursive mkdir, which spins
 * forever where mkdir answers ENOENT under an existing folder, as in /proc): one-line error.
 */
function ensureFolder(path: string): void {
  const dir = dirname(path);
  if (statSync(dir, { throwIfNoEntry: false })?.isDirectory()) return;
  makeFolderSync(dir, 'output folder');
}

/** Temporary name next to the target, so the final rename stays on one file system. */
export function tempPathFor(path: string): string {
  return join(dirname(path), `.lshdp-tmp-${process.pid}-${basename(path)}`);
}

/**
 * Removes from `dir` the temporary files of tempPathFor that a killed writer left behind (`pid`
 * limits it to one process's); returns how many went. A missing folder has none.
 */
export function removeTemporaryFiles(dir: string, pid?: number): number {
  if (!existsSync(dir)) return 0;
  const prefix = pid === undefined ? '.lshdp-tmp-' : `.lshdp-tmp-${pid}-`;
  let removed = 0;
  for (const f of readdirSync(dir)) {
    if (!f.startsWith(prefix)) continue;
    try {
      unlinkSync(join(dir, f));
      removed++;
    } catch {
      // already gone
    }
  }
  return removed;
}

/**
 * Write a file so that readers see either the old content or the whole new one, never a torn one.
 * A failure names `path` (a full disk's ENOSPC comes from write(2), which names no file).
 */
export function writeFileAtomicSync(path: string, data: string | Uint8Array): void {
  ensureFolder(path);
  const tmp = tempPathFor(path);
  try {
    writeFileSync(tmp, data);
    renameSync(tmp, path);
  } catch (e) {
    if (existsSync(tmp)) unlinkSync(tmp);
    throw withPath(e, path);
  }
}

/**
 * writeFileAtomicSync of the bytes of `parts` one after another, written from where they are (big
 * typed arrays' memory, not a copy of them all joined first).
 */
export function writePartsAtomicSync(path: string, parts: readonly Uint8Array[]): void {
  ensureFolder(path);
  const tmp = tempPathFor(path);
  try {
    const fd = openSync(tmp, 'w');
    try {
      for (const part of parts) {
        for (let at = 0; at < part.length; ) at += writeSync(fd, part, at, part.length - at);
      }
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, path);
  } catch (e) {
    if (existsSync(tmp)) unlinkSync(tmp);
    throw withPath(e, path);
  }
}

export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  ensureFolder(path);
  const tmp = tempPathFor(path);
  try {
    await writeFile(tmp, data);
    await rename(tmp, path);
  } catch (e) {
    await unlink(tmp).catch(() => undefined);
    throw withPath(e, path);
  }
}
