/** `lshdp table attack`: the linkage attack's view of attack.csv (docs/ATTACKS.md). */
import type { Command } from 'commander';
import { UserError } from '../util/errors.js';
import type { AttackFilter } from '../report/filter.js';
import type { EvaluationFacts } from '../evaluations/types.js';
import { refuseShardFolder } from './resultsFolder.js';
import { cliIo } from './io.js';
import { numberList, wordList } from './options.js';
import { FORMATS, parseFormat } from './tableOptions.js';

interface AttackFlags {
  mechanisms?: string[];
  kappa?: string[];
  n?: string[];
  xi?: string[];
  known?: string[];
}

/** `table attack`'s filters (values checked against attack.csv when applied). */
function parseAttackFilter(o: AttackFlags): AttackFilter {
  return {
    ...(o.mechanisms ? { mechanisms: wordList('--mechanisms', o.mechanisms, []) } : {}),
    ...(o.kappa ? { kappa: numberList('--kappa', o.kappa, [], { integer: true, min: 1 }) } : {}),
    ...(o.n ? { n: numberList('--n', o.n, [], { integer: true, min: 1 }) } : {}),
    ...(o.xi ? { xi: numberList('--xi', o.xi, [], { min: 0 }) } : {}),
    ...(o.known ? { known: numberList('--known', o.known, [], { min: 0 }) } : {}),
  };
}

/** `lshdp table attack` (attack.csv: docs/ATTACKS.md). */
export function registerAttackTable(table: Command, facts: EvaluationFacts): void {
  table
    .command(facts.name)
    .description("the linkage attack's re-identification rates (reid@1, reid@10: mean ± se over trials) of a results folder, in attack.csv's column names")
    .argument('<results-dir>', 'a results folder (with attack.csv: a run whose config has an attack block)')
    .option('--mechanisms <labels...>', "only these mechanism labels (attack.csv's mechanism column)")
    .option('--kappa <values...>', 'only these hash lengths κ')
    .option('--n <values...>', 'only these dimensions n')
    .option('--xi <values...>', 'only these budgets ξ (rows without ξ, the no-noise ceiling, are kept)')
    .option('--known <values...>', "only these shares of a target's entries the adversary knows")
    .option('--wide', 'reid@1 only, one row per (data set, n, κ) and one column per mechanism, its ξ side by side (md; needs one known share)')
    .option('--percent', 'the shares (reid@1, reid@10, chance) in % (md and latex)')
    .option('--format <fmt>', `output format: ${FORMATS.join('|')}`, 'md')
    .action(async (dir: string, opts: AttackFlags & { format: string; wide?: boolean; percent?: boolean }) => {
      const format = parseFormat(opts.format);
      if (opts.wide && format !== 'md') throw new UserError('--wide: prints markdown only (leave out --format, or use --format md)');
      if (opts.percent && (format === 'csv' || format === 'json')) throw new UserError(`--percent: md and latex only (${format} keeps attack.csv's shares)`);
      refuseShardFolder(dir);
      const [{ readAttackOf }, { filterAttack }, { attackTable, attackWideTable }, { manifestConfigOf, unreleasableLabels }] = await Promise.all([
        import('../report/read.js'),
        import('../report/filter.js'),
        import('../report/attackTable.js'),
        import('../report/releasable.js'),
      ]);
      const { file, rows } = readAttackOf(dir);
      const shown = filterAttack(rows, parseAttackFilter(opts), file);
      const marks = await unreleasableLabels(manifestConfigOf(dir), shown);
      cliIo().out(opts.wide ? attackWideTable(shown, opts.percent, marks) : attackTable(shown, format, opts.percent, marks));
    });
}
