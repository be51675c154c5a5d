import type { Command } from 'commander';
import { quietOption } from './options.js';
import { refuseShardFolder } from './resultsFolder.js';
import { purpose } from './commands.js';

export function registerReport(program: Command): void {
  program
    .command('report')
    .description(purpose('report'))
    .argument('<results-dir>', 'a results folder')
    .option('--no-png', 'skip the PNG copies of the figures')
    .option(
      '--single-file',
      'one self-contained index.html to mail: the figures (interactive) and their scripts inline, several MB for a big grid (without it the page shows the SVGs of figures/ and stays small)',
    )
    .addOption(quietOption('no progress lines'))
    .action(async (dir: string, opts: { png: boolean; quiet?: boolean; singleFile?: boolean }) => {
      refuseShardFolder(dir);
      // loaded on demand: vega, vega-lite and resvg would slow every other command's start-up
      const { buildOutputs } = await import('../report/index.js');
      await buildOutputs(dir, { png: opts.png, quiet: opts.quiet, singleFile: opts.singleFile });
    });
}
