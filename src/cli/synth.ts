import type { Command } from 'commander';
import { UserError } from '../util/errors.js';
import { createProgress } from '../util/progress.js';
import { generateSynthetic, resolveSynthOptions, PRESETS } from '../data/synth.js';
import { writeFileAtomicSync } from '../util/atomic.js';
import { join } from 'node:path';

function int(flag: string): (v: string) => number {
  return (v) => {
    if (!/^-?\d+$/.test(v.trim())) throw new UserError(`${flag}: expected an integer, got "${v}"`);
    return Number(v);
  };
}

export function registerSynth(program: Command): void {
  program
    .command('synth')
    .description('write a synthetic data set in a real file format')
    .requiredOption('--out <dir>', 'output folder')
    .option('--preset <name>', `one of: ${Object.keys(PRESETS).join(', ')}`, 'small')
    .option('--users <n>', 'number of users', int('--users'))
    .option('--items <n>', 'number of items (POIs for the foursquare presets)', int('--items'))
    .option('--ratings <n>', 'number of ratings (check-ins for the foursquare presets)', int('--ratings'))
    .option('--seed <s>', 'seed', int('--seed'), 1)
    .option('--quiet', 'no progress bar')
    .action((o: { out: string; preset: string; users?: number; items?: number; ratings?: number; seed: number; quiet?: boolean }) => {
      const opts = resolveSynthOptions(o);
      const t0 = Date.now();
      const r = generateSynthetic(opts, o.out, createProgress({ quiet: o.quiet }));
      writeFileAtomicSync(join(o.out, 'synth.json'), JSON.stringify(r, null, 2) + '\n');
      const secs = ((Date.now() - t0) / 1000).toFixed(1);
      process.stdout.write(`synthetic preset ${opts.preset} (${PRESETS[opts.preset]!.description}), seed ${opts.seed}: ${opts.users} users, ${opts.items} items, ${opts.ratings} ${r.kind === 'ratings' ? 'ratings' : 'check-ins'}; read it as format ${r.format}\n`);
      for (const f of r.files) process.stdout.write(`  wrote ${f.path} (${f.lines} lines, ${f.bytes} bytes)\n`);
      process.stdout.write(`  in ${secs} s\n`);
    });
}
