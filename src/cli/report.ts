import type { Command } from 'commander';
import { UserError } from '../util/errors.js';

// Placeholder registration; the real command replaces this file.
export function registerReport(program: Command): void {
  program
    .command('report')
    .description('write the HTML report of a results folder')
    .allowUnknownOption()
    .action(() => {
      throw new UserError('report: not implemented yet');
    });
}
