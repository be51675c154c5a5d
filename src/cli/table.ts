import type { Command } from 'commander';
import { UserError } from '../util/errors.js';
import { didYouMean } from '../util/didYouMean.js';
import { addFilterOptions, parseFilter, type FilterFlags } from './filterOptions.js';
import { refuseShardFolder } from './resultsFolder.js';
import { cliIo } from './io.js';
import { numberList, splitList, wordList } from './options.js';
import type { TableFormat } from '../report/tables.js';
import type { AttackFilter } from '../report/filter.js';
// the units' facts without their code: what `table budgets --mechanism` accepts (the mechanisms with
// budget rows: LSHRR, one row per accountant, and the directional ones) and LSHRR's name
import { ACCOUNTANT_ROWS_MECHANISM as RR, BUDGET_MECHANISMS, builtInFacts } from '../mechanisms/catalog.js';
import { purpose } from './commands.js';

const FORMATS: TableFormat[] = ['md', 'csv', 'latex', 'json'];

/** The appendix's grid (Table "Total privacy budgets in extended DP and LDP"). */
export const APPENDIX_GRID = { d: [0.05, 0.1], kappa: [10, 20, 50], xi: [1, 5, 10, 20], delta: 0.01 };

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

function parseFormat(s: string): TableFormat {
  if (!(FORMATS as string[]).includes(s)) throw new UserError(`--format: "${s}" is not one of ${FORMATS.join(', ')}`);
  return s as TableFormat;
}

/** A list flag's numbers, each one the file has (else a one-line error listing what it has); undefined when not given. */
function onlyValues(flag: string, words: string[] | undefined, have: number[], file: string, rule: Parameters<typeof numberList>[3]): number[] | undefined {
  if (!words) return undefined;
  const wanted = numberList(flag, words, [], rule);
  const present = [...new Set(have)];
  const missing = wanted.filter((v) => !present.includes(v));
  if (missing.length) throw new UserError(`${flag}: ${missing.join(', ')} not in ${file} (it has ${present.join(', ') || 'none'})`);
  return wanted;
}

export function registerTable(program: Command): void {
  const table = program.command('table').description(purpose('table'));

  table
    .command('budgets')
    .description("LDP budget κε against ξ (the paper's appendix table; defaults: its grid)")
    .option('--d <values...>', 'angular distances d_θ (comma or space separated)', undefined)
    .option('--kappa <values...>', 'hash lengths κ', undefined)
    .option('--xi <values...>', 'total budgets ξ in extended DP', undefined)
    .option('--delta <value>', 'δ of the tighter bound', '0.01')
    .option('--accountant <names...>', 'LSHRR accountants: paper|exact|theorem|naive (comma or space separated)', undefined)
    .option('--mechanism <names...>', `mechanisms: ${BUDGET_MECHANISMS.join('|')} (default: ${RR}; comma or space separated)`, undefined)
    .option('--format <fmt>', `output format: ${FORMATS.join('|')}`, 'md')
    .action(async (opts: { d?: string[]; kappa?: string[]; xi?: string[]; delta: string; accountant?: string[]; mechanism?: string[]; format: string }) => {
      const format = parseFormat(opts.format);
      const d = numberList('--d', opts.d, APPENDIX_GRID.d);
      const kappa = numberList('--kappa', opts.kappa, APPENDIX_GRID.kappa);
      const xi = numberList('--xi', opts.xi, APPENDIX_GRID.xi);
      const delta = numberList('--delta', [opts.delta], [APPENDIX_GRID.delta])[0];
      const mechanisms = splitList('--mechanism', opts.mechanism ?? [RR]).map((m) => {
        if (BUDGET_MECHANISMS.includes(m)) return m;
        const near = didYouMean(m, BUDGET_MECHANISMS);
        throw new UserError(`--mechanism: "${m}" is not one of ${BUDGET_MECHANISMS.join(', ')}${near ? ` (did you mean "${near}"?)` : ''}`);
      });
      const [{ budgetRows, directionalBudgetRows, parseAccountant, naiveAccountantWarning }, { budgetsTable }] = await Promise.all([import('../privacy/index.js'), import('../report/tables.js')]);
      // the metric each directional mechanism's concentration is private for, from its own facts
      const metricOf = (name: string) => builtInFacts(name)?.concentrationMetric as 'euclidean' | 'angle';
      if (xi.some((x) => x < 0)) throw new UserError('--xi: budgets must be >= 0');
      const accountants = splitList('--accountant', opts.accountant ?? ['paper']).map((a) => parseAccountant(a, '--accountant'));
      if (opts.accountant && !mechanisms.includes(RR)) throw new UserError(`--accountant: applies to ${RR} only; add ${RR} to --mechanism`);
      if (mechanisms.includes(RR) && accountants.includes('naive')) process.stderr.write(naiveAccountantWarning('--accountant') + '\n');
      const rows = mechanisms.includes(RR) ? budgetRows({ accountants: [...new Set(accountants)], d, kappa, xi, delta }) : [];
      const directional = directionalBudgetRows({
        mechanisms: [...new Set(mechanisms)].filter((m) => m !== RR).map((name) => ({ name, metric: metricOf(name) })),
        d,
        kappa,
        xi,
        delta,
      });
      process.stdout.write(budgetsTable(rows, format, directional));
    });

  const utility = table
    .command('utility')
    .description("utility loss (mean ± se over trials) of a results folder, in utility.csv's column names")
    .argument('<results-dir>', 'a results folder (with utility.csv)');
  addFilterOptions(utility)
    .option('--format <fmt>', `output format: ${FORMATS.join('|')}`, 'md')
    .action(async (dir: string, opts: FilterFlags & { format: string }) => {
      const format = parseFormat(opts.format);
      refuseShardFolder(dir);
      const [{ readUtilityOf }, { filterUtility }, { utilityTable }] = await Promise.all([import('../report/read.js'), import('../report/filter.js'), import('../report/tables.js')]);
      const { file, rows: all } = readUtilityOf(dir);
      const rows = filterUtility(all, parseFilter(opts), file);
      cliIo().out(utilityTable(rows, format));
    });

  registerRecommendTable(table);
  registerAttackTable(table);
}

