import type { Command } from 'commander';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { cliIo } from './io.js';
import { quietOption } from './options.js';
import { purpose } from './commands.js';

export function registerClaims(program: Command): void {
  program
    .command('claims')
    .description(purpose('claims'))
    .argument('<results-dir>', 'a finished (or merged) results folder')
    .option('--json', 'print the claims as JSON instead of the markdown table')
    .option('--alpha <level>', 'family-wise error level of each claim (Holm)', '0.05')
    .addOption(quietOption('no summary or informational lines on stderr (the scorecard or JSON still goes to stdout)'))
    .action(async (dir: string, opts: { json?: boolean; alpha: string; quiet?: boolean }) => {
      const io = cliIo();
      const { parseAlpha, writeClaims } = await import('../claims/index.js');
      const written = writeClaims(dir, { alpha: parseAlpha(opts.alpha) });
      io.out(opts.json ? written.json : written.markdown);
      // the summary goes to stderr so that --json output stays parseable
      if (!opts.quiet) for (const line of written.lines) io.err(`${line}\n`);
      if (existsSync(join(dir, 'index.html'))) {
        // the report's Claims section reads claims.json: refresh index.html (figures are unchanged)
        const { readResultsFolder, figureEntries, writeReport } = await import('../report/index.js');
        const res = readResultsFolder(dir);
        await writeReport(res, figureEntries(res), { quiet: true });
        if (!opts.quiet) io.err('lshdp: updated the Claims section of index.html\n');
      }
    });
}
