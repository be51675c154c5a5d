import { describe, expect, it } from 'vitest';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync, readdirSync, existsSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { STACK_RE } from '../helpers/cli.js';
import { type CliRun, lshdpIn } from '../helpers/inproc.js';
import { FIX } from './fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'lshdp-cli-data-'));
function file(name: string, content: string | Buffer): string {
  const p = join(dir, name);
  writeFileSync(p, content);
  return p;
}
const inspect = (format: string, f: string, ...extra: string[]) => lshdpIn(['data', 'inspect', '--format', format, f, '--dims', '2', '--no-cache', ...extra], { cwd: dir });

/** One line on stderr, exit 2, no stack, and the expected text. */
function expectUserError(r: CliRun, re: RegExp): void {
  expect(r.status).toBe(2);
  expect(r.stderr).toMatch(re);
  expect(r.stderr.trim().split('\n').length).toBe(1);
  expect(r.stderr).not.toMatch(STACK_RE);
}

describe('lshdp data inspect: bad input is one clear line, exit 2', () => {
  const header = 'userId,movieId,rating,timestamp\n';
  // the absolute path (the child's working directory is `dir`, as the operating system spells it)
  it('missing file', async () =>
    expectUserError(await inspect('movielens-csv', 'nope.csv'), new RegExp(`^lshdp: error: ${join(realpathSync(dir), 'nope.csv').replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: no such file$`, 'm')));
  it('empty file', async () => expectUserError(await inspect('movielens-csv', file('empty.csv', '')), /empty\.csv: empty file \(no data rows\)/));
  it('header only', async () => expectUserError(await inspect('movielens-csv', file('header.csv', header)), /header\.csv: empty file \(no data rows\)/));
  it('wrong delimiter', async () =>
    expectUserError(
      await inspect('movielens-csv', file('semi.csv', 'userId;movieId;rating;timestamp\n1;2;3;4\n')),
      /semi\.csv:1: expected header userId,movieId,rating,timestamp, found "userId;movieId;rating;timestamp" \(wrong delimiter\?\)/,
    ));
  it('non-numeric rating', async () =>
    expectUserError(await inspect('movielens-csv', file('abc.csv', header + '1,2,4.0,5\n1,3,abc,6\n')), /abc\.csv:3: rating "abc" is not a number \(column rating\)/));
  it('too few fields (u.data) and a truncated last line', async () => {
    expectUserError(await inspect('movielens-100k', file('u.data', '1\t2\t3\t4\n1\t3\t4\t5\n1\t2\n')), /u\.data:3: expected 4 tab-separated fields, found 2/);
    expectUserError(await inspect('movielens-csv', file('trunc.csv', header + '1,2,4.0,5\n1,3,4.')), /trunc\.csv:3: expected 4 comma-separated fields, found 3/);
  });
  it('unknown format', async () => expectUserError(await inspect('netflix', 'x.csv'), /unknown format "netflix" \(expected one of: movielens-csv, .*interactions, synthetic\)/));
  it('binary garbage', async () => {
    const junk = Buffer.alloc(3000);
    for (let i = 0; i < junk.length; i++) junk[i] = (i * 131 + 7) % 256;
    expectUserError(await inspect('movielens-csv', file('junk.csv', junk)), /junk\.csv:1: expected header/);
    expectUserError(await inspect('movielens-1m', file('junk.dat', junk)), /junk\.dat:\d+: /);
  });
  it('interactions: a missing column names the header', async () =>
    expectUserError(await inspect('interactions', file('i.csv', 'a,b\n1,2\n'), '--user', 'user', '--item', 'b'), /i\.csv:1: column "user" \(user\) not found in header \[a, b\]/));
  it('--skip-bad-rows skips and reports the lines', async () => {
    const f = file('some-bad.csv', header + '1,10,4.0,5\n1,11,x,6\n2,10,3.0,7\n2,11,5.0\n2,12,1.0,8\n1,12,2.0,9\n');
    const r = await lshdpIn(['data', 'inspect', '--format', 'movielens-csv', f, '--dims', '2', '--no-cache', '--skip-bad-rows', '--json'], { cwd: dir });
    expect(r.status).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.summary.rows_skipped).toBe(2);
    expect(j.summary.skipped_lines).toEqual([3, 5]);
    expect(j.summary.rows_read).toBe(4);
  });
});

