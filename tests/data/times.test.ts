import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FIX } from './fixtures.js';
import { parseFoursquareTime, parseIsoTime } from '../../src/data/times.js';
import { formatUnit } from '../../src/data/formats/index.js';
import { planRead } from '../../src/data/load.js';
import type { DatasetSpec } from '../../src/data/spec.js';
import type { Interactions } from '../../src/data/interactions.js';

// Expected epoch seconds from GNU date (`date -u -d "2012-04-03 18:00:09 UTC" +%s`), not from Date.
const T = {
  '2012-04-03 18:00:09': 1333476009,
  '2012-04-04 09:15:00': 1333530900,
  '2012-04-02 07:00:00': 1333350000,
  '2013-02-16 02:03:04': 1360980184,
  '2012-04-03 18:00:06': 1333476006,
  '2012-04-02 10:00:00': 1333360800,
  '2017-12-31 23:59:59': 1514764799,
  '2018-01-01 00:00:00': 1514764800,
  '2000-02-29 12:00:00': 951825600,
};

/** Read a data set as a run with `split: last` reads it: with each pair's time. */
async function readTimed(spec: Omit<DatasetSpec, 'name'>): Promise<Interactions> {
  const plan = planRead({ name: 't', ...spec } as DatasetSpec, { cacheDir: null });
  return formatUnit(plan.format).read(plan, { skipBadRows: false, times: true });
}

/** {user: {item: time}} for readable expectations. */
function timesOf(inter: Interactions): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  for (let u = 0; u < inter.userIds.length; u++) {
    const row: Record<string, number> = {};
    for (let p = inter.userPtr[u]!; p < inter.userPtr[u + 1]!; p++) row[inter.itemIds[inter.itemIdx[p]!]!] = inter.times![p]!;
    out[inter.userIds[u]!] = row;
  }
  return out;
}

describe('time parsers', () => {
  it('Foursquare UTC times: epoch seconds as GNU date gives them; an offset is applied', () => {
    expect(parseFoursquareTime('Tue Apr 03 18:00:09 +0000 2012')).toBe(T['2012-04-03 18:00:09']);
    expect(parseFoursquareTime('Tue Feb 29 12:00:00 +0000 2000')).toBe(T['2000-02-29 12:00:00']);
    // 18:00:09 at +0200 is 16:00:09 UTC; at -0430, 22:30:09 UTC
    expect(parseFoursquareTime('Tue Apr 03 18:00:09 +0200 2012')).toBe(T['2012-04-03 18:00:09'] - 7200);
    expect(parseFoursquareTime('Tue Apr 03 18:00:09 -0430 2012')).toBe(T['2012-04-03 18:00:09'] + 16200);
  });
  it('Foursquare UTC times: a date that does not exist, a wrong weekday or another layout is NaN', () => {
    for (const bad of [
      'Thu Feb 29 12:00:00 +0000 2001',
      'Wed Apr 03 18:00:09 +0000 2012',
      'Tue Apr 31 18:00:09 +0000 2012',
      'Tue Apr 03 24:00:09 +0000 2012',
      '2012-04-03',
      '',
      'Tue Apr 3 18:00:09 +0000 2012',
    ])
      expect(parseFoursquareTime(bad)).toBeNaN();
  });
  it('ISO 8601 dates and date-times (UTC without an offset), fractions and offsets', () => {
    expect(parseIsoTime('2012-04-03T18:00:09Z')).toBe(T['2012-04-03 18:00:09']);
    expect(parseIsoTime('2012-04-03T18:00:09')).toBe(T['2012-04-03 18:00:09']);
    expect(parseIsoTime('2012-04-03 18:00:09')).toBe(T['2012-04-03 18:00:09']);
    expect(parseIsoTime('2012-04-03T20:00:09+02:00')).toBe(T['2012-04-03 18:00:09']);
    expect(parseIsoTime('2012-04-03T20:00:09+0200')).toBe(T['2012-04-03 18:00:09']);
    expect(parseIsoTime('2012-04-03T18:00:09.25Z')).toBe(T['2012-04-03 18:00:09'] + 0.25);
    expect(parseIsoTime('2018-01-01')).toBe(T['2018-01-01 00:00:00']);
    expect(parseIsoTime('2000-02-29T12:00')).toBe(T['2000-02-29 12:00:00']);
    for (const bad of ['2001-02-29', '2012-13-01', '2012-04-03T18:61:00Z', '2012-4-3', 'April 3, 2012', '1333476009', '2012-04-03T18:00:09+25:00']) expect(parseIsoTime(bad)).toBeNaN();
  });
});

