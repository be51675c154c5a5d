/**
 * `interactions`: any delimited table of (user, item[, value]) rows, with a header (columns by
 * name) or without one (`header: false`, columns by 0-based index, as LibRec and MyMediaLite write
 * `user item value` lines); repeated pairs combine by `combine` (last, sum or count).
 */
import { UserError } from '../../util/errors.js';
import { visible } from '../lines.js';
import { WHITESPACE, type Column, type Combine, type DatasetSpec } from '../spec.js';
import { DEC, NUM, requirePath, unquote } from './shared.js';
import type { Detected, DetectFlags, FormatUnit, Zod } from './unit.js';

declare module '../spec.js' {
  interface DatasetSpec {
    /** the field delimiter (default ","); `whitespace`: runs of spaces and tabs (LibRec, MyMediaLite) */
    delimiter?: string;
    /** false: the first line is data (no header), and user/item/value are 0-based column indices */
    header?: boolean;
    /** a column: its name in the header, or its 0-based index */
    user?: Column;
    item?: Column;
    value?: Column;
    /** the time of each row (numbers, or ISO 8601 dates), read for `recommend: {split: last}` */
    time?: Column;
    combine?: Combine;
  }
}

/** A column: its header name or its 0-based index (check(): a whole number ≥ 0). */
const column = (z: Zod) => z.union([z.string().min(1), z.number()]).optional();
const COMBINES: readonly Combine[] = ['last', 'sum', 'count'];
const COLUMN_KEYS = ['user', 'item', 'value', 'time'] as const;

/** `\t` (as typed in a shell or YAML without quotes) and `tab` mean the tab character. */
export function delimiterArg(d: string): string {
  return d === '\\t' || d === 'tab' ? '\t' : d;
}

export const interactions: FormatUnit = {
  name: 'interactions',
  description:
    'any CSV/TSV, with a header (columns by name) or header: false (columns by 0-based index): user, item, optional value and time, delimiter (default ","; whitespace for runs of spaces and tabs), combine last|sum|count',
  keys: {
    /** the field delimiter (default ","); `whitespace`: runs of spaces and tabs */
    delimiter: (z) => z.string().min(1).optional(),
    /** false: the first line is data, and user/item/value are 0-based column indices */
    header: (z) => z.boolean().optional(),
    user: column,
    item: column,
    value: column,
    /** the time column (numbers, or ISO 8601 dates), for `recommend: {split: last}` */
    time: column,
    combine: (z) => z.enum(COMBINES as [Combine, ...Combine[]]).optional(),
  },
  inputs: ['path'],
  flags: [
    { flag: '--delimiter <d>', key: 'delimiter', help: 'field delimiter (default: comma; "\\t" or tab for a tab, whitespace for runs of spaces and tabs)' },
    { flag: '--no-header', key: 'header', help: 'the first line is data; --user, --item, --value are 0-based column indices' },
    { flag: '--user <col>', key: 'user', help: 'user id column (name, or 0-based index with --no-header)' },
    { flag: '--item <col>', key: 'item', help: 'item id column (name, or 0-based index with --no-header)' },
    { flag: '--value <col>', key: 'value', help: 'value column (name, or 0-based index with --no-header)' },
    { flag: '--combine <how>', key: 'combine', help: 'last, sum or count', values: COMBINES },
  ],
  detect: (line, given) => {
    const table = headedTable(line, given);
    return headerlessNumbers(line, given) ?? (table && typeof table !== 'string' ? table : null);
  },
  // a headed table whose user and item columns are not known: after every format had its say
  undetected: (line) => {
    const table = headedTable(line, {});
    return typeof table === 'string' ? table : null;
  },
  check: (d, at) => {
    const problems: string[] = [];
    if (d.user === undefined) problems.push(`${at}.user: missing (the user column, required for format interactions)`);
    if (d.item === undefined) problems.push(`${at}.item: missing (the item column, required for format interactions)`);
    for (const key of COLUMN_KEYS) {
      const c = d[key];
      if (typeof c === 'number' && !(Number.isInteger(c) && c >= 0)) problems.push(`${at}.${key}: a column index is a whole number ≥ 0 (0 is the first column), got ${c}`);
      if (typeof c === 'string' && d.header === false) problems.push(`${at}.${key}: "${c}" is a column name, but header: false gives the columns no names: give its 0-based index (e.g. ${key}: 0)`);
    }
    return problems;
  },
  fromFlags: (spec, o) => {
    if (o.delimiter !== undefined) spec.delimiter = delimiterArg(o.delimiter as string);
    if (o.header === false) spec.header = false;
    // without a header a column is its 0-based index: `--user 0`
    const columnOf = (flag: string, c: string): Column => {
      if (o.header !== false) return c;
      if (/^\d+$/.test(c)) return Number(c);
      throw new UserError(`${flag}: "${c}" is a column name, but --no-header gives the columns no names: give its 0-based index (e.g. ${flag} 0)`);
    };
    for (const key of COLUMN_KEYS) if (o[key]) spec[key] = columnOf(`--${key}`, o[key] as string);
    if (o.combine) spec.combine = o.combine as Combine;
  },
  timed: (spec) => spec.time !== undefined,
  plan: (spec) => ({ format: 'interactions', files: [requirePath(spec, 'path')], center: spec.center ?? 'none', reader: readerOf(spec) }),
  read: async (plan, o) => {
    const r = plan.reader as { delimiter: string; header?: false; user: Column; item: Column; value: Column | null; time?: Column; combine: Combine };
    // the time column is read only for a split by time (o.times): otherwise it costs nothing
    const time = o.times ? r.time : undefined;
    // the reader (and its CSV parser) loads with the first file it reads, not with the list of formats (index.ts)
    const [{ readInteractionsCsv }, { combineRows }] = await Promise.all([import('../csv-interactions.js'), import('../interactions.js')]);
    const rows = await readInteractionsCsv(plan.files[0]!, {
      ...o,
      delimiter: r.delimiter,
      header: r.header !== false,
      user: r.user,
      item: r.item,
      value: r.value ?? undefined,
      time,
      combine: r.combine,
    });
    return combineRows(rows, r.combine);
  },
};

