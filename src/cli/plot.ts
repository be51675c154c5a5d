import type { Command } from 'commander';
import { UserError } from '../util/errors.js';

// Placeholder registration; the real command replaces this file.
export function registerPlot(program: Command): void {
  program
    .command('plot')
    .description('rebuild the figures of a results folder from its CSVs (no recomputation)')
    .allowUnknownOption()
    .action(() => {
      throw new UserError('plot: not implemented yet');
    });
}
