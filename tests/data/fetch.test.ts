import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { addFiles, fetchDataset, installState, INSTALLED_MARKER, lookUp, sourceUrl } from '../../src/data/fetch/install.js';
import { entryTarget as entryTargetForTests } from '../../src/data/fetch/archive.js';
import { REGISTRY, type RegistryEntry } from '../../src/data/registry.js';
import { UserError } from '../../src/util/errors.js';
import { makeZip, startFileServer, type FileServer } from '../helpers/fileServer.js';
import { lshdpIn } from '../helpers/inproc.js';
import { SHARED_DATA, STACK_RE } from '../helpers/cli.js';

const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');
const sha256 = (b: string | Buffer) => createHash('sha256').update(b).digest('hex');

/** A tiny MovieLens ratings.csv in the real format (CRLF, as ml-latest-small ships it). */
const RATINGS = ['userId,movieId,rating,timestamp', ...Array.from({ length: 60 }, (_, i) => `${1 + (i % 12)},${1 + ((i * 7) % 10)},${1 + (i % 9) / 2},${964982703 + i}`)].join('\r\n') + '\r\n';

let server: FileServer;
let zip: Buffer;
/** A registry entry served by the test server, its archive's MD5 published. */
let ENTRY: RegistryEntry;
/** The same files, known only by a pinned SHA-256 (a mirror's repacked archive). */
let PINNED: RegistryEntry;

beforeAll(async () => {
  server = await startFileServer();
  zip = await makeZip({ 'tiny-ml/ratings.csv': RATINGS, 'tiny-ml/README.txt': 'a tiny data set for the tests\n' });
  const base = { format: 'movielens-csv' as const, folder: 'tiny-ml', size: '1 kB', license: 'test data', citation: 'nobody' };
  ENTRY = { ...base, name: 'tiny', title: 'tiny', url: 'https://files.example.org/datasets/tiny.zip', md5: md5(zip), files: [{ role: 'ratings', path: 'ratings.csv' }] };
  PINNED = { ...base, name: 'tiny-pinned', title: 'tiny', url: 'https://files.example.org/datasets/tiny.zip', files: [{ role: 'ratings', path: 'ratings.csv', sha256: sha256(RATINGS) }] };
  server.files.set('/datasets/tiny.zip', { body: zip });
});
afterAll(() => server.close());

const dataDir = () => mkdtempSync(join(tmpdir(), 'lshdp-data-'));
/** The waits between download tries are skipped (tests/data/fetch-retry.test.ts checks them). */
const noWait = async () => undefined;
const opts = (dir: string, extra: Record<string, unknown> = {}) => ({ dataDir: dir, mirror: server.base, registry: [ENTRY, PINNED], sleep: noWait, ...extra });
/** What a data folder holds besides installed sets: nothing (the partial-download folder may stay, empty or not). */
const strays = (dir: string) => readdirSync(dir).filter((f) => f !== '.lshdp-partial' && !REGISTRY.concat([ENTRY]).some((e) => e.folder === f));

