/**
 * Downloads that wait and say so (src/data/fetch/download.ts): retries with backoff (1, 2, 4, 8 s,
 * the waits recorded, not slept), where a retry resumes, what a rerun will do when the server
 * ignores ranges, the way out of a failed connection, SIGINT, and -q (on data add too).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fetchDataset } from '../../src/data/fetch/install.js';
import { dataLockPath } from '../../src/data/fetch/lock.js';
import type { RegistryEntry } from '../../src/data/registry.js';
import { BIN, STACK_RE } from '../helpers/cli.js';
import { makeZip, tinyZipEntry, startFileServer, type FileServer } from '../helpers/fileServer.js';
import { lshdpIn } from '../helpers/inproc.js';

let server: FileServer;
let zip: Buffer;
let ENTRY: RegistryEntry;

beforeAll(async () => {
  server = await startFileServer();
  const rows = Array.from({ length: 400 }, (_, i) => `${1 + (i % 20)},${1 + ((i * 7) % 30)},${1 + (i % 9) / 2},${964982703 + i}`);
  zip = await makeZip({ 'tiny-ml/ratings.csv': ['userId,movieId,rating,timestamp', ...rows].join('\n') + '\n' });
  ENTRY = tinyZipEntry(zip);
});
afterAll(() => server.close());

const dataDir = () => mkdtempSync(join(tmpdir(), 'lshdp-retry-'));

/** Options that record the waits and the log lines instead of sleeping and printing. */
function recorded(dir: string, mirror = server.base) {
  const waits: number[] = [];
  const lines: string[] = [];
  const sleep = async (ms: number) => {
    waits.push(ms);
  };
  return { waits, lines, opts: { dataDir: dir, mirror, registry: [ENTRY], sleep, log: (l: string) => lines.push(l) } };
}

const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('retries with backoff', () => {
  it('an outage of three answers (503) is survived: waits of 1, 2 and 4 s, each retry said', async () => {
    const dir = dataDir();
    server.files.set('/datasets/tiny.zip', { body: zip, failFirst: 3 });
    const { waits, lines, opts } = recorded(dir);
    const r = await fetchDataset('tiny', opts);
    expect(r.installed).toBe(true);
    expect(waits).toEqual([1000, 2000, 4000]);
    expect(lines).toEqual([1, 2, 3].map((n) => `${server.base}/datasets/tiny.zip: HTTP 503 Service Unavailable; trying again in ${2 ** (n - 1)} s (${n + 1} of 5)`));
  });

  it('connections closed without an answer: retried the same way', async () => {
    const dir = dataDir();
    server.files.set('/datasets/tiny.zip', { body: zip, resetFirst: 2 });
    const { waits, opts } = recorded(dir);
    expect((await fetchDataset('tiny', opts)).installed).toBe(true);
    expect(waits).toEqual([1000, 2000]);
  });

  it('a server down for good: 5 tries, waits 1, 2, 4, 8 s, then one line with the way out', async () => {
    const dir = dataDir();
    server.files.set('/datasets/tiny.zip', { body: zip, failFirst: 5 });
    const { waits, opts } = recorded(dir);
    const err = await fetchDataset('tiny', opts).catch((e: Error) => e);
    expect(waits).toEqual([1000, 2000, 4000, 8000]);
    expect((err as Error).message).toBe(
      `${server.base}/datasets/tiny.zip: HTTP 503 Service Unavailable; gave up after 5 tries; nothing downloaded; offline or blocked? fetch from another --mirror BASE, or download tiny.zip by hand (https://files.example.org/datasets/tiny.zip) and install it with: lshdp data add tiny tiny.zip`,
    );
  });

  it('a resumed try says where it resumes, in bytes', async () => {
    const dir = dataDir();
    const half = Math.floor(zip.length / 2);
    server.files.set('/datasets/tiny.zip', { body: zip, dropAfter: half, dropTimes: 1 });
    const { waits, lines, opts } = recorded(dir);
    expect((await fetchDataset('tiny', opts)).installed).toBe(true);
    const n = (x: number) => x.toLocaleString('en-US');
    expect(waits).toEqual([1000]);
    expect(lines).toEqual([
      `${server.base}/datasets/tiny.zip: the connection was lost after ${n(half)} bytes of ${n(zip.length)}; trying again in 1 s (2 of 5), resuming at ${n(half)} bytes`,
      `${server.base}/datasets/tiny.zip: resuming at ${n(half)} bytes of ${n(zip.length)}`,
    ]);
  });
});

