import type { Command } from 'commander';
import { readResultsFolder } from '../report/read.js';
import { writeFigures } from '../report/index.js';

export function registerPlot(program: Command): void {
  program
    .command('plot')
    .description('rebuild the figures of a results folder from its CSVs (no recomputation)')
    .argument('<results-dir>', 'a results folder (utility.csv, nn_distances.csv, ...)')
    .option('--no-png', 'write only the Vega-Lite specs and SVGs')
    .option('-q, --quiet', 'no progress lines')
    .action(async (dir: string, opts: { png: boolean; quiet?: boolean }) => {
      await writeFigures(readResultsFolder(dir), { png: opts.png, quiet: opts.quiet });
    });
}
