import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { FIX, asObject } from './fixtures.js';
import { readInteractions } from '../../src/data/load.js';
import type { DatasetSpec } from '../../src/data/spec.js';
import { parseDecimalBytes, scanLines } from '../../src/data/lines.js';
import { readInteractionsCsv } from '../../src/data/csv-interactions.js';
import { combineRows } from '../../src/data/interactions.js';
import { makeRng } from '../../src/random/rng.js';
import { readMovieLens } from '../../src/data/movielens.js';
import type { IntInterner } from '../../src/data/interning.js';

const read = (spec: Omit<DatasetSpec, 'name'>) => readInteractions({ name: 't', ...spec } as DatasetSpec);

// the fixture's ratings after "last row wins" (user 3 rates item 3 twice: 2.0 then 3.5)
const ML_EXPECTED = {
  '1': { '3': 3, '9': 2, '10': 4 },
  '2': { '9': 5, '10': 5 },
  '3': { '3': 3.5, '9': 1, '10': 4.5 },
  '4': { '3': 3, '7': 3 },
  '10': { '10': 2 },
};

describe('MovieLens readers', () => {
  it('ratings.csv (BOM, CRLF, a quoted rating, a repeat): last row wins, ids numeric-ordered', async () => {
    const inter = await read({ format: 'movielens-csv', path: join(FIX, 'ratings.csv') });
    expect(asObject(inter)).toEqual(ML_EXPECTED);
    expect(inter.userIds).toEqual(['1', '2', '3', '4', '10']); // numeric, not "10" before "2"
    expect(inter.itemIds).toEqual(['3', '7', '9', '10']);
    expect(inter.rowsRead).toBe(12);
  });
  it('u.data (tab, no header, no final newline) and ratings.dat (::, CRLF) read the same data', async () => {
    const a = await read({ format: 'movielens-100k', path: join(FIX, 'u.data') });
    const b = await read({ format: 'movielens-1m', path: join(FIX, 'ratings.dat') });
    expect(asObject(a)).toEqual(ML_EXPECTED);
    expect(asObject(b)).toEqual(ML_EXPECTED);
    expect(a.rowsRead).toBe(12);
  });
  it('combines repeats by the LAST row in file order, whatever the value order', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lshdp-ml-'));
    const f = join(dir, 'ratings.csv');
    writeFileSync(f, 'userId,movieId,rating,timestamp\n1,1,5.0,1\n1,1,1.0,2\n2,1,1.0,3\n2,1,5.0,4\n');
    expect(asObject(await read({ format: 'movielens-csv', path: f }))).toEqual({ '1': { '1': 1 }, '2': { '1': 5 } });
  });
});