describe('what a failed download says of a rerun is what a rerun does', () => {
  it('a server that resumes: the bytes kept, and a rerun resumes from them', async () => {
    const dir = dataDir();
    server.files.set('/datasets/tiny.zip', { body: zip, dropAfter: 1000, dropTimes: 1 });
    const { opts } = recorded(dir);
    const err = (await fetchDataset('tiny', { ...opts, attempts: 1 }).catch((e: Error) => e)) as Error;
    const part = join(dir, '.lshdp-partial', 'tiny.zip');
    expect(err.message).toMatch(new RegExp(`connection was lost after 1,000 bytes .*; gave up after one try; 1,000 bytes kept in ${literal(part)}: run the same command again to resume$`));
    server.requests.length = 0;
    expect((await fetchDataset('tiny', opts)).installed).toBe(true);
    expect(server.requests[0]).toMatchObject({ range: 'bytes=1000-', status: 206 });
  });

  it('a download completed before its install was interrupted is verified as it is, not fetched again', async () => {
    const dir = dataDir();
    server.files.set('/datasets/tiny.zip', { body: zip });
    const { lines, opts } = recorded(dir);
    const part = join(dir, '.lshdp-partial', 'tiny.zip');
    mkdirSync(join(dir, '.lshdp-partial'));
    writeFileSync(part, zip);
    writeFileSync(`${part}.json`, JSON.stringify({ url: `${server.base}/datasets/tiny.zip`, etag: '"e"', lastModified: null, ranges: true, total: zip.length }));
    server.requests.length = 0;
    expect((await fetchDataset('tiny', opts)).installed).toBe(true);
    expect(server.requests).toEqual([]);
    expect(lines).toEqual([`${server.base}/datasets/tiny.zip: downloaded before (${zip.length.toLocaleString('en-US')} bytes); verifying it`]);
  });

  it('a server that ignores Range: every try starts over, the retry lines say so, and the last says nothing is kept', async () => {
    const dir = dataDir();
    server.files.set('/datasets/tiny.zip', { body: zip, noRanges: true, dropAfter: 1000, dropTimes: 5 });
    const { lines, opts } = recorded(dir);
    const err = (await fetchDataset('tiny', opts).catch((e: Error) => e)) as Error;
    server.files.set('/datasets/tiny.zip', { body: zip });
    expect(err.message).toMatch(
      /connection was lost after 1,000 bytes of [\d,]+; gave up after 5 tries; nothing kept \(the server does not resume downloads \(it ignores Range requests\)\): a rerun downloads it from the start$/,
    );
    expect(err.message).not.toMatch(/bytes kept/);
    expect(lines.filter((l) => /ignores the range asked for; starting over from byte 0/.test(l))).toHaveLength(4);
    expect(lines.filter((l) => /trying again .*, from the start \(the server cannot resume\)$/.test(l))).toHaveLength(3);
    // nothing is left that a rerun would pretend to resume
    expect(existsSync(join(dir, '.lshdp-partial', 'tiny.zip'))).toBe(false);
  });
});

