import type { Command } from 'commander';
import { cacheDirOption, forceOption, noCacheOption, outOption, quietOption, threadsOption } from './options.js';

interface RunFlags {
  out?: string;
  threads?: number;
  force?: boolean;
  shard?: string;
  quiet?: boolean;
  report: boolean;
  png?: boolean;
  skipBadRows?: boolean;
  cacheDir?: string;
  cache: boolean;
  set?: string[];
  dryRun?: boolean;
}

/** `--set a=1 --set b=2` collects every value, in order. */
function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

export function registerRun(program: Command): void {
  program
    .command('run')
    .description('run an experiment config: ingest, mechanisms over the grid, results, figures, report')
    .argument('<config>', 'experiment config (YAML), e.g. configs/quickstart.yaml')
    .addOption(outOption('results folder (default: results/<config name>)'))
    .addOption(threadsOption())
    .addOption(forceOption('recompute every result, and replace the results of a config with another name'))
    .option('--set <key=value>', 'override a config value (YAML), e.g. --set kappa=[20,50] --set privacy.xi=[1,5] (repeatable)', collect)
    .option('--dry-run', 'print the grid and how many results would be computed and reused, with a rough time; compute nothing')
    .option('--shard <i/N>', 'compute only shard i of N (combine the folders with lshdp merge)')
    .option('--skip-bad-rows', 'skip malformed data rows (reports how many and where) instead of stopping')
    .addOption(cacheDirOption('cache of parsed vectors and exact neighbours'))
    .addOption(noCacheOption())
    .option('--no-report', 'do not build figures, tables and index.html')
    .option('--no-png', 'write the figures as Vega-Lite specs and SVG only (no PNG)')
    .addOption(quietOption())
    .action(async (config: string, o: RunFlags) => {
      // the experiment's modules load only when a command runs one (lshdp --help stays instant)
      const [{ runExperiment }, { parseShard }] = await Promise.all([import('../pipeline/run.js'), import('../experiment/grid.js')]);
      const shard = o.shard !== undefined ? parseShard(o.shard) : null;
      const resumeHint = `run the same command again: lshdp ${process.argv.slice(2).join(' ')}`;
      await runExperiment({
        config,
        out: o.out,
        threads: o.threads,
        force: o.force,
        shard,
        quiet: o.quiet,
        report: o.report,
        png: o.png,
        skipBadRows: o.skipBadRows,
        cacheDir: o.cache ? (o.cacheDir ?? 'data/cache') : null,
        resumeHint,
        overrides: o.set ?? [],
        dryRun: o.dryRun,
      });
    });
}