describe('lshdp data inspect output', () => {
  it('--json: summary, kept/dropped, items in order and the 1-NN distribution', async () => {
    const r = await lshdpIn(['data', 'inspect', '--format', 'movielens-csv', join(FIX, 'ratings.csv'), '--dims', '2,4', '--json', '--center', 'none', '--no-cache']);
    expect(r.status).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.summary.users).toBe(5);
    expect(j.summary.per_dim[0]).toMatchObject({ n: 2, users_kept: 5, users_dropped: 0, item_ids: ['10', '3'] });
    expect(j.summary.per_dim[1].item_ids).toEqual(['10', '3', '9', '7']);
    // n = 2, raw values: users 1 and 3 rate both items; u2 and u10 only item 10; u4 only item 3
    // u2 and u10 are parallel (distance 0); u1 (4,3) and u3 (4.5,3.5) are each other's 1-NN;
    // u4 (0,3) is nearest to u3 (cos 3.5/|u3| beats u1's 3/5)
    const nn = j.nn[0];
    expect(nn.queries).toBe(5);
    const d13 = Math.acos((4 * 4.5 + 3 * 3.5) / (5 * Math.hypot(4.5, 3.5))) / Math.PI;
    const d43 = Math.acos(3.5 / Math.hypot(4.5, 3.5)) / Math.PI;
    expect(nn.mean).toBeCloseTo((2 * d13 + d43) / 5, 12);
    expect(nn.within[0]).toEqual([0.1, 0.8]);
    expect(nn.within[2]).toEqual([0.3, 1]);
  });
  it('text output and the default cache folder under the working directory', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'lshdp-cli-cwd-'));
    const r = await lshdpIn(['data', 'inspect', '--format', 'movielens-100k', join(FIX, 'u.data'), '--dims', '3'], { cwd });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/users 5, items 4/);
    expect(r.stdout).toMatch(/n = 3: users kept \d+, dropped \d+/);
    expect(readdirSync(join(cwd, 'data', 'cache')).some((f) => f.endsWith('.vec'))).toBe(true);
  });
});

