import type { Command } from 'commander';
import { UserError } from '../util/errors.js';
import { didYouMean } from '../util/didYouMean.js';
import { addFilterOptions, parseFilter, type FilterFlags } from './filterOptions.js';
import { refuseShardFolder } from './resultsFolder.js';
import { cliIo } from './io.js';
import { numberList, splitList } from './options.js';
import { optionalEvaluations } from '../evaluations/catalog.js';
import type { EvaluationFacts } from '../evaluations/types.js';
import { RECOMMEND_FACTS } from '../evaluations/recommend/facts.js';
import { ATTACK_FACTS } from '../evaluations/attack/facts.js';
import { registerRecommendTable } from './tableRecommend.js';
import { registerAttackTable } from './tableAttack.js';
import { FORMATS, parseFormat } from './tableOptions.js';
// the units' facts without their code: what `table budgets --mechanism` accepts (the mechanisms with
// budget rows: LSHRR, one row per accountant, and the directional ones) and LSHRR's name
import { ACCOUNTANT_ROWS_MECHANISM as RR, BUDGET_MECHANISMS, builtInFacts } from '../mechanisms/catalog.js';
import { purpose } from './commands.js';
import type { OwnBudgetRecord } from '../mechanisms/ownBudget.js';

/** The appendix's grid (Table "Total privacy budgets in extended DP and LDP"). */
export const APPENDIX_GRID = { d: [0.05, 0.1], kappa: [10, 20, 50], xi: [1, 5, 10, 20], delta: 0.01 };

/**
 * The rows of the mechanisms with a parameter of their own (jl-gaussian, private MinHash) at their
 * default options and `--option` (each applied to the mechanisms that take its key; a key none takes
 * is an error), with d in each unit's own terms as a run states it (the angular family's: d itself).
 */
async function ownRows(names: readonly string[], words: string[] | undefined, grid: { d: number[]; kappa: number[]; xi: number[]; delta: number }): Promise<OwnBudgetRecord[]> {
  // none asked: the paper's table loads no mechanism (a light command: tests/cli/startup.test.ts)
  if (names.length === 0 && (words ?? []).length === 0) return [];
  const [{ parseOptions }, { getMechanism }, { ownBudgetRows }] = await Promise.all([import('./mechanismOptions.js'), import('../mechanisms/registry.js'), import('../mechanisms/ownBudget.js')]);
  const options = parseOptions(words, false);
  if (Object.keys(options).length > 0 && names.length === 0)
    throw new UserError(
      `--option: applies to the mechanisms with a parameter of their own (${BUDGET_MECHANISMS.filter((m) => builtInFacts(m)?.budgetRows === 'own').join(', ')}); add one to --mechanism`,
    );
  const entries = names.map((name) => {
    const mechanism = getMechanism(name);
    // its options, and `accountant` where it has accountants of its own (private MinHash)
    const keys = [...(mechanism.optionKeys ?? []), ...((mechanism.accountants ?? []).length > 0 ? ['accountant'] : [])];
    const own = Object.fromEntries(Object.entries(options).filter(([k]) => keys.includes(k)));
    // the label says which options it was printed with (the accountant is in the row)
    const shown = Object.entries(own).filter(([k]) => k !== 'accountant');
    const label = shown.length > 0 ? `${name} (${shown.map(([k, v]) => `${k} ${String(v)}`).join(', ')})` : name;
    return { label, mechanism, options: own };
  });
  for (const key of Object.keys(options)) {
    if (!entries.some((e) => key in e.options)) throw new UserError(`--option: ${key}: none of ${names.join(', ')} takes it`);
  }
  return ownBudgetRows(entries, grid);
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
    .option('--option <key=value...>', `options of the mechanisms with a parameter of their own (e.g. --option guarantee=every-w)`)
    .option('--format <fmt>', `output format: ${FORMATS.join('|')}`, 'md')
    .action(async (opts: { d?: string[]; kappa?: string[]; xi?: string[]; delta: string; accountant?: string[]; mechanism?: string[]; option?: string[]; format: string }) => {
      const format = parseFormat(opts.format);
      const d = numberList('--d', opts.d, APPENDIX_GRID.d);
      const kappa = numberList('--kappa', opts.kappa, APPENDIX_GRID.kappa);
      const xi = numberList('--xi', opts.xi, APPENDIX_GRID.xi);
      const delta = numberList('--delta', [opts.delta], [APPENDIX_GRID.delta])[0];
      const mechanisms = splitList('--mechanism', opts.mechanism ?? [RR]).map((m) => {
        if (BUDGET_MECHANISMS.includes(m)) return m;
        const near = didYouMean(m, BUDGET_MECHANISMS, '"');
        throw new UserError(`--mechanism: "${m}" is not one of ${BUDGET_MECHANISMS.join(', ')}${near ? ` (did you mean ${near}?)` : ''}`);
      });
      // the two modules it needs, not the privacy layer's index (the Gaussian and MinHash accountants)
      const [{ budgetRows, directionalBudgetRows }, { parseAccountant, naiveAccountantWarning }, { budgetsTable }] = await Promise.all([
        import('../privacy/budget.js'),
        import('../privacy/accountants.js'),
        import('../report/budgetTables.js'),
      ]);
      // the metric each directional mechanism's concentration is private for, from its own facts
      const metricOf = (name: string) => builtInFacts(name)?.concentrationMetric as 'euclidean' | 'angle';
      if (xi.some((x) => x < 0)) throw new UserError('--xi: budgets must be >= 0');
      const accountants = splitList('--accountant', opts.accountant ?? ['paper']).map((a) => parseAccountant(a, '--accountant'));
      if (opts.accountant && !mechanisms.includes(RR)) throw new UserError(`--accountant: applies to ${RR} only; add ${RR} to --mechanism`);
      if (mechanisms.includes(RR) && accountants.includes('naive')) process.stderr.write(naiveAccountantWarning('--accountant') + '\n');
      const rows = mechanisms.includes(RR) ? budgetRows({ accountants: [...new Set(accountants)], d, kappa, xi, delta }) : [];
      const kindOf = (name: string) => builtInFacts(name)?.budgetRows;
      const directional = directionalBudgetRows({
        mechanisms: [...new Set(mechanisms)].filter((m) => kindOf(m) === 'concentration').map((name) => ({ name, metric: metricOf(name) })),
        d,
        kappa,
        xi,
        delta,
      });
      const own = await ownRows(
        [...new Set(mechanisms)].filter((m) => kindOf(m) === 'own'),
        opts.option,
        { d, kappa, xi, delta },
      );
      process.stdout.write(budgetsTable(rows, format, directional, own));
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
      const [{ readUtilityOf }, { filterUtility }, { utilityTable }, marks] = await Promise.all([
        import('../report/read.js'),
        import('../report/filter.js'),
        import('../report/tables.js'),
        import('../report/releasable.js'),
      ]);
      const { file, rows: all } = readUtilityOf(dir);
      const rows = filterUtility(all, parseFilter(opts), file);
      cliIo().out(utilityTable(rows, format, await marks.unreleasableLabels(marks.manifestConfigOf(dir), rows)));
    });

  // each evaluation's view (utility's above): its own where it has one, else the generic one of its file
  for (const e of optionalEvaluations()) (EVALUATION_TABLES[e.name] ?? registerEvaluationTable)(table, e);
}

