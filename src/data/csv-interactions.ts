import { createReadStream } from 'node:fs';
import { parse, CsvError } from 'csv-parse';
import { fileError, UserError } from '../util/errors.js';
import type { Progress } from '../util/progress.js';
import { WHITESPACE, type Column, type Combine } from './spec.js';
import { RawRows } from './interactions.js';
import { StringInterner } from './interning.js';
import { badRowError, fieldText, openInput, parseDecimal, scanLines, splitWhitespace } from './lines.js';
import { splitFields } from './movielens.js';
import { parseIsoTime } from './times.js';
import { closeSync, openSync, readSync } from 'node:fs';

export interface InteractionsOptions {
  /** the field delimiter, or `whitespace` (runs of spaces and tabs) */
  delimiter: string;
  /** false: no header line (the first line is data) and the columns are 0-based indices; default true */
  header?: boolean;
  user: Column;
  item: Column;
  value?: Column;
  /** the time column, read (and kept in the rows) only when given: numbers, or ISO 8601 dates */
  time?: Column;
  combine: Combine;
  skipBadRows?: boolean;
  progress?: Progress;
}

function openInputSize(path: string): number {
  const { fd, bytes } = openInput(path);
  closeSync(fd);
  return bytes;
}

function short(s: string): string {
  return s.length > 60 ? s.slice(0, 60) + '…' : s;
}

/** Whether the file contains the byte `b` anywhere (chunked scan, constant memory). */
export function fileHasByte(path: string, b: number): boolean {
  const fd = openSync(path, 'r');
  const buf = Buffer.allocUnsafe(1 << 22);
  try {
    for (;;) {
      const got = readSync(fd, buf, 0, buf.length, null);
      if (got === 0) return false;
      const at = buf.indexOf(b);
      if (at !== -1 && at < got) return true;
    }
  } finally {
    closeSync(fd);
  }
}

interface Columns {
  ui: number;
  ii: number;
  vi: number;
  /** the time column, -1 when not read */
  ti: number;
}

/** Why a line may have split into one field only: a delimiter that is not the file's. */
function delimiterHint(fields: number, opts: InteractionsOptions): string {
  // `delimiter: \t` unquoted in YAML is the two characters backslash and t, not a tab
  if (opts.delimiter === '\\t') return ' (the delimiter is the two characters \\t: for a tab write delimiter: "\\t" in double quotes in YAML, or --delimiter tab)';
  return fields === 1 ? ` (wrong delimiter? using ${opts.delimiter === WHITESPACE ? 'whitespace' : JSON.stringify(opts.delimiter)})` : '';
}

const hasValue = (opts: InteractionsOptions): boolean => opts.combine !== 'count' && opts.value !== undefined;

/**
 * The indices of the user, item and value columns: by name in the header, or the 0-based indices
 * as given, checked against the header's columns or (no header) the first row's fields.
 */
function findColumns(path: string, header: string[] | null, line: number, opts: InteractionsOptions, fields = header?.length ?? 0): Columns {
  const col = (c: Column, key: string): number => {
    if (typeof c === 'number') {
      if (c < fields) return c;
      const of = header ? `the ${fields} column${fields === 1 ? '' : 's'} of the header` : `the ${fields} field${fields === 1 ? '' : 's'} of the first row`;
      throw fileError(path, line, `${key}: column index ${c} is beyond ${of} (0-based: 0 to ${fields - 1})${delimiterHint(fields, opts)}`);
    }
    if (!header) throw fileError(path, line, `${key}: "${c}" is a column name, but the file is read without a header (header: false): give its 0-based index`);
    const k = header.indexOf(c);
    if (k < 0) throw fileError(path, line, `column "${c}" (${key}) not found in header [${header.map(short).join(', ')}]${delimiterHint(header.length, opts)}`);
    return k;
  };
  // columns by index and a "header" of numbers only: the first line is data, not names
  const byIndex = [opts.user, opts.item, ...(hasValue(opts) ? [opts.value] : []), ...(opts.time !== undefined ? [opts.time] : [])].some((c) => typeof c === 'number');
  if (header && byIndex && header.every((h) => /^-?\d+(\.\d+)?$/.test(h))) {
    throw fileError(path, line, `the first line [${header.map(short).join(', ')}] is read as a header but holds numbers only: if the file has no header, set header: false (--no-header)`);
  }
  const ui = col(opts.user, 'user');
  const ii = col(opts.item, 'item');
  const vi = hasValue(opts) ? col(opts.value!, 'value') : -1;
  const ti = opts.time !== undefined ? col(opts.time, 'time') : -1;
  return { ui, ii, vi, ti };
}

/**
 * The values of a time column: plain numbers (compared as they are) or ISO 8601 dates (as epoch
 * seconds); the first value fixes which, so a column never mixes the two scales.
 */
