/**
 * Whether a mechanism's codes can be released (`lshdp encode`), said once for every listing that
 * ranks or lists mechanisms side by side (the utility, recommendation, attack and evaluation
 * tables, the frontier's legend, the report, the decisions): a mechanism that draws its hash
 * functions from the secret noise (`hashesFromNoise`: RAPPOR, rappor-vector, a plugin declaring it)
 * gives codes that codes released apart could not be compared with, so its rows measure the
 * mechanism, not a release one could publish.
 */
import type { DeclaredFacts } from './types.js';

/** The marker after such a mechanism's label. */
export const UNRELEASABLE_MARK = '†';

/** The marker's footnote, under every table or figure that shows one. */
export const UNRELEASABLE_NOTE = `${UNRELEASABLE_MARK} cannot be released: it draws its hash functions from the secret noise, so codes released apart could not be compared (lshdp encode refuses it); its rows measure the mechanism, not a release one could publish.`;

/** The footnote in a figure's subtitle, where a line is short. */
export const UNRELEASABLE_SHORT = `${UNRELEASABLE_MARK} cannot be released: draws its hash functions from the secret noise (lshdp encode refuses it)`;

/** The one rule: a mechanism whose hash functions come from the secret noise cannot be released. */
export function cannotBeReleased(facts: Pick<DeclaredFacts, 'hashesFromNoise'> | undefined): boolean {
  return facts?.hashesFromNoise === true;
}

/** `label` with the marker when it is among `unreleasable` (labels), else as it is. */
export function markLabel(label: string, unreleasable: ReadonlySet<string>): string {
  return unreleasable.has(label) ? `${label} ${UNRELEASABLE_MARK}` : label;
}
