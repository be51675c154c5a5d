import type { Command } from 'commander';
import { summaryToJson } from '../data/summaryJson.js';
import { join } from 'node:path';
import { UserError } from '../util/errors.js';
import { createProgress } from '../util/progress.js';
import { FORMATS, type DatasetSpec, type Center, type Combine } from '../data/spec.js';
import { formatInspect, inspectDataset } from '../knn/inspect.js';
import { detectFormat } from '../data/detect.js';
import { cliIo } from './io.js';
import { cacheDirOption, intArg, noCacheOption, numberList, quietOption } from './options.js';

interface InspectFlags {
  format?: string;
  dims?: string[];
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

const DEFAULT_DIMS = [100, 500, 1000];

/** `\t` (as typed in a shell or YAML without quotes) and `tab` mean the tab character. */
export function delimiterArg(d: string): string {
  return d === '\\t' || d === 'tab' ? '\t' : d;
}

export function registerData(program: Command): void {
  const data = program.command('data').description('inspect a data file: users, items, kept/dropped per n, 1-NN distances');
  data
    .command('inspect')
    .description('read a data file as the experiments do and summarise it')
    .argument('[file]', 'ratings / check-ins file (not needed for --format synthetic)')
    .option('--format <format>', `one of: ${FORMATS.join(', ')} (default: detected from the first line)`)
    .option('--dims <n...>', `vector lengths n (default: ${DEFAULT_DIMS.join(',')})`)
    .option('--json', 'print one JSON object')
    .option('--sample <q>', 'query users for the 1-NN distances (default: all when ≤ 20,000 users, else 2,000)', intArg('--sample'))
    .option('--seed <s>', 'seed of the query sample', intArg('--seed'), 1)
    .option('--poi <file>', 'foursquare-www19: the raw POI file')
    .option('--max-users <n>', 'foursquare-www19: keep the users with the most check-ins in the box', intArg('--max-users', 1))
    .option('--delimiter <d>', 'interactions: field delimiter (default ",", "\\t" or tab for a tab)')
    .option('--user <col>', 'interactions: user id column')
    .option('--item <col>', 'interactions: item id column')
    .option('--value <col>', 'interactions: value column')
    .option('--combine <how>', 'interactions: last, sum or count')
    .option('--center <how>', 'user, global or none (default by format)')
    .option('--preset <name>', 'synthetic: preset')
    .option('--skip-bad-rows', 'skip malformed rows (counted and reported) instead of failing')
    .addOption(noCacheOption())
    .addOption(cacheDirOption('vector cache folder'))
    .addOption(quietOption('no progress bar, and no line saying which format was detected'))
    .action(async (file: string | undefined, o: InspectFlags) => {
      const dims = numberList('--dims', o.dims, DEFAULT_DIMS, { integer: true, min: 1 });
      let format = o.format;
      let detected: string | null = null;
      if (format === undefined) {
        if (!file) throw new UserError('data inspect: give a FILE, or --format synthetic --preset NAME');
        const d = detectFormat(file, { user: o.user, item: o.item, poi: o.poi });
        format = d.format;
        if (d.delimiter !== undefined && o.delimiter === undefined) o.delimiter = d.delimiter;
        o.user ??= d.user;
        o.item ??= d.item;
        detected = `format ${d.format}, detected from ${d.why} (give --format to choose another)`;
      }
      if (!(FORMATS as readonly string[]).includes(format)) throw new UserError(`unknown format "${format}" (expected one of: ${FORMATS.join(', ')})`);
      if (format !== 'synthetic' && !file) throw new UserError(`data inspect: a FILE is required for format ${format}`);
      const spec: DatasetSpec = { name: file ? file.split(/[\\/]/).pop()! : `synthetic-${o.preset ?? 'small'}`, format: format as DatasetSpec['format'], path: file };
      if (o.poi) spec.poi_path = o.poi;
      if (o.maxUsers !== undefined) spec.max_users = o.maxUsers;
      if (o.delimiter !== undefined) spec.delimiter = delimiterArg(o.delimiter);
      if (o.user) spec.user = o.user;
      if (o.item) spec.item = o.item;
      if (o.value) spec.value = o.value;
      if (o.combine) spec.combine = o.combine as Combine;
      if (o.center) spec.center = o.center as Center;
      if (o.preset) spec.preset = o.preset;
      if (format === 'foursquare-www19' && !o.poi) throw new UserError('data inspect: format foursquare-www19 needs --poi FILE (the raw POI file)');
      const report = await inspectDataset(spec, dims, {
        cacheDir: o.cache ? o.cacheDir : null,
        // only format synthetic writes generated files: a real file needs no (temporary) synthDir
        ...(format !== 'synthetic' ? { synthDir: join(o.cacheDir, 'synth') } : {}),
        skipBadRows: o.skipBadRows,
        sample: o.sample,
        seed: o.seed,
        progress: createProgress({ quiet: o.quiet || o.json }),
      }).catch((e: unknown) => {
        // the default --dims (100,500,1000) is too large for small files: say which flag to change
        if (e instanceof UserError && /exceeds the number of items/.test(e.message)) e = new UserError(`${e.message}; choose smaller --dims`);
        // a detected format may be the wrong guess: the one error line says which format was read
        if (e instanceof UserError && detected) throw new UserError(`${e.message} [read as ${detected}]`);
        throw e;
      });
      if (detected && !o.quiet) cliIo().err(`lshdp: ${detected}\n`);
      cliIo().out(o.json ? JSON.stringify({ ...report, summary: summaryToJson(report.summary) }, null, 2) + '\n' : formatInspect(report));
    });
}
