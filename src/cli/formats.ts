import type { Command } from 'commander';
import { formatUnits } from '../data/formats/index.js';
import { cliIo } from './io.js';
import { purpose } from './commands.js';

/** `lshdp formats`: each format unit's name and description (docs/DATA.md, "Formats"). */
export function registerFormats(program: Command): void {
  program
    .command('formats')
    .description(purpose('formats'))
    .option('--json', 'print a JSON array')
    .action((o: { json?: boolean }) => {
      const units = formatUnits();
      if (o.json) {
        cliIo().out(
          JSON.stringify(
            units.map((u) => ({ format: u.name, reads: u.description })),
            null,
            2,
          ) + '\n',
        );
        return;
      }
      const width = Math.max(...units.map((u) => u.name.length));
      cliIo().out(units.map((u) => `${u.name.padEnd(width)}  ${u.description}\n`).join(''));
    });
}
