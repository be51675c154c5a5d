/**
 * `lshdp choose DIR`: utility at matched attack success (docs/ATTACKS.md): per (data set, n, κ),
 * each entry's ξ* where its attack success crosses the target, u* there, how sure (bootstrap over
 * trials), one release's bound, and the best entry or the tie. Targets from the flags (which replace
 * the block's), else from the folder config's `decide:` block.
 */
import type { Command } from 'commander';
import { UserError } from '../util/errors.js';
import { cliIo } from './io.js';
import { purpose } from './commands.js';
import { FORMATS, parseFormat } from './tableOptions.js';
import { refuseShardFolder } from './resultsFolder.js';

interface ChooseFlags {
  reid1?: string;
  known?: string;
  aucAdv?: string;
  aux?: string;
  k?: string;
  alpha: string;
  format: string;
  json?: boolean;
}

/** A flag's number in [min, max] (a one-line error otherwise), or undefined when not given. */
export function numberFlag(flag: string, s: string | undefined, min: number, max: number, integer = false): number | undefined {
  if (s === undefined) return undefined;
  const x = Number(s);
  if (s.trim() === '' || !Number.isFinite(x) || x < min || x > max || (integer && !Number.isInteger(x))) {
    throw new UserError(`${flag}: "${s}" is not ${integer ? 'an integer' : 'a number'} in [${min}, ${max}]`);
  }
  return x;
}

export function registerChoose(program: Command): void {
  program
    .command('choose')
    .description(purpose('choose'))
    .argument('<results-dir>', 'a finished (or merged) results folder with attack values (config attack) or inference values (config infer)')
    .option('--reid1 <T>', 'target: reid@1 of the linkage attack at the known share at most T (e.g. 0.01)')
    .option('--known <K>', "the attack's known share the target reads: one of attack.known (without it, the decide: block's, else the nearest to 0.5)")
    .option('--auc-adv <T>', "target: attribute inference's auc advantage over null at most T (e.g. 0.01); with --reid1, ξ* is the smaller crossing")
    .option('--aux <A>', "the inference's auxiliary share: one of infer.aux (without it, the decide: block's, else the nearest to 0.5)")
    .option('--k <k>', "the utility loss's number of neighbours: one of k (without it, the decide: block's, else the nearest to 10)")
    .option('--alpha <level>', 'level of the ranking (paired two-sided t tests over the bootstrap between every two entries, Holm over the pairs of a table)', '0.05')
    .option('--format <fmt>', `output format: ${FORMATS.join('|')}`, 'md')
    .option('--json', 'the same as --format json: one object per row')
    .action(async (dir: string, opts: ChooseFlags) => {
      const format = opts.json ? 'json' : parseFormat(opts.format);
      const reid1 = numberFlag('--reid1', opts.reid1, 0, 1);
      const aucAdv = numberFlag('--auc-adv', opts.aucAdv, -1, 1);
      const flags = { known: numberFlag('--known', opts.known, 0, 1), aux: numberFlag('--aux', opts.aux, 0, 1), k: numberFlag('--k', opts.k, 1, Number.MAX_SAFE_INTEGER, true) };
      refuseShardFolder(dir);
      const [{ parseAlpha }, { chooseTables }, { readFolderCells }, { decideTargets }, { matchedTables }] = await Promise.all([
        import('../claims/write.js'),
        import('../decide/choose.js'),
        import('../decide/read.js'),
        import('../decide/targets.js'),
        import('../report/matchedTable.js'),
      ]);
      const alpha = parseAlpha(opts.alpha);
      const { config, targets } = decideTargets(dir, { reid1, aucAdv, ...flags });
      const tables = targets.flatMap((t) => chooseTables(dir, t, alpha, readFolderCells(dir, t, config)));
      cliIo().out(matchedTables(tables, format));
    });
}