describe('Foursquare readers', () => {
  it('foursquare-tsmc original 8 columns (latin-1 byte): visit counts', async () => {
    const inter = await read({ format: 'foursquare-tsmc', path: join(FIX, 'tsmc.txt') });
    expect(asObject(inter)).toEqual({
      '470': { '49bbd6c0f964a520f4531fe3': 2, '4c5cc7b485a1e21e00d35711': 1 },
      '979': { '4a43c0aef964a520c6a61fe3': 1 },
    });
  });
  it('foursquare-www19: POIs in the box only (garbled byte, CRLF), users with a visit there, counts', async () => {
    const inter = await read({ format: 'foursquare-www19', path: join(FIX, 'raw_Checkins_anonymized.txt'), poi_path: join(FIX, 'raw_POIs.txt') });
    const v = (k: number) => `4a000000000000000000000${k}`;
    expect(asObject(inter)).toEqual({
      '5': { [v(1)]: 2, [v(2)]: 1 },
      '7': { [v(1)]: 1 }, // the visit to POI 3 (Tokyo) is dropped
      '12': { [v(2)]: 1, [v(4)]: 1 },
      '100': { [v(4)]: 2 },
    }); // user 9 only visited POI 3: gone
    expect(inter.rowsRead).toBe(10);
  });
  it('foursquare-www19 max_users keeps the most active users, ties by smaller (numeric) id', async () => {
    const inter = await read({ format: 'foursquare-www19', path: join(FIX, 'raw_Checkins_anonymized.txt'), poi_path: join(FIX, 'raw_POIs.txt'), max_users: 2 });
    // in-box check-ins: 5 → 3, 12 → 2, 100 → 2, 7 → 1; 12 beats 100 numerically ("100" < "12" as text)
    expect(inter.userIds).toEqual(['5', '12']);
  });
  it('malformed Foursquare rows name the file and line; a missing POI file is one line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lshdp-fsq-'));
    const f = join(dir, 'tsmc.txt');
    writeFileSync(f, '1\tv1\tc\tcat\t40.7\t-74\t-240\tTue\n2\tv2\tc\tcat\t40.7\t-74\n');
    await expect(read({ format: 'foursquare-tsmc', path: f })).rejects.toThrow(/tsmc\.txt:2: expected 8 tab-separated fields .*, found 6 \(to skip malformed rows: --skip-bad-rows/);
    const pois = join(dir, 'pois.txt');
    writeFileSync(pois, 'v1\t40.7\t-74.0\tPark\tUS\nv2\tnorth\t-74.0\tBar\tUS\n');
    await expect(read({ format: 'foursquare-www19', path: join(FIX, 'raw_Checkins_anonymized.txt'), poi_path: pois })).rejects.toThrow(/pois\.txt:2: lat "north" is not a number \(column lat\)/);
    await expect(read({ format: 'foursquare-www19', path: join(FIX, 'raw_Checkins_anonymized.txt'), poi_path: join(dir, 'none.txt') })).rejects.toThrow(/none\.txt: no such file$/);
    await expect(read({ format: 'foursquare-www19', path: join(FIX, 'raw_Checkins_anonymized.txt') })).rejects.toThrow(/poi_path is required/);
  });
  it('a custom bbox changes which POIs count', async () => {
    const inter = await read({ format: 'foursquare-www19', path: join(FIX, 'raw_Checkins_anonymized.txt'), poi_path: join(FIX, 'raw_POIs.txt'), bbox: [30, 40, 130, 140] });
    expect(asObject(inter)).toEqual({ '7': { '4a0000000000000000000003': 1 }, '9': { '4a0000000000000000000003': 1 } });
  });
});

describe('interactions reader (csv-parse)', () => {
  const base = { format: 'interactions' as const, path: join(FIX, 'interactions.csv'), user: 'user', item: 'item' };
  it('quoted fields with delimiters and newlines, BOM, CRLF; combine sum / last / count', async () => {
    expect(asObject(await read({ ...base, value: 'score', combine: 'sum' }))).toEqual({ a: { 'x,1': 4, y: 4 }, b: { y: 2 }, c: { z: 5 } });
    expect(asObject(await read({ ...base, value: 'score', combine: 'last' }))).toEqual({ a: { 'x,1': 3, y: 4 }, b: { y: 2 }, c: { z: 5 } });
    const count = await read({ ...base, combine: 'count' });
    expect(asObject(count)).toEqual({ a: { 'x,1': 2, y: 1 }, b: { y: 1 }, c: { z: 1 } });
    expect(count.userIds).toEqual(['a', 'b', 'c']);
  });
  it('tab-separated with the TSMC-NYC layout (user_id poi_id time)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lshdp-int-'));
    const f = join(dir, 'checkins.tsv');
    writeFileSync(f, 'user_id\tpoi_id\ttime\n2\t10\t5\n10\t9\t6\n2\t10\t7\n2\t9\t8\n');
    const inter = await read({ format: 'interactions', path: f, delimiter: '\t', user: 'user_id', item: 'poi_id', combine: 'count' });
    expect(asObject(inter)).toEqual({ '2': { '9': 1, '10': 2 }, '10': { '9': 1 } });
    expect(inter.userIds).toEqual(['2', '10']);
  });
  it('quote-free files take the byte scanner; it agrees with csv-parse (random TSV, values, repeats, CRLF)', async () => {
    const rng = makeRng('plain-vs-csv');
    const dir = mkdtempSync(join(tmpdir(), 'lshdp-int-'));
    const f = join(dir, 'random.tsv');
    let text = 'extra\tuid\titem id\tv\r\n';
    for (let r = 0; r < 2000; r++) text += `x\t${Math.floor(rng() * 50)}\tp${Math.floor(rng() * 80)}\t${(rng() * 10).toFixed(3)}${r % 2 ? '\r\n' : '\n'}`;
    writeFileSync(f, text);
    const o = { delimiter: '\t', user: 'uid', item: 'item id', value: 'v' };
    for (const combine of ['last', 'sum', 'count'] as const) {
      const plain = combineRows(await readInteractionsCsv(f, { ...o, combine }), combine);
      const viaCsv = combineRows(await readInteractionsCsv(f, { ...o, combine }, true), combine);
      expect(asObject(plain)).toEqual(asObject(viaCsv));
      expect(plain.rowsRead).toBe(2000);
    }
  });
});

