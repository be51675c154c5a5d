import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import type { RunOptions } from '../pipeline/run.js';
import { UserError } from '../util/errors.js';
import { describeFailure } from './failure.js';
import { cliIo } from './io.js';
import { cacheDirOption, forceOption, noCacheOption, outOption, quietOption, threadsOption, wrapParagraphs } from './options.js';
import { purpose } from './commands.js';

interface RunFlags {
  out?: string;
  threads?: number;
  force?: boolean;
  shard?: string;
  quiet?: boolean;
  report: boolean;
  png?: boolean;
  skipBadRows?: boolean;
  cacheDir?: string;
  cache: boolean;
  set?: string[];
  dryRun?: boolean;
  dataDir?: string;
  fetch?: boolean;
  shards?: string;
  shardBase?: string;
  mirror?: string;
  watch?: boolean;
}

/** `--set a=1 --set b=2` collects every value, in order. */
function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}

/**
 * The paragraphs after the options of `run --help`, one string per paragraph: wrapped when printed
 * (wrapParagraphs), at the width commander wraps the options at.
 */
const RUN_HELP_AFTER = [
  "Recommendations: a config block recommend: {split: last|random, holdout: 1, top: [10, 20]} holds out each user's last (or random) items, builds the vectors from the rest and scores the top-N lists each mechanism's neighbours recommend: recommend.csv (HR@N, NDCG@N, item recall@N, with the exact and pop baselines) beside utility.csv, which is then on the training vectors; e.g. --set recommend.top=[5,10]. docs/RECOMMEND.md; configs/shared-movielens-small-recommend.yaml.",
  'Linkage attack (docs/ATTACKS.md): a top-level block attack: {known: [0.5, 1], targets: 5000} also ranks every released code by Hamming distance to the clean code of a partial profile (a share "known" of a target\'s non-zero entries) of up to "targets" users per trial, and writes attack.csv; added to a finished grid, it computes only the attack.',
  'Attribute inference (docs/ATTACKS.md): a top-level block infer: {aux: [0.5], k: 10, targets: 5000} gives an adversary the item sets of a share "aux" of the users and the public hash functions, ranks each other user\'s items by the votes of the k users whose clean codes are nearest to its released code, and writes infer.csv (auc, prec10, with the prior and null baselines); added to a finished grid, it computes only itself.',
];

export function registerRun(program: Command): void {
  program
    .command('run')
    .description(purpose('run'))
    .argument('<config>', 'experiment config (YAML), e.g. configs/quickstart.yaml')
    .addOption(outOption('results folder (default: results/<config name>)'))
    .addOption(threadsOption())
    .addOption(forceOption('recompute every result, and replace the results of a config with another name'))
    .option('--set <key=value>', 'override a config value (YAML), e.g. --set kappa=[20,50] --set privacy.xi=[1,5] (repeatable)', collect)
    .option('--dry-run', 'print the grid and how many results would be computed and reused, with a rough time; compute nothing')
    .option('--shard <i/N>', 'compute only shard i of N (combine the folders with lshdp merge); auto: the shard of a Slurm array task or a Kubernetes Indexed Job (with --shards)')
    .option('--shards <n>', 'with --shard auto: the number of shards N (default: $LSHDP_SHARDS)')
    .option('--shard-base <b>', 'with --shard auto: the engine index of shard 1 (default: 0)')
    .option('--data-dir <dir>', 'data folder of the data sets a config names with dataset: (default: $LSHDP_DATA_DIR, else data/)')
    .option('--fetch', 'fetch the named data sets that are not installed first (lshdp data fetch)')
    .option('--mirror <base>', 'with --fetch: fetch from BASE followed by the official URL path')
    .option('--skip-bad-rows', 'skip malformed data rows (reports how many and where) instead of stopping')
    .addOption(cacheDirOption('cache of parsed vectors, exact neighbours and trial setups (setups kept within $LSHDP_SETUP_CACHE_MB megabytes, 2048 when unset)'))
    .addOption(noCacheOption())
    .option('--no-report', 'do not build figures, tables and index.html')
    .option('--no-png', 'write the figures as Vega-Lite specs and SVG only (no PNG)')
    .addOption(quietOption())
    .option('--watch', 'run again each time the config file changes, in this warm process (Ctrl-C to stop); a failed run is reported and the watch goes on')
    .addHelpText('after', (context) => wrapParagraphs(RUN_HELP_AFTER, context.command))
    .action(async (config: string, o: RunFlags, cmd: Command) => {
      // outputs current by the rerun key: answered before the experiment's modules load
      if (await currentRerun(config, o)) return;
      // the experiment's modules load only when a command runs one (lshdp --help stays instant)
      const [{ runExperiment }, { parseShard }] = await Promise.all([import('../pipeline/run.js'), import('../machinery/shards.js')]);
      if (o.shard !== 'auto' && (o.shards !== undefined || o.shardBase !== undefined)) throw new UserError(`${o.shards !== undefined ? '--shards' : '--shard-base'}: only with --shard auto`);
      const shard = o.shard === 'auto' ? (await import('../cluster/engineShard.js')).autoShard({ shards: o.shards, base: o.shardBase }) : o.shard !== undefined ? parseShard(o.shard) : null;
      if (o.fetch) await fetchMissing(config, o.set ?? [], { dataDir: o.dataDir, mirror: o.mirror, quiet: o.quiet });
      else if (o.mirror !== undefined) throw new UserError('--mirror: only with --fetch');
      if (o.watch && (o.dryRun || shard)) throw new UserError(`--watch: not with ${o.dryRun ? '--dry-run' : '--shard'}`);
      const resumeHint = `run the same command again: lshdp ${process.argv.slice(2).join(' ')}`;
      const options: RunOptions = {
        config,
        out: o.out,
        threads: o.threads,
        force: o.force,
        shard,
        quiet: o.quiet,
        report: o.report,
        png: o.png,
        skipBadRows: o.skipBadRows,
        cacheDir: o.cache ? (o.cacheDir ?? 'data/cache') : null,
        resumeHint,
        overrides: o.set ?? [],
        dryRun: o.dryRun,
        dataDir: o.dataDir,
      };
      if (!o.watch) {
        await runExperiment(options);
        return;
      }
      const { watchExperiment } = await import('../pipeline/watch.js');
      // the program's own --debug (the argv main was given, not this process's: main runs in-process too)
      const debug = cmd.optsWithGlobals<{ debug?: boolean }>().debug === true;
      await watchExperiment(options, { onFailure: (e) => cliIo().err(describeFailure(e, debug).text) });
    });
}

