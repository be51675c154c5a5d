/**
 * The flags that say how to read a data file (the keys of a config's data set entry), shared by the
 * commands that read a file without a config: `lshdp data inspect` and `lshdp encode`.
 */
import type { Command } from 'commander';
import type { Center, Column, Combine, DatasetSpec } from '../data/spec.js';
import { UserError } from '../util/errors.js';
import { intArg } from './options.js';

export interface ReaderFlags {
  poi?: string;
  maxUsers?: number;
  delimiter?: string;
  /** false with --no-header */
  header?: boolean;
  user?: string;
  item?: string;
  value?: string;
  combine?: string;
  center?: string;
  preset?: string;
  skipBadRows?: boolean;
}

/** What `--center` accepts (also what completion offers). */
export const CENTERS: readonly Center[] = ['user', 'global', 'none'];

/** Adds the reader flags to a command (`centerNote`: what the command adds about centring). */
export function addReaderOptions(cmd: Command, centerNote = ''): Command {
  return cmd
    .option('--poi <file>', 'foursquare-www19: the raw POI file')
    .option('--max-users <n>', 'foursquare-www19: keep the users with the most check-ins in the box', intArg('--max-users', 1))
    .option('--delimiter <d>', 'interactions: field delimiter (default: comma; "\\t" or tab for a tab, whitespace for runs of spaces and tabs)')
    .option('--no-header', 'interactions: the first line is data; --user, --item, --value are 0-based column indices')
    .option('--user <col>', 'interactions: user id column (name, or 0-based index with --no-header)')
    .option('--item <col>', 'interactions: item id column (name, or 0-based index with --no-header)')
    .option('--value <col>', 'interactions: value column (name, or 0-based index with --no-header)')
    .option('--combine <how>', 'interactions: last, sum or count')
    .option('--center <how>', `user, global or none (default: by format${centerNote})`)
    .option('--preset <name>', 'synthetic: preset')
    .option('--skip-bad-rows', 'skip malformed rows (counted and reported) instead of failing');
}

/** `\t` (as typed in a shell or YAML without quotes) and `tab` mean the tab character. */
export function delimiterArg(d: string): string {
  return d === '\\t' || d === 'tab' ? '\t' : d;
}

/** The data set spec the reader flags describe (as a config's data set entry would). */
export function readerSpec(name: string, format: DatasetSpec['format'], file: string | undefined, o: ReaderFlags, command: string): DatasetSpec {
  const spec: DatasetSpec = { name, format, path: file };
  if (o.poi) spec.poi_path = o.poi;
  if (o.maxUsers !== undefined) spec.max_users = o.maxUsers;
  if (o.delimiter !== undefined) spec.delimiter = delimiterArg(o.delimiter);
  if (o.header === false) spec.header = false;
  // without a header a column is its 0-based index: `--user 0`
  const column = (flag: string, c: string): Column => {
    if (o.header !== false) return c;
    if (/^\d+$/.test(c)) return Number(c);
    throw new UserError(`${flag}: "${c}" is a column name, but --no-header gives the columns no names: give its 0-based index (e.g. ${flag} 0)`);
  };
  if (o.user) spec.user = column('--user', o.user);
  if (o.item) spec.item = column('--item', o.item);
  if (o.value) spec.value = column('--value', o.value);
  if (o.combine) spec.combine = o.combine as Combine;
  if (o.center) {
    if (!CENTERS.includes(o.center as Center)) throw new UserError(`--center: unknown value "${o.center}" (expected one of: ${CENTERS.join(', ')})`);
    spec.center = o.center as Center;
  }
  if (o.preset) spec.preset = o.preset;
  if (format === 'foursquare-www19' && !o.poi) throw new UserError(`${command}: format foursquare-www19 needs --poi FILE (the raw POI file)`);
  return spec;
}