describe('lshdp data fetch: the library', () => {
  it('fetches from the mirror, verifies the MD5, installs in the archive layout with the marker; a second fetch is a no-op', async () => {
    const dir = dataDir();
    server.requests.length = 0;
    const r = await fetchDataset('tiny', opts(dir));
    expect(r.installed).toBe(true);
    expect(r.verified).toMatch(/MD5 of tiny\.zip as published/);
    expect(readFileSync(join(dir, 'tiny-ml', 'ratings.csv'), 'utf8')).toBe(RATINGS);
    expect(existsSync(join(dir, 'tiny-ml', INSTALLED_MARKER))).toBe(true);
    expect(strays(dir)).toEqual([]);
    expect(server.requests.map((q) => q.path)).toEqual(['/datasets/tiny.zip']);
    const again = await fetchDataset('tiny', opts(dir));
    expect(again.installed).toBe(false);
    expect(server.requests).toHaveLength(1); // nothing downloaded, nothing re-hashed
    expect(installState(ENTRY, dir).state).toBe('installed');
  });

  it('two fetches of one set at once (array jobs): one downloads, the other waits for its lock and finds it installed', async () => {
    const dir = dataDir();
    server.requests.length = 0;
    const [a, b] = await Promise.all([fetchDataset('tiny', opts(dir)), fetchDataset('tiny', opts(dir))]);
    expect([a.installed, b.installed].sort()).toEqual([false, true]);
    expect(server.requests).toHaveLength(1);
    expect(strays(dir)).toEqual([]);
  });

  it('--force downloads and installs again', async () => {
    const dir = dataDir();
    await fetchDataset('tiny', opts(dir));
    writeFileSync(join(dir, 'tiny-ml', 'extra.txt'), 'left by the user');
    const r = await fetchDataset('tiny', opts(dir, { force: true }));
    expect(r.installed).toBe(true);
    expect(existsSync(join(dir, 'tiny-ml', 'extra.txt'))).toBe(false);
    expect(strays(dir)).toEqual([]);
  });

  it('a repacked archive (no published MD5 matches) is accepted when every file matches its pinned SHA-256', async () => {
    const dir = dataDir();
    const r = await fetchDataset('tiny-pinned', opts(dir));
    expect(r.verified).toBe('SHA-256 of ratings.csv as pinned');
  });

  it('resumes after the server drops the connection half-way (Range + If-Range, 206)', async () => {
    const dir = dataDir();
    server.files.set('/datasets/tiny.zip', { body: zip, dropAfter: Math.floor(zip.length / 2), dropTimes: 1 });
    server.requests.length = 0;
    const lines: string[] = [];
    const r = await fetchDataset('tiny', opts(dir, { log: (l: string) => lines.push(l) }));
    server.files.set('/datasets/tiny.zip', { body: zip });
    expect(r.installed).toBe(true);
    expect(server.requests, JSON.stringify(server.requests) + lines.join('\n')).toHaveLength(2);
    expect(server.requests[1], JSON.stringify(server.requests) + lines.join('\n')).toMatchObject({ range: `bytes=${Math.floor(zip.length / 2)}-`, status: 206 });
    expect(server.requests[1]!.ifRange).toMatch(/^"/);
    expect(lines.join('\n')).toMatch(/connection was lost after [\d,]+ bytes.*resuming/);
    expect(readFileSync(join(dir, 'tiny-ml', 'ratings.csv'), 'utf8')).toBe(RATINGS);
  });

  it('a server that ignores the range (200) makes the download start over; a 416 discards the partial file', async () => {
    for (const mode of ['200', '416'] as const) {
      const dir = dataDir();
      mkdirSync(join(dir, '.lshdp-partial'), { recursive: true });
      const part = join(dir, '.lshdp-partial', 'tiny.zip');
      // a partial file with validators that the server will not honour
      writeFileSync(part, mode === '416' ? Buffer.concat([zip, Buffer.from('junk')]) : zip.subarray(0, 100));
      writeFileSync(`${part}.json`, JSON.stringify({ url: `${server.base}/datasets/tiny.zip`, etag: '"old"', lastModified: null }));
      server.files.set('/datasets/tiny.zip', { body: zip, noRanges: mode === '200' });
      server.requests.length = 0;
      const r = await fetchDataset('tiny', opts(dir));
      expect(r.installed, mode).toBe(true);
      expect(server.requests[0]!.range, mode).toMatch(/^bytes=\d+-$/);
      if (mode === '416') expect(server.requests.map((q) => q.status)).toEqual([200]); // If-Range did not match: the whole file
      expect(readFileSync(join(dir, 'tiny-ml', 'ratings.csv'), 'utf8')).toBe(RATINGS);
    }
    server.files.set('/datasets/tiny.zip', { body: zip });
  });

  it('a 416 to a matching range discards the partial file and starts over', async () => {
    const dir = dataDir();
    mkdirSync(join(dir, '.lshdp-partial'), { recursive: true });
    const part = join(dir, '.lshdp-partial', 'tiny.zip');
    writeFileSync(part, Buffer.concat([zip, Buffer.from('junk')]));
    const etag = `"${sha256(zip).slice(0, 16)}"`;
    writeFileSync(`${part}.json`, JSON.stringify({ url: `${server.base}/datasets/tiny.zip`, etag, lastModified: null }));
    server.requests.length = 0;
    const r = await fetchDataset('tiny', opts(dir));
    expect(r.installed).toBe(true);
    expect(server.requests.map((q) => q.status)).toEqual([416, 200]);
  });

  it('follows a redirect', async () => {
    const dir = dataDir();
    server.files.set('/moved/tiny.zip', { body: zip });
    server.files.set('/datasets/tiny.zip', { body: zip, redirectTo: '/moved/tiny.zip' });
    const r = await fetchDataset('tiny', opts(dir));
    server.files.set('/datasets/tiny.zip', { body: zip });
    expect(r.installed).toBe(true);
  });

  const refuses = async (dir: string, served: Partial<{ body: Buffer; status: number }>, says: RegExp, name = 'tiny') => {
    server.files.set('/datasets/tiny.zip', { body: zip, ...served });
    try {
      await expect(fetchDataset(name, opts(dir))).rejects.toThrow(says);
      await expect(fetchDataset(name, opts(dir))).rejects.toBeInstanceOf(UserError);
    } finally {
      server.files.set('/datasets/tiny.zip', { body: zip });
    }
    expect(existsSync(join(dir, 'tiny-ml'))).toBe(false);
    expect(strays(dir)).toEqual([]);
  };

  it('HTTP 404 and 500: one line naming the URL and the status, nothing installed', async () => {
    await refuses(dataDir(), { status: 404 }, /\/datasets\/tiny\.zip: HTTP 404/);
    await refuses(dataDir(), { status: 500 }, /HTTP 500/);
  });

  it('a tampered archive: checksum mismatch naming expected and actual, retried once from zero, nothing installed', async () => {
    const tampered = await makeZip({ 'tiny-ml/ratings.csv': RATINGS.replace('964982703', '964982704'), 'tiny-ml/README.txt': 'a tiny data set for the tests\n' });
    const dir = dataDir();
    server.requests.length = 0;
    await refuses(dir, { body: tampered }, new RegExp(`checksum mismatch: MD5 expected ${md5(zip)}, got ${md5(tampered)}`));
    // two fetches, each: the download, then once more from zero
    expect(server.requests.filter((q) => q.path === '/datasets/tiny.zip')).toHaveLength(4);
    await refuses(dataDir(), { body: tampered }, /ratings\.csv: SHA-256 expected [0-9a-f]{64}, got [0-9a-f]{64}/, 'tiny-pinned');
  });

  it('a corrupt archive, one without the expected file, and one with an escaping entry are refused', async () => {
    await refuses(dataDir(), { body: Buffer.from('this is not a zip file at all'.repeat(10)) }, /not a readable zip archive/);
    await refuses(dataDir(), { body: await makeZip({ 'other/ratings.csv': RATINGS }) }, /not the tiny archive: tiny\.zip has no tiny-ml\/ratings\.csv/);
    // yazl will not write a climbing name: write a placeholder of the same length, then swap the bytes
    const evil = await makeZip({ 'tiny-ml/ratings.csv': RATINGS, 'PLACEHOLDER/evil.txt': 'x' });
    const swapped = Buffer.from(evil.toString('latin1').split('PLACEHOLDER/evil.txt').join('../../../../evil.txt'), 'latin1');
    await refuses(dataDir(), { body: swapped }, /outside the target folder/);
  });

  it('a connection refused is one line', async () => {
    const dir = dataDir();
    // a port nothing listens on: one a closed server had
    const closed = await startFileServer();
    await closed.close();
    await expect(fetchDataset('tiny', { dataDir: dir, mirror: closed.base, registry: [ENTRY], sleep: noWait })).rejects.toThrow(
      /tiny\.zip: connection refused \(ECONNREFUSED\); gave up after 5 tries/,
    );
    expect(strays(dir)).toEqual([]);
  });

  it('an entry path that climbs out of the folder is caught before anything is written', () => {
    expect(entryTargetForTests('/d', '../x')).toEqual(['entry "../x" would be written outside the target folder']);
    expect(entryTargetForTests('/d', 'a/../../x')).toEqual(['entry "a/../../x" would be written outside the target folder']);
    expect(entryTargetForTests('/d', '/etc/passwd')).toEqual(['entry "/etc/passwd" has an absolute or Windows path']);
    expect(entryTargetForTests('/d', 'ml/ratings.csv')).toBe('/d/ml/ratings.csv');
  });

  it('names: unknown with a did-you-mean; the mirror URL keeps the official path', () => {
    expect(() => lookUp('movielens-25')).toThrow(/unknown data set "movielens-25" \(did you mean "movielens-25m"\?\)/);
    expect(sourceUrl(lookUp('movielens-25m'), 'http://127.0.0.1:8000/')).toBe('http://127.0.0.1:8000/datasets/movielens/ml-25m.zip');
    expect(sourceUrl(lookUp('movielens-25m'))).toBe('https://files.grouplens.org/datasets/movielens/ml-25m.zip');
    expect(() => sourceUrl(lookUp('foursquare-www19'))).toThrow(/cannot be downloaded by a program: request it/);
  });

  it('the registry: the GroupLens sets with their published MD5s, the pinned latest-small ratings.csv', () => {
    const byName = new Map(REGISTRY.map((e) => [e.name, e]));
    expect(byName.get('movielens-25m')).toMatchObject({ url: 'https://files.grouplens.org/datasets/movielens/ml-25m.zip', folder: 'ml-25m', md5: '6b51fb2759a8657d3bfcbfc42b592ada' });
    expect(byName.get('movielens-10m')).toMatchObject({ folder: 'ml-10M100K', md5: 'ce571fd55effeba0271552578f2648bd' });
    expect(byName.get('movielens-latest-small')!.files[0]).toMatchObject({ sha256: 'aa289ca83157595d0df6aea1be6a4ded676ddc4385472e8313a8ed9805352646', bytes: 2_483_723 });
    for (const e of REGISTRY) expect(e.url !== undefined || e.obtain !== undefined, e.name).toBe(true);
  });
});

describe('lshdp data add', () => {
  it('installs the files of a set no program may download, recognized by name; refuses a file of another set', async () => {
    const dir = dataDir();
    const src = mkdtempSync(join(tmpdir(), 'lshdp-src-'));
    writeFileSync(
      join(src, 'dataset_TSMC2014_NYC.txt'),
      '470\t49bbd6c0f964a520f4531fe3\t4bf58dd8d48988d127951735\tArts & Crafts Store\t40.719810375488535\t-74.00258103213994\t-240\tTue Apr 03 18:00:09 +0000 2012\r\n',
    );
    const r = await addFiles('foursquare-tsmc2014-nyc', [join(src, 'dataset_TSMC2014_NYC.txt')], { dataDir: dir });
    expect(r.verified).toMatch(/not verified/);
    expect(existsSync(join(dir, 'foursquare-tsmc2014', 'dataset_TSMC2014_NYC.txt'))).toBe(true);
    expect(installState(lookUp('foursquare-tsmc2014-nyc'), dir).state).toBe('installed');
    await expect(addFiles('foursquare-www19', [join(src, 'dataset_TSMC2014_NYC.txt')], { dataDir: dir })).rejects.toThrow(
      /not a file of foursquare-www19 \(expected raw_Checkins_anonymized\.txt, raw_POIs\.txt\)/,
    );
  });

  it('recognizes renamed files by their first line: the WWW19 check-ins and POIs, the TSMC check-ins', async () => {
    const dir = dataDir();
    const src = mkdtempSync(join(tmpdir(), 'lshdp-src-'));
    writeFileSync(join(src, 'a.txt'), '50756\t4f5e3a72e4b053fd6a4313f6\tTue Apr 03 18:17:18 +0000 2012\t240\n');
    writeFileSync(join(src, 'b.txt'), '3fd66200f964a52000e71ee3\t40.733596\t-74.003139\tJazz Club\tUS\n');
    const r = await addFiles('foursquare-www19', [join(src, 'b.txt'), join(src, 'a.txt')], { dataDir: dir });
    expect(r.installed).toBe(true);
    expect(readFileSync(join(dir, 'foursquare-www19', 'raw_POIs.txt'), 'utf8')).toMatch(/Jazz Club/);
    expect(readFileSync(join(dir, 'foursquare-www19', 'raw_Checkins_anonymized.txt'), 'utf8')).toMatch(/^50756/);
    writeFileSync(join(src, 'c.txt'), '470\t49bbd6c0f964a520f4531fe3\t4bf58dd8d48988d127951735\tArts & Crafts Store\t40.7198\t-74.0025\t-240\tTue Apr 03 18:00:09 +0000 2012\n');
    await addFiles('foursquare-tsmc2014-nyc', [join(src, 'c.txt')], { dataDir: dir });
    expect(existsSync(join(dir, 'foursquare-tsmc2014', 'dataset_TSMC2014_NYC.txt'))).toBe(true);
    await expect(addFiles('foursquare-www19', [join(src, 'a.txt')], { dataDir: dataDir() })).rejects.toThrow(/needs raw_POIs\.txt too/);
  });

  it('takes a downloadable set’s archive fetched by hand, with the same verification', async () => {
    const dir = dataDir();
    const src = mkdtempSync(join(tmpdir(), 'lshdp-src-'));
    writeFileSync(join(src, 'tiny.zip'), zip);
    const r = await addFiles('tiny', [join(src, 'tiny.zip')], { dataDir: dir, registry: [ENTRY] });
    expect(r.verified).toMatch(/MD5/);
    writeFileSync(join(src, 'bad.zip'), await makeZip({ 'tiny-ml/ratings.csv': 'x' }));
    await expect(addFiles('tiny', [join(src, 'bad.zip')], { dataDir: dataDir(), registry: [ENTRY] })).rejects.toThrow(/checksum mismatch/);
  });
});

describe('lshdp data fetch / list / add: the CLI', () => {
  it('errors are one line, exit 2, no stack, nothing installed', async () => {
    const dir = dataDir();
    const cases: [string[], RegExp][] = [
      [['data', 'fetch', 'movielens-25', '--data-dir', dir], /^lshdp: error: unknown data set "movielens-25" \(did you mean "movielens-25m"\?\)/],
      [['data', 'fetch', 'foursquare-www19', '--data-dir', dir], /^lshdp: error: foursquare-www19 cannot be downloaded by a program/],
      [['data', 'fetch', 'movielens-100k', '--data-dir', dir, '--mirror', server.base], /^lshdp: error: http:\/\/127\.0\.0\.1:\d+\/datasets\/movielens\/ml-100k\.zip: HTTP 404/],
      [['data', 'fetch', 'movielens-100k', '--data-dir', dir, '--mirror', 'not a url'], /^lshdp: error: --mirror: not a URL/],
      [['data', 'add', 'foursquare-www19', join(dir, 'nope.txt'), '--data-dir', dir], /^lshdp: error: .*nope\.txt: no such file\n$/],
    ];
    for (const [args, says] of cases) {
      const r = await lshdpIn(args);
      expect(r.status, r.stderr).toBe(2);
      expect(r.stderr).toMatch(says);
      expect(r.stderr).not.toMatch(STACK_RE);
      expect(
        r.stderr
          .trimEnd()
          .split('\n')
          .filter((l) => l.includes('error')),
      ).toHaveLength(1);
    }
    // an unwritable data folder (a file in the way)
    const other = dataDir();
    writeFileSync(join(other, 'afile'), 'x');
    server.files.set('/datasets/movielens/ml-1m.zip', { body: zip });
    const unwritable = await lshdpIn(['data', 'fetch', 'movielens-1m', '--data-dir', join(other, 'afile', 'sub'), '--mirror', server.base]);
    expect(unwritable.status).toBe(2);
    expect(unwritable.stderr).toMatch(/^lshdp: error: .*afile.*(ENOTDIR|not a folder|not a directory)/i);
    expect(unwritable.stderr).not.toMatch(STACK_RE);
    // a tampered archive at the official path of a real entry: refused, nothing installed
    server.files.set('/datasets/movielens/ml-100k.zip', { body: await makeZip({ 'ml-100k/u.data': '1\t2\t3\t4\n' }) });
    const r = await lshdpIn(['data', 'fetch', 'movielens-100k', '--data-dir', dir, '--mirror', server.base, '-q']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^lshdp: error: ml-100k\.zip: checksum mismatch: MD5 expected 0e33842e24a9c977be4e0107933c0723, got [0-9a-f]{32}; u\.data has no pinned SHA-256/m);
    expect(strays(dir)).toEqual([]);
  });

  it('configs name data sets: an unknown name, a name with a path, a set not installed: one line each, the last with the command that fetches it', async () => {
    const dir = dataDir();
    const config = (entry: string) =>
      `name: named\nseed: 1\ndatasets:\n  - ${entry}\ndims: [5]\nqueries: 5\nk: [1]\nkappa: [4]\ntrials: 1\nprivacy: { d: 0.1, delta: 0.01, xi: [1] }\nmechanisms: [exact, lsh]\n`;
    const cases: [string, RegExp][] = [
      ['{ name: ml, dataset: movielens-25 }', /c\.yaml: datasets\[0\]\.dataset: unknown data set "movielens-25" \(did you mean "movielens-25m"\?\)/],
      ['{ name: ml, dataset: movielens-25m, path: r.csv }', /c\.yaml: datasets\[0\]: dataset and path in one entry/],
      [
        '{ name: ml, dataset: movielens-25m }',
        new RegExp(`c\\.yaml: datasets\\[0\\]\\.dataset: movielens-25m is not installed in ${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} .*run: lshdp data fetch movielens-25m --data-dir`),
      ],
      ['{ name: fsq, dataset: foursquare-www19 }', /foursquare-www19 is not installed .*obtain it by hand: request it/],
    ];
    for (const [entry, says] of cases) {
      writeFileSync(join(dir, 'c.yaml'), config(entry));
      const r = await lshdpIn(['run', 'c.yaml', '--data-dir', dir, '--out', 'out', '--no-cache'], { cwd: dir });
      expect(r.status, r.stderr).toBe(2);
      expect(r.stderr, entry).toMatch(says);
      expect(r.stderr.trimEnd().split('\n'), r.stderr).toHaveLength(1);
      expect(existsSync(join(dir, 'out'))).toBe(false);
    }
  });

  it('data list: every entry, installed or not, as text and JSON', async () => {
    const dir = dataDir();
    const r = await lshdpIn(['data', 'list', '--data-dir', dir, '--json']);
    expect(r.status).toBe(0);
    const rows = JSON.parse(r.stdout) as { name: string; state: string; download: string | null }[];
    expect(rows.map((x) => x.name)).toEqual(REGISTRY.map((e) => e.name));
    expect(rows.every((x) => x.state === 'missing')).toBe(true);
    expect(rows.find((x) => x.name === 'movielens-25m')!.download).toBe('lshdp data fetch movielens-25m');
    const text = await lshdpIn(['data', 'list'], { env: { LSHDP_DATA_DIR: dir } });
    expect(text.stdout).toContain(`data folder: ${dir}`);
  });
});

describe.skipIf(!existsSync(join(SHARED_DATA, 'movielens-latest-small', 'ratings.csv')))('the real ml-latest-small (../shared/data)', () => {
  it('fetches a repacked archive from a local mirror (verified by the pinned SHA-256), and a config naming the set runs', async () => {
    const ratings = readFileSync(join(SHARED_DATA, 'movielens-latest-small', 'ratings.csv'));
    server.files.set('/datasets/movielens/ml-latest-small.zip', { body: await makeZip({ 'ml-latest-small/ratings.csv': ratings, 'ml-latest-small/README.txt': 'repacked\n' }) });
    // run --fetch fetches what the config names and is not installed, then runs
    const first = dataDir();
    writeFileSync(
      join(first, 'c.yaml'),
      'name: named\nseed: 1\ndatasets:\n  - { name: ml, dataset: movielens-latest-small }\ndims: [50]\nqueries: 50\nk: [1]\nkappa: [8]\ntrials: 1\nprivacy: { d: 0.1, delta: 0.01, xi: [5] }\nmechanisms: [exact, lsh, lshrr]\n',
    );
    const fetched = await lshdpIn(['run', 'c.yaml', '--fetch', '--mirror', server.base, '--data-dir', 'd', '--out', 'out', '--no-report', '--no-cache', '--threads', '1'], { cwd: first });
    expect(fetched.status, fetched.stderr).toBe(0);
    expect(fetched.stderr).toMatch(/installed movielens-latest-small in d\/ml-latest-small/);
    expect(existsSync(join(first, 'out', 'utility.csv'))).toBe(true);
    const dir = dataDir();
    const r = await lshdpIn(['data', 'fetch', 'movielens-latest-small', '--mirror', `${server.base}/`, '--data-dir', dir]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/installed movielens-latest-small in .*ml-latest-small \(verified: SHA-256 of ratings\.csv as pinned\)/);
    expect(r.stderr).toMatch(/license: GroupLens/);
    expect(r.stderr).toMatch(/cite: F\. Maxwell Harper/);
    const cfg = join(dir, 'c.yaml');
    writeFileSync(
      cfg,
      'name: named\nseed: 1\ndatasets:\n  - { name: ml, dataset: movielens-latest-small }\ndims: [50]\nqueries: 50\nk: [1]\nkappa: [8]\ntrials: 1\nprivacy: { d: 0.1, delta: 0.01, xi: [5] }\nmechanisms: [exact, lsh, lshrr]\n',
    );
    const run = await lshdpIn(['run', cfg, '--data-dir', dir, '--out', join(dir, 'out'), '--no-report', '--no-cache', '-q', '--threads', '1']);
    expect(run.status, run.stderr).toBe(0);
    expect(readFileSync(join(dir, 'out', 'utility.csv'), 'utf8')).toMatch(/^dataset,/);
  });
});