describe('a connection that cannot be made ends with the way out', () => {
  it('refused: named in words, with --mirror and lshdp data add', async () => {
    const closed = await startFileServer();
    await closed.close();
    const { waits, opts } = recorded(dataDir(), closed.base);
    const err = (await fetchDataset('tiny', opts).catch((e: Error) => e)) as Error;
    expect(waits).toEqual([1000, 2000, 4000, 8000]);
    expect(err.message).toMatch(
      /tiny\.zip: connection refused \(ECONNREFUSED\); gave up after 5 tries; nothing downloaded; offline or blocked\? fetch from another --mirror BASE, or download tiny\.zip by hand \(https:\/\/files\.example\.org\/datasets\/tiny\.zip\) and install it with: lshdp data add tiny tiny\.zip$/,
    );
  });

  /** A lookup that fails with `code` the first `times` calls (as an offline machine's or a flaky DNS server's), then resolves to this machine. */
  const failingLookup = (code: string, times: number) => {
    let calls = 0;
    return (_host: string, options: { all?: boolean }, cb: (e: NodeJS.ErrnoException | null, a?: unknown, f?: number) => void) => {
      if (++calls <= times) cb(Object.assign(new Error(`getaddrinfo ${code}`), { code }));
      else if (options.all) cb(null, [{ address: '127.0.0.1', family: 4 }]);
      else cb(null, '127.0.0.1', 4);
    };
  };

  it('a host that does not resolve (offline, ENOTFOUND): said at once, not retried, with the data add way', async () => {
    const { waits, lines, opts } = recorded(dataDir(), 'http://no-such-host.invalid');
    const t0 = Date.now();
    const err = (await fetchDataset('tiny', opts).catch((e: Error) => e)) as Error;
    expect(Date.now() - t0).toBeLessThan(10_000);
    // this machine's own answer for a .invalid name; without a DNS server some say EAI_AGAIN (one retry, below)
    if (/ENOTFOUND/.test(err.message)) {
      expect(waits).toEqual([]);
      expect(lines).toEqual([]);
      expect(err.message).toMatch(
        /^http:\/\/no-such-host\.invalid\/datasets\/tiny\.zip: host not found \(ENOTFOUND\): the name does not resolve \(offline, or no such host\), which waiting does not mend, so not retried; nothing downloaded; offline or blocked\? .*lshdp data add tiny tiny\.zip$/,
      );
    } else expect(err.message).toMatch(/EAI_AGAIN\); gave up after 2 tries; .*lshdp data add tiny tiny\.zip$/);
    // the same, whatever this machine's DNS does: a lookup that answers ENOTFOUND
    const host = recorded(dataDir(), server.base.replace('127.0.0.1', 'mirror.example'));
    const again = (await fetchDataset('tiny', { ...host.opts, lookup: failingLookup('ENOTFOUND', 99) as never }).catch((e: Error) => e)) as Error;
    expect(host.waits).toEqual([]);
    expect(again.message).toMatch(/host not found \(ENOTFOUND\): the name does not resolve .* so not retried; nothing downloaded; .*lshdp data add tiny tiny\.zip$/);
  });

  it('a lookup that could not be made this time (EAI_AGAIN): one retry after 1 s, which may succeed', async () => {
    const base = server.base.replace('127.0.0.1', 'mirror.example');
    server.files.set('/datasets/tiny.zip', { body: zip });
    const down = recorded(dataDir(), base);
    const err = (await fetchDataset('tiny', { ...down.opts, lookup: failingLookup('EAI_AGAIN', 99) as never }).catch((e: Error) => e)) as Error;
    expect(down.waits).toEqual([1000]);
    expect(down.lines).toEqual([`${base}/datasets/tiny.zip: host name lookup failed (EAI_AGAIN); trying again in 1 s (2 of 2)`]);
    expect(err.message).toMatch(/\(EAI_AGAIN\); gave up after 2 tries; nothing downloaded; offline or blocked\? .*lshdp data add tiny tiny\.zip$/);
    const once = recorded(dataDir(), base);
    expect((await fetchDataset('tiny', { ...once.opts, lookup: failingLookup('EAI_AGAIN', 1) as never })).installed).toBe(true);
    expect(once.waits).toEqual([1000]);
  });

  it('the CLI: one line, exit 2, no stack; --retries 0 tries once', async () => {
    const closed = await startFileServer();
    await closed.close();
    const r = await lshdpIn(['data', 'fetch', 'movielens-100k', '--data-dir', dataDir(), '--mirror', closed.base, '--retries', '0']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(
      /^lshdp: error: http:\/\/127\.0\.0\.1:\d+\/datasets\/movielens\/ml-100k\.zip: connection refused \(ECONNREFUSED\); gave up after one try; nothing downloaded; offline or blocked\? .*lshdp data add movielens-100k ml-100k\.zip\n$/,
    );
    expect(r.stderr).not.toMatch(STACK_RE);
  });
});

