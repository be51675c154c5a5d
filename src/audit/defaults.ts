/** The audit's defaults and decision constants (a leaf module: the CLI's help reads them without loading the audit). */

/** Default number of estimation samples per row (the pair and threshold search draws another half
 *  of it per candidate pair). */
export const DEFAULT_SAMPLES = 5000;
/** Family-wise error rate of the verdicts: each of the m rows that claim a budget is tested at α/m
 *  (Bonferroni), so a correct config gets any `violated` row with probability <= α. */
export const FAMILY_ALPHA = 0.05;
/** `detectable_inflation` is the smallest factor flagged with at least this probability. */
export const POWER_TARGET = 0.8;