/** The evaluations with a table view of their own (src/cli/table<Name>.ts). */
const EVALUATION_TABLES: Readonly<Record<string, (table: Command, facts: EvaluationFacts) => void>> = {
  [RECOMMEND_FACTS.name]: registerRecommendTable,
  [ATTACK_FACTS.name]: registerAttackTable,
};

/** `lshdp table <evaluation>` of an evaluation without a view of its own: its file's rows, each metric as mean ± se. */
function registerEvaluationTable(table: Command, facts: EvaluationFacts): void {
  const cmd = table
    .command(facts.name)
    .description(`${facts.title} (${facts.metrics.map((m) => m.label).join(', ')}: mean ± se over trials) of a results folder, in ${facts.file}'s column names`)
    .argument('<results-dir>', `a results folder (with ${facts.file})`);
  // the evaluation's own axes beside k (infer: aux) filter like --kappa: `--aux 0.5`
  const axes = facts.axes.filter((a) => a !== 'k' && a in facts.columns);
  addFilterOptions(cmd);
  for (const a of axes) cmd.option(`--${a} <values...>`, `only these ${a} (${facts.file}'s ${a} column)`);
  cmd.option('--format <fmt>', `output format: ${FORMATS.join('|')}`, 'md').action(async (dir: string, opts: FilterFlags & { format: string } & Record<string, string[] | undefined>) => {
    const format = parseFormat(opts.format);
    refuseShardFolder(dir);
    const [{ readEvaluationOf }, { filterUtility }, { evaluationTable }, marks] = await Promise.all([
      import('../report/read.js'),
      import('../report/filter.js'),
      import('../report/evaluationTable.js'),
      import('../report/releasable.js'),
    ]);
    const { file, rows: all } = readEvaluationOf<Record<string, unknown>>(facts, dir);
    const filterable = all.map((r, i) => ({ mechanism: r.mechanism as string, kappa: (r.kappa ?? null) as number | null, k: (r.k ?? null) as number | null, n: r.n as number, i }));
    let rows = filterUtility(filterable, parseFilter(opts), file).map((w) => all[w.i]!);
    for (const a of axes) rows = byAxis(rows, all, a, numberList(`--${a}`, opts[a], []), file);
    const labelled = rows.flatMap((r) => (typeof r.mechanism === 'string' ? [{ mechanism: r.mechanism, base: (r.base ?? null) as string | null }] : []));
    cliIo().out(evaluationTable(facts, rows, format, await marks.unreleasableLabels(marks.manifestConfigOf(dir), labelled)));
  });
}

/** The rows whose axis `a` is one of `wanted` (none wanted: all); a value the file lacks is a one-line error naming those it has. */
function byAxis(rows: Record<string, unknown>[], all: readonly Record<string, unknown>[], a: string, wanted: number[], file: string): Record<string, unknown>[] {
  if (wanted.length === 0) return rows;
  const have = [...new Set(all.map((r) => r[a]))];
  const missing = wanted.filter((w) => !have.includes(w));
  if (missing.length) throw new UserError(`--${a}: ${missing.join(', ')} not in ${file} (it has ${have.join(', ') || 'none'})`);
  return rows.filter((r) => wanted.includes(r[a] as number));
}
