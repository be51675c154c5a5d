/** The row filters `lshdp plot` and `lshdp table utility` share, spelled and checked alike. */
import type { Command } from 'commander';
import { numberList, wordList } from './options.js';
import type { UtilityFilter } from '../report/filter.js';

/** The row filters `plot` and `table utility` share: `--mechanisms`, `--kappa`, `--k`, `--n`. */
export function addFilterOptions(cmd: Command): Command {
  return cmd
    .option('--mechanisms <labels...>', "only these mechanism labels (utility.csv's mechanism column)")
    .option('--kappa <values...>', 'only these hash lengths κ (rows without κ are kept)')
    .option('--k <values...>', 'only these k')
    .option('--n <values...>', 'only these dimensions n');
}

export interface FilterFlags {
  mechanisms?: string[];
  kappa?: string[];
  k?: string[];
  n?: string[];
}

/** The flags as a filter (values are checked against the folder when it is applied). */
export function parseFilter(o: FilterFlags): UtilityFilter {
  const f: UtilityFilter = {};
  if (o.mechanisms) f.mechanisms = wordList('--mechanisms', o.mechanisms, []);
  if (o.kappa) f.kappa = numberList('--kappa', o.kappa, [], { integer: true, min: 1 });
  if (o.k) f.k = numberList('--k', o.k, [], { integer: true, min: 1 });
  if (o.n) f.n = numberList('--n', o.n, [], { integer: true, min: 1 });
  return f;
}
