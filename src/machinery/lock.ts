/**
 * One folder, one run at a time: a lock file in the results folder names the process that holds
 * it (pid, host, start time, command), so a second `lshdp run` or `lshdp merge` on the same folder
 * refuses with one line instead of silently doing the work twice.
 *
 * Why a pid file and not `proper-lockfile`: that library judges staleness by an mtime the holder
 * must refresh from a timer, and a long synchronous stretch (parsing a 680 MB ratings file on the
 * main thread) would let the lock look stale while its holder is alive; it also records no pid, so
 * the refusal could not name the other process. Here a lock is stale when its process is gone:
 * same host and the pid is dead, or the pid now belongs to a younger process (Linux: the start time
 * in /proc/<pid>/stat differs). A stale lock (e.g. after SIGKILL) is taken over silently. A lock
 * from another host (a shared file system) cannot be checked, with one exception: a task of a
 * cluster engine records its identity (Slurm job id, array index, SLURM_RESTART_COUNT; the
 * Kubernetes job and completion index), and the same task started again (requeued, retried: a
 * higher restart count, or a Kubernetes pod of the same job and index) takes over the lock of its
 * earlier attempt, wherever that ran. Any other lock held elsewhere is never taken over.
 */
import { randomBytes } from 'node:crypto';
import { linkSync, rmdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { UserError, withPath } from '../util/errors.js';
import { makeFolderSync } from '../util/folders.js';
import { holderGone, processStart } from '../util/processes.js';
import { parseLockJson, readLockText, removeStaleLock } from '../util/lockFile.js';
import type { EngineTask } from './shards.js';
import { engineTask } from './engineTask.js';

/** The lock file inside the folder (hidden, so it never makes a results folder look "not empty"). */
export const FOLDER_LOCK = '.lshdp.lock';

/** What a lock file holds. */
export interface LockInfo {
  pid: number;
  hostname: string;
  /** when the lock was taken (ISO 8601, UTC) */
  startedAt: string;
  /** what the holder is doing, e.g. `lshdp run configs/sweep.yaml` */
  command: string;
  /** the holder's start time in clock ticks since boot (Linux), to tell a reused pid from the holder */
  procStart: string | null;
  /** random, so a release removes only its own lock */
  token: string;
  /** the engine task holding it (src/machinery/engineTask.ts), when run as one */
  task?: EngineTask | null;
}

export interface FolderLock {
  /** the lock file */
  readonly path: string;
  /** Remove the lock (only if it is still this process's); idempotent. */
  release(): void;
}

/**
 * Is the lock of `info` left by an earlier attempt of the engine task `current`? The same engine,
 * job and index, and (Slurm) a restart count below ours; a Kubernetes pod is replaced, never run
 * twice at once, under the same job and completion index.
 */
export function sameTaskEarlier(info: LockInfo, current: EngineTask | null): boolean {
  const held = info.task;
  if (!held || !current) return false;
  if (held.engine !== current.engine || held.job === null || held.job !== current.job || held.index !== current.index) return false;
  if (current.engine === 'slurm') return (held.restart ?? 0) < (current.restart ?? 0);
  return info.pid !== process.pid || info.hostname !== hostname();
}

/** Is the holder of `info` gone? Decidable on this host, or for an earlier attempt of this engine task. */
export function isStale(info: LockInfo, current: EngineTask | null = taskOrNull()): boolean {
  if (sameTaskEarlier(info, current)) return true;
  if (info.hostname !== hostname()) return false;
  return holderGone(info.pid, info.procStart);
}

const parseLock = (text: string): LockInfo | null => parseLockJson<LockInfo>(text);

/** `2026-11-23T11:36:10.123Z` → `2026-11-23 11:36:10 UTC` */
function when(iso: string): string {
  return /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/.test(iso) ? `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC` : iso;
}

function refusal(dir: string, info: LockInfo, path: string, flag: string): UserError {
  const other = info.hostname === hostname() ? `pid ${info.pid}` : `pid ${info.pid} on host ${info.hostname}`;
  const what = info.command ? `${info.command}, ` : '';
  const advice = info.hostname === hostname() ? `wait for it to finish or use another ${flag}` : `if that process is gone, remove ${path}`;
  return new UserError(`${dir} is in use by another lshdp process (${other}: ${what}started ${when(info.startedAt)}); ${advice}`);
}

/**
 * Take the lock of results folder `dir` (created if missing) for this process, or throw a one-line
 * UserError naming the process that holds it. `what` says what this process does there (e.g.
 * `lshdp run sweep.yaml`), shown to a second process that is refused. `flag` names the option that
 * chose the folder, for the advice (default `--out`).
 *
 * The lock is released by `release()` (call it in a `finally`), and on any `process.exit()` and
 * normal exit (an 'exit' listener), which covers the runner's SIGINT/SIGTERM handlers since they
 * end in `process.exit` or an error that reaches the `finally`. A process killed outright
 * (SIGKILL, or a signal without a handler) leaves the file behind; its pid is then dead, and the
 * next run takes the stale lock over without a word.
 */
/** This process's engine task; a malformed engine variable is not the lock's business (`--shard auto` says so). */
function taskOrNull(): EngineTask | null {
  try {
    return engineTask(process.env);
  } catch {
    return null;
  }
}

export function acquireFolderLock(dir: string, what: string, opts: { flag?: string } = {}): FolderLock {
  const flag = opts.flag ?? '--out';
  const created = makeFolderSync(dir, flag);
  const path = join(resolve(dir), FOLDER_LOCK);
  const mine: LockInfo = {
    pid: process.pid,
    hostname: hostname(),
    startedAt: new Date().toISOString(),
    command: what,
    procStart: processStart(process.pid),
    token: randomBytes(12).toString('hex'),
    ...(taskOrNull() ? { task: taskOrNull() } : {}),
  };
  const text = JSON.stringify(mine) + '\n';
  const nonce = () => `${process.pid}-${randomBytes(4).toString('hex')}`;

  // the lock appears with its whole content at once: written beside it, then hard-linked to its
  // name (link fails when the name exists, like O_EXCL, so exactly one process wins)
  const tmp = join(resolve(dir), `${FOLDER_LOCK}.new-${nonce()}`);
  try {
    writeFileSync(tmp, text);
  } catch (e) {
    rmQuiet(tmp); // a full disk may leave it empty
    throw withPath(e, tmp);
  }
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        linkSync(tmp, path);
        break;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
      const seen = readLockText(path);
      if (seen === null) continue; // released meanwhile: try again
      const info = parseLock(seen);
      if (info && !isStale(info)) throw refusal(dir, info, path, flag);
      if (attempt >= 5) throw new UserError(`${dir}: cannot take the lock ${path} (it keeps changing); is another lshdp starting there?`);
      // stale or unreadable: move it aside, and delete it only if it is still what was judged stale
      // (another process may have taken it over in between; then put theirs back)
      removeStaleLock(path, join(resolve(dir), `${FOLDER_LOCK}.stale-${nonce()}`), seen);
    }
  } catch (e) {
    unlinkSync(tmp);
    for (const p of [...created].reverse()) rmdirQuiet(p);
    throw e;
  }
  unlinkSync(tmp);

  let held = true;
  const release = (): void => {
    if (!held) return;
    held = false;
    process.off('exit', release);
    try {
      const now = readLockText(path);
      if (now !== null && parseLock(now)?.token === mine.token) unlinkSync(path);
    } catch {
      // the folder went away: nothing to release
    }
    // a folder made only for this lock and left empty (the run failed before writing) goes too
    for (const p of [...created].reverse()) rmdirQuiet(p);
  };
  process.on('exit', release);
  return { path, release };
}

function rmQuiet(p: string): void {
  try {
    unlinkSync(p);
  } catch {
    // never created
  }
}

function rmdirQuiet(p: string): void {
  try {
    rmdirSync(p);
  } catch {
    // not empty: the run wrote results there
  }
}

/** The current holder of `dir`'s lock, or null (for `lshdp status` and messages). */
export function readFolderLock(dir: string): LockInfo | null {
  const text = readLockText(join(resolve(dir), FOLDER_LOCK));
  return text === null ? null : parseLock(text);
}
