import type { Command } from 'commander';
import { UserError } from '../util/errors.js';
import { forceOption, outOption, quietOption } from './options.js';
import { defaultMergeOut } from './resultsFolder.js';
import { purpose } from './commands.js';

export function registerMerge(program: Command): void {
  program
    .command('merge')
    .description(purpose('merge'))
    .argument('<dirs...>', 'results folders of the shards (lshdp run --shard i/N)')
    .addOption(outOption("merged results folder (default: results/<config name>, the name in the shards' manifest)"))
    .addOption(forceOption('overwrite a results folder of another config'))
    .option('--no-report', 'do not build figures, tables and index.html')
    .option('--no-png', 'write the figures as Vega-Lite specs and SVG only (no PNG)')
    .addOption(quietOption('no informational lines'))
    .action(async (dirs: string[], o: { out?: string; force?: boolean; report: boolean; png: boolean; quiet?: boolean }) => {
      const out = o.out ?? defaultMergeOut(dirs);
      // no name to default to: the first folder is not a finished results folder
      if (out === null) throw new UserError(`${dirs[0]}: not an lshdp results folder (no manifest.json naming its config; was its shard run to completion?)`);
      const { mergeShards } = await import('../pipeline/merge.js');
      await mergeShards(dirs, { out, force: o.force, report: o.report, png: o.png, quiet: o.quiet });
    });
}