describe('interactions without a header (LibRec, MyMediaLite: user item value lines)', () => {
  const librec = { format: 'interactions' as const, path: join(FIX, 'librec-ratings.txt'), header: false, delimiter: 'whitespace', user: 0, item: 1, value: 2 };
  // repeats: user 4 rates item 2 twice (1.0, then 3.0)
  const LIBREC = { '1': { '1': 2, '2': 4, '3': 3.5 }, '2': { '1': 4, '3': 1.5 }, '3': { '1': 2.5, '2': 3, '3': 4 }, '4': { '2': 3, '3': 2 } };
  it('LibRec: space-separated, the first line is data, columns by 0-based index', async () => {
    const inter = await read(librec);
    expect(asObject(inter)).toEqual(LIBREC);
    expect(inter.rowsRead).toBe(11);
    expect(asObject(await read({ ...librec, combine: 'sum' }))['4']).toEqual({ '2': 4, '3': 2 });
    expect(asObject(await read({ ...librec, value: undefined, combine: 'count' }))['4']).toEqual({ '2': 2, '3': 1 });
  });
  it('MyMediaLite: tabs and runs of spaces as one delimiter, CRLF, a blank line', async () => {
    const inter = await read({ ...librec, path: join(FIX, 'mymedialite.tsv') });
    expect(asObject(inter)).toEqual({ '22': { '242': 2, '377': 1 }, '186': { '242': 5, '302': 3 }, '196': { '242': 3, '302': 4 }, '244': { '51': 2, '302': 4 } });
    expect(inter.rowsRead).toBe(8);
    // other columns, in another order: item as the user, user as the item
    expect(Object.keys(asObject(await read({ ...librec, path: join(FIX, 'mymedialite.tsv'), user: 1, item: 0 })))).toEqual(['51', '242', '302', '377']);
  });
  it('leading and trailing blanks, a comma-separated headerless file on both parsers, a header read with indices', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lshdp-int-'));
    const ws = join(dir, 'ws.txt');
    writeFileSync(ws, '  1 \t 2   5 \r\n\t1 3 4\t\n');
    expect(asObject(await read({ ...librec, path: ws }))).toEqual({ '1': { '2': 5, '3': 4 } });
    const csv = join(dir, 'plain.csv');
    writeFileSync(csv, '7,a,1.5\r\n8,"b,c",2\n7,a,3\n');
    const o = { delimiter: ',', header: false, user: 0, item: 1, value: 2 };
    for (const force of [false, true]) {
      const rows = await readInteractionsCsv(csv, { ...o, combine: 'sum' }, force);
      expect(asObject(combineRows(rows, 'sum'))).toEqual({ '7': { a: 4.5 }, '8': { 'b,c': 2 } });
    }
    const headed = join(dir, 'headed.tsv');
    writeFileSync(headed, 'u\ti\tr\n1\t2\t3\n');
    expect(asObject(await read({ ...librec, path: headed, header: true, delimiter: '\t' }))).toEqual({ '1': { '2': 3 } });
  });
  it('bad input: one line naming the file, the line and the key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lshdp-int-'));
    const f = (name: string, text: string) => {
      const p = join(dir, name);
      writeFileSync(p, text);
      return p;
    };
    const short = f('short.txt', '1 2 3\r\n1 3\r\n');
    await expect(read({ ...librec, path: short })).rejects.toThrow(/short\.txt:2: expected at least 3 fields, found 2 \(value is column 2, 0-based\)/);
    await expect(read({ ...librec, path: f('blank.txt', '1 2 3\r\n\r\n1 3\r\n') })).rejects.toThrow(/blank\.txt:3: expected at least 3 fields, found 2/);
    await expect(read({ ...librec, path: short, value: 7 })).rejects.toThrow(/short\.txt:1: value: column index 7 is beyond the 3 fields of the first row \(0-based: 0 to 2\)/);
    await expect(read({ ...librec, path: short, user: 3 })).rejects.toThrow(/short\.txt:1: user: column index 3 is beyond/);
    // a comma file read with whitespace: one field per line, so the delimiter is the suspect
    await expect(read({ ...librec, path: f('c.csv', '1,2,3\n') })).rejects.toThrow(
      /c\.csv:1: item: column index 1 is beyond the 1 field of the first row \(0-based: 0 to 0\) \(wrong delimiter\? using whitespace\)/,
    );
    await expect(read({ ...librec, path: short, user: 'user' })).rejects.toThrow(/user: "user" is a column name, but header: false gives the columns no names: give its 0-based index/);
    await expect(read({ ...librec, path: short, user: 1.5 })).rejects.toThrow(/user: a column index is a whole number ≥ 0 \(0 is the first column\), got 1\.5/);
    await expect(read({ ...librec, path: f('v.txt', '1 2 x\n') })).rejects.toThrow(/v\.txt:1: value "x" is not a number \(column 2\)/);
    // header left on while the columns are indices and the first line is numbers: it is data
    await expect(read({ ...librec, path: short, header: undefined })).rejects.toThrow(
      /short\.txt:1: the first line \[1, 2, 3\] is read as a header but holds numbers only: if the file has no header, set header: false/,
    );
    await expect(read({ ...librec, path: f('empty.txt', '\r\n') })).rejects.toThrow(/empty\.txt: empty file \(no data rows\)/);
  });
});

