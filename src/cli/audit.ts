import type { Command } from 'commander';
import { DEFAULT_SAMPLES, FAMILY_ALPHA, POWER_TARGET } from '../audit/defaults.js';
import type { AuditFlags } from './auditCommand.js';
import { quietOption } from './options.js';
import { purpose } from './commands.js';

export const DEFAULT_PAIRS = 3;
export const DEFAULT_BAND = 0.005;

export function registerAudit(program: Command): void {
  program
    .command('audit')
    .description(purpose('audit'))
    .argument('<config>', 'experiment config (YAML)')
    .option('-o, --out <dir>', 'output folder (default: results/<config name>-audit)')
    .option('--pairs <n>', 'real user pairs per data set within ±band of d', String(DEFAULT_PAIRS))
    .option('--samples <m>', 'samples per (mechanism, κ, ξ) and per real pair', String(DEFAULT_SAMPLES))
    .option('--band <b>', 'half-width of the distance band for real pairs', String(DEFAULT_BAND))
    .option('--json', 'print audit.json to stdout instead of the summary')
    .addHelpText(
      'after',
      `
Verdicts, per (mechanism, κ, ξ); each of the m rows that claim a budget is tested at ${FAMILY_ALPHA}/m:
  violated            a test rejected the claim, or LSHRR's exact tail at its realized per-bit ε
                      exceeds δ (no sampling); correct mechanisms give any violated row with
                      probability <= ${FAMILY_ALPHA}
  no-violation-found  nothing rejected; detectable_inflation is the smallest factor on the claimed ε
                      flagged with probability >= ${POWER_TARGET} at this M: smaller faults may pass
  not-testable        only the black-box test applies and even the clean code might pass at this M
                      (samples_needed says what M would do)
  not-applicable      no budget claimed (lsh)

What M = ${DEFAULT_SAMPLES} samples (--samples) see on configs/audit.yaml (d 0.1, δ 0.01):
  lshrr (paper, theorem)  exact tail: flags ×1.19–2.08 (paper), ×1.45–2.62 (theorem) on the per-bit ε
  lshrr-exact             exact tail: any inflation (×1.00001); naive: violated in every row
  vmf, purkayastha        angle law: ×1.04–1.72 on the concentration
  rappor                  black-box on {a} vs {b}: ×1.5–2 at ξ <= 5; not-testable at ξ 10, 20
  laplsh                  black-box: only ×30–100 at ξ <= 5 (none at κ 10, ξ 5); not-testable at ξ 10, 20
Files: audit.json, audit.csv (columns in docs/OUTPUTS.md), audit-cdf.svg, audit.html.
Exit status: 0 when no row is violated, 3 when some row is, 2 on bad input.`,
    )
    .addOption(quietOption('only the verdicts: no lines on the real pairs, the mechanisms not audited or the files written'))
    .action(async (file: string, opts: AuditFlags) => {
      // the audit's modules load only when the command runs
      const { auditCommand } = await import('./auditCommand.js');
      await auditCommand(file, opts);
    });
}
