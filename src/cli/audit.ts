import type { Command } from 'commander';
import { DEFAULT_SAMPLES } from '../audit/defaults.js';
import type { AuditFlags } from './auditCommand.js';
import { quietOption } from './options.js';

export const DEFAULT_PAIRS = 3;
export const DEFAULT_BAND = 0.005;

export function registerAudit(program: Command): void {
  program
    .command('audit')
    .description('empirical privacy audit of every mechanism of a config (tail of the privacy loss, black-box ε lower bound, verdicts)')
    .argument('<config>', 'experiment config (YAML)')
    .option('-o, --out <dir>', 'output folder (default: results/<config name>-audit)')
    .option('--pairs <n>', 'real user pairs per data set within ±band of d', String(DEFAULT_PAIRS))
    .option('--samples <m>', 'samples per (mechanism, κ, ξ) and per real pair', String(DEFAULT_SAMPLES))
    .option('--band <b>', 'half-width of the distance band for real pairs', String(DEFAULT_BAND))
    .option('--json', 'print audit.json to stdout instead of the summary')
    .addOption(quietOption('only the verdicts: no lines on the real pairs, the mechanisms not audited or the files written'))
    .action(async (file: string, opts: AuditFlags) => {
      // the audit's modules load only when the command runs
      const { auditCommand } = await import('./auditCommand.js');
      await auditCommand(file, opts);
    });
}
