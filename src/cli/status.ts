import type { Command } from 'commander';
import { cliIo } from './io.js';
import { quietOption } from './options.js';
import { purpose } from './commands.js';

export function registerStatus(program: Command): void {
  program
    .command('status')
    .description(purpose('status'))
    .argument('<dir>', 'results folder')
    .argument('[config]', 'a config to check against the folder (a dry run: nothing is computed)')
    .option('--prune', "remove the results no cell of the folder's config uses")
    .option('--json', 'print the status as JSON')
    .addOption(quietOption('with CONFIG: no progress while its data sets load (the status still goes to stdout)'))
    .action(async (dir: string, config: string | undefined, o: { prune?: boolean; json?: boolean; quiet?: boolean }) => {
      // a folder of `lshdp cluster`: its shards first; before the merge there is nothing else
      const { clusterStatus } = await import('../cluster/shardStatus.js');
      const cluster = clusterStatus(dir);
      if (cluster && !o.json) for (const l of cluster.lines) cliIo().out(l + '\n');
      const { existsSync } = await import('node:fs');
      const { join } = await import('node:path');
      if (cluster && !existsSync(join(dir, 'manifest.json'))) {
        if (o.json) cliIo().out(JSON.stringify({ cluster: { record: cluster.record, shards: cluster.shards } }, null, 2) + '\n');
        return;
      }
      const { folderStatus } = await import('../machinery/status.js');
      const st = folderStatus(dir, { prune: o.prune });
      if (o.json) {
        const { lines: _lines, ...rest } = st;
        cliIo().out(JSON.stringify(cluster ? { ...rest, cluster: { record: cluster.record, shards: cluster.shards } } : rest, null, 2) + '\n');
      } else {
        for (const l of st.lines) cliIo().out(l + '\n');
      }
      if (config !== undefined) {
        const { runExperiment } = await import('../pipeline/run.js');
        await runExperiment({ config, out: dir, dryRun: true, report: false, quiet: o.quiet, log: (l) => cliIo().out(l + '\n') });
      }
    });
}