describe('readers keep times when asked', () => {
  // the fixtures' timestamps are 100, 101, …, 111 in file order; user 3 rates item 3 at 107, then 108
  const ML_TIMES = {
    '1': { '3': 102, '9': 101, '10': 100 },
    '2': { '9': 104, '10': 103 },
    '3': { '3': 108, '9': 105, '10': 106 },
    '4': { '3': 109, '7': 110 },
    '10': { '10': 111 },
  };
  it('MovieLens ratings.csv (BOM, CRLF), u.data and ratings.dat (CRLF): the timestamp of the row kept', async () => {
    expect(timesOf(await readTimed({ format: 'movielens-csv', path: join(FIX, 'ratings.csv') }))).toEqual(ML_TIMES);
    expect(timesOf(await readTimed({ format: 'movielens-100k', path: join(FIX, 'u.data') }))).toEqual(ML_TIMES);
    expect(timesOf(await readTimed({ format: 'movielens-1m', path: join(FIX, 'ratings.dat') }))).toEqual(ML_TIMES);
    expect(timesOf(await readTimed({ format: 'movielens-10m', path: join(FIX, 'ratings.dat') }))).toEqual(ML_TIMES);
  });
  it('MovieLens: the row kept is the last in file order, also when its time is earlier', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lshdp-times-'));
    const f = join(dir, 'ratings.csv');
    writeFileSync(f, 'userId,movieId,rating,timestamp\n1,1,5.0,50\n1,1,1.0,20\n1,2,3.0,30\n');
    expect(timesOf(await readTimed({ format: 'movielens-csv', path: f }))).toEqual({ '1': { '1': 20, '2': 30 } });
  });
  it('foursquare-tsmc (CRLF): utcTimestamp, a repeated visit at its earliest time', async () => {
    const inter = await readTimed({ format: 'foursquare-tsmc', path: join(FIX, 'tsmc-times.txt') });
    expect(timesOf(inter)).toEqual({
      '470': { '49bbd6c0f964a520f4531fe3': T['2012-04-02 07:00:00'], '4c5cc7b485a1e21e00d35711': T['2013-02-16 02:03:04'] },
      '979': { '4a43c0aef964a520c6a61fe3': T['2012-04-04 09:15:00'] },
    });
  });
  it('foursquare-www19 (CRLF): utc_time of the check-ins inside the box, the earliest per venue', async () => {
    const inter = await readTimed({ format: 'foursquare-www19', path: join(FIX, 'raw_Checkins_times.txt'), poi_path: join(FIX, 'raw_POIs.txt') });
    const v = (k: number) => `4a000000000000000000000${k}`;
    // user 7's check-in is at the Tokyo POI, outside the box: its time is never read
    expect(timesOf(inter)).toEqual({
      '5': { [v(1)]: T['2012-04-02 10:00:00'], [v(2)]: T['2017-12-31 23:59:59'] },
      '12': { [v(2)]: T['2018-01-01 00:00:00'] },
    });
  });
  it('a bad Foursquare time names the file, the line and the column', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lshdp-times-'));
    const f = join(dir, 'tsmc.txt');
    writeFileSync(f, '1\tv1\tc\tcat\t40.7\t-74\t-240\tTue Apr 03 18:00:09 +0000 2012\r\n2\tv2\tc\tcat\t40.7\t-74\t-240\t2012-04-03\r\n');
    await expect(readTimed({ format: 'foursquare-tsmc', path: f })).rejects.toThrow(
      /tsmc\.txt:2: utcTimestamp "2012-04-03" is not a UTC time like "Tue Apr 03 18:00:09 \+0000 2012" \(column utcTimestamp\)/,
    );
  });
  it('without times the readers keep none (and do not read the time field)', async () => {
    const plan = planRead({ name: 't', format: 'foursquare-www19', path: join(FIX, 'raw_Checkins_times.txt'), poi_path: join(FIX, 'raw_POIs.txt') }, { cacheDir: null });
    expect((await formatUnit(plan.format).read(plan, { skipBadRows: false })).times).toBeUndefined();
  });
});

