import type { Command } from 'commander';
import { join } from 'node:path';
import { UserError } from '../util/errors.js';
import { formatNames, formatUnit } from '../data/formats/index.js';
import { cliIo } from './io.js';
import { cacheDirOption, intArg, noCacheOption, numberList, quietOption } from './options.js';
import { addReaderOptions, readerSpec, type ReaderFlags } from './readerFlags.js';
import { registerDataFetch } from './dataFetch.js';
import { purpose } from './commands.js';

interface InspectFlags extends ReaderFlags {
  format?: string;
  dims?: string[];
  kappa?: string[];
  json?: boolean;
  sample?: number;
  seed: number;
  cache: boolean;
  cacheDir: string;
  quiet?: boolean;
  configDir?: string;
}

const DEFAULT_DIMS = [100, 500, 1000];
const DEFAULT_KAPPAS = [10, 20, 50];

export function registerData(program: Command): void {
  const data = program.command('data').description(purpose('data'));
  registerDataFetch(data);
  const inspect = data
    .command('inspect')
    .description('read a data file as the experiments do and summarise it')
    .argument('[file]', 'ratings / check-ins file (not needed for --format synthetic)')
    .option('--format <format>', `one of: ${formatNames().join(', ')} (default: detected from the first line)`)
    .option('--dims <n...>', `vector lengths n (default: ${DEFAULT_DIMS.join(',')})`)
    .option('--json', 'print one JSON object')
    .option('--sample <q>', 'query users for the 1-NN distances (default: all when ≤ 20,000 users, else 2,000)', intArg('--sample'))
    .option('--seed <s>', 'seed of the query sample and of the hyperplanes', intArg('--seed'), 1)
    .option('--kappa <k...>', `code lengths κ whose distinct LSH codes to count (default: ${DEFAULT_KAPPAS.join(',')}; 0: none)`)
    .option('--config-dir <dir>', 'the folder of the config the suggested data set entry goes in: its path relative to it (default: absolute)');
  addReaderOptions(inspect)
    .addOption(noCacheOption())
    .addOption(cacheDirOption('vector cache folder'))
    .addOption(quietOption('no progress bar, and no line saying which format was detected'))
    .action(async (file: string | undefined, o: InspectFlags) => {
      const dims = numberList('--dims', o.dims, DEFAULT_DIMS, { integer: true, min: 1 });
      // the readers and the k-NN load only when the command runs
      const kappas = numberList('--kappa', o.kappa, DEFAULT_KAPPAS, { integer: true, min: 0 }).filter((k) => k > 0);
      const [{ configEntry, detectFormat }, { formatInspect, inspectDataset }, { summaryToJson }, { createProgress }, { TooFewItemsError }, { distinctCodes }] = await Promise.all([
        import('../data/detect.js'),
        import('../knn/inspect.js'),
        import('../data/summaryJson.js'),
        import('../util/progress.js'),
        import('../data/vectors.js'),
        import('../lsh/distinctCodes.js'),
      ]);
      let format = o.format;
      let detected: string | null = null;
      // detection chose reader options (a table's columns): the config needs them
      let chose = false;
      if (format === undefined) {
        if (!file) throw new UserError('data inspect: give a FILE, or --format synthetic --preset NAME');
        const d = detectFormat(file, { user: o.user, item: o.item, poi: o.poi });
        format = d.format;
        if (d.delimiter !== undefined && o.delimiter === undefined) o.delimiter = d.delimiter;
        if (d.header === false) o.header = false;
        const flag = (c: string | number | undefined) => (c === undefined ? undefined : String(c));
        o.user ??= flag(d.user);
        o.item ??= flag(d.item);
        o.value ??= flag(d.value);
        detected = `format ${d.format}, detected from ${d.why} (give --format to choose another)`;
        chose = d.user !== undefined || d.delimiter !== undefined;
      }
      const unit = formatUnit(format);
      const generated = unit.inputs.length === 0;
      if (!generated && !file) throw new UserError(`data inspect: a FILE is required for format ${format}`);
      const name = file ? file.split(/[\\/]/).pop()! : `synthetic-${o.preset ?? 'small'}`;
      const spec = readerSpec(name, format, file, o, 'data inspect');
      // the data set entry a config needs for this file, with every reader option given or detected
      const options = Object.keys(spec).some((k) => !['name', 'format', 'path'].includes(k)) || o.skipBadRows;
      const entry = file && (chose || options) ? configEntry({ ...spec, ...(o.skipBadRows ? { skip_bad_rows: true } : {}) }, o.configDir) : null;
      const report = await inspectDataset(spec, dims, {
        cacheDir: o.cache ? o.cacheDir : null,
        // only a format that generates its data writes files: a real file needs no (temporary) synthDir
        ...(!generated ? { synthDir: join(o.cacheDir, 'synth') } : {}),
        skipBadRows: o.skipBadRows,
        sample: o.sample,
        seed: o.seed,
        ...(kappas.length ? { codes: { kappas, count: distinctCodes } } : {}),
        progress: createProgress({ quiet: o.quiet || o.json }),
      }).catch((e: unknown) => {
        // the default --dims (100,500,1000) is too large for small files: say which flag to change
        if (e instanceof TooFewItemsError) e = new UserError(`--dims: ${e.n} exceeds the number of ${e.counted} of ${file ?? name} (${e.count}); choose smaller --dims`);
        // a detected format may be the wrong guess: the one error line says which format was read
        if (e instanceof UserError && detected) throw new UserError(`${e.message} [read as ${detected}]`);
        throw e;
      });
      if (detected && !o.quiet) cliIo().err(`lshdp: ${detected}\n`);
      const paths = o.configDir === undefined ? 'its path absolute; --config-dir DIR makes it relative to the config' : `its path relative to ${o.configDir}, the config's folder`;
      if (entry && !o.quiet) cliIo().err(`lshdp: as a config's data set entry (${paths}): ${entry}\n`);
      cliIo().out(o.json ? JSON.stringify({ ...report, summary: summaryToJson(report.summary) }, null, 2) + '\n' : formatInspect(report));
    });
}
