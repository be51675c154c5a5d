/**
 * `lshdp data inspect FILE` without `--format`: tell the format from the file's first line where
 * the layouts differ (MovieLens csv header, u.data's four tab-separated numbers, the '::' files,
 * the 8-column TSMC file, a headed table for `interactions`, a headerless table of numbers such
 * as LibRec's and MyMediaLite's `user item value` lines), else ask for --format.
 */
import { closeSync, readSync } from 'node:fs';
import { fileError } from '../util/errors.js';
import { openInput, visible } from './lines.js';
import { FORMATS, WHITESPACE, type Column, type Format } from './spec.js';

export interface Detected {
  format: Format;
  /** why, for the line the CLI prints ("header userId,movieId,rating,timestamp") */
  why: string;
  /** interactions: the reader options chosen from the header (or, headerless, the column indices) */
  delimiter?: string;
  /** interactions: false when the first line is data */
  header?: boolean;
  user?: Column;
  item?: Column;
  value?: Column;
}

/** Column names taken for the user and the item of a headed table, in order of preference. */
const USER_COLUMNS = /^(user|user_?id|userid|uid)$/i;
const ITEM_COLUMNS = /^(item|item_?id|itemid|movie_?id|poi|poi_?id|venue|venue_?id|product_?id|iid)$/i;
const NUM = /^\d+$/;
const DEC = /^-?\d+(\.\d+)?$/;

/** The first non-blank line of the file (BOM and CR removed), at most 64 KiB read. */
function firstLine(path: string): string | null {
  const { fd } = openInput(path);
  try {
    const buf = Buffer.alloc(1 << 16);
    const got = readSync(fd, buf, 0, buf.length, 0);
    let text = buf.toString('utf8', 0, got);
    if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
    const line = text
      .split('\n')
      .map((l) => l.replace(/\r$/, ''))
      .find((l) => l.trim() !== '');
    return line ?? null;
  } finally {
    closeSync(fd);
  }
}

const unquote = (s: string): string => s.trim().replace(/^"(.*)"$/, '$1');

/** Detect the format of `path` from its first line; throws a one-line UserError when it cannot. */
export function detectFormat(path: string, given: { user?: string; item?: string; poi?: string } = {}): Detected {
  const line = firstLine(path);
  const ask = `give --format (one of: ${FORMATS.filter((f) => f !== 'synthetic').join(', ')})`;
  if (line === null) throw fileError(path, undefined, `empty file, so its format cannot be detected; ${ask}`);
  const comma = line.split(',').map(unquote);
  const tab = line.split('\t');
  const colons = line.split('::');
  if (comma.join(',') === 'userId,movieId,rating,timestamp') return { format: 'movielens-csv', why: 'header userId,movieId,rating,timestamp' };
  if (tab.length === 4 && NUM.test(tab[0]!) && NUM.test(tab[1]!) && DEC.test(tab[2]!) && NUM.test(tab[3]!)) {
    return { format: 'movielens-100k', why: 'four tab-separated numbers (user item rating timestamp, like u.data)' };
  }
  if (colons.length === 4 && NUM.test(colons[0]!) && NUM.test(colons[1]!) && DEC.test(colons[2]!) && NUM.test(colons[3]!)) {
    return { format: 'movielens-1m', why: "four '::'-separated numbers (movielens-1m; movielens-10m has the same layout)" };
  }
  if (tab.length === 8) return { format: 'foursquare-tsmc', why: 'eight tab-separated fields (the TSMC 2014 check-in file)' };
  if (tab.length === 4 && given.poi) return { format: 'foursquare-www19', why: 'four tab-separated fields and --poi (the WWW19 check-in file)' };
  const headerless = headerlessNumbers(line, given);
  if (headerless) return headerless;
  // a headed table: the delimiter that gives the most columns, the columns from the flags or the names
  const candidates: [string, string[]][] = [
    ['\t', tab],
    [',', comma],
    [';', line.split(';')],
    ['|', line.split('|')],
  ];
  const [delimiter, header] = candidates.reduce((best, c) => (c[1].length > best[1].length ? c : best));
  if (header.length >= 2 && header.every((h) => h.trim() !== '' && !DEC.test(h.trim()))) {
    const names = header.map((h) => h.trim());
    const user = given.user ?? names.find((h) => USER_COLUMNS.test(h));
    const item = given.item ?? names.find((h) => ITEM_COLUMNS.test(h));
    if (user && item && names.includes(user) && names.includes(item)) {
      const d = delimiter === '\t' ? 'tab' : `"${delimiter}"`;
      return { format: 'interactions', why: `a header with columns ${names.map((n) => visible(n.slice(0, 40))).join(', ')} (${d}-separated; user ${user}, item ${item})`, delimiter, user, item };
    }
    return fail(path, `looks like a table with header [${names.map((n) => visible(n.slice(0, 40))).join(', ')}]: give --format interactions --user COLUMN --item COLUMN`);
  }
  if (tab.length === 4) return fail(path, `four tab-separated fields: if this is a Foursquare WWW19 check-in file, give --format foursquare-www19 --poi POI_FILE; otherwise ${ask}`);
  return fail(path, `cannot detect the format from the first line "${visible(line.slice(0, 60))}"; ${ask}`);
}

