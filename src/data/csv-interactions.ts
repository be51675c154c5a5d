import { createReadStream } from 'node:fs';
import { parse, CsvError } from 'csv-parse';
import { fileError, UserError } from '../util/errors.js';
import type { Progress } from '../util/progress.js';
import type { Combine } from './spec.js';
import { RawRows } from './interactions.js';
import { StringInterner } from './interning.js';
import { openInput } from './lines.js';
import { closeSync } from 'node:fs';

export interface InteractionsOptions {
  delimiter: string;
  user: string;
  item: string;
  value?: string;
  combine: Combine;
  skipBadRows?: boolean;
  progress?: Progress;
}

function short(s: string): string {
  return s.length > 60 ? s.slice(0, 60) + '…' : s;
}

/**
 * Generic CSV/TSV with a header (`interactions`): csv-parse streaming, so quoted fields, any
 * delimiter, CRLF and a BOM are handled; invalid UTF-8 decodes to U+FFFD. Columns by name.
 */
export async function readInteractionsCsv(path: string, opts: InteractionsOptions): Promise<RawRows> {
  const { fd, bytes } = openInput(path); // one-line errors for missing files
  closeSync(fd);
  if (bytes === 0) throw fileError(path, undefined, 'empty file (no data rows)');
  if ((opts.combine === 'last' || opts.combine === 'sum') && !opts.value)
    throw new UserError(`${path}: combine "${opts.combine}" needs a value column (set value:)`);
  const rows = new RawRows(new StringInterner(), new StringInterner());
  const users = rows.users as StringInterner;
  const items = rows.items as StringInterner;
  const parser = parse({
    delimiter: opts.delimiter,
    bom: true,
    info: true,
    skip_empty_lines: true,
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
        const col = (name: string, key: string): number => {
          const k = header!.indexOf(name);
          if (k < 0) {
            const hint = header!.length === 1 ? ` (wrong delimiter? using ${JSON.stringify(opts.delimiter)})` : '';
            throw fileError(path, line, `column "${name}" (${key}) not found in header [${header!.map(short).join(', ')}]${hint}`);
          }
          return k;
        };
        ui = col(opts.user, 'user');
        ii = col(opts.item, 'item');
        if (opts.combine !== 'count' && opts.value) vi = col(opts.value, 'value');
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
          v = t === '' ? NaN : Number(t);
          if (!Number.isFinite(v)) throw fileError(path, line, `value "${short(record[vi]!)}" is not a number (column ${opts.value})`);
        }
        rows.add(users.intern(u), items.intern(it), v);
        rows.rowsRead++;
      } catch (e) {
        if (!opts.skipBadRows || !(e instanceof UserError)) throw e;
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
