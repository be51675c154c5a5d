import type { Command } from 'commander';
import { UserError } from '../util/errors.js';

// Placeholder registration; the real command replaces this file.
export function registerMerge(program: Command): void {
  program
    .command('merge')
    .description('merge the results folders of a sharded run into one')
    .allowUnknownOption()
    .action(() => {
      throw new UserError('merge: not implemented yet');
    });
}
