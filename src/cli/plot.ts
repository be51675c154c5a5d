import type { Command } from 'commander';

export function registerPlot(program: Command): void {
  program
    .command('plot')
    .description('rebuild the figures of a results folder from its CSVs (no recomputation)')
    .argument('<results-dir>', 'a results folder (utility.csv, nn_distances.csv, ...)')
    .option('--no-png', 'write only the Vega-Lite specs and SVGs')
    .option('-q, --quiet', 'no progress lines')
    .action(async (dir: string, opts: { png: boolean; quiet?: boolean }) => {
      // loaded on demand: vega, vega-lite and resvg would slow every other command's start-up
      const { readResultsFolder, writeFigures } = await import('../report/index.js');
      await writeFigures(readResultsFolder(dir), { png: opts.png, quiet: opts.quiet });
    });
}
