import type { Command } from 'commander';
import { ExitStatus, UserError } from '../util/errors.js';
import { COMPARE_METRICS, DEFAULT_Z_THRESHOLD, type CompareMetric } from '../report/compareMetrics.js';
import type { CompareFormat } from '../report/compare.js';
import { addFilterOptions, parseFilter, type FilterFlags } from './filterOptions.js';
import { refuseShardFolder } from './resultsFolder.js';
import { wordList } from './options.js';
import { cliIo } from './io.js';

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

export function registerCompare(program: Command): void {
  const cmd = program
    .command('compare')
    .description('where two runs differ: matched utility rows, B − A, its z-score, flags beyond a threshold (exit 3 when any)')
    .argument('<dir-a>', 'results folder of run A')
    .argument('<dir-b>', 'results folder of run B');
  addFilterOptions(cmd)
    .option('--threshold <z>', 'flag a difference when |z| exceeds this', parseThreshold, DEFAULT_Z_THRESHOLD)
    .option('--metric <metrics...>', `metrics to compare: ${COMPARE_METRICS.join('|')} (default: both)`)
    .option('--format <fmt>', `output format: ${FORMATS.join('|')}`, 'md')
    .option('--all', 'list every compared row, identical ones included')
    .addHelpText(
      'after',
      `
A row is flagged when |z| = |b − a| / √(se_a² + se_b²) exceeds the threshold, when its means differ
without a standard error to judge them (one trial, exact rows), when a setting changed (base,
accountant, ε, queries), or when it is in one run only. Columns: docs/OUTPUTS.md.

Exit status: 0 when no row is flagged, ${EXIT_DIFFERENT} when some row is, 2 on bad input.`,
    )
    .action(async (dirA: string, dirB: string, o: CompareFlags) => {
      if (!(FORMATS as string[]).includes(o.format)) throw new UserError(`--format: "${o.format}" is not one of ${FORMATS.join(', ')}`);
      const metrics = [...new Set(wordList('--metric', o.metric, COMPARE_METRICS, COMPARE_METRICS))] as CompareMetric[];
      refuseShardFolder(dirA);
      refuseShardFolder(dirB);
      // loaded here, not at start-up: the CSV reader is only needed once the folders are read
      const { readUtilityOf } = await import('../report/read.js');
      const { checkFilter, filterUtility } = await import('../report/filter.js');
      const { compareRuns, compareSummary, formatCompare, runsAgree } = await import('../report/compare.js');
      const a = readUtilityOf(dirA);
      const b = readUtilityOf(dirB);
      const filter = parseFilter(o);
      // a filter value must exist in at least one of the runs (a row missing from one run is a difference)
      checkFilter([...a.rows, ...b.rows], filter, `${a.file} or ${b.file}`);
      const res = compareRuns(filterUtility(a.rows, filter, null), filterUtility(b.rows, filter, null), { threshold: o.threshold, metrics });
      cliIo().out(formatCompare(res, o.format as CompareFormat, o.all));
      if (!runsAgree(res)) throw new RunsDiffer(`the runs differ: ${compareSummary(res)}`);
    });
}
