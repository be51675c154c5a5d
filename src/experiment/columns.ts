/**
 * The column lists of the result files, apart from their writers so that readers and tables load
 * them without the writers' imports: each evaluation's from its facts (src/evaluations/<name>/facts.ts),
 * nn_distances.csv's here.
 */
import { UTILITY_FACTS } from '../evaluations/utility/facts.js';
import { RECOMMEND_FACTS } from '../evaluations/recommend/facts.js';
import { ATTACK_FACTS } from '../evaluations/attack/facts.js';

const keysOf = <T extends object>(o: T) => Object.keys(o) as (keyof T & string)[];

/** utility.csv's columns, in file order (the report reads them by these names: src/report/read.ts). */
export const UTILITY_COLUMNS = keysOf(UTILITY_FACTS.columns);
export const UTILITY_HEADER = UTILITY_COLUMNS.join(',');
/** Appended to every evaluation's file when the config has a directional mechanism (vmf, purkayastha): its
 *  concentration c and the distance it is private for (euclidean: vmf, angle: purkayastha). Files
 *  without them read as before; other configs' files keep their bytes. */
export const CONCENTRATION_COLUMNS = ['concentration', 'concentration_metric'] as const;
export const NN_COLUMNS = ['dataset', 'n', 'user', 'nn1_distance'] as const;
export const NN_HEADER = NN_COLUMNS.join(',');
/** recommend.csv's columns, in file order (config `recommend`; docs/OUTPUTS.md). */
export const RECOMMEND_COLUMNS = keysOf(RECOMMEND_FACTS.columns);
export const RECOMMEND_HEADER = RECOMMEND_COLUMNS.join(',');
/** attack.csv's columns, in file order (config `attack`; docs/OUTPUTS.md). */
export const ATTACK_COLUMNS = keysOf(ATTACK_FACTS.columns);
export const ATTACK_HEADER = ATTACK_COLUMNS.join(',');
