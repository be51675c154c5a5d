/**
 * `lshdp calibrate CONFIG --reid1 T`: the grid, then ξ values added near each crossing of an
 * entry's attack success with the target until it is bracketed (src/pipeline/calibrate.ts; the
 * search: src/decide/calibrate.ts). Prints the entries to paste into the config (stdout) and, unless
 * quiet, where each crossing's search ended (stderr). docs/ATTACKS.md "Calibrating ξ".
 */
import type { Command } from 'commander';
import { cliIo } from './io.js';
import { purpose } from './commands.js';
import { numberFlag } from './choose.js';
import { cacheDirOption, intArg, noCacheOption, outOption, quietOption, threadsOption } from './options.js';

interface CalibrateFlags {
  reid1?: string;
  known?: string;
  aucAdv?: string;
  aux?: string;
  k?: string;
  rounds: number;
  out?: string;
  threads?: number;
  set?: string[];
  dataDir?: string;
  cacheDir?: string;
  cache: boolean;
  report: boolean;
  png?: boolean;
  quiet?: boolean;
}

/** the bound on rounds (CALIBRATE_ROUNDS of src/decide/calibrate.ts, not imported: help loads no search; a test checks they agree) */
export const ROUNDS = 8;

const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];

/** One entry as a YAML flow line (`- { name: lshrr, xi: [3.2, 4.1] }`). */
const entryLine = (stringify: (v: unknown, o: object) => string, entry: Record<string, unknown>): string => `  - ${stringify(entry, { collectionStyle: 'flow', lineWidth: 0 }).trim()}`;

export function registerCalibrate(program: Command): void {
  program
    .command('calibrate')
    .description(purpose('calibrate'))
    .argument('<config>', 'experiment config (YAML) with attack: (for --reid1) or infer: (for --auc-adv)')
    .option('--reid1 <T>', 'target: reid@1 of the linkage attack at the known share at most T (e.g. 0.01)')
    .option('--known <K>', "the attack's known share the target reads: one of attack.known (without it, the decide: block's, else the nearest to 0.5)")
    .option('--auc-adv <T>', "target: attribute inference's auc advantage over null at most T; with --reid1, the smaller crossing is calibrated")
    .option('--aux <A>', "the inference's auxiliary share: one of infer.aux (without it, the decide: block's, else the nearest to 0.5)")
    .option('--k <k>', "the utility loss's number of neighbours: one of k (without it, the decide: block's, else the nearest to 10)")
    .option('--rounds <r>', `rounds of added ξ values at most (1 to ${ROUNDS})`, intArg('--rounds', 1), ROUNDS)
    .addOption(outOption('results folder (default: results/<config name>)'))
    .addOption(threadsOption())
    .option('--set <key=value>', 'override a config value (YAML), as lshdp run --set (repeatable)', collect)
    .option('--data-dir <dir>', 'data folder of the data sets a config names with dataset: (default: $LSHDP_DATA_DIR, else data/)')
    .addOption(cacheDirOption('cache of parsed vectors, exact neighbours and trial setups'))
    .addOption(noCacheOption())
    .option('--no-report', 'do not build figures, tables and index.html at the end')
    .option('--no-png', 'write the figures as Vega-Lite specs and SVG only (no PNG)')
    .addOption(quietOption())
    .action(async (config: string, o: CalibrateFlags) => {
      const reid1 = numberFlag('--reid1', o.reid1, 0, 1);
      const aucAdv = numberFlag('--auc-adv', o.aucAdv, -1, 1);
      const targets = { reid1, aucAdv, known: numberFlag('--known', o.known, 0, 1), aux: numberFlag('--aux', o.aux, 0, 1), k: numberFlag('--k', o.k, 1, Number.MAX_SAFE_INTEGER, true) };
      numberFlag('--rounds', String(o.rounds), 1, ROUNDS, true);
      const [{ calibrateExperiment }, { endLines }, { stringify }] = await Promise.all([import('../pipeline/calibrate.js'), import('../pipeline/calibrateEnds.js'), import('../vendor/yaml.js')]);
      const r = await calibrateExperiment({
        config,
        out: o.out,
        threads: o.threads,
        quiet: o.quiet,
        report: o.report,
        png: o.png,
        cacheDir: o.cache ? (o.cacheDir ?? 'data/cache') : null,
        overrides: o.set ?? [],
        dataDir: o.dataDir,
        resumeHint: `run the same command again: lshdp ${process.argv.slice(2).join(' ')}`,
        targets,
        rounds: o.rounds,
      });
      const io = cliIo();
      if (!o.quiet) io.err(`${endLines(r.ends).join('\n')}\n`);
      if (r.added.size === 0) {
        io.out(`# ${r.outDir}: no ξ added (every crossing already resolved on the grid, or none)\n`);
        return;
      }
      const lines = [`# ${r.outDir}: ${r.rounds} rounds, ${r.computed} results computed; its config.yaml holds these entries. Paste them into the config's mechanisms:`];
      const labels = new Set(r.added.keys());
      for (const entry of r.entries) if (labels.has((entry.label ?? entry.name) as string)) lines.push(entryLine(stringify, entry));
      io.out(`${lines.join('\n')}\n`);
    });
}
