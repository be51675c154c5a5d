import type { Command } from 'commander';
import { UserError } from '../util/errors.js';

// Placeholder registration; the real command replaces this file.
export function registerRun(program: Command): void {
  program
    .command('run')
    .description('run an experiment config: ingest, mechanisms over the grid, results, figures, report')
    .allowUnknownOption()
    .action(() => {
      throw new UserError('run: not implemented yet');
    });
}
