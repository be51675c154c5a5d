import type { Command } from 'commander';
import { UserError } from '../util/errors.js';
import { runExperiment } from '../experiment/machinery/runner.js';
import { parseShard } from '../experiment/grid.js';

function positiveInt(flag: string): (v: string) => number {
  return (v) => {
    if (!/^\d+$/.test(v.trim()) || Number(v) < 1) throw new UserError(`${flag}: expected a positive integer, got "${v}"`);
    return Number(v);
  };
}

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
}

export function registerRun(program: Command): void {
  program
    .command('run')
    .description('run an experiment config: ingest, mechanisms over the grid, results, figures, report')
    .argument('<config>', 'experiment config (YAML), e.g. configs/quickstart.yaml')
    .option('--out <dir>', 'results folder (default: results/<config name>)')
    .option('--threads <n>', 'worker threads (default: the number of cores)', positiveInt('--threads'))
    .option('--force', 'recompute every cell, and overwrite a results folder of another config')
    .option('--shard <i/N>', 'compute only shard i of N (combine the folders with lshdp merge)')
    .option('--skip-bad-rows', 'skip malformed data rows (reports how many and where) instead of stopping')
    .option('--cache-dir <dir>', 'cache of parsed vectors and exact neighbours', 'data/cache')
    .option('--no-cache', 'do not read or write the cache')
    .option('--no-report', 'do not build figures, tables and index.html')
    .option('--no-png', 'write the figures as Vega-Lite specs and SVG only (no PNG)')
    .option('--quiet', 'no progress bars or informational lines')
    .action(async (config: string, o: RunFlags) => {
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
      });
    });
}
