import { statSync } from 'node:fs';
import { fileError } from '../util/errors.js';
import type { Progress } from '../util/progress.js';
import { RawRows } from './interactions.js';
import { IntInterner } from './interning.js';
import { badRowError, fieldText, type LineRun, parseDecimal, parseDecimalBytes, parseUintBytes, POW10, scanLines } from './lines.js';

/**
 * MovieLens readers: a byte-level scanner over Buffer chunks (ids and ratings parsed straight from
 * bytes, ids interned through typed arrays). Measured ~5x faster than csv-parse on ml-25m-shaped
 * data (docs/DATA.md), and these files are purely numeric with no quoting in practice; a quoted
 * numeric field is still accepted through a slow path.
 */
export type MovieLensFormat = 'movielens-csv' | 'movielens-100k' | 'movielens-1m' | 'movielens-10m';

interface Layout {
  sep: number[]; // separator bytes
  sepName: string; // for messages
  header: string | null;
}

const CSV_HEADER = 'userId,movieId,rating,timestamp';
const COLUMNS = ['userId', 'movieId', 'rating', 'timestamp'] as const;

function layoutOf(format: MovieLensFormat): Layout {
  switch (format) {
    case 'movielens-csv':
      return { sep: [44], sepName: 'comma-separated', header: CSV_HEADER };
    case 'movielens-100k':
      return { sep: [9], sepName: 'tab-separated', header: null };
    case 'movielens-1m':
    case 'movielens-10m':
      return { sep: [58, 58], sepName: "'::'-separated", header: null };
  }
}

/** Split buf[start,end) at `sep` into at most `max` fields; bounds[2k], bounds[2k+1] = field k. Returns the field count. */
export function splitFields(buf: Buffer, start: number, end: number, sep: number[], bounds: Int32Array, max: number): number {
  let count = 0;
  let fs = start;
  const s0 = sep[0]!;
  const two = sep.length === 2;
  const s1 = two ? sep[1]! : 0;
  for (let i = start; i < end; i++) {
    if (buf[i] === s0 && (!two || (i + 1 < end && buf[i + 1] === s1))) {
      if (count < max) {
        bounds[2 * count] = fs;
        bounds[2 * count + 1] = i;
      }
      count++;
      i += sep.length - 1;
      fs = i + 1;
    }
  }
  if (count < max) {
    bounds[2 * count] = fs;
    bounds[2 * count + 1] = end;
  }
  return count + 1;
}

/** The file's size in bytes (0 when it cannot be read: the scanner then reports why). */
function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

function unquote(text: string): string {
  const t = text.trim();
  return t.length >= 2 && t.startsWith('"') && t.endsWith('"') ? t.slice(1, -1).trim() : t;
}

/**
 * The lines of the plain form `id sep id sep rating sep timestamp` (ids and timestamp of 1–15
 * digits, the rating as parseDecimalBytes takes it, an LF or CRLF end), read in one pass over
 * their bytes into `rows`: what the line handler gives for them, without a field split, a call
 * per field or a search for each newline. Any other line (the header, a quoted field, a sign, a
 * blank line, a wrong field count) stops it, and the line handler reads that one. `ready()` false
 * (the header not seen yet) takes nothing.
 */
function plainLines(layout: Layout, rows: RawRows, users: IntInterner, items: IntInterner, ready: () => boolean, fileBytes: number): LineRun {
  let sized = false;
  let bytesTaken = 0;
  const s0 = layout.sep[0]!;
  const two = layout.sep.length === 2;
  const s1 = two ? layout.sep[1]! : 0;
  const run: LineRun = {
    lines: 0,
    take(buf, start, limit) {
      if (!ready()) return start;
      let pos = start;
      let lines = 0;
      let lastUser = -1;
      let lastUserIdx = -1;
      while (pos < limit) {
        let i = pos;
        // user
        let c = buf[i]!;
        let user = 0;
        let d = 0;
        while (c >= 48 && c <= 57) {
          user = user * 10 + (c - 48);
          d++;
          c = buf[++i]!;
        }
        if (d === 0 || d > 15 || c !== s0 || (two && buf[++i] !== s1)) break;
        // item
        c = buf[++i]!;
        let item = 0;
        d = 0;
        while (c >= 48 && c <= 57) {
          item = item * 10 + (c - 48);
          d++;
          c = buf[++i]!;
        }
        if (d === 0 || d > 15 || c !== s0 || (two && buf[++i] !== s1)) break;
        // rating: parseDecimalBytes' grammar and arithmetic
        c = buf[++i]!;
        const neg = c === 45;
        if (neg) c = buf[++i]!;
        let mant = 0;
        let frac = -1;
        d = 0;
        for (;;) {
          if (c >= 48 && c <= 57) {
            mant = mant * 10 + (c - 48);
            d++;
            if (frac >= 0) frac++;
          } else if (c === 46 && frac < 0) frac = 0;
          else break;
          c = buf[++i]!;
        }
        if (d === 0 || d > 15 || c !== s0 || (two && buf[++i] !== s1)) break;
        const v = frac > 0 ? mant / POW10[frac]! : mant;
        const rating = neg ? -v : v;
        // timestamp
        c = buf[++i]!;
        let time = 0;
        d = 0;
        while (c >= 48 && c <= 57) {
          time = time * 10 + (c - 48);
          d++;
          c = buf[++i]!;
        }
        if (d === 0 || d > 15) break;
        if (c === 13) c = buf[++i]!;
        if (c !== 10) break;
        // files come sorted by user: the same user's rows in a row skip the interner
        if (user !== lastUser) {
          lastUser = user;
          lastUserIdx = users.intern(user);
        }
        rows.add(lastUserIdx, items.intern(item), rating, time);
        rows.rowsRead++;
        lines++;
        pos = i + 1;
      }
      run.lines += lines;
      bytesTaken += pos - start;
      // the rows of the whole file from the first lines' length, with room to spare (untouched,
      // it costs no memory), so that the arrays do not grow past it: see GrowableInt32
      if (!sized && run.lines >= 10_000) {
        sized = true;
        rows.reserve(Math.ceil((fileBytes / bytesTaken) * run.lines * 1.25) + (1 << 16));
      }
      return pos;
    },
  };
  return run;
}

