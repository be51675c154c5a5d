import type { Command } from 'commander';
import { UserError } from '../util/errors.js';

// Placeholder registration; the real command replaces this file.
export function registerToy(program: Command): void {
  program
    .command('toy')
    .description('the exact two-dimensional toy example of Sect. 4 (LSH leakage)')
    .allowUnknownOption()
    .action(() => {
      throw new UserError('toy: not implemented yet');
    });
}
