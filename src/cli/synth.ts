import type { Command } from 'commander';
import { UserError } from '../util/errors.js';
import { PRESETS } from '../data/presets.js';
import type { SynthOptions } from '../data/synth.js';
import { writeFileAtomicSync } from '../util/atomic.js';
import { join } from 'node:path';
import { cliIo } from './io.js';
import { intArg, outOption, quietOption } from './options.js';
import { rememberFolderOption } from '../util/folders.js';
import { purpose } from './commands.js';

interface SynthFlags {
  out: string;
  preset: string;
  users?: number;
  items?: number;
  ratings?: number;
  seed: number;
  quiet?: boolean;
}

/**
 * `--users 50` alone keeps the preset's 60,000 ratings, which 50 users cannot hold: suggest a
 * `--ratings` scaled like the preset (per-user count kept), when that value is itself valid.
 */
function withRatingsHint(e: unknown, o: SynthFlags, resolveSynthOptions: (o: SynthFlags) => SynthOptions): unknown {
  const p = PRESETS[o.preset];
  if (!(e instanceof UserError) || !p || o.ratings !== undefined || (o.users === undefined && o.items === undefined)) return e;
  const users = o.users ?? p.users;
  const suggestion = Math.max(users * p.minPerUser, Math.round((p.ratings / p.users) * users));
  try {
    resolveSynthOptions({ ...o, ratings: suggestion });
  } catch {
    return new UserError(`${e.message}; set --ratings too (it defaults to the preset's ${p.ratings})`);
  }
  return new UserError(`${e.message}; set --ratings too (it defaults to the preset's ${p.ratings}), e.g. --ratings ${suggestion}`);
}

export function registerSynth(program: Command): void {
  program
    .command('synth')
    .description(purpose('synth'))
    .addOption(outOption('output folder').makeOptionMandatory())
    .option('--preset <name>', `one of: ${Object.keys(PRESETS).join(', ')}`, 'small')
    .option('--users <n>', 'number of users', intArg('--users', 1))
    .option('--items <n>', 'number of items (POIs for the foursquare presets)', intArg('--items', 1))
    .option('--ratings <n>', 'number of ratings (check-ins for the foursquare presets)', intArg('--ratings', 1))
    .option('--seed <s>', 'seed', intArg('--seed', 0), 1)
    .addOption(quietOption('no progress bar'))
    .action(async (o: SynthFlags) => {
      // the generator loads only when the command runs
      const { generateSynthetic, resolveSynthOptions } = await import('../data/synth.js');
      let opts: SynthOptions;
      try {
        opts = resolveSynthOptions(o);
      } catch (e) {
        throw withRatingsHint(e, o, resolveSynthOptions);
      }
      const out = cliIo().out;
      const t0 = Date.now();
      const { createProgress } = await import('../util/progress.js');
      rememberFolderOption(o.out, '--out'); // a full disk names it
      const r = generateSynthetic(opts, o.out, createProgress({ quiet: o.quiet }));
      writeFileAtomicSync(join(o.out, 'synth.json'), JSON.stringify(r, null, 2) + '\n');
      const secs = ((Date.now() - t0) / 1000).toFixed(1);
      const kind = r.kind === 'ratings' ? 'ratings' : r.kind === 'checkin-table' ? '(user, venue) pairs' : 'check-ins';
      out(
        `synthetic preset ${opts.preset} (${PRESETS[opts.preset]!.description}), seed ${opts.seed}: ${opts.users} users, ${opts.items} items, ${opts.ratings} ${kind}; read it as format ${r.format}\n`,
      );
      for (const f of r.files) out(`  wrote ${f.path} (${f.lines} lines, ${f.bytes} bytes)\n`);
      out(`  in ${secs} s\n`);
    });
}