/**
 * A plain rerun (no --force, --shard, --dry-run, --fetch or --watch) whose folder's outputs are
 * current by its rerun key (src/machinery/rerun.ts): its lines said, true; else false, and the run
 * goes its usual way. Without --out the folder is results/<the config's name>, read from its YAML.
 */
async function currentRerun(config: string, o: RunFlags): Promise<boolean> {
  if (o.force || o.dryRun || o.watch || o.fetch || o.shard !== undefined || o.shards !== undefined || o.shardBase !== undefined || o.mirror !== undefined) return false;
  const overrides = o.set ?? [];
  let outDir = o.out;
  if (outDir === undefined) {
    if (overrides.some((s) => /^\s*name\s*=/.test(s))) return false;
    try {
      const { parse } = await import('../vendor/yaml.js');
      const name = (parse(readFileSync(config, 'utf8')) as { name?: unknown } | null)?.name;
      if (typeof name !== 'string') return false;
      outDir = join('results', name);
    } catch {
      return false;
    }
  }
  const { currentByRerunKey, upToDateLines } = await import('../machinery/rerun.js');
  const args = { config, outDir, overrides, dataDir: o.dataDir, skipBadRows: o.skipBadRows ?? false, report: o.report !== false, png: o.png !== false };
  const results = currentByRerunKey(args, o.cache ? (o.cacheDir ?? 'data/cache') : null);
  if (results === null) return false;
  if (!o.quiet) for (const line of upToDateLines(outDir, results)) process.stderr.write(`${line}\n`);
  return true;
}

/** `run --fetch`: the config's named data sets that are not installed, fetched before the run. */
async function fetchMissing(config: string, overrides: string[], o: { dataDir?: string; mirror?: string; quiet?: boolean }): Promise<void> {
  const [{ loadConfig }, { installState }, { dataFolder, registryEntry }, { fetchNamed }] = await Promise.all([
    import('../experiment/config.js'),
    import('../data/fetch/install.js'),
    import('../data/registry.js'),
    import('./dataFetchRun.js'),
  ]);
  const cfg = loadConfig(config, { overrides, dataDir: o.dataDir });
  const dir = dataFolder(o.dataDir);
  const names = [...new Set(cfg.datasets.flatMap((d) => (d.dataset !== undefined ? [d.dataset] : [])))];
  const missing = names.filter((n) => installState(registryEntry(n)!, dir).state === 'missing');
  if (missing.length > 0) await fetchNamed(missing, { dataDir: dir, mirror: o.mirror, quiet: o.quiet });
}
