import type { Command } from 'commander';
import { DEFAULT_SAMPLES, EXIT_LAW_MISMATCH, EXIT_VIOLATED, FAMILY_ALPHA, NOT_TESTABLE_FACTOR, POWER_TARGET } from '../audit/defaults.js';
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
  violated            one-sided: a test found more privacy loss than claimed — the release's own
                      parameter (LSHRR: the per-bit ε of its flips on the bits where the pair's codes
                      differ; VMF, Purkayastha: the concentration; a release of reals or symbols: the
                      scale of its noise or its keep rate against the law it declares) above the
                      largest the claim allows,
                      ε_lb above the claimed ε, or LSHRR's exact tail at its declared ε above δ;
                      correct mechanisms give any violated row with probability <= ${FAMILY_ALPHA}
  law-mismatch        nothing shows more loss than claimed, but the release departs from the law its
                      declared parameters give; law_direction: safer (it flips or spreads more),
                      riskier (less, yet within the claim) or crossing: a bug, not a broken claim
  no-violation-found  nothing rejected; detectable_inflation is the smallest factor on the release's
                      own ε (simulated through its encode) flagged with probability >= ${POWER_TARGET} at this
                      M: smaller faults may pass
  not-testable        no inflation up to ×${NOT_TESTABLE_FACTOR} would be flagged with probability >= ${POWER_TARGET} at this M
                      (samples_needed says about what M would do)
  not-applicable      no budget claimed (lsh)

What M = ${DEFAULT_SAMPLES} samples (--samples) see on configs/audit.yaml (d 0.1, δ 0.01), detectable_inflation:
  lshrr (paper, theorem)  flip rate: ×1.40–2.61 (paper), ×1.66–3.47 (theorem) on the flips' ε
  lshrr-exact             flip rate: ×1.05–1.31; naive: violated in every row
  vmf, purkayastha        concentration: ×1.09–2.21 (vmf), ×1.05–2.14 (purkayastha)
  rappor                  black-box on {a} vs {b}: ×1.5–2 at ξ <= 5; not-testable at ξ 10, 20
  laplsh                  black-box: only ×30–100 where testable; not-testable at ξ >= 10, and
                          at ξ 5 for κ 10, 20
  jl-gaussian (3 guarantees)  gaussian scale of its residuals: ×1.006–1.024 on its precision 1/σ
A plugin is audited as its declarations allow: per-bit flips (epsilon_bit with flipsBits or the role
bitwise-rr) as LSHRR; an ε_LDP alone (epsilon_bit null) against that LDP claim on any pair, δ 0.
Files: audit.json, audit.csv (columns in docs/OUTPUTS.md), audit-cdf.svg, audit.html.
Exit status: 0 when no row is violated or law-mismatch, ${EXIT_VIOLATED} when some row is violated,
${EXIT_LAW_MISMATCH} when none is but some row is law-mismatch, 2 on bad input.`,
    )
    .addOption(quietOption('only the verdicts: no lines on the real pairs, the mechanisms not audited or the files written'))
    .action(async (file: string, opts: AuditFlags) => {
      // the audit's modules load only when the command runs
      const { auditCommand } = await import('./auditCommand.js');
      await auditCommand(file, opts);
    });
}
