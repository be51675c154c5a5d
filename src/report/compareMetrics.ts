/**
 * What `lshdp compare` can compare, and its default threshold: the evaluations' files and metrics
 * (src/evaluations/catalog.ts, plain facts), in a module of its own without the CSV parser, so the
 * CLI lists them without loading it.
 */
import { evaluationFacts } from '../evaluations/catalog.js';

/** A metric's name as `--metric` takes it (utility, recall, hr, ndcg, item_recall, reid1, reid10, …). */
export type CompareMetric = string;

/** A result file `compare` reads: utility.csv always, every other evaluation's where a run wrote it. */
export type CompareFile = string;

/** Each evaluation's file and metrics, in the order the output lists them (a metric's name says its file). */
export function compareFiles(): { name: string; file: CompareFile; metrics: CompareMetric[] }[] {
  return evaluationFacts().map((e) => ({ name: e.name, file: e.file, metrics: e.metrics.map((m) => m.name) }));
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
