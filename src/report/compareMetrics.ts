/** What `lshdp compare` can compare, and its default threshold: a module of its own, without the CSV parser, so the CLI lists them without loading it. */
export type CompareMetric = 'utility' | 'recall' | 'hr' | 'ndcg' | 'item_recall' | 'reid1' | 'reid10';

/** The result files `compare` reads: utility.csv always, recommend.csv and attack.csv where a run wrote them. */
export type CompareFile = 'utility.csv' | 'recommend.csv' | 'attack.csv';

/** Each file's metrics, in the order the output lists them (a metric's name says its file). */
export const COMPARE_FILES: readonly { file: CompareFile; metrics: readonly CompareMetric[] }[] = [
  { file: 'utility.csv', metrics: ['utility', 'recall'] },
  { file: 'recommend.csv', metrics: ['hr', 'ndcg', 'item_recall'] },
  { file: 'attack.csv', metrics: ['reid1', 'reid10'] },
];

/** Every metric `--metric` accepts, file by file. */
export const COMPARE_METRICS: CompareMetric[] = COMPARE_FILES.flatMap((f) => [...f.metrics]);

/** utility.csv's metrics (what two folders without the other files compare). */
export const UTILITY_METRICS: CompareMetric[] = [...COMPARE_FILES[0].metrics];

/** The file a metric is read from. */
export function fileOfMetric(m: CompareMetric): CompareFile {
  return COMPARE_FILES.find((f) => f.metrics.includes(m))!.file;
}

export const DEFAULT_Z_THRESHOLD = 3;