describe('the CLI: -q on data fetch and data add, SIGINT', () => {
  it('-q hides the retry lines (the 1-s backoff wait asked for, not slept)', async () => {
    const body = randomBytes(5000); // no archive: refused after the download, which is all this test needs
    // The CLI's own pause() sets a 1000-ms timer: fire that one at once (the retry path is the
    // same), recording that it was asked for, instead of sleeping a real second each way.
    const realSetTimeout = globalThis.setTimeout;
    const backoffs: number[] = [];
    const spy = vi.spyOn(globalThis, 'setTimeout').mockImplementation(((fn: () => void, ms?: number, ...rest: unknown[]) => {
      if (ms === 1000) backoffs.push(ms);
      return realSetTimeout(fn, ms === 1000 ? 0 : ms, ...rest);
    }) as typeof setTimeout);
    try {
      for (const quiet of [false, true]) {
        server.files.set('/datasets/movielens/ml-100k.zip', { body, failFirst: 1 });
        const r = await lshdpIn(['data', 'fetch', 'movielens-100k', '--data-dir', dataDir(), '--mirror', server.base, ...(quiet ? ['-q'] : [])]);
        expect(r.status, r.stderr).toBe(2);
        const retry = /HTTP 503 Service Unavailable; trying again in 1 s \(2 of 5\)/;
        if (quiet) expect(r.stderr).toMatch(/^lshdp: error: ml-100k\.zip: not a readable zip archive[^\n]*\n$/);
        else expect(r.stderr).toMatch(retry);
      }
    } finally {
      spy.mockRestore();
    }
    expect(backoffs).toEqual([1000, 1000]); // one retry wait each way, quiet or not
  });

  it('data add -q: only the line that says what was installed (it was an unknown option)', async () => {
    const src = dataDir();
    const file = join(src, 'dataset_TSMC2014_NYC.txt');
    writeFileSync(file, '470\t49bbd6c0f964a520f4531fe3\t4bf58dd8d48988d127951735\tArts & Crafts Store\t40.7198\t-74.0025\t-240\tTue Apr 03 18:00:09 +0000 2012\n');
    const loud = await lshdpIn(['data', 'add', 'foursquare-tsmc2014-nyc', file, '--data-dir', dataDir()]);
    expect(loud.status, loud.stderr).toBe(0);
    expect(loud.stderr).toMatch(/license: .*\n.*cite: /);
    const dir = dataDir();
    const quiet = await lshdpIn(['data', 'add', 'foursquare-tsmc2014-nyc', file, '--data-dir', dir, '-q']);
    expect(quiet.status, quiet.stderr).toBe(0);
    expect(quiet.stderr).toBe(`lshdp: installed foursquare-tsmc2014-nyc in ${join(dir, 'foursquare-tsmc2014')} (verified: not verified (no published checksum))\n`);
  });

  it('SIGINT during a download: one line saying what is kept, exit 130, the lock released', async () => {
    const dir = dataDir();
    server.files.set('/datasets/movielens/ml-100k.zip', { body: randomBytes(200_000), stallAfter: 50_000 });
    const child = spawn(process.execPath, [BIN, 'data', 'fetch', 'movielens-100k', '--data-dir', dir, '--mirror', server.base, '-q'], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += String(d)));
    const exited = new Promise<number | null>((ok) => child.on('exit', (code) => ok(code)));
    const part = join(dir, '.lshdp-partial', 'ml-100k.zip');
    for (const start = Date.now(); !(existsSync(part) && statSync(part).size >= 50_000); await new Promise((ok) => setTimeout(ok, 10))) {
      if (Date.now() - start > 60_000) throw new Error('the download never started');
    }
    child.kill('SIGINT');
    expect(await exited).toBe(130);
    expect(stderr).toBe(`lshdp: interrupted by SIGINT: 50,000 bytes kept in ${part}: run the same command again to resume\n`);
    expect(existsSync(dataLockPath(dir, 'movielens-100k'))).toBe(false);
    expect(readdirSync(dir).filter((f) => f.startsWith('.lshdp-tmp') || f.startsWith('.lshdp-fetch'))).toEqual([]);
  });

  it('SIGINT while waiting for another fetch’s lock: one line, exit 130 (the wait used to swallow it)', async () => {
    const dir = dataDir();
    // a live holder: a process that sleeps, named in a lock as a fetch would write it
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 120000)'], { stdio: 'ignore' });
    const info = { pid: holder.pid, hostname: hostname(), procStart: null, startedAt: '2026-11-26T08:00:00.000Z', command: 'lshdp data fetch movielens-100k', token: 'x' };
    writeFileSync(dataLockPath(dir, 'movielens-100k'), JSON.stringify(info));
    try {
      const child = spawn(process.execPath, [BIN, 'data', 'fetch', 'movielens-100k', '--data-dir', dir, '--mirror', server.base], { stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr!.on('data', (d) => (stderr += String(d)));
      const exited = new Promise<number | null>((ok) => child.on('exit', (code) => ok(code)));
      for (const start = Date.now(); !stderr.includes('waiting for'); await new Promise((ok) => setTimeout(ok, 10))) {
        if (Date.now() - start > 60_000) throw new Error(`never waited: ${stderr}`);
      }
      child.kill('SIGINT');
      const timer = setTimeout(() => child.kill('SIGKILL'), 60_000); // it used to wait on: fail, not hang
      const code = await exited;
      clearTimeout(timer);
      expect(code, stderr).toBe(130);
      expect(stderr).toBe(
        `lshdp: movielens-100k: waiting for pid ${holder.pid} (lshdp data fetch movielens-100k, started 2026-11-26 08:00:00 UTC) to finish installing it in ${dir}\nlshdp: interrupted by SIGINT before movielens-100k was downloaded: nothing changed\n`,
      );
    } finally {
      holder.kill('SIGKILL');
    }
  });
});