describe('byte-level scanning', () => {
  it('parseDecimalBytes equals Number() bit for bit on random decimals', () => {
    const rng = makeRng('decimals');
    for (let k = 0; k < 5000; k++) {
      const text =
        (rng() < 0.5 ? '-' : '') +
        Math.floor(rng() * 1e6) +
        (rng() < 0.7
          ? '.' +
            String(Math.floor(rng() * 1e6))
              .padStart(6, '0')
              .slice(0, 1 + Math.floor(rng() * 6))
          : '');
      const b = Buffer.from(text);
      expect(parseDecimalBytes(b, 0, b.length)).toBe(Number(text));
    }
    for (const bad of ['', '-', '.', '1e5', 'abc', '1.2.3', ' 1']) expect(parseDecimalBytes(Buffer.from(bad), 0, bad.length)).toBeNaN();
  });
  it('lines that straddle the 8 MiB chunk boundary are read whole', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lshdp-scan-'));
    const f = join(dir, 'big.txt');
    const lines: string[] = [];
    let size = 0;
    for (let i = 0; size < 9 * (1 << 20); i++) {
      const l = `${i},${'x'.repeat(i % 97)}`;
      lines.push(l);
      size += l.length + (i % 3 === 0 ? 2 : 1);
    }
    writeFileSync(f, lines.map((l, i) => l + (i % 3 === 0 ? '\r\n' : '\n')).join(''));
    const seen: string[] = [];
    const n = scanLines(f, (buf, s, e) => void seen.push(buf.toString('utf8', s, e)));
    expect(n).toBe(lines.length);
    expect(seen.length).toBe(lines.length);
    expect(seen.every((l, i) => l === lines[i])).toBe(true);
  });
});

