/** `lshdp table recommend`: the recommendations' view of recommend.csv (docs/RECOMMEND.md). */
import type { Command } from 'commander';
import { UserError } from '../util/errors.js';
import type { EvaluationFacts } from '../evaluations/types.js';
import { addFilterOptions, parseFilter, type FilterFlags } from './filterOptions.js';
import { refuseShardFolder } from './resultsFolder.js';
import { cliIo } from './io.js';
import { FORMATS, onlyValues, parseFormat } from './tableOptions.js';

/** `lshdp table recommend` (recommend.csv: docs/RECOMMEND.md). */
export function registerRecommendTable(table: Command, facts: EvaluationFacts): void {
  const recommend = table
    .command(facts.name)
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
      const [{ readRecommendOf }, { filterUtility }, { recommendTable, recommendWideTable }, { manifestConfigOf, unreleasableLabels }] = await Promise.all([
        import('../report/read.js'),
        import('../report/filter.js'),
        import('../report/recommendTable.js'),
        import('../report/releasable.js'),
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
      const marks = await unreleasableLabels(manifestConfigOf(dir), rows);
      cliIo().out(opts.wide ? recommendWideTable(rows, marks) : recommendTable(rows, format, marks));
    });
}