class TimeValues {
  private dates: boolean | null = null;
  constructor(
    private readonly path: string,
    private readonly column: Column,
  ) {}
  parse(text: string, line: number, shown: string): number {
    const t = text.trim();
    if (this.dates !== true) {
      const v = parseDecimal(t);
      if (Number.isFinite(v)) {
        this.dates = false;
        return v;
      }
    }
    if (this.dates !== false) {
      const v = parseIsoTime(t);
      if (Number.isFinite(v)) {
        this.dates = true;
        return v;
      }
    }
    const expected = this.dates === null ? 'a number or an ISO 8601 date' : this.dates ? "an ISO 8601 date like the column's first value" : "a number like the column's first value";
    throw fileError(this.path, line, `time "${shown}" is not ${expected} (column ${colName(this.column)})`);
  }
}

/** A row with fewer fields than the columns read need: which key's column is missing. */
function tooFewFields(path: string, line: number, found: number, cols: Columns, header: string[] | null): UserError {
  const [key, at] = (
    [
      ['user', cols.ui],
      ['item', cols.ii],
      ['value', cols.vi],
      ['time', cols.ti],
    ] as const
  ).reduce((a, b) => (b[1] > a[1] ? b : a));
  const expected = header ? `${header.length}` : `at least ${at + 1}`;
  return fileError(path, line, `expected ${expected} fields, found ${found} (${key} is column ${at}, 0-based)`);
}

/** The header's column names. */
function headerNames(text: string, delimiter: string): string[] {
  return delimiter === WHITESPACE ? text.trim().split(/[ \t]+/) : text.split(delimiter).map((h) => h.trim());
}

/** Column text for messages: the header name, or the index. */
const colName = (c: Column | undefined): string => String(c);

function checkCombine(path: string, opts: InteractionsOptions): void {
  if ((opts.combine === 'last' || opts.combine === 'sum') && opts.value === undefined) throw new UserError(`${path}: combine "${opts.combine}" needs a value column (set value:)`);
}

/**
 * Quote-free files (the common case, e.g. the shared TSMC TSV) and whitespace-separated ones: the
 * byte-level line scanner, split on the delimiter's bytes (or runs of spaces and tabs). Gives the
 * same rows as csv-parse on such files, ~20x faster. Without a header the first row is data and
 * fixes the field count the column indices are checked against.
 */
function readInteractionsPlain(path: string, opts: InteractionsOptions): RawRows {
  const rows = new RawRows(new StringInterner(), new StringInterner(), opts.time !== undefined);
  const times = opts.time !== undefined ? new TimeValues(path, opts.time) : null;
  const users = rows.users as StringInterner;
  const items = rows.items as StringInterner;
  const whitespace = opts.delimiter === WHITESPACE;
  const sep = [...Buffer.from(opts.delimiter, 'utf8')];
  const split = (buf: Buffer, start: number, end: number, bounds: Int32Array, max: number) =>
    whitespace ? splitWhitespace(buf, start, end, bounds, max) : splitFields(buf, start, end, sep, bounds, max);
  let header: string[] | null = null;
  let cols: Columns | null = null;
  let need = 0;
  let bounds = new Int32Array(64);
  const setColumns = (c: Columns) => {
    cols = c;
    need = Math.max(c.ui, c.ii, c.vi, c.ti) + 1;
    if (bounds.length < 2 * need) bounds = new Int32Array(2 * need);
  };
  scanLines(
    path,
    (buf, start, end, line) => {
      if (cols === null) {
        if (opts.header !== false) {
          header = headerNames(buf.toString('utf8', start, end), opts.delimiter);
          setColumns(findColumns(path, header, line, opts));
          return;
        }
        setColumns(findColumns(path, null, line, opts, split(buf, start, end, bounds, 0)));
      }
      const c = cols as Columns;
      try {
        const nf = split(buf, start, end, bounds, need);
        if (nf < need) throw tooFewFields(path, line, nf, c, header);
        const u = buf.toString('utf8', bounds[2 * c.ui]!, bounds[2 * c.ui + 1]!);
        const it = buf.toString('utf8', bounds[2 * c.ii]!, bounds[2 * c.ii + 1]!);
        if (u === '') throw fileError(path, line, `empty user id (column ${colName(opts.user)})`);
        if (it === '') throw fileError(path, line, `empty item id (column ${colName(opts.item)})`);
        let v = 1;
        if (c.vi >= 0) {
          const s = bounds[2 * c.vi]!;
          const e = bounds[2 * c.vi + 1]!;
          const t = buf.toString('utf8', s, e).trim();
          v = parseDecimal(t);
          if (!Number.isFinite(v)) throw fileError(path, line, `value "${fieldText(buf, s, e)}" is not a number (column ${colName(opts.value)})`);
        }
        let t = Number.NaN;
        if (times) {
          const s = bounds[2 * c.ti]!;
          const e = bounds[2 * c.ti + 1]!;
          t = times.parse(buf.toString('utf8', s, e), line, fieldText(buf, s, e));
        }
        rows.add(users.intern(u), items.intern(it), v, t);
        rows.rowsRead++;
      } catch (e) {
        if (!opts.skipBadRows || !(e instanceof UserError)) throw badRowError(e);
        rows.skip(line);
      }
    },
    opts.progress,
  );
  if (cols === null || (rows.rowsRead === 0 && rows.rowsSkipped === 0)) throw fileError(path, undefined, 'empty file (no data rows)');
  return rows;
}

