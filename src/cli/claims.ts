import type { Command } from 'commander';
import { parseAlpha, writeClaims } from '../claims/index.js';

export function registerClaims(program: Command): void {
  program
    .command('claims')
    .description("test the paper's claims on a results folder: writes claims.json and tables/claims.md, prints the scorecard")
    .argument('<results-dir>', 'a finished (or merged) results folder')
    .option('--json', 'print the claims as JSON instead of the markdown table')
    .option('--alpha <level>', 'family-wise error level of each claim (Holm)', '0.05')
    .action((dir: string, opts: { json?: boolean; alpha: string }) => {
      const written = writeClaims(dir, { alpha: parseAlpha(opts.alpha) });
      process.stdout.write(opts.json ? written.json : written.markdown);
      // the summary goes to stderr so that --json output stays parseable
      for (const line of written.lines) process.stderr.write(`${line}\n`);
    });
}
