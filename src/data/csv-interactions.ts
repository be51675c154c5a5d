import { createReadStream } from 'node:fs';
import { parse, CsvError } from 'csv-parse';
import { fileError, UserError } from '../util/errors.js';
import type { Progress } from '../util/progress.js';
import type { Combine } from './spec.js';
import { RawRows } from './interactions.js';
import { StringInterner } from './interning.js';
import { badRowError, fieldText, openInput, parseDecimal, scanLines } from './lines.js';
import { splitFields } from './movielens.js';
import { closeSync, openSync, readSync } from 'node:fs';

export interface InteractionsOptions {
  delimiter: string;
  user: string;
  item: string;
  value?: string;
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

function findColumns(path: string, header: string[], line: number, opts: InteractionsOptions): { ui: number; ii: number; vi: number } {
  const col = (name: string, key: string): number => {
    const k = header.indexOf(name);
    if (k < 0) {
      // `delimiter: \t` unquoted in YAML is the two characters backslash and t, not a tab
      const hint =
        opts.delimiter === '\\t'
          ? ' (the delimiter is the two characters \\t: for a tab write delimiter: "\\t" in double quotes in YAML, or --delimiter tab)'
          : header.length === 1
            ? ` (wrong delimiter? using ${JSON.stringify(opts.delimiter)})`
            : '';
      throw fileError(path, line, `column "${name}" (${key}) not found in header [${header.map(short).join(', ')}]${hint}`);
    }
    return k;
  };
  const ui = col(opts.user, 'user');
  const ii = col(opts.item, 'item');
  const vi = opts.combine !== 'count' && opts.value ? col(opts.value, 'value') : -1;
  return { ui, ii, vi };
}

function checkCombine(path: string, opts: InteractionsOptions): void {
  if ((opts.combine === 'last' || opts.combine === 'sum') && !opts.value) throw new UserError(`${path}: combine "${opts.combine}" needs a value column (set value:)`);
}

/**
 * Quote-free files (the common case, e.g. the shared TSMC TSV): the byte-level line scanner, split
 * on the delimiter's bytes. Gives the same rows as csv-parse on such files, ~20x faster.
 */
function readInteractionsPlain(path: string, opts: InteractionsOptions): RawRows {
  const rows = new RawRows(new StringInterner(), new StringInterner());
  const users = rows.users as StringInterner;
  const items = rows.items as StringInterner;
  const sep = [...Buffer.from(opts.delimiter, 'utf8')];
  let header: string[] | null = null;
  let cols = { ui: -1, ii: -1, vi: -1 };
  let need = 0;
  let bounds = new Int32Array(64);
  scanLines(
    path,
    (buf, start, end, line) => {
      if (!header) {
        header = buf
          .toString('utf8', start, end)
          .split(opts.delimiter)
          .map((h) => h.trim());
        cols = findColumns(path, header, line, opts);
        need = Math.max(cols.ui, cols.ii, cols.vi) + 1;
        if (bounds.length < 2 * need) bounds = new Int32Array(2 * need);
        return;
      }
      try {
        const nf = splitFields(buf, start, end, sep, bounds, need);
        if (nf < need) throw fileError(path, line, `expected ${header.length} fields, found ${nf}`);
        const u = buf.toString('utf8', bounds[2 * cols.ui]!, bounds[2 * cols.ui + 1]!);
        const it = buf.toString('utf8', bounds[2 * cols.ii]!, bounds[2 * cols.ii + 1]!);
        if (u === '') throw fileError(path, line, `empty user id (column ${opts.user})`);
        if (it === '') throw fileError(path, line, `empty item id (column ${opts.item})`);
        let v = 1;
        if (cols.vi >= 0) {
          const s = bounds[2 * cols.vi]!;
          const e = bounds[2 * cols.vi + 1]!;
          const t = buf.toString('utf8', s, e).trim();
          v = parseDecimal(t);
          if (!Number.isFinite(v)) throw fileError(path, line, `value "${fieldText(buf, s, e)}" is not a number (column ${opts.value})`);
        }
        rows.add(users.intern(u), items.intern(it), v);
        rows.rowsRead++;
      } catch (e) {
        if (!opts.skipBadRows || !(e instanceof UserError)) throw badRowError(e);
        rows.skip(line);
      }
    },
    opts.progress,
  );
  if (!header || (rows.rowsRead === 0 && rows.rowsSkipped === 0)) throw fileError(path, undefined, 'empty file (no data rows)');
  return rows;
}

/** `interactions`: the byte scanner for quote-free files with a 1–2 byte delimiter, else csv-parse. */
export async function readInteractionsCsv(path: string, opts: InteractionsOptions, forceCsvParse = false): Promise<RawRows> {
  const { fd, bytes } = openInput(path);
  closeSync(fd);
  if (bytes === 0) throw fileError(path, undefined, 'empty file (no data rows)');
  checkCombine(path, opts);
  if (!forceCsvParse && Buffer.byteLength(opts.delimiter) <= 2 && !opts.delimiter.includes('"') && !fileHasByte(path, 0x22)) return readInteractionsPlain(path, opts);
  return readInteractionsCsvParse(path, opts);
}

/**
 * Generic CSV/TSV with a header (`interactions`): csv-parse streaming, so quoted fields, any
 * delimiter, CRLF and a BOM are handled; invalid UTF-8 decodes to U+FFFD. Columns by name.
 */
async function readInteractionsCsvParse(path: string, opts: InteractionsOptions): Promise<RawRows> {
  const bytes = openInputSize(path);
  const rows = new RawRows(new StringInterner(), new StringInterner());
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
  let ui = -1;
  let ii = -1;
  let vi = -1;
  let need = 0;
  try {
    for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
      const line = info.lines;
      if (!header) {
        header = record.map((h) => h.trim());
        ({ ui, ii, vi } = findColumns(path, header, line, opts));
        need = Math.max(ui, ii, vi) + 1;
        continue;
      }
      try {
        if (record.length < need) throw fileError(path, line, `expected ${header.length} fields, found ${record.length}`);
        const u = record[ui]!;
        const it = record[ii]!;
        if (u === '') throw fileError(path, line, `empty user id (column ${opts.user})`);
        if (it === '') throw fileError(path, line, `empty item id (column ${opts.item})`);
        let v = 1;
        if (vi >= 0) {
          const t = record[vi]!.trim();
          v = parseDecimal(t);
          if (!Number.isFinite(v)) throw fileError(path, line, `value "${short(record[vi]!)}" is not a number (column ${opts.value})`);
        }
        rows.add(users.intern(u), items.intern(it), v);
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
  if (!header || (rows.rowsRead === 0 && rows.rowsSkipped === 0)) throw fileError(path, undefined, 'empty file (no data rows)');
  return rows;
}