/** `interactions`: the byte scanner for quote-free files with a 1–2 byte delimiter, else csv-parse. */
export async function readInteractionsCsv(path: string, opts: InteractionsOptions, forceCsvParse = false): Promise<RawRows> {
  const { fd, bytes } = openInput(path);
  closeSync(fd);
  if (bytes === 0) throw fileError(path, undefined, 'empty file (no data rows)');
  checkCombine(path, opts);
  // whitespace-separated files have no quoting: the scanner reads them, quotes and all
  if (opts.delimiter === WHITESPACE) return readInteractionsPlain(path, opts);
  if (!forceCsvParse && Buffer.byteLength(opts.delimiter) <= 2 && !opts.delimiter.includes('"') && !fileHasByte(path, 0x22)) return readInteractionsPlain(path, opts);
  return readInteractionsCsvParse(path, opts);
}

/**
 * Generic CSV/TSV (`interactions`): csv-parse streaming, so quoted fields, any delimiter, CRLF
 * and a BOM are handled; invalid UTF-8 decodes to U+FFFD. Columns by name or index; without a
 * header the first record is data.
 */
async function readInteractionsCsvParse(path: string, opts: InteractionsOptions): Promise<RawRows> {
  const bytes = openInputSize(path);
  const rows = new RawRows(new StringInterner(), new StringInterner(), opts.time !== undefined);
  const times = opts.time !== undefined ? new TimeValues(path, opts.time) : null;
  const users = rows.users as StringInterner;
  const items = rows.items as StringInterner;
  const parser = parse({
    delimiter: opts.delimiter,
    bom: true,
    info: true,
    skip_empty_lines: true,
    // mixed CRLF / LF files: without this csv-parse keeps the first line's ending only
    record_delimiter: ['\r\n', '\n'],
    relax_column_count: true,
    relax_quotes: false,
    trim: false,
  });
  const stream = createReadStream(path, { highWaterMark: 1 << 22 });
  opts.progress?.start(`read ${path.split(/[\\/]/).pop()}`, bytes);
  stream.on('data', (chunk) => opts.progress?.increment(chunk.length));
  stream.pipe(parser);
  stream.on('error', (e) => parser.destroy(e));
  let header: string[] | null = null;
  let cols: Columns | null = null;
  let need = 0;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      const line = info.lines;
      if (cols === null) {
        if (opts.header !== false) {
          header = record.map((h) => h.trim());
          cols = findColumns(path, header, line, opts);
          need = Math.max(cols.ui, cols.ii, cols.vi, cols.ti) + 1;
          continue;
        }
        cols = findColumns(path, null, line, opts, record.length);
        need = Math.max(cols.ui, cols.ii, cols.vi, cols.ti) + 1;
      }
      try {
        if (record.length < need) throw tooFewFields(path, line, record.length, cols, header);
        const u = record[cols.ui]!;
        const it = record[cols.ii]!;
        if (u === '') throw fileError(path, line, `empty user id (column ${colName(opts.user)})`);
        if (it === '') throw fileError(path, line, `empty item id (column ${colName(opts.item)})`);
        let v = 1;
        if (cols.vi >= 0) {
          const t = record[cols.vi]!.trim();
          v = parseDecimal(t);
          if (!Number.isFinite(v)) throw fileError(path, line, `value "${short(record[cols.vi]!)}" is not a number (column ${colName(opts.value)})`);
        }
        const t = times ? times.parse(record[cols.ti]!, line, short(record[cols.ti]!)) : Number.NaN;
        rows.add(users.intern(u), items.intern(it), v, t);
        rows.rowsRead++;
      } catch (e) {
        if (!opts.skipBadRows || !(e instanceof UserError)) throw badRowError(e);
        rows.skip(line);
      }
    }
  } catch (e) {
    stream.destroy();
    if (e instanceof CsvError) {
      const line = (e as CsvError & { lines?: number }).lines;
      throw fileError(path, line, e.message.replace(/^[A-Za-z_]+:\s*/, '').split('\n')[0]!);
    }
    throw e;
  } finally {
    opts.progress?.stop();
  }
  if (cols === null || (rows.rowsRead === 0 && rows.rowsSkipped === 0)) throw fileError(path, undefined, 'empty file (no data rows)');
  return rows;
}
