import type { Command } from 'commander';
import type { MechanismFacts } from '../mechanisms/catalog.js';
import { cliIo } from './io.js';
import { purpose } from './commands.js';

/**
 * What "algorithm version N" means, printed under the list when a mechanism has one: the number
 * lshdp bumps when a change to a mechanism alters its numbers (declared in each mechanism's facts.ts, src/mechanisms/<unit>/).
 */
export const ALGORITHM_VERSION_NOTE =
  'algorithm version N: the version of how a mechanism draws its noise; it changes when a change to lshdp alters the mechanism’s numbers, and lshdp run then recomputes that mechanism’s stored results (the others are reused). A mechanism without one has had a single algorithm.';

/** One line per mechanism: name, what it does, the config options it takes and its accountants. */
export function mechanismLine(m: MechanismFacts, width: number): string {
  const extras: string[] = [];
  if (m.optionKeys && m.optionKeys.length > 0) extras.push(`options: ${m.optionKeys.join(', ')}`);
  // the first accountant is the default (Mechanism.accountants)
  if (m.accountants && m.accountants.length > 0) extras.push(`accountant: ${m.accountants.map((a, i) => (i === 0 ? `${a} (default)` : a)).join(', ')}`);
  if (m.algorithm) extras.push(`algorithm version ${m.algorithm}`);
  return `${m.name.padEnd(width)}  ${m.description}${extras.length ? `; ${extras.join('; ')}` : ''}`;
}

export function registerMechanisms(program: Command): void {
  program
    .command('mechanisms')
    .description(purpose('mechanisms'))
    .option('--json', 'print a JSON array')
    .action(async (o: { json?: boolean }) => {
      // the built-ins' facts only: no sampler, kernel or accountant is loaded to list them
      const { BUILT_IN_FACTS } = await import('../mechanisms/catalog.js');
      const ms = BUILT_IN_FACTS;
      if (o.json) {
        const rows = ms.map((m) => ({ name: m.name, description: m.description, options: [...(m.optionKeys ?? [])], accountants: [...(m.accountants ?? [])], algorithm: m.algorithm ?? null }));
        cliIo().out(JSON.stringify(rows, null, 2) + '\n');
        return;
      }
      const width = Math.max(...ms.map((m) => m.name.length));
      const note = ms.some((m) => m.algorithm) ? `\n${ALGORITHM_VERSION_NOTE}\n` : '';
      cliIo().out(ms.map((m) => mechanismLine(m, width) + '\n').join('') + note);
    });
}
