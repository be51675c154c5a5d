import { describe, it, expect } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { UserError } from '../../src/util/errors.js';
import { acquireFolderLock, FOLDER_LOCK, isStale, readFolderLock, type LockInfo } from '../../src/machinery/lock.js';
import { ROOT } from '../helpers/cli.js';

const scratch = () => mkdtempSync(join(tmpdir(), 'lshdp-lock-'));

/**
 * A child process that takes the lock of `dir` (through the built module) and prints "locked";
 * on SIGTERM it exits through process.exit, as the runner's signal handler does.
 */
function holder(dir: string): Promise<ChildProcess> {
  const script = `
    const { acquireFolderLock } = await import('./dist/machinery/lock.js');
    acquireFolderLock(process.argv[1], 'lshdp run held.yaml');
    process.on('SIGTERM', () => process.exit(143));
    console.log('locked');
    setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script, dir], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((ok, fail) => {
    let err = '';
    child.stderr!.on('data', (b) => (err += b));
    child.stdout!.on('data', (b) => (String(b).includes('locked') ? ok(child) : undefined));
    child.on('exit', (code) => fail(new Error(`lock holder exited with ${code}: ${err}`)));
  });
}

const exited = (c: ChildProcess) => new Promise<void>((ok) => (c.exitCode !== null || c.signalCode !== null ? ok() : c.on('exit', () => ok())));

function refusalOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(UserError);
    return (e as Error).message;
  }
  throw new Error('expected a refusal, the lock was granted');
}

describe('acquireFolderLock', () => {
  it('refuses a second process with one line naming the holder, until the holder exits', async () => {
    const dir = join(scratch(), 'results');
    const child = await holder(dir);
    try {
      const msg = refusalOf(() => acquireFolderLock(dir, 'lshdp run mine.yaml'));
      expect(msg).toMatch(
        new RegExp(
          `^${dir} is in use by another lshdp process \\(pid ${child.pid}: lshdp run held\\.yaml, started \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC\\); wait for it to finish or use another --out$`,
        ),
      );
      expect(msg).not.toContain('\n');
      expect(readFolderLock(dir)).toMatchObject({ pid: child.pid, command: 'lshdp run held.yaml', hostname: hostname() });
    } finally {
      child.kill('SIGTERM');
      await exited(child);
    }
    // the holder's exit (through process.exit in its SIGTERM handler) released the lock
    expect(existsSync(join(dir, FOLDER_LOCK))).toBe(false);
    const lock = acquireFolderLock(dir, 'lshdp run mine.yaml');
    lock.release();
  });

  it('takes over the lock of a process killed with SIGKILL, silently', async () => {
    const dir = join(scratch(), 'results');
    const child = await holder(dir);
    child.kill('SIGKILL');
    await exited(child);
    // the dead holder's lock is still there ...
    expect(readFolderLock(dir)?.pid).toBe(child.pid);
    // ... and is stale: taken over
    const lock = acquireFolderLock(dir, 'lshdp run mine.yaml');
    expect(readFolderLock(dir)).toMatchObject({ pid: process.pid, command: 'lshdp run mine.yaml' });
    lock.release();
    expect(readdirSync(dir)).toEqual([]);
  });

  it('refuses a second lock in the same process and releases only its own lock', () => {
    const dir = scratch();
    const a = acquireFolderLock(dir, 'first');
    expect(refusalOf(() => acquireFolderLock(dir, 'second'))).toContain(`(pid ${process.pid}: first, started `);
    a.release();
    const b = acquireFolderLock(dir, 'second');
    a.release(); // a second release of an old lock must not remove the new holder's
    expect(readFolderLock(dir)?.command).toBe('second');
    b.release();
    expect(existsSync(join(dir, FOLDER_LOCK))).toBe(false);
  });

  it('takes over an unreadable lock file and a lock of a pid that does not exist', () => {
    const dir = scratch();
    writeFileSync(join(dir, FOLDER_LOCK), '{ torn');
    acquireFolderLock(dir, 'a').release();
    const dead: LockInfo = { pid: 2 ** 22 + 12345, hostname: hostname(), startedAt: '2026-01-01T00:00:00.000Z', command: 'lshdp run x.yaml', procStart: null, token: 'x' };
    expect(isStale(dead)).toBe(true);
    writeFileSync(join(dir, FOLDER_LOCK), JSON.stringify(dead));
    const lock = acquireFolderLock(dir, 'b');
    expect(JSON.parse(readFileSync(join(dir, FOLDER_LOCK), 'utf8')).command).toBe('b');
    lock.release();
    expect(readdirSync(dir)).toEqual([]);
  });

  it("treats a live pid with another start time as reused (stale), and never takes over another host's lock", () => {
    const self: LockInfo = { pid: process.pid, hostname: hostname(), startedAt: '2026-01-01T00:00:00.000Z', command: 'x', procStart: null, token: 't' };
    expect(isStale(self)).toBe(false);
    if (existsSync('/proc/self/stat')) expect(isStale({ ...self, procStart: '1' })).toBe(true);
    const remote = { ...self, pid: 2 ** 22 + 12345, hostname: `${hostname()}-elsewhere` };
    expect(isStale(remote)).toBe(false);
    const dir = scratch();
    writeFileSync(join(dir, FOLDER_LOCK), JSON.stringify(remote));
    expect(refusalOf(() => acquireFolderLock(dir, 'b'))).toBe(
      `${dir} is in use by another lshdp process (pid ${remote.pid} on host ${remote.hostname}: x, started 2026-01-01 00:00:00 UTC); if that process is gone, remove ${join(dir, FOLDER_LOCK)}`,
    );
  });

  it('a requeued engine task takes over the lock of its earlier attempt on another host; any other task is refused', () => {
    const remote: LockInfo = { pid: 4242, hostname: `${hostname()}-node7`, startedAt: '2026-01-01T00:00:00.000Z', command: 'lshdp run c.yaml', procStart: null, token: 't' };
    const slurm = (restart: number, index = 2, job = '991') => ({ engine: 'slurm' as const, variable: 'SLURM_ARRAY_TASK_ID' as const, index, job, restart });
    const held = { ...remote, task: slurm(0) };
    expect(isStale(held, slurm(1))).toBe(true); // requeued: SLURM_RESTART_COUNT went up
    expect(isStale(held, slurm(0))).toBe(false); // the same attempt elsewhere: not ours to take
    expect(isStale(held, slurm(1, 3))).toBe(false); // another array index
    expect(isStale(held, slurm(1, 2, '992'))).toBe(false); // another job
    expect(isStale(held, null)).toBe(false); // not an engine task
    expect(isStale(remote, slurm(1))).toBe(false); // a lock without a task
    const pod = { engine: 'kubernetes' as const, variable: 'JOB_COMPLETION_INDEX' as const, index: 1, job: 'sweep', restart: null };
    expect(isStale({ ...remote, task: pod }, pod)).toBe(true); // a replacement pod of the same index
    expect(isStale({ ...remote, task: { ...pod, job: null } }, { ...pod, job: null })).toBe(false); // no job name: cannot tell
    // through acquireFolderLock, with the engine's variables in the environment
    const dir = scratch();
    writeFileSync(join(dir, FOLDER_LOCK), JSON.stringify(held));
    const env = { SLURM_ARRAY_TASK_ID: '2', SLURM_ARRAY_JOB_ID: '991', SLURM_RESTART_COUNT: '0' };
    const saved = Object.fromEntries(Object.keys(env).map((k) => [k, process.env[k]]));
    Object.assign(process.env, env);
    try {
      expect(refusalOf(() => acquireFolderLock(dir, 'b'))).toMatch(/pid 4242 on host .*-node7/);
      process.env.SLURM_RESTART_COUNT = '1';
      const lock = acquireFolderLock(dir, 'b');
      expect(readFolderLock(dir)).toMatchObject({ pid: process.pid, task: slurm(1) });
      lock.release();
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });

  it('removes a folder it created when released before anything was written', () => {
    const base = scratch();
    acquireFolderLock(join(base, 'a', 'b'), 'x').release();
    expect(readdirSync(base)).toEqual([]);
  });
});
