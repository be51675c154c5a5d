/**
 * The flags that say how to read a data file (the keys of a config's data set entry), shared by the
 * commands that read a file without a config: `lshdp data inspect` and `lshdp encode`. Each
 * format's flags are declared on its unit (src/data/formats); `--center` and `--skip-bad-rows`
 * apply to every format.
 */
import type { Command } from 'commander';
import { formatUnit, formatUnits, type ReaderFlag } from '../data/formats/index.js';
import type { Center, DatasetSpec } from '../data/spec.js';
import { UserError } from '../util/errors.js';
import { intArg } from './options.js';

export { delimiterArg } from '../data/formats/interactions.js';

/** The reader flags as commander parses them (the built-in formats' flags, and any other's). */
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
  [flag: string]: unknown;
}

/** What `--center` accepts (also what completion offers). */
export const CENTERS: readonly Center[] = ['user', 'global', 'none'];

/** `--max-users <n>` → `--max-users`. */
const longName = (f: ReaderFlag): string => f.flag.split(' ')[0]!;

/** Every format's flags, once each, with the formats that take it (in list order). */
function formatFlags(): { flag: ReaderFlag; formats: string[] }[] {
  const byName = new Map<string, { flag: ReaderFlag; formats: string[] }>();
  for (const unit of formatUnits()) {
    for (const flag of unit.flags ?? []) {
      const seen = byName.get(longName(flag));
      if (seen) seen.formats.push(unit.name);
      else byName.set(longName(flag), { flag, formats: [unit.name] });
    }
  }
  return [...byName.values()];
}

/** Adds the reader flags to a command (`centerNote`: what the command adds about centring). */
export function addReaderOptions(cmd: Command, centerNote = ''): Command {
  for (const { flag, formats } of formatFlags()) {
    const help = `${formats.join(', ')}: ${flag.help}`;
    if (flag.parse === 'positive-integer') cmd.option(flag.flag, help, intArg(longName(flag), 1));
    else cmd.option(flag.flag, help);
  }
  return cmd.option('--center <how>', `user, global or none (default: by format${centerNote})`).option('--skip-bad-rows', 'skip malformed rows (counted and reported) instead of failing');
}

/** The data set spec the reader flags describe (as a config's data set entry would). */
export function readerSpec(name: string, format: DatasetSpec['format'], file: string | undefined, o: ReaderFlags, command: string): DatasetSpec {
  const unit = formatUnit(format);
  const spec: DatasetSpec = { name, format, path: file };
  for (const u of formatUnits()) u.fromFlags?.(spec, o);
  if (o.center) {
    if (!CENTERS.includes(o.center as Center)) throw new UserError(`--center: unknown value "${o.center}" (expected one of: ${CENTERS.join(', ')})`);
    spec.center = o.center as Center;
  }
  requireInputFlags(unit.name, spec, command);
  return spec;
}

/** Where commander keeps a flag's value: `--max-users` → maxUsers, `--no-header` → header. */
const optionName = (f: ReaderFlag): string =>
  longName(f)
    .replace(/^--(no-)?/, '')
    .replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/**
 * A format's input files after the first are given by flags (`--poi FILE`): set them on `spec`
 * (from `o`, when given), and each is required.
 */
export function requireInputFlags(format: string, spec: DatasetSpec, command: string, o?: ReaderFlags): void {
  const unit = formatUnit(format);
  for (const key of unit.inputs.slice(1)) {
    const flag = unit.flags?.find((f) => f.key === key);
    const given = flag && o ? o[optionName(flag)] : undefined;
    if (typeof given === 'string' && given !== '') spec[key] = given;
    if (spec[key] !== undefined) continue;
    throw new UserError(`${command}: format ${unit.name} needs ${flag ? `${longName(flag)} FILE (${flag.help})` : `its ${key} file`}`);
  }
}
