/**
 * What `lshdp compare` can compare, and its default threshold: the evaluations' files and metrics
 * (src/evaluations/catalog.ts, plain facts), then matched.csv (a run with a `decide:` block: its
 * one measure `matched`, compareMatched.ts), in a module of its own without the CSV parser, so the
 * CLI lists them without loading it.
 */
import { evaluationFacts } from '../evaluations/catalog.js';

/** A metric's name as `--metric` takes it (utility, recall, hr, ndcg, item_recall, reid1, reid10, …). */
export type CompareMetric = string;

/** A result file `compare` reads: utility.csv always, every other evaluation's and matched.csv where a run wrote it. */
export type CompareFile = string;

/** matched.csv as compare reads it: its name in a run's files, the file, and its one measure (u* and the decision around it). */
export const MATCHED_COMPARED = { name: 'matched', file: 'matched.csv', metric: 'matched' } as const;

/** Each evaluation's file and metrics, then matched.csv's, in the order the output lists them (a metric's name says its file). */
export function compareFiles(): { name: string; file: CompareFile; metrics: CompareMetric[] }[] {
  return [
    ...evaluationFacts().map((e) => ({ name: e.name, file: e.file, metrics: e.metrics.map((m) => m.name) })),
    { name: MATCHED_COMPARED.name, file: MATCHED_COMPARED.file, metrics: [MATCHED_COMPARED.metric] },
  ];
}

/** Every metric `--metric` accepts, file by file. */
export function compareMetrics(): CompareMetric[] {
  return compareFiles().flatMap((f) => f.metrics);
}

/** The file a metric is read from. */
export function fileOfMetric(m: CompareMetric): CompareFile {
  return compareFiles().find((f) => f.metrics.includes(m))!.file;
}

export const DEFAULT_Z_THRESHOLD = 3;
