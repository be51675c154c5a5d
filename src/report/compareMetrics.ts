/** What `lshdp compare` can compare, and its default threshold: a module of its own, without the CSV parser, so the CLI lists them without loading it. */
export type CompareMetric = 'utility' | 'recall';
export const COMPARE_METRICS: CompareMetric[] = ['utility', 'recall'];
export const DEFAULT_Z_THRESHOLD = 3;