describe('headerless interactions files (LibRec, MyMediaLite) end to end: data inspect suggests the entry, lshdp run reads it', () => {
  const GRID = 'dims: [2]\nqueries: 0\nk: [1]\nkappa: [4]\ntrials: 2\nprivacy: { xi: [1] }\nmechanisms: [exact, lsh, lshrr]\n';
  /** A copy of the fixture in a fresh folder, where the test works as a user would: relative paths. */
  function userFolder(fixture: string): string {
    const cwd = mkdtempSync(join(tmpdir(), 'lshdp-headerless-'));
    copyFileSync(join(FIX, fixture), join(cwd, fixture));
    return cwd;
  }

  for (const [fixture, why] of [
    ['librec-ratings.txt', 'three numbers separated by spaces or tabs and no header'],
    ['mymedialite.tsv', 'three numbers separated by spaces or tabs and no header'],
  ] as const) {
    it(`${fixture}: detected, the suggested entry runs as it is`, async () => {
      const cwd = userFolder(fixture);
      const inspected = await lshdpIn(['data', 'inspect', fixture, '--dims', '2', '--json', '--no-cache'], { cwd });
      expect(inspected.status, inspected.stderr).toBe(0);
      expect(inspected.stderr).toContain(`lshdp: format interactions, detected from ${why}`);
      const stem = fixture.replace(/\..*$/, '');
      const entry = `{ name: ${stem}, format: interactions, path: ${join(realpathSync(cwd), fixture)}, header: false, delimiter: whitespace, user: 0, item: 1, value: 2 }`;
      expect(inspected.stderr).toContain(`lshdp: as a config's data set entry (its path absolute; --config-dir DIR makes it relative to the config): ${entry}\n`);
      const summary = JSON.parse(inspected.stdout).summary;
      expect(summary.users).toBe(4);
      // the entry, pasted into a config beside the file: `lshdp run` reads the file as inspect did
      writeFileSync(join(cwd, 'c.yaml'), `name: hl\nseed: 1\ndatasets:\n  - ${entry}\n${GRID}`);
      const run = await lshdpIn(['run', 'c.yaml', '--out', 'out', '--no-cache', '--threads', '1', '-q', '--no-report'], { cwd });
      expect(run.status, run.stderr).toBe(0);
      const datasets = JSON.parse(readFileSync(join(cwd, 'out', 'datasets.json'), 'utf8'));
      expect(JSON.stringify(datasets)).toContain(`"interactions":${summary.interactions}`);
      const utility = readFileSync(join(cwd, 'out', 'utility.csv'), 'utf8')
        .trim()
        .split('\n');
      expect(utility.filter((l) => l.startsWith(`${stem},2,`))).toHaveLength(3);
    });
  }

  it('--no-header with indices reads the file given --format; a name with --no-header is refused', async () => {
    const f = join(FIX, 'mymedialite.tsv');
    const r = await inspect('interactions', f, '--no-header', '--delimiter', 'whitespace', '--user', '1', '--item', '0', '--value', '2', '--json');
    expect(r.status, r.stderr).toBe(0);
    // users are the items of the file now: 51, 242, 302, 377
    expect(JSON.parse(r.stdout).summary.users).toBe(4);
    expectUserError(
      await inspect('interactions', f, '--no-header', '--user', 'user', '--item', '1'),
      /--user: "user" is a column name, but --no-header gives the columns no names: give its 0-based index \(e\.g\. --user 0\)/,
    );
  });

  it('bad input in a run: an index beyond the columns, a row with too few fields: one line with file, line and key, exit 2', async () => {
    const cwd = userFolder('librec-ratings.txt');
    writeFileSync(join(cwd, 'short.txt'), '1 1 2.0\r\n1 2 4.0\r\n2 1\r\n');
    const config = (path: string, value: number) =>
      `name: bad\ndatasets:\n  - { name: b, format: interactions, path: ${path}, header: false, delimiter: whitespace, user: 0, item: 1, value: ${value} }\n${GRID}`;
    writeFileSync(join(cwd, 'beyond.yaml'), config('librec-ratings.txt', 3));
    writeFileSync(join(cwd, 'short.yaml'), config('short.txt', 2));
    const beyond = await lshdpIn(['run', 'beyond.yaml', '--out', 'o1', '--no-cache', '-q'], { cwd });
    expectUserError(beyond, /librec-ratings\.txt:1: value: column index 3 is beyond the 3 fields of the first row \(0-based: 0 to 2\)\n$/);
    const short = await lshdpIn(['run', 'short.yaml', '--out', 'o2', '--no-cache', '-q'], { cwd });
    expectUserError(short, /short\.txt:3: expected at least 3 fields, found 2 \(value is column 2, 0-based\)/);
  });
});

describe('lshdp synth', () => {
  it('writes the small preset in the ml-25m format and prints what it wrote', async () => {
    const out = join(dir, 'synth-small');
    const r = await lshdpIn(['synth', '--preset', 'small', '--users', '100', '--items', '300', '--ratings', '3000', '--seed', '5', '--out', out]);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/100 users, 300 items, 3000 ratings; read it as format movielens-csv/);
    expect(r.stdout).toMatch(/wrote .*ratings\.csv \(3001 lines, \d+ bytes\)/);
    expect(existsSync(join(out, 'ratings.csv'))).toBe(true);
    const i = await lshdpIn(['data', 'inspect', '--format', 'movielens-csv', join(out, 'ratings.csv'), '--dims', '50', '--no-cache', '--json']);
    expect(JSON.parse(i.stdout).summary.rows_read).toBe(3000);
  });
  it('rejects an unknown preset and impossible sizes', async () => {
    expectUserError(await lshdpIn(['synth', '--preset', 'huge', '--out', join(dir, 'x')]), /unknown synthetic preset "huge"/);
    expectUserError(await lshdpIn(['synth', '--preset', 'small', '--users', '100', '--ratings', '10', '--out', join(dir, 'x')]), /at least users × 20/);
  });
});
