/**
 * What `lshdp data inspect` suggests works as written: the command it asks for carries the
 * delimiter it detected; the config entry it prints has a path that works where the config lives
 * and every option given; a file that comes beside the interactions (movies.csv, a table of
 * places, a table with one row per item) is said to be one, with where the interactions are.
 */
import { describe, expect, it } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { lshdpIn } from '../helpers/inproc.js';

const GRID = 'dims: [2]\nqueries: 0\nk: [1]\nkappa: [4]\ntrials: 1\nprivacy: { xi: [1] }\nmechanisms: [exact, lsh]\n';

/** A tab-separated check-in table with a header detection cannot read alone (user_index). */
function checkins(dir: string): string {
  const rows = ['user_index\tvenue_index\ttime'];
  for (let u = 0; u < 6; u++) for (let v = 0; v < 4; v++) rows.push(`${u}\t${(u + v) % 5}\t${u * 10 + v}`);
  writeFileSync(join(dir, 'checkins.tsv'), rows.join('\n') + '\n');
  return 'checkins.tsv';
}

/** The entry `data inspect` printed on stderr. */
const entryOf = (stderr: string): string => stderr.match(/as a config's data set entry \([^)]*\): (\{.*\})$/m)?.[1] ?? '';

describe('data inspect: the command and entry it suggests work as written', () => {
  it('the suggested command carries the detected delimiter, and runs', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'lshdp-suggest-'));
    const f = checkins(cwd);
    const first = await lshdpIn(['data', 'inspect', f, '--dims', '2', '--no-cache'], { cwd });
    expect(first.status).toBe(2);
    const asked = first.stderr.match(/give (--format interactions .*--user COLUMN --item COLUMN)/)?.[1];
    expect(asked).toBe('--format interactions --delimiter tab --user COLUMN --item COLUMN');
    const args = asked!.replace('--user COLUMN', '--user user_index').replace('--item COLUMN', '--item venue_index').split(' ');
    const second = await lshdpIn(['data', 'inspect', f, ...args, '--dims', '2', '--no-cache'], { cwd });
    expect(second.status, second.stderr).toBe(0);
    expect(second.stdout).toMatch(/users 6/);
  });

  it('the entry keeps every option given and a path that works from the config, absolute or relative to --config-dir', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'lshdp-suggest-'));
    const f = checkins(cwd);
    const flags = ['--format', 'interactions', '--delimiter', 'tab', '--user', 'user_index', '--item', 'venue_index', '--value', 'time', '--center', 'user', '--dims', '2', '--no-cache'];
    mkdirSync(join(cwd, 'configs'));
    for (const extra of [[], ['--config-dir', 'configs']]) {
      const r = await lshdpIn(['data', 'inspect', f, ...flags, ...extra], { cwd });
      expect(r.status, r.stderr).toBe(0);
      const entry = entryOf(r.stderr);
      expect(entry).toMatch(/center: user/);
      expect(entry).toMatch(/delimiter: "\\t", user: user_index, item: venue_index, value: time/);
      if (extra.length) expect(entry).toMatch(/path: "\.\.\/checkins\.tsv"/);
      // pasted into configs/x.yaml, run from another folder
      writeFileSync(join(cwd, 'configs', 'x.yaml'), `name: x\nseed: 1\ndatasets:\n  - ${entry}\n${GRID}`);
      const run = await lshdpIn(['run', join(cwd, 'configs', 'x.yaml'), '--out', join(cwd, 'out'), '--no-cache', '--threads', '1', '-q', '--no-report', '--force'], { cwd: tmpdir() });
      expect(run.status, run.stderr).toBe(0);
      expect(readFileSync(join(cwd, 'out', 'datasets.json'), 'utf8')).toMatch(/"center":\s*"user"/);
    }
  });
});

describe('data inspect: a companion file is said to be one, not offered as interactions', () => {
  const folder = () => {
    const dir = mkdtempSync(join(tmpdir(), 'lshdp-companion-'));
    writeFileSync(join(dir, 'ratings.csv'), 'userId,movieId,rating,timestamp\n1,2,4.0,5\n');
    writeFileSync(join(dir, 'tags.csv'), 'userId,movieId,tag,timestamp\n1,2,funny,5\n');
    return dir;
  };
  const say = async (dir: string, name: string, text: string) => {
    writeFileSync(join(dir, name), text);
    const r = await lshdpIn(['data', 'inspect', name, '--dims', '2', '--no-cache'], { cwd: dir });
    expect(r.status).toBe(2);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
    return r.stderr;
  };

  it('MovieLens movies.csv by its header, with the ratings beside it', async () => {
    expect(await say(folder(), 'movies.csv', 'movieId,title,genres\n1,Toy Story (1995),Adventure|Animation\n')).toMatch(
      /movies\.csv:1: a table of titles and genres \(MovieLens movies\.csv\), not interactions: the ratings are in ratings\.csv beside it$/m,
    );
  });

  it('a Foursquare table of places (headed, and the headerless WWW19 POI file)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lshdp-companion-'));
    writeFileSync(join(dir, 'checkins.tsv'), 'user_id\tpoi_id\ttime\n1\t2\t3\n');
    expect(await say(dir, 'pois.tsv', 'poi_id\tlatitude\tlongitude\n1\t40.7\t-74.0\n')).toMatch(
      /pois\.tsv:1: a table of places and their coordinates \(columns poi_id, latitude, longitude\), not interactions: the check-ins are in checkins\.tsv beside it$/m,
    );
    expect(await say(dir, 'raw_POIs.txt', '3fd66200f964a52000e71ee3\t40.733596\t-74.003139\tJazz Club\tUS\n')).toMatch(/raw_POIs\.txt:1: a table of places \(the Foursquare WWW19 POI file/);
  });

  it('otherwise a headed table whose first column never repeats; one whose first column repeats is still offered as interactions', async () => {
    const dir = folder();
    const rows = (repeat: boolean) => ['sku,label,price', ...Array.from({ length: 12 }, (_, i) => `${repeat ? i % 3 : i},thing ${i},${i}.5`)].join('\n') + '\n';
    expect(await say(dir, 'items.csv', rows(false))).toMatch(
      /items\.csv:1: a table with one row per sku \(its first column never repeats in 12 rows\): metadata, not interactions: the interactions are in ratings\.csv beside it$/m,
    );
    expect(await say(dir, 'orders.csv', rows(true))).toMatch(/looks like a table with header \[sku, label, price\]: give --format interactions --user COLUMN --item COLUMN/);
  });
});