const COUNT_WORDS = ['', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight'];

/**
 * A first line of numbers only, split by spaces and/or tabs (or commas): a table without a header,
 * `user item [value …]` as LibRec and MyMediaLite write it; user 0, item 1 and (three fields or
 * more) value 2 unless the flags name other indices.
 */
function headerlessNumbers(line: string, given: { user?: string; item?: string }): Detected | null {
  const words = line.trim().split(/[ \t]+/);
  const comma = line.split(',').map((f) => f.trim());
  const [delimiter, fields, how] = words.length >= 2 ? [WHITESPACE, words, 'spaces or tabs'] : [',', comma, 'commas'];
  if (fields.length < 2 || !fields.every((f) => DEC.test(f))) return null;
  const index = (flag: string | undefined, fallback: number) => (flag !== undefined && NUM.test(flag) ? Number(flag) : fallback);
  const user = index(given.user, 0);
  const item = index(given.item, 1);
  const count = COUNT_WORDS[fields.length] ?? String(fields.length);
  return {
    format: 'interactions',
    why: `${count} numbers separated by ${how} and no header (user item value lines, as LibRec and MyMediaLite write them; user ${user}, item ${item}${fields.length >= 3 ? ', value 2' : ''})`,
    delimiter,
    header: false,
    user,
    item,
    ...(fields.length >= 3 ? { value: 2 } : {}),
  };
}

/**
 * The data set entry of a config that reads `file` as detected, one YAML line, e.g.
 * `{ name: u1, format: interactions, path: u1.base, header: false, delimiter: whitespace, user: 0, item: 1, value: 2 }`.
 */
export function configEntry(file: string, d: Detected): string {
  const plain = (s: string) => (/^[A-Za-z0-9_./-]+$/.test(s) && !/^[-.]/.test(s) ? s : JSON.stringify(s));
  const stem = (file.split(/[\\/]/).pop() ?? file).replace(/\.[^.]*$/, '');
  const name = stem.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '') || 'data';
  const keys: [string, string | number | boolean | undefined][] = [
    ['name', name],
    ['format', d.format],
    ['path', file],
    ['header', d.header === false ? false : undefined],
    ['delimiter', d.delimiter === undefined || d.delimiter === ',' ? undefined : d.delimiter],
    ['user', d.user],
    ['item', d.item],
    ['value', d.value],
  ];
  const shown = keys.filter(([, v]) => v !== undefined).map(([k, v]) => `${k}: ${typeof v === 'string' ? plain(v) : String(v)}`);
  return `{ ${shown.join(', ')} }`;
}

function fail(path: string, problem: string): never {
  throw fileError(path, 1, problem);
}
