/**
 * An evaluation is one unit (docs/ARCHITECTURE.md, "Evaluations"), as a mechanism and a data
 * format are: a folder of src/evaluations/ whose `facts.ts` says what it measures as plain data
 * (`EvaluationFacts`: its config block, its output file and columns, its axis, its headline
 * slice, its metrics, its claims), listed in src/evaluations/catalog.ts. The config schema, the
 * plan, the outputs, `status`, `merge`, the report, `compare` and `lshdp table` read the list
 * instead of naming an evaluation.
 */

/** How a CSV column is read back: a string, a number (`inf` read as Infinity), true/false; `opt` ones may be empty. */
export type ColumnType = 'str' | 'optStr' | 'num' | 'optNum' | 'optBool';

/** A measure a file holds as `<stem>_mean` and `<stem>_se` (mean and standard error over the trials). */
export interface MetricFacts {
  /** the name `lshdp compare --metric` takes */
  name: string;
  /** the columns' stem: `<stem>_mean`, `<stem>_se` */
  stem: string;
  /** how tables and figures name it */
  label: string;
  /**
   * Which way the metric is better for the party it measures for: for a utility metric (the loss,
   * recall, NDCG) the user of the release; for a metric of harm to the users (an attack's success,
   * how many users a release singles out) the adversary, so `higher` there means more harm. lshdp
   * ranks and decides nothing by it: it tells a reader (and a consumer of the facts) which way the
   * numbers point.
   */
  better: 'higher' | 'lower';
}

export interface EvaluationFacts {
  /** the evaluation's name, also `lshdp table <name>`'s */
  name: string;
  /** a heading (the report's section, `lshdp status`) */
  title: string;
  /** the top-level config block that turns it on; null: every run evaluates it */
  block: string | null;
  /** where it is documented */
  docs: string;
  /** its output file in a results folder */
  file: string;
  /** the folder of the results store its per-trial values live in (`cells`: inside the trial records) */
  store: string;
  /**
   * Its columns in file order, each with how it is read back; the concentration columns
   * (`concentration`, `concentration_metric`) follow where the config has a directional mechanism.
   */
  columns: Readonly<Record<string, ColumnType>>;
  /** the grid axes a row has beyond (data set, n, κ, mechanism, ξ), in file order: k, top, known */
  axes: readonly string[];
  /** the slice its single-number claims and figures take, one value per axis (written here once) */
  headline: Readonly<Record<string, number>>;
  /** its measures, in the order `compare` lists them */
  metrics: readonly MetricFacts[];
  /** columns that make two rows different experiments rather than two samples of one (`compare`) */
  settings: readonly string[];
}

/** The column names of an evaluation's file, in file order. */
export function columnsOf(facts: EvaluationFacts): string[] {
  return Object.keys(facts.columns);
}
