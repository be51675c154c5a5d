import type { Command } from 'commander';
import { ExitStatus, UserError } from '../util/errors.js';
import { compareFiles, compareMetrics, DEFAULT_Z_THRESHOLD, MATCHED_COMPARED, type CompareMetric } from '../report/compareMetrics.js';
import type { CompareFormat } from '../report/compareFormat.js';
import type { readComparedFilesOf } from '../report/read.js';
import type { FilterableRow, UtilityFilter } from '../report/filter.js';
import { addFilterOptions, parseFilter, type FilterFlags } from './filterOptions.js';
import { refuseShardFolder } from './resultsFolder.js';
import { wordList } from './options.js';
import { cliIo } from './io.js';
import { purpose } from './commands.js';

/** Exit code of `lshdp compare` when the runs differ (0: they agree; 2: bad input; 1: a bug). */
export const EXIT_DIFFERENT = 3;

const FORMATS: CompareFormat[] = ['md', 'csv', 'json'];

/** The runs differ: one line on stderr and exit code 3, after the comparison went to stdout. */
export class RunsDiffer extends ExitStatus {
  constructor(message: string) {
    super(message, EXIT_DIFFERENT);
    this.name = 'RunsDiffer';
  }
}

function parseThreshold(v: string): number {
  const z = Number(v);
  if (v.trim() === '' || !Number.isFinite(z) || z <= 0) throw new UserError(`--threshold: expected a number > 0, got "${v}"`);
  return z;
}

interface CompareFlags extends FilterFlags {
  threshold: number;
  metric?: string[];
  format: string;
  all?: boolean;
}

/** A run's files by evaluation name (utility.csv always there; the others null where the folder has none). */
type Folder = ReturnType<typeof readComparedFilesOf>;
/** utility.csv's evaluation: read always, and what a filter is checked against when no file is compared. */
const ALWAYS = 'utility';

/** A metric asked by name whose file neither run has is an error (asked by default, it is left out). */
function checkMetricFiles(asked: string[] | undefined, metrics: CompareMetric[], a: Folder, b: Folder): void {
  if (asked === undefined) return;
  for (const m of metrics) {
    const { name, file } = compareFiles().find((f) => f.metrics.includes(m))!;
    if (!a[name] && !b[name]) throw new UserError(`--metric: ${m} is read from ${file}, which neither run has`);
  }
}

/** The evaluations whose files both runs have among those of the asked metrics: the ones compared row by row. */
function comparedFiles(metrics: CompareMetric[], a: Folder, b: Folder): string[] {
  return compareFiles()
    .filter(({ name, metrics: own }) => own.some((m) => metrics.includes(m)) && a[name] && b[name])
    .map((f) => f.name);
}

/**
 * Each run's rows passing the filter; the filter's values checked against the compared files of
 * both runs (a row missing from one run is a difference, not a typo). Rows without a k (attack.csv's,
 * recommend.csv's pop rows) pass a `--k` filter.
 */
async function filtered(a: Folder, b: Folder, names: string[], filter: UtilityFilter): Promise<[Folder, Folder]> {
  const { checkFilter, filterUtility } = await import('../report/filter.js');
  const asFilterable = (f: Folder, name: string): (FilterableRow & { i: number })[] =>
    (f[name]?.rows ?? []).map((r, i) => ({ mechanism: r.mechanism as string, kappa: r.kappa as number | null, k: (r.k ?? null) as number | null, n: r.n as number, i }));
  // with no file compared (a metric's file in one run only), the values are checked against utility.csv
  const checked = names.length ? names : [ALWAYS];
  const sources = [a, b].flatMap((f) => checked.map((name) => f[name]!.file));
  const source = `${sources.slice(0, -1).join(', ')} or ${sources[sources.length - 1]}`;
  checkFilter(
    [a, b].flatMap((f) => checked.flatMap((name) => asFilterable(f, name))),
    filter,
    source,
  );
  const apply = (f: Folder): Folder =>
    Object.fromEntries(Object.entries(f).map(([name, got]) => [name, got && { ...got, rows: filterUtility(asFilterable(f, name), filter, null).map((w) => got.rows[w.i]!) }]));
  return [apply(a), apply(b)];
}