/** The reader options of an entry, checked (the cache key's reader part). */
function readerOf(spec: DatasetSpec): Record<string, unknown> {
  if (spec.user === undefined || spec.item === undefined) throw new UserError(`dataset ${spec.name}: format interactions needs user: and item: columns (names, or 0-based indices with header: false)`);
  const combine: Combine = spec.combine ?? (spec.value !== undefined ? 'last' : 'count');
  if (!COMBINES.includes(combine)) throw new UserError(`dataset ${spec.name}: unknown combine "${combine}" (expected one of: last, sum, count)`);
  if (combine !== 'count' && spec.value === undefined) throw new UserError(`dataset ${spec.name}: combine ${combine} needs value: (a value column)`);
  const delimiter = spec.delimiter ?? ',';
  if (typeof delimiter !== 'string' || delimiter.length === 0) throw new UserError(`dataset ${spec.name}: delimiter must be a non-empty string`);
  for (const key of COLUMN_KEYS) {
    const c = spec[key];
    if (typeof c === 'number' && !(Number.isInteger(c) && c >= 0)) throw new UserError(`dataset ${spec.name}: ${key}: a column index is a whole number ≥ 0 (0 is the first column), got ${c}`);
    if (typeof c === 'string' && spec.header === false)
      throw new UserError(`dataset ${spec.name}: ${key}: "${c}" is a column name, but header: false gives the columns no names: give its 0-based index`);
  }
  // `header` enters the cache key only when false, and `time` only when given, so the entries
  // without them keep their cached vectors
  return {
    format: 'interactions',
    delimiter,
    ...(spec.header === false ? { header: false } : {}),
    user: spec.user,
    item: spec.item,
    value: combine === 'count' ? null : spec.value,
    ...(spec.time !== undefined ? { time: spec.time } : {}),
    combine,
  };
}

/** Column names taken for the user and the item of a headed table, in order of preference. */
const USER_COLUMNS = /^(user|user_?id|userid|uid)$/i;
const ITEM_COLUMNS = /^(item|item_?id|itemid|movie_?id|poi|poi_?id|venue|venue_?id|product_?id|iid)$/i;
const COUNT_WORDS = ['', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight'];

/**
 * A first line of numbers only, split by spaces and/or tabs (or commas): a table without a header,
 * `user item [value …]` as LibRec and MyMediaLite write it; user 0, item 1 and (three fields or
 * more) value 2 unless the flags name other indices.
 */
function headerlessNumbers(line: string, given: DetectFlags): Detected | null {
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

/** A headed table: the delimiter that gives the most columns, the columns from the flags or the names (a string: which columns are wanted). */
function headedTable(line: string, given: DetectFlags): Detected | string | null {
  const candidates: [string, string[]][] = [
    ['\t', line.split('\t')],
    [',', line.split(',').map(unquote)],
    [';', line.split(';')],
    ['|', line.split('|')],
  ];
  const [delimiter, header] = candidates.reduce((best, c) => (c[1].length > best[1].length ? c : best));
  if (header.length < 2 || !header.every((h) => h.trim() !== '' && !DEC.test(h.trim()))) return null;
  const names = header.map((h) => h.trim());
  const user = given.user ?? names.find((h) => USER_COLUMNS.test(h));
  const item = given.item ?? names.find((h) => ITEM_COLUMNS.test(h));
  const shown = names.map((n) => visible(n.slice(0, 40))).join(', ');
  // the suggestion carries the delimiter just detected: without it the reader splits on commas
  const flag = delimiter === ',' ? '' : ` --delimiter ${delimiter === '\t' ? 'tab' : `"${delimiter}"`}`;
  if (!user || !item || !names.includes(user) || !names.includes(item)) return `looks like a table with header [${shown}]: give --format interactions${flag} --user COLUMN --item COLUMN`;
  const d = delimiter === '\t' ? 'tab' : `"${delimiter}"`;
  return { format: 'interactions', why: `a header with columns ${shown} (${d}-separated; user ${user}, item ${item})`, delimiter, user, item };
}