describe('interactions: the time column', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lshdp-itimes-'));
  const file = (name: string, text: string) => {
    const f = join(dir, name);
    writeFileSync(f, text);
    return f;
  };
  it('by header name, numbers; combine last takes the time of the row kept, count and sum the earliest', async () => {
    const f = file('a.csv', 'user,item,score,ts\r\na,x,1,50\r\na,x,2,20\r\na,y,3,30\r\nb,x,1,7\r\n');
    const base = { format: 'interactions', path: f, user: 'user', item: 'item', value: 'score', time: 'ts' } as const;
    expect(timesOf(await readTimed({ ...base, combine: 'last' }))).toEqual({ a: { x: 20, y: 30 }, b: { x: 7 } });
    expect(timesOf(await readTimed({ ...base, combine: 'sum' }))).toEqual({ a: { x: 20, y: 30 }, b: { x: 7 } });
    const g = file('b.csv', 'user,item,score,ts\na,x,1,20\na,x,2,50\n');
    expect(timesOf(await readTimed({ ...base, path: g, combine: 'last' }))).toEqual({ a: { x: 50 } });
    expect(timesOf(await readTimed({ ...base, path: g, combine: 'count' }))).toEqual({ a: { x: 20 } });
    expect(timesOf(await readTimed({ ...base, path: g, combine: 'sum' }))).toEqual({ a: { x: 20 } });
  });
  it('by 0-based index without a header, ISO 8601 dates; quoted fields (csv-parse) too', async () => {
    const f = file('c.txt', 'u1 i1 2018-01-01\nu1 i2 2017-12-31T23:59:59Z\n');
    expect(timesOf(await readTimed({ format: 'interactions', path: f, header: false, delimiter: 'whitespace', user: 0, item: 1, time: 2 }))).toEqual({
      u1: { i1: T['2018-01-01 00:00:00'], i2: T['2017-12-31 23:59:59'] },
    });
    const g = file('d.csv', 'user,item,when\n"a",x,"2012-04-03 18:00:09"\n');
    expect(timesOf(await readTimed({ format: 'interactions', path: g, user: 'user', item: 'item', time: 'when' }))).toEqual({ a: { x: T['2012-04-03 18:00:09'] } });
  });
  it('a bad time names the file, the line and the column; a column never mixes numbers and dates', async () => {
    const f = file('e.csv', 'user,item,ts\na,x,5\nb,y,soon\n');
    await expect(readTimed({ format: 'interactions', path: f, user: 'user', item: 'item', time: 'ts' })).rejects.toThrow(
      /e\.csv:3: time "soon" is not a number like the column's first value \(column ts\)/,
    );
    const g = file('f.csv', 'user,item,ts\na,x,2012-04-03\nb,y,5\n');
    await expect(readTimed({ format: 'interactions', path: g, user: 'user', item: 'item', time: 'ts' })).rejects.toThrow(
      /f\.csv:3: time "5" is not an ISO 8601 date like the column's first value \(column ts\)/,
    );
    const h = file('g.csv', 'user,item,ts\na,x,tomorrow\n');
    await expect(readTimed({ format: 'interactions', path: h, user: 'user', item: 'item', time: 'ts' })).rejects.toThrow(/g\.csv:2: time "tomorrow" is not a number or an ISO 8601 date \(column ts\)/);
    await expect(readTimed({ format: 'interactions', path: h, user: 'user', item: 'item', time: 'when' })).rejects.toThrow(/g\.csv:1: column "when" \(time\) not found in header/);
    const q = file('h.csv', 'user,item,ts\n"a",x,"1,5"\n');
    await expect(readTimed({ format: 'interactions', path: q, user: 'user', item: 'item', time: 'ts' })).rejects.toThrow(/h\.csv:2: time "1,5" is not a number or an ISO 8601 date \(column ts\)/);
  });
  it('the time column is read only for a split by time', async () => {
    const f = file('i.csv', 'user,item,ts\na,x,tomorrow\n');
    const plan = planRead({ name: 't', format: 'interactions', path: f, user: 'user', item: 'item', time: 'ts' }, { cacheDir: null });
    const inter = await formatUnit(plan.format).read(plan, { skipBadRows: false });
    expect(inter.times).toBeUndefined();
    expect(inter.itemIdx.length).toBe(1);
  });
});
