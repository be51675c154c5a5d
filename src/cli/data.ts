import type { Command } from 'commander';
import { UserError } from '../util/errors.js';
import { createProgress } from '../util/progress.js';
import { FORMATS, type DatasetSpec, type Center, type Combine } from '../data/spec.js';
import { formatInspect, inspectDataset } from '../data/inspect.js';

function parseDims(v: string): number[] {
  const dims = v.split(',').map((x) => x.trim());
  if (dims.some((d) => !/^\d+$/.test(d) || Number(d) < 1)) throw new UserError(`--dims: expected positive integers separated by commas, got "${v}"`);
  return dims.map(Number);
}

function int(flag: string): (v: string) => number {
  return (v) => {
    if (!/^\d+$/.test(v.trim())) throw new UserError(`${flag}: expected a non-negative integer, got "${v}"`);
    return Number(v);
  };
}

interface InspectFlags {
  format: string;
  dims: number[];
  json?: boolean;
  sample?: number;
  seed: number;
  poi?: string;
  maxUsers?: number;
  delimiter?: string;
  user?: string;
  item?: string;
  value?: string;
  combine?: string;
  center?: string;
  preset?: string;
  skipBadRows?: boolean;
  cache: boolean;
  cacheDir: string;
  quiet?: boolean;
}

export function registerData(program: Command): void {
  const data = program.command('data').description('inspect a data file: users, items, kept/dropped per n, 1-NN distances');
  data
    .command('inspect')
    .description('read a data file as the experiments do and summarise it')
    .argument('[file]', 'ratings / check-ins file (not needed for --format synthetic)')
    .requiredOption('--format <format>', `one of: ${FORMATS.join(', ')}`)
    .option('--dims <list>', 'vector lengths n, comma separated', parseDims, [100, 500, 1000])
    .option('--json', 'print one JSON object')
    .option('--sample <q>', 'query users for the 1-NN distances (default: all when ≤ 20,000 users, else 2,000)', int('--sample'))
    .option('--seed <s>', 'seed of the query sample', int('--seed'), 1)
    .option('--poi <file>', 'foursquare-www19: the raw POI file')
    .option('--max-users <n>', 'foursquare-www19: keep the users with the most check-ins in the box', int('--max-users'))
    .option('--delimiter <d>', 'interactions: field delimiter (default ",", "\\t" for tab)')
    .option('--user <col>', 'interactions: user id column')
    .option('--item <col>', 'interactions: item id column')
    .option('--value <col>', 'interactions: value column')
    .option('--combine <how>', 'interactions: last, sum or count')
    .option('--center <how>', 'user, global or none (default by format)')
    .option('--preset <name>', 'synthetic: preset')
    .option('--skip-bad-rows', 'skip malformed rows (counted and reported) instead of failing')
    .option('--no-cache', 'do not read or write the vector cache')
    .option('--cache-dir <dir>', 'vector cache folder', 'data/cache')
    .option('--quiet', 'no progress bar')
    .action(async (file: string | undefined, o: InspectFlags) => {
      if (!(FORMATS as readonly string[]).includes(o.format)) throw new UserError(`unknown format "${o.format}" (expected one of: ${FORMATS.join(', ')})`);
      if (o.format !== 'synthetic' && !file) throw new UserError(`data inspect: a FILE is required for format ${o.format}`);
      const spec: DatasetSpec = { name: file ? file.split(/[\\/]/).pop()! : `synthetic-${o.preset ?? 'small'}`, format: o.format as DatasetSpec['format'], path: file };
      if (o.poi) spec.poi_path = o.poi;
      if (o.maxUsers !== undefined) spec.max_users = o.maxUsers;
      if (o.delimiter !== undefined) spec.delimiter = o.delimiter === '\\t' || o.delimiter === 'tab' ? '\t' : o.delimiter;
      if (o.user) spec.user = o.user;
      if (o.item) spec.item = o.item;
      if (o.value) spec.value = o.value;
      if (o.combine) spec.combine = o.combine as Combine;
      if (o.center) spec.center = o.center as Center;
      if (o.preset) spec.preset = o.preset;
      if (o.format === 'foursquare-www19' && !o.poi) throw new UserError('data inspect: format foursquare-www19 needs --poi FILE (the raw POI file)');
      const report = await inspectDataset(spec, o.dims, {
        cacheDir: o.cache ? o.cacheDir : null,
        skipBadRows: o.skipBadRows,
        sample: o.sample,
        seed: o.seed,
        progress: createProgress({ quiet: o.quiet || o.json }),
      }).catch((e: unknown) => {
        // the default --dims (100,500,1000) is too large for small files: say which flag to change
        if (e instanceof UserError && /exceeds the number of items/.test(e.message)) throw new UserError(`${e.message}; choose smaller --dims`);
        throw e;
      });
      process.stdout.write(o.json ? JSON.stringify(report, null, 2) + '\n' : formatInspect(report));
    });
}
