import type { Command } from 'commander';
import { UserError } from '../util/errors.js';

// Placeholder registration; the real command replaces this file.
export function registerData(program: Command): void {
  program
    .command('data')
    .description('inspect a data file: users, items, kept/dropped per n, 1-NN distances')
    .allowUnknownOption()
    .action(() => {
      throw new UserError('data: not implemented yet');
    });
}
