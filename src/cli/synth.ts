import type { Command } from 'commander';
import { UserError } from '../util/errors.js';

// Placeholder registration; the real command replaces this file.
export function registerSynth(program: Command): void {
  program
    .command('synth')
    .description('write a synthetic data set in a real file format')
    .allowUnknownOption()
    .action(() => {
      throw new UserError('synth: not implemented yet');
    });
}