/** `lshdp table recommend` (recommend.csv: docs/RECOMMEND.md). */
function registerRecommendTable(table: Command): void {
  const recommend = table
    .command('recommend')
    .description("HR@N, NDCG@N and item recall@N (mean ± se over trials) of a results folder, in recommend.csv's column names")
    .argument('<results-dir>', 'a results folder of a run with a recommend block (with recommend.csv)');
  addFilterOptions(recommend)
    .option('--top <values...>', 'only these list lengths N')
    .option('--xi <values...>', 'only these ξ (rows without ξ are kept)')
    .option('--wide', 'NDCG only, one row per (data set, n, κ) and one column per mechanism, its ξ side by side (md; needs one k and one N)')
    .option('--format <fmt>', `output format: ${FORMATS.join('|')}`, 'md')
    .action(async (dir: string, opts: FilterFlags & { top?: string[]; xi?: string[]; wide?: boolean; format: string }) => {
      const format = parseFormat(opts.format);
      if (opts.wide && format !== 'md') throw new UserError('--wide: prints markdown only (leave out --format, or use --format md)');
      refuseShardFolder(dir);
      const [{ readRecommendOf }, { filterUtility }, { recommendTable, recommendWideTable }] = await Promise.all([
        import('../report/read.js'),
        import('../report/filter.js'),
        import('../report/recommendTable.js'),
      ]);
      const { file, rows: all } = readRecommendOf(dir);
      const top = onlyValues(
        '--top',
        opts.top,
        all.map((r) => r.top),
        file,
        { integer: true, min: 1 },
      );
      const xi = onlyValues(
        '--xi',
        opts.xi,
        all.flatMap((r) => (r.xi === null ? [] : [r.xi])),
        file,
        { min: 0 },
      );
      const rows = filterUtility(all, parseFilter(opts), file).filter((r) => (!top || top.includes(r.top)) && (!xi || r.xi === null || xi.includes(r.xi)));
      cliIo().out(opts.wide ? recommendWideTable(rows) : recommendTable(rows, format));
    });
}

/** `lshdp table attack` (attack.csv: docs/ATTACKS.md). */
function registerAttackTable(table: Command): void {
  table
    .command('attack')
    .description("the linkage attack's re-identification rates (reid@1, reid@10: mean ± se over trials) of a results folder, in attack.csv's column names")
    .argument('<results-dir>', 'a results folder (with attack.csv: a run whose config has an attack block)')
    .option('--mechanisms <labels...>', "only these mechanism labels (attack.csv's mechanism column)")
    .option('--kappa <values...>', 'only these hash lengths κ')
    .option('--n <values...>', 'only these dimensions n')
    .option('--xi <values...>', 'only these budgets ξ (rows without ξ, the no-noise ceiling, are kept)')
    .option('--known <values...>', "only these shares of a target's entries the adversary knows")
    .option('--format <fmt>', `output format: ${FORMATS.join('|')}`, 'md')
    .action(async (dir: string, opts: AttackFlags & { format: string }) => {
      const format = parseFormat(opts.format);
      refuseShardFolder(dir);
      const [{ readAttackOf }, { filterAttack }, { attackTable }] = await Promise.all([import('../report/read.js'), import('../report/filter.js'), import('../report/attackTable.js')]);
      const { file, rows } = readAttackOf(dir);
      cliIo().out(attackTable(filterAttack(rows, parseAttackFilter(opts), file), format));
    });
}
