/**
 * The lock of a data set's install (src/data/fetch/lock.ts): a wait says whom it waits for, a lock
 * whose holder is gone is taken over at once (a fetch after a killed fetch used to wait 30 s in
 * silence), a lock of another host is judged by its heartbeat.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fetchDataset } from '../../src/data/fetch/install.js';
import { dataLockPath, withDataLock } from '../../src/data/fetch/lock.js';
import type { RegistryEntry } from '../../src/data/registry.js';
import { processStart } from '../../src/util/processes.js';
import { BIN } from '../helpers/cli.js';
import { makeZip, tinyZipEntry, startFileServer, type FileServer } from '../helpers/fileServer.js';

let server: FileServer;
let ENTRY: RegistryEntry;

beforeAll(async () => {
  server = await startFileServer();
  const zip = await makeZip({ 'tiny-ml/ratings.csv': 'userId,movieId,rating,timestamp\n1,2,3,4\n2,3,4,5\n' });
  ENTRY = tinyZipEntry(zip);
  server.files.set('/datasets/tiny.zip', { body: zip });
});
afterAll(() => server.close());

const dataDir = () => mkdtempSync(join(tmpdir(), 'lshdp-lock-'));

/** A lock file as a fetch writes it, for holder `pid` on `host`. */
function plantLock(dir: string, pid: number, host = hostname(), procStart: string | null = null): string {
  const path = dataLockPath(dir, 'tiny');
  const info = { pid, hostname: host, procStart, startedAt: '2026-11-26T08:00:00.000Z', command: 'lshdp data fetch tiny', token: randomBytes(12).toString('hex') };
  writeFileSync(path, JSON.stringify(info) + '\n');
  return path;
}

/** Resolves once `done()` holds; fails after `ms` (not a speed test: a generous bound on a wait). */
async function until(done: () => boolean, what: string, ms = 60_000): Promise<void> {
  for (const start = Date.now(); !done(); await new Promise((ok) => setTimeout(ok, 10))) {
    if (Date.now() - start > ms) throw new Error(`never happened: ${what}`);
  }
}

/** The pid of a process that has ended. */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', '']);
  return r.pid!;
}

describe('the lock of a data set install', () => {
  it('a lock left by a dead process is taken over at once, with one line saying so (no wait)', async () => {
    const dir = dataDir();
    const pid = deadPid();
    const lock = plantLock(dir, pid);
    const lines: string[] = [];
    const r = await fetchDataset('tiny', { dataDir: dir, mirror: server.base, registry: [ENTRY], log: (l) => lines.push(l) });
    expect(r.installed).toBe(true);
    expect(lines).toEqual([`tiny: pid ${pid} (lshdp data fetch tiny, started 2026-11-26 08:00:00 UTC) left its lock and is gone; taking it over`]);
    expect(existsSync(lock)).toBe(false);
  });

  it('a live holder is waited for, and the wait says whom for; its release lets the fetch go on', async () => {
    const dir = dataDir();
    // this process holds it (alive), as another fetch would
    const lock = plantLock(dir, process.pid, hostname(), processStart(process.pid));
    const lines: string[] = [];
    const fetching = fetchDataset('tiny', { dataDir: dir, mirror: server.base, registry: [ENTRY], log: (l) => lines.push(l) });
    await until(() => lines.length > 0, 'a line saying whom the fetch waits for');
    expect(lines).toEqual([`tiny: waiting for pid ${process.pid} (lshdp data fetch tiny, started 2026-11-26 08:00:00 UTC) to finish installing it in ${dir}`]);
    expect(existsSync(join(dir, 'tiny-ml'))).toBe(false);
    unlinkSync(lock); // the holder is done
    const r = await fetching;
    expect(r.installed).toBe(true);
    expect(lines).toHaveLength(1);
    expect(readdirSync(dir).filter((f) => f.startsWith('.lshdp-fetch-'))).toEqual([]);
  });

  it('a pid reused by a younger process is not the holder: taken over', async () => {
    const dir = dataDir();
    plantLock(dir, process.pid, hostname(), 'not-this-process-start');
    const lines: string[] = [];
    await withDataLock(dir, 'tiny', 'test', async () => undefined, { log: (l) => lines.push(l) });
    expect(lines).toHaveLength(process.platform === 'linux' ? 1 : 0);
  });

  it('another host’s lock: waited for while its heartbeat is fresh, taken over once it is older than staleMs', async () => {
    const dir = dataDir();
    const lock = plantLock(dir, 12345, 'elsewhere.example.org');
    const lines: string[] = [];
    let ran = false;
    const held = withDataLock(
      dir,
      'tiny',
      'test',
      async () => {
        ran = true;
        return JSON.parse(readFileSync(lock, 'utf8')).pid as number;
      },
      { log: (l) => lines.push(l), pollMs: 10, staleMs: 60_000 },
    );
    await until(() => lines.length > 0, 'a line saying whom the lock waits for');
    expect(lines[0]).toMatch(/^tiny: waiting for pid 12345 on host elsewhere\.example\.org \(lshdp data fetch tiny, started 2026-11-26 08:00:00 UTC\)/);
    expect(ran).toBe(false);
    const old = new Date(Date.now() - 120_000);
    utimesSync(lock, old, old); // its holder stopped touching it two minutes ago
    expect(await held).toBe(process.pid);
    expect(lines[1]).toMatch(/^tiny: pid 12345 on host elsewhere\.example\.org .* left its lock and is gone; taking it over$/);
  });

  it('lshdp data fetch after a fetch killed with SIGKILL: takes its lock over at once and resumes the download', async () => {
    const dir = dataDir();
    const body = randomBytes(200_000);
    server.files.set('/datasets/movielens/ml-100k.zip', { body, stallAfter: 50_000 });
    const args = [BIN, 'data', 'fetch', 'movielens-100k', '--data-dir', dir, '--mirror', server.base];
    const first = spawn(process.execPath, args, { stdio: 'ignore' });
    const part = join(dir, '.lshdp-partial', 'ml-100k.zip');
    // killed mid-download, holding its lock
    await until(() => existsSync(part) && statSync(part).size >= 50_000 && existsSync(dataLockPath(dir, 'movielens-100k')), 'the first fetch half-way');
    const exited = new Promise((ok) => first.on('exit', ok));
    first.kill('SIGKILL');
    await exited;
    server.files.set('/datasets/movielens/ml-100k.zip', { body });
    server.requests.length = 0;
    const second = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    second.stderr!.on('data', (d) => (stderr += String(d)));
    const code = await new Promise((ok) => second.on('exit', ok));
    expect(stderr).toContain(`movielens-100k: pid ${first.pid} (lshdp data fetch movielens-100k, started `);
    expect(stderr).toContain('left its lock and is gone; taking it over');
    expect(stderr).not.toMatch(/waiting for/);
    expect(server.requests[0]).toMatchObject({ range: 'bytes=50000-', status: 206 });
    // random bytes are no archive: refused after the download, nothing installed, no lock left
    expect(code).toBe(2);
    expect(stderr).toMatch(/lshdp: error: ml-100k\.zip: not a readable zip archive/);
    expect(readdirSync(dir).filter((f) => f.startsWith('.lshdp-fetch-'))).toEqual([]);
  });
});
