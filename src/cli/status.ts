import type { Command } from 'commander';
import { cliIo } from './io.js';

export function registerStatus(program: Command): void {
  program
    .command('status')
    .description('what a results folder holds (config, grid, results per axis); with CONFIG, what that config would reuse and compute there')
    .argument('<dir>', 'results folder')
    .argument('[config]', 'a config to check against the folder (a dry run: nothing is computed)')
    .option('--prune', "remove the results no cell of the folder's config uses")
    .option('--json', 'print the status as JSON')
    .action(async (dir: string, config: string | undefined, o: { prune?: boolean; json?: boolean }) => {
      const { folderStatus } = await import('../experiment/machinery/status.js');
      const st = folderStatus(dir, { prune: o.prune });
      if (o.json) {
        const { lines: _lines, ...rest } = st;
        cliIo().out(JSON.stringify(rest, null, 2) + '\n');
      } else {
        for (const l of st.lines) cliIo().out(l + '\n');
      }
      if (config !== undefined) {
        const { runExperiment } = await import('../pipeline/run.js');
        await runExperiment({ config, out: dir, dryRun: true, report: false, log: (l) => cliIo().out(l + '\n') });
      }
    });
}
