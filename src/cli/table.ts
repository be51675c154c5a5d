import type { Command } from 'commander';
import { UserError } from '../util/errors.js';

// Placeholder registration; the real command replaces this file.
export function registerTable(program: Command): void {
  program
    .command('table')
    .description('print the privacy-budget table or a utility-loss table')
    .allowUnknownOption()
    .action(() => {
      throw new UserError('table: not implemented yet');
    });
}