export function registerCompare(program: Command): void {
  const cmd = program.command('compare').description(purpose('compare')).argument('<dir-a>', 'results folder of run A').argument('<dir-b>', 'results folder of run B');
  addFilterOptions(cmd)
    .option('--threshold <z>', 'flag a difference when |z| exceeds this', parseThreshold, DEFAULT_Z_THRESHOLD)
    .option('--metric <metrics...>', `metrics to compare: ${compareMetrics().join('|')} (default: every metric of the files both runs have)`)
    .option('--format <fmt>', `output format: ${FORMATS.join('|')}`, 'md')
    .option('--all', 'list every compared row, identical ones and those a changed setting explains included')
    .addHelpText(
      'after',
      `
Rows are matched on utility.csv's (dataset, n, κ, k, mechanism, ξ), recommend.csv's (the same and
N) and attack.csv's (dataset, n, κ, mechanism, ξ, known). A row is flagged when
|z| = |b − a| / √(se_a² + se_b²) exceeds the threshold, when its means differ without a standard
error to judge them (one trial, exact and pop rows), when a setting changed (base, accountant, ε,
queries, users, targets), or when it is in one run only. Settings that differ between the runs
(training against full vectors changes queries, say) are said first, once each, with the rows
they explain; those rows count as flagged but are listed with --all only. recommend.csv or
attack.csv in one run only is said in one line and not compared. Where both runs have matched.csv
(a config with decide:), its rows are matched on (dataset, n, κ, k, target, entry) and flagged when
an entry's flag or rank kind changed, its ξ* 90% intervals do not overlap, u*'s |z| exceeds the
threshold, or known, aux or trials changed (--metric matched alone compares only them); matched.csv
in one run only is said in one line. Columns: docs/OUTPUTS.md.

Exit status: 0 when no row is flagged, ${EXIT_DIFFERENT} when some row is, 2 on bad input.`,
    )
    .action(async (dirA: string, dirB: string, o: CompareFlags) => {
      if (!(FORMATS as string[]).includes(o.format)) throw new UserError(`--format: "${o.format}" is not one of ${FORMATS.join(', ')}`);
      const metrics = [...new Set(wordList('--metric', o.metric, compareMetrics(), compareMetrics()))] as CompareMetric[];
      refuseShardFolder(dirA);
      refuseShardFolder(dirB);
      // loaded here, not at start-up: the CSV reader is only needed once the folders are read
      const [{ readComparedFilesOf }, { compareFolders, compareSummary, oneSidedFiles, runsAgree }, { formatCompare, settingsHeader }, { readMatchedOf }] = await Promise.all([
        import('../report/read.js'),
        import('../report/compare.js'),
        import('../report/compareFormat.js'),
        import('../report/compareMatched.js'),
      ]);
      // every evaluation's file, and matched.csv (a run with decide:) under its name
      const readOf = (dir: string): Folder => ({ ...readComparedFilesOf(dir), [MATCHED_COMPARED.name]: readMatchedOf(dir) as Folder[string] });
      const read = [readOf(dirA), readOf(dirB)] as const;
      checkMetricFiles(o.metric, metrics, ...read);
      const [a, b] = await filtered(...read, comparedFiles(metrics, ...read), parseFilter(o));
      const rows = (f: Folder) => Object.fromEntries(Object.entries(f).map(([name, got]) => [name, got?.rows ?? null]));
      const res = compareFolders(rows(a), rows(b), { threshold: o.threshold, metrics });
      cliIo().out(formatCompare(res, o.format as CompareFormat, o.all));
      // csv keeps its stdout a table: the changed settings and the files in one run only are said on stderr (md and json say them in the output)
      if (o.format === 'csv') for (const line of [...settingsHeader(res, o.all ?? false, '  '), ...oneSidedFiles(res)]) cliIo().err(`lshdp: ${line}\n`);
      if (!runsAgree(res)) throw new RunsDiffer(`the runs differ: ${compareSummary(res)}`);
    });
}
