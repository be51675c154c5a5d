/**
 * Errors that name their key: an n above the data's items names the config file, `dims` and the
 * data file (inspect: `--dims`); an unknown `format` gets the did-you-mean an unknown key gets; a
 * file with several malformed rows says how many and where the first few are, in one run.
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { lshdpIn } from '../helpers/inproc.js';
import { STACK_RE } from '../helpers/cli.js';
import { loadDataset } from '../../src/data/load.js';

const HEADER = 'userId,movieId,rating,timestamp\n';
const GOOD = `${HEADER}1,2,4.0,5\n1,3,3.0,6\n2,2,1.0,7\n2,4,2.0,8\n3,3,5,9\n3,4,2,9\n`;

function folder(): string {
  const cwd = mkdtempSync(join(tmpdir(), 'lshdp-keys-'));
  writeFileSync(join(cwd, 'r.csv'), GOOD);
  return cwd;
}
const config = (dataset: string, dims = '[2]') =>
  `name: k\nseed: 1\ndatasets:\n  - ${dataset}\ndims: ${dims}\nqueries: 0\nk: [1]\nkappa: [4]\ntrials: 1\nprivacy: { xi: [1] }\nmechanisms: [exact, lsh]\n`;

/** One line on stderr, exit 2, no stack. */
function oneLine(r: { status: number | null; stderr: string }): string {
  expect(r.status).toBe(2);
  expect(r.stderr.trim().split('\n')).toHaveLength(1);
  expect(r.stderr).not.toMatch(STACK_RE);
  return r.stderr.trim();
}

describe('errors name their key', () => {
  it('dims above the items names the config, dims, the data set and its file; inspect names --dims', async () => {
    const cwd = folder();
    writeFileSync(join(cwd, 'c.yaml'), config('{ name: r, format: movielens-csv, path: r.csv }', '[2, 100000]'));
    const run = await lshdpIn(['run', 'c.yaml', '--out', 'out', '--no-cache', '-q', '--threads', '1'], { cwd });
    expect(oneLine(run)).toMatch(/^lshdp: error: c\.yaml: dims: 100000 exceeds the number of items of data set "r" \(3 in .*r\.csv\); choose a smaller n$/);
    const set = await lshdpIn(['run', 'c.yaml', '--out', 'out', '--no-cache', '-q', '--threads', '1', '--set', 'dims=[7]'], { cwd });
    expect(oneLine(set)).toMatch(/^lshdp: error: --set dims=\[7\]: dims: 7 exceeds the number of items/);
    const inspect = await lshdpIn(['data', 'inspect', '--format', 'movielens-csv', 'r.csv', '--dims', '9', '--no-cache'], { cwd });
    expect(oneLine(inspect)).toMatch(/^lshdp: error: --dims: 9 exceeds the number of items of r\.csv \(3\); choose smaller --dims$/);
  });

  it('an unknown format gets a did-you-mean', async () => {
    const cwd = folder();
    writeFileSync(join(cwd, 'c.yaml'), config('{ name: r, format: movielens-cvs, path: r.csv }'));
    const r = await lshdpIn(['run', 'c.yaml', '--out', 'out', '--no-cache', '-q'], { cwd });
    expect(oneLine(r)).toMatch(/datasets\[0\]\.format: must be one of .*, got string "movielens-cvs" \(did you mean "movielens-csv"\?\)$/);
  });

  it('several malformed rows: how many, and the first few lines, in one error', async () => {
    const cwd = folder();
    const bad = [HEADER.trim(), '1,2,4.0,5', '1,x,3.0,6', '2,2,1.0', '2,4,2.0,8', '3,3,y,9', '3,4,5,9,9', ...Array.from({ length: 6 }, (_, i) => `4,${i},z,1`)].join('\n') + '\n';
    writeFileSync(join(cwd, 'bad.csv'), bad);
    const spec = { name: 'b', format: 'movielens-csv' as const, path: join(cwd, 'bad.csv') };
    await expect(loadDataset(spec, [1], { cacheDir: null })).rejects.toThrow(
      /bad\.csv:3: movieId "x" is not a non-negative integer \(column movieId\); 10 malformed rows in all, at lines 3, 4, 6, 7, 8, … \(to skip malformed rows: --skip-bad-rows/,
    );
    // one malformed row: said as before
    writeFileSync(join(cwd, 'one.csv'), `${HEADER}1,2,4.0,5\n1,x,3.0,6\n2,2,1.0,7\n`);
    await expect(loadDataset({ ...spec, path: join(cwd, 'one.csv') }, [1], { cacheDir: null })).rejects.toThrow(
      /one\.csv:3: movieId "x" is not a non-negative integer \(column movieId\) \(to skip malformed rows/,
    );
  });
});
