/** The audit's defaults and decision constants (a leaf module: the CLI's help reads them without loading the audit). */

/** Default number of estimation samples per row (the pair and threshold search draws another half
 *  of it per candidate pair). */
export const DEFAULT_SAMPLES = 5000;
/** Family-wise error rate of the verdicts: each of the m rows that claim a budget is tested at α/m
 *  (Bonferroni), so a correct config gets any `violated` row with probability <= α (and, the law
 *  tests being a second family at the same rate, any `law-mismatch` row with probability <= α). */
export const FAMILY_ALPHA = 0.05;
/** `detectable_inflation` is the smallest factor flagged with at least this probability. */
export const POWER_TARGET = 0.8;
/** A row whose detectable inflation exceeds this factor (or is not found up to MAX_FACTOR) is
 *  `not-testable`: a test that only sees a gross fault says nothing about the claim. */
export const NOT_TESTABLE_FACTOR = 100;
/** `samples_needed` is computed exactly up to this many samples and extrapolated beyond. */
export const EXACT_SAMPLES_LIMIT = 1_000_000;
/** Exit status of `lshdp audit` when some row is `violated` (as `lshdp compare` when runs differ). */
export const EXIT_VIOLATED = 3;
/** Exit status when no row is `violated` but some row is `law-mismatch` (a bug in a mechanism's
 *  sampler that is not a broken privacy claim). */
export const EXIT_LAW_MISMATCH = 4;