/**
 * Read a MovieLens ratings file into raw rows (file order; repeats are combined later with `last`).
 * `times`: keep each row's timestamp (seconds since 1970, the files' own unit). `plain: false`
 * reads every line through the line handler (the fast path's reference in the tests).
 */
export function readMovieLens(path: string, format: MovieLensFormat, opts: { skipBadRows?: boolean; progress?: Progress; times?: boolean; plain?: boolean } = {}): RawRows {
  const layout = layoutOf(format);
  const rows = new RawRows(new IntInterner(), new IntInterner(), opts.times);
  const users = rows.users as IntInterner;
  const items = rows.items as IntInterner;
  const bounds = new Int32Array(10);
  let sawHeader = layout.header === null;
  let sawAny = false;

  const intField = (buf: Buffer, k: number, line: number): number => {
    const s = bounds[2 * k]!;
    const e = bounds[2 * k + 1]!;
    const v = parseUintBytes(buf, s, e);
    if (v >= 0) return v;
    const t = unquote(buf.toString('utf8', s, e));
    if (/^\d{1,15}$/.test(t)) return Number(t);
    throw fileError(path, line, `${COLUMNS[k]} "${fieldText(buf, s, e)}" is not a non-negative integer (column ${COLUMNS[k]})`);
  };

  scanLines(
    path,
    (buf, start, end, line) => {
      sawAny = true;
      if (!sawHeader) {
        sawHeader = true;
        const text = buf.toString('utf8', start, end);
        const names = text.split(',').map(unquote).join(',');
        if (names !== layout.header) {
          const hint = !text.includes(',') ? ' (wrong delimiter?)' : '';
          throw fileError(path, line, `expected header ${layout.header}, found "${fieldText(buf, start, end)}"${hint}`);
        }
        return;
      }
      try {
        const nf = splitFields(buf, start, end, layout.sep, bounds, 5);
        if (nf !== 4) throw fileError(path, line, `expected 4 ${layout.sepName} fields, found ${nf}`);
        const user = intField(buf, 0, line);
        const item = intField(buf, 1, line);
        let rating = parseDecimalBytes(buf, bounds[4]!, bounds[5]!);
        if (Number.isNaN(rating)) {
          const t = unquote(buf.toString('utf8', bounds[4]!, bounds[5]!));
          rating = parseDecimal(t);
          if (!Number.isFinite(rating)) throw fileError(path, line, `rating "${fieldText(buf, bounds[4]!, bounds[5]!)}" is not a number (column rating)`);
        }
        const timestamp = intField(buf, 3, line); // validated always, kept only with `times`
        rows.add(users.intern(user), items.intern(item), rating, timestamp);
        rows.rowsRead++;
      } catch (e) {
        if (!opts.skipBadRows) throw badRowError(e);
        rows.skip(line);
      }
    },
    opts.progress,
    opts.plain === false ? undefined : plainLines(layout, rows, users, items, () => sawHeader, fileSize(path)),
  );
  // (a line the fast path took is not blank, nor the header)
  sawAny ||= rows.rowsRead > 0;
  if (!sawAny) throw fileError(path, undefined, 'empty file (no data rows)');
  if (rows.rowsRead === 0 && rows.rowsSkipped === 0) throw fileError(path, undefined, 'empty file (no data rows)');
  if (rows.rowsRead === 0) throw fileError(path, rows.skippedLines[0], `no valid rows (${rows.rowsSkipped} malformed rows skipped)`);
  return rows;
}
