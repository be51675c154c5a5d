/** The audit's defaults and decision constants (a leaf module: the CLI's help reads them without loading the audit). */

/** Default number of estimation samples per (entry, κ, ξ): enough that an exact ε inflated by 20%
 *  (tail ≈ 0.05 at κ 20, ξ 5, d 0.1) is `violated` and an exact one (tail <= 0.01) `sound`. */
export const DEFAULT_SAMPLES = 5000;
/** Family-wise error rate of the verdicts (Holm). */
export const FAMILY_ALPHA = 0.05;
/** `sound` needs the tail shown below this multiple of δ. */
export const SOUND_FACTOR = 2;
