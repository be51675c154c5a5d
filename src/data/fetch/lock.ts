/**
 * One install of a data set at a time: `lshdp data fetch` and `data add` of the same set (two array
 * jobs at once) take a lock file in the data folder naming the process that holds it (pid, host,
 * start time, command). A second process waits for a live holder and says whom it waits for; a
 * holder that is gone (killed with SIGKILL: same host, pid dead or reused) is taken over at once,
 * as `lshdp run` takes over its results folder's lock (src/machinery/lock.ts). A holder
 * on another host (a shared data folder) cannot be checked by pid: it touches its lock every few
 * seconds, and a lock left untouched for `staleMs` is taken over.
 *
 * (proper-lockfile, used before, judges every lock by its age alone and records no pid: a fetch
 * after a killed fetch waited out its 30 s in silence.)
 */
import { randomBytes } from 'node:crypto';
import { linkSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { UserError, withPath } from '../../util/errors.js';
import { holderGone, processStart } from '../../util/processes.js';
import { parseLockJson, readLockText, removeStaleLock } from '../../util/lockFile.js';

export interface DataLockInfo {
  pid: number;
  hostname: string;
  /** the holder's start time (Linux, clock ticks since boot), to tell a reused pid from it */
  procStart: string | null;
  /** ISO 8601, UTC */
  startedAt: string;
  /** what the holder does, e.g. `lshdp data fetch movielens-25m` */
  command: string;
  /** random, so a release removes only its own lock */
  token: string;
}

export interface DataLockOptions {
  /** a line saying whom a wait is for, or whose lock was taken over */
  log?: (line: string) => void;
  /** how often a waiting process looks again (default 500 ms) */
  pollMs?: number;
  /** a lock of another host, or one that cannot be read, untouched this long is stale (default 30 s) */
  staleMs?: number;
  /** give up waiting after this long (default one hour) */
  maxWaitMs?: number;
}

/** The lock file of data set `name` (hidden: a data folder lists its sets). */
export const dataLockPath = (dataDir: string, name: string): string => join(dataDir, `.lshdp-fetch-${name}.lock.json`);

const HEARTBEAT_MS = 5_000;

const parse = (text: string): DataLockInfo | null => parseLockJson<DataLockInfo>(text);

/** Is the lock's holder gone? By pid on this host; by the age of its last heartbeat elsewhere. */
function isStale(path: string, info: DataLockInfo | null, staleMs: number): boolean {
  if (info && info.hostname === hostname()) return holderGone(info.pid, info.procStart);
  const touched = statSync(path, { throwIfNoEntry: false })?.mtimeMs;
  return touched === undefined || Date.now() - touched > staleMs;
}

function holderOf(info: DataLockInfo | null): string {
  if (!info) return 'an lshdp process (its lock cannot be read)';
  const where = info.hostname === hostname() ? `pid ${info.pid}` : `pid ${info.pid} on host ${info.hostname}`;
  const when = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/.test(info.startedAt) ? `${info.startedAt.slice(0, 10)} ${info.startedAt.slice(11, 19)} UTC` : info.startedAt;
  return `${where} (${info.command}, started ${when})`;
}

/**
 * Move a stale lock aside and delete it, unless it changed since it was judged (another process
 * took it over in between: then theirs is put back).
 */
function removeStale(path: string, seen: string): void {
  removeStaleLock(path, `${path}.stale-${process.pid}-${randomBytes(4).toString('hex')}`, seen);
}

const sleep = (ms: number) => new Promise<void>((ok) => setTimeout(ok, ms));

/** Take the lock of `name` in `dataDir` (the folder exists), waiting for a live holder. */
async function acquire(dataDir: string, name: string, what: string, opts: DataLockOptions): Promise<{ path: string; token: string }> {
  const path = dataLockPath(dataDir, name);
  const mine: DataLockInfo = {
    pid: process.pid,
    hostname: hostname(),
    procStart: processStart(process.pid),
    startedAt: new Date().toISOString(),
    command: what,
    token: randomBytes(12).toString('hex'),
  };
  const tmp = `${path}.new-${process.pid}-${randomBytes(4).toString('hex')}`;
  try {
    writeFileSync(tmp, JSON.stringify(mine) + '\n');
  } catch (e) {
    throw withPath(e, tmp);
  }
  const since = Date.now();
  let waitingFor: string | null = null;
  try {
    for (;;) {
      try {
        linkSync(tmp, path); // fails when the name exists, like O_EXCL: exactly one process wins
        return { path, token: mine.token };
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw withPath(e, path);
      }
      const seen = readLockText(path);
      if (seen === null) continue; // released meanwhile
      const info = parse(seen);
      if (isStale(path, info, opts.staleMs ?? 30_000)) {
        opts.log?.(`${name}: ${holderOf(info)} left its lock and is gone; taking it over`);
        removeStale(path, seen);
        continue;
      }
      const holder = holderOf(info);
      if (holder !== waitingFor) opts.log?.(`${name}: waiting for ${holder} to finish installing it in ${dataDir}`);
      waitingFor = holder;
      if (Date.now() - since > (opts.maxWaitMs ?? 3_600_000)) {
        throw new UserError(`${name}: gave up waiting for ${holder} after ${Math.round((Date.now() - since) / 60_000)} min; if that process is stuck, stop it, or remove ${path}`);
      }
      await sleep(opts.pollMs ?? 500);
    }
  } finally {
    unlinkSync(tmp);
  }
}

/**
 * Run `work` holding the lock of data set `name` in `dataDir` (an existing folder): waits, saying
 * so, while another live process holds it; takes over at once a lock whose holder is gone. `what`
 * is what this process does, shown to a process that waits for it.
 */
export async function withDataLock<T>(dataDir: string, name: string, what: string, work: () => Promise<T>, opts: DataLockOptions = {}): Promise<T> {
  const { path, token } = await acquire(dataDir, name, what, opts);
  const release = (): void => {
    clearInterval(heartbeat);
    process.off('exit', release);
    try {
      if (parse(readLockText(path) ?? '')?.token === token) unlinkSync(path);
    } catch {
      // the folder went away: nothing to release
    }
  };
  // a waiter on another host judges this lock by its age
  const heartbeat = setInterval(() => {
    const now = new Date();
    try {
      utimesSync(path, now, now);
    } catch {
      // taken over or removed: the work goes on, its install is atomic
    }
  }, HEARTBEAT_MS);
  heartbeat.unref();
  process.on('exit', release);
  try {
    return await work();
  } finally {
    release();
  }
}