describe('MovieLens fast path (plain lines read in one pass) against the line handler', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lshdp-ml-fast-'));
  const layouts = [
    { format: 'movielens-csv', sep: ',', header: 'userId,movieId,rating,timestamp' },
    { format: 'movielens-100k', sep: '\t', header: null },
    { format: 'movielens-1m', sep: '::', header: null },
  ] as const;
  /** Lines that are plain, and lines each a little off in a way the fast path must leave alone. */
  function line(rng: () => number, sep: string): string {
    const id = () => String(Math.floor(rng() ** 3 * 3000));
    const rating = () =>
      ['4', '3.5', '0.5', '5.0', '2.25', '-1', '-0', '10.', '.5', '0.1234567890123', '1234567890123456', '-', '.', '+4', ' 4', '4 ', '"4"', '4e0', '', '1.2.3'][
        rng() < 0.9 ? Math.floor(rng() * 4) : Math.floor(rng() * 20)
      ]!;
    const stamp = () => ['1147880044', '0', '007', '1234567890123456', '123456789012345', '-5', '"9"', ''][rng() < 0.95 ? 0 : Math.floor(rng() * 8)]!;
    const r = rng();
    if (r < 0.02) return '';
    if (r < 0.03) return '\r';
    if (r < 0.04) return [id(), id(), rating()].join(sep);
    if (r < 0.05) return [id(), id(), rating(), stamp(), '1'].join(sep);
    if (r < 0.06) return [`"${id()}"`, id(), rating(), stamp()].join(sep);
    if (r < 0.07) return [id(), '', rating(), stamp()].join(sep);
    if (r < 0.08) return [id(), id(), rating(), stamp()].join(sep) + '\r';
    if (r < 0.085) return [id(), id(), rating(), stamp()].join(sep) + '\r\r';
    if (r < 0.09) return ['1234567890123456', id(), rating(), stamp()].join(sep);
    if (r < 0.095) return [id(), id(), rating(), stamp()].join(sep === '::' ? ':' : ',');
    if (r < 0.1) return 'userId,movieId,rating,timestamp';
    return [id(), id(), rating(), stamp()].join(sep);
  }
  type Outcome = { error: string } | { rows: unknown[]; read: number; skipped: number; lines: number[]; users: number[]; items: number[] };
  function outcome(path: string, format: (typeof layouts)[number]['format'], plain: boolean, skipBadRows: boolean, times: boolean): Outcome {
    try {
      const rows = readMovieLens(path, format, { plain, skipBadRows, times });
      return {
        rows: [Array.from(rows.user.view()), Array.from(rows.item.view()), Array.from(rows.value.view(), (v) => (Object.is(v, -0) ? '-0' : v)), rows.time ? Array.from(rows.time.view()) : null],
        read: rows.rowsRead,
        skipped: rows.rowsSkipped,
        lines: rows.skippedLines,
        users: (rows.users as IntInterner).raw,
        items: (rows.items as IntInterner).raw,
      };
    } catch (e) {
      return { error: (e as Error).message };
    }
  }
  it('the same rows, counts, skipped lines and errors on lines plain and not (seeded)', () => {
    const rng = makeRng('ml-fast-path');
    let errors = 0;
    for (let rep = 0; rep < 60; rep++) {
      const layout = layouts[rep % layouts.length]!;
      const lines = Array.from({ length: 1 + Math.floor(rng() * 200) }, () => line(rng, layout.sep));
      const bom = rep % 7 === 0 ? '\ufeff' : '';
      const text = bom + (layout.header && rep % 9 !== 3 ? layout.header + '\n' : '') + lines.join('\n') + (rep % 5 === 0 ? '' : '\n');
      const f = join(dir, `r${rep}.txt`);
      writeFileSync(f, text);
      for (const skipBadRows of [false, true]) {
        const fast = outcome(f, layout.format, true, skipBadRows, rep % 3 === 0);
        expect(fast, `${layout.format} rep ${rep}`).toEqual(outcome(f, layout.format, false, skipBadRows, rep % 3 === 0));
        if ('error' in fast) errors++;
      }
    }
    expect(errors).toBeGreaterThan(10);
  });
  it("the same across the reader's chunks (a file over 8 MiB), with bad rows on both sides", () => {
    const rng = makeRng('ml-fast-path-big');
    const parts = ['userId,movieId,rating,timestamp'];
    let bytes = 0;
    while (bytes < 9 << 20) {
      const l =
        rng() < 0.0005
          ? `${Math.floor(rng() * 9000)},x,4,1`
          : `${Math.floor(rng() * 160000)},${Math.floor(rng() * 60000)},${[4, 3.5, 0.5][Math.floor(rng() * 3)]},${1_000_000_000 + Math.floor(rng() * 4e8)}`;
      parts.push(rng() < 0.01 ? l + '\r' : l);
      bytes += l.length + 1;
    }
    const f = join(dir, 'big.csv');
    writeFileSync(f, parts.join('\n') + '\n');
    const fast = outcome(f, 'movielens-csv', true, true, false);
    expect('rows' in fast && fast.skipped > 5).toBe(true);
    expect(fast).toEqual(outcome(f, 'movielens-csv', false, true, false));
    expect(outcome(f, 'movielens-csv', true, false, false)).toEqual(outcome(f, 'movielens-csv', false, false, false));
  });
});
