import type { Command } from 'commander';
import { outOption, quietOption, wordList } from './options.js';
import { addFilterOptions, parseFilter, type FilterFlags } from './filterOptions.js';
import { refuseShardFolder } from './resultsFolder.js';
import { UserError } from '../util/errors.js';
import { rememberFolderOption } from '../util/folders.js';
import { purpose } from './commands.js';

/** Every figure format `--format` takes; `all` is vl, svg and png. */
export const PLOT_FORMATS = ['vl', 'svg', 'png', 'all'] as const;
export const PLOT_METRICS = ['utility', 'recall'] as const;

interface PlotFlags extends FilterFlags {
  png: boolean;
  quiet?: boolean;
  metric?: string[];
  format?: string[];
  out?: string;
  known?: string;
  top?: string;
  aux?: string;
}

/** A flag's one number, checked (a one-line error naming the flag and what it got). */
function oneNumber(flag: string, v: string | undefined, ok: (x: number) => boolean, what: string): number | undefined {
  if (v === undefined) return undefined;
  const x = Number(v);
  if (v.trim() === '' || !Number.isFinite(x) || !ok(x)) throw new UserError(`${flag}: expected ${what}, got "${v}"`);
  return x;
}

export function registerPlot(program: Command): void {
  const cmd = program.command('plot').description(purpose('plot')).argument('<results-dir>', 'a results folder (utility.csv, nn_distances.csv, ...)');
  addFilterOptions(cmd)
    .option('--metric <metrics...>', `Fig. 2's y axis: ${PLOT_METRICS.join('|')} (default: utility; recall figures are recall-<dataset>)`)
    .option('--format <formats...>', `files per figure: ${PLOT_FORMATS.join('|')} (default: all, that is vl.json, svg and png)`)
    .option('--no-png', 'the same as --format vl,svg')
    .option('--known <share>', "the attack figures' known share of a target's entries (default: 0.5; the grid's nearest)")
    .option('--top <N>', "the frontier's list length N with recommendations (default: 10; the grid's nearest)")
    .option('--aux <share>', "the frontier's auxiliary share of attribute inference, with infer.csv (default: 0.5; the grid's nearest)")
    .addOption(outOption('folder for the figures (default: RESULTS_DIR/figures)'))
    .addOption(quietOption('no progress lines'))
    .action(async (dir: string, o: PlotFlags) => {
      refuseShardFolder(dir);
      const filter = parseFilter(o);
      const metrics = wordList('--metric', o.metric, ['utility'], PLOT_METRICS) as ('utility' | 'recall')[];
      const words = wordList('--format', o.format, ['all'], PLOT_FORMATS);
      if (o.format && o.png === false) throw new UserError('--no-png and --format: give one of them (--format vl,svg is --no-png)');
      const formats = words.includes('all') ? (['vl', 'svg', 'png'] as const) : (words as ('vl' | 'svg' | 'png')[]);
      // loaded on demand: vega, vega-lite and resvg would slow every other command's start-up
      const { readResultsFolder, writeFigures, withReleaseMarks } = await import('../report/index.js');
      if (o.out) rememberFolderOption(o.out, '--out'); // a full disk names it
      await writeFigures(await withReleaseMarks(readResultsFolder(dir)), {
        filter,
        metrics: [...new Set(metrics)],
        formats: o.png === false ? ['vl', 'svg'] : [...new Set(formats)],
        outDir: o.out,
        quiet: o.quiet,
        slice: {
          ...(o.known !== undefined ? { known: oneNumber('--known', o.known, (x) => x > 0 && x <= 1, 'a share in (0, 1]') } : {}),
          ...(o.top !== undefined ? { top: oneNumber('--top', o.top, (x) => Number.isInteger(x) && x >= 1, 'a positive integer') } : {}),
          ...(o.aux !== undefined ? { aux: oneNumber('--aux', o.aux, (x) => x > 0 && x < 1, 'a share in (0, 1)') } : {}),
        },
      });
    });
}
