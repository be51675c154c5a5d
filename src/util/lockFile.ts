/**
 * Pieces shared by lshdp's two lock files (a results folder's, src/machinery/lock.ts, and a data
 * set's install, src/data/fetch/lock.ts): both name their holder in the file and take a dead
 * holder's lock over at once, so both must remove a stale lock without removing a fresh one that
 * another process put there in between.
 */
import { linkSync, readFileSync, renameSync, unlinkSync } from 'node:fs';

/** A lock file's text, or null when there is none. */
export function readLockText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw e;
  }
}

/**
 * Moves the lock at `path` aside (to `aside`, a unique name beside it) and deletes it, unless its
 * text is no longer `seen` (what was judged stale): then another process took it over in between,
 * and theirs is put back. Nothing happens when the lock is already gone.
 */
export function removeStaleLock(path: string, aside: string, seen: string): void {
  try {
    renameSync(path, aside);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw e;
  }
  if (readLockText(aside) !== seen) {
    try {
      linkSync(aside, path);
    } catch {
      // someone took the lock meanwhile; theirs stands
    }
  }
  unlinkSync(aside);
}

/** A lock file's JSON when it names a holder (pid, hostname, token), else null (torn or foreign). */
export function parseLockJson<T extends { pid: number; hostname: string; token: string }>(text: string): T | null {
  try {
    const o = JSON.parse(text) as T;
    return typeof o.pid === 'number' && typeof o.hostname === 'string' && typeof o.token === 'string' ? o : null;
  } catch {
    return null;
  }
}
