import type { Command } from 'commander';
import { mergeShards } from '../experiment/machinery/merge.js';

export function registerMerge(program: Command): void {
  program
    .command('merge')
    .description('merge the results folders of a sharded run into one')
    .argument('<dirs...>', 'results folders of the shards (lshdp run --shard i/N)')
    .requiredOption('--out <dir>', 'merged results folder')
    .option('--force', 'overwrite a results folder of another config')
    .option('--no-report', 'do not build figures, tables and index.html')
    .option('--no-png', 'write the figures as Vega-Lite specs and SVG only (no PNG)')
    .option('--quiet', 'no informational lines')
    .action(async (dirs: string[], o: { out: string; force?: boolean; report: boolean; png: boolean; quiet?: boolean }) => {
      await mergeShards(dirs, { out: o.out, force: o.force, report: o.report, png: o.png, quiet: o.quiet });
    });
}
