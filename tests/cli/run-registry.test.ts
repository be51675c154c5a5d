/**
 * The shared configs' twins (configs/shared-*-registry.yaml) name registry sets: they run on what
 * `lshdp data add` installs. Tiny generated files in the sets' real formats stand in for the data
 * (the real files' test: run-shared-registry.long.test.ts).
 */
import { describe, it, expect } from 'vitest';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lshdp, ROOT, STACK_RE } from '../helpers/cli.js';
import { runInProc } from '../helpers/experiment.js';

/** A small grid over every mechanism of the twin: seconds, not the full grid's minutes. */
const SMALL = ['--set', 'dims=[50]', '--set', 'kappa=[10]', '--set', 'k=[1]', '--set', 'trials=1', '--set', 'privacy.xi=[5]'];

/** `count` (user, item) pairs of `users` users over `items` items, skewed to the first items, from a fixed LCG. */
function pairs(users: number, items: number, perUser: number): [number, number][] {
  let s = 12345;
  const next = () => {
    s = (s * 1103515245 + 12345) % 2 ** 31;
    return s / 2 ** 31;
  };
  const out: [number, number][] = [];
  for (let u = 1; u <= users; u++) for (let j = 0; j < perUser; j++) out.push([u, 1 + Math.floor(items * next() ** 2)]);
  return out;
}

/** The original TSMC 2014 layout: 8 tab-separated columns, no header. */
function tsmcFile(path: string): void {
  const rows = pairs(60, 150, 40).map(([u, v]) => `${u}\tvenue${v}\tcat${v % 7}\tCafé\t40.7${v % 10}\t-74.0${v % 10}\t-240\tTue Apr 03 18:00:09 +0000 2012`);
  writeFileSync(path, rows.join('\n') + '\n');
}

/** ml-latest-small's layout: header, comma separated, one rating per (user, movie). */
function movielensFile(path: string): void {
  const seen = new Set<string>();
  const rows = pairs(60, 150, 40)
    .filter(([u, m]) => !seen.has(`${u},${m}`) && seen.add(`${u},${m}`))
    .map(([u, m], i) => `${u},${m},${1 + ((u * m) % 9) / 2},${964982703 + i}`);
  writeFileSync(path, `userId,movieId,rating,timestamp\r\n${rows.join('\r\n')}\r\n`);
}

function utilityRows(out: string): string[] {
  return readFileSync(join(out, 'utility.csv'), 'utf8').trimEnd().split('\n');
}

describe('the shared configs’ registry twins', () => {
  it('shared-tsmc-registry.yaml runs after lshdp data add of the original file into a --data-dir', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lshdp-twin-'));
    mkdirSync(join(dir, 'download'));
    tsmcFile(join(dir, 'download', 'dataset_TSMC2014_NYC.txt'));
    const add = await runInProc(dir, ['data', 'add', 'foursquare-tsmc2014-nyc', join('download', 'dataset_TSMC2014_NYC.txt'), '--data-dir', 'store']);
    expect(add.status, add.stderr).toBe(0);
    expect(existsSync(join(dir, 'store', 'foursquare-tsmc2014', 'dataset_TSMC2014_NYC.txt'))).toBe(true);
    const config = join(ROOT, 'configs', 'shared-tsmc-registry.yaml');
    // before: the named set is missing from an empty data folder, and the error says how to add it
    const before = await runInProc(dir, ['run', config, '--data-dir', 'empty', '-o', 'out', '--no-report', ...SMALL]);
    expect(before.status).toBe(2);
    expect(before.stderr).toMatch(/foursquare-tsmc2014-nyc is not installed in empty .*lshdp data add foursquare-tsmc2014-nyc dataset_TSMC2014_NYC\.txt/);
    const r = await runInProc(dir, ['run', config, '--data-dir', 'store', '-o', 'out', '--no-report', '--no-cache', '-q', ...SMALL]);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(STACK_RE);
    const rows = utilityRows(join(dir, 'out'));
    // the data set is named as the registry names it; every mechanism of the twin has rows
    expect(rows.slice(1).every((l) => l.startsWith('foursquare-tsmc2014-nyc,50,'))).toBe(true);
    const mechanisms = new Set(rows.slice(1).map((l) => l.split(',')[4]));
    expect([...mechanisms].sort()).toEqual(['exact', 'laplsh', 'lsh', 'lshrr', 'lshrr-exact', 'purkayastha', 'rappor', 'rappor-vector', 'vmf']);
    // every user is a query (queries: 0)
    expect(
      readFileSync(join(dir, 'out', 'nn_distances.csv'), 'utf8')
        .trimEnd()
        .split('\n'),
    ).toHaveLength(1 + 60);
  });

  it('shared-tsmc-jaccard-registry.yaml runs on the same installed set (with its plugin)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lshdp-twin-'));
    tsmcFile(join(dir, 'dataset_TSMC2014_NYC.txt'));
    // data add loads no plugin: in this process
    const add = await runInProc(dir, ['data', 'add', 'foursquare-tsmc2014-nyc', 'dataset_TSMC2014_NYC.txt', '--data-dir', 'store']);
    expect(add.status, add.stderr).toBe(0);
    // a plugin loads in a process of its own (the plugin registry is process-wide)
    const r = lshdp(['run', join(ROOT, 'configs', 'shared-tsmc-jaccard-registry.yaml'), '--data-dir', 'store', '-o', 'out', '--no-report', '--no-cache', '-q', '-t', '1', ...SMALL], { cwd: dir });
    expect(r.status, r.stderr).toBe(0);
    const mechanisms = new Set(
      utilityRows(join(dir, 'out'))
        .slice(1)
        .map((l) => l.split(',')[4]),
    );
    expect([...mechanisms].sort()).toEqual(['exact', 'lsh', 'lsh-oue-4', 'lshrr', 'rappor']);
  });

  it('shared-movielens-small-registry.yaml runs on ratings.csv in the set’s folder of the data folder', async () => {
    // data add checks latest-small's pinned SHA-256, which only the real file has (the long test
    // adds it): a stand-in goes where data add puts the file, ml-latest-small/ratings.csv
    const dir = mkdtempSync(join(tmpdir(), 'lshdp-twin-'));
    mkdirSync(join(dir, 'store', 'ml-latest-small'), { recursive: true });
    movielensFile(join(dir, 'store', 'ml-latest-small', 'ratings.csv'));
    const r = await runInProc(dir, ['run', join(ROOT, 'configs', 'shared-movielens-small-registry.yaml'), '--data-dir', 'store', '-o', 'out', '--no-report', '--no-cache', '-q', ...SMALL]);
    expect(r.status, r.stderr).toBe(0);
    const rows = utilityRows(join(dir, 'out'));
    expect(rows.slice(1).every((l) => l.startsWith('movielens-small,50,'))).toBe(true);
    expect(new Set(rows.slice(1).map((l) => l.split(',')[4])).size).toBe(9);
  });
});
