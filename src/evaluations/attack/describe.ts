/** The `attack:` block's settings in words, apart from its schema (./config.ts): the worker threads load this, not the schema library. */
import { formatCount } from '../../util/format.js';

/** The `attack:` block: the fractions of a target's entries the adversary knows, and how many targets. */
export interface AttackConfig {
  /** fractions in (0, 1] of each target's non-zero entries known to the adversary, ascending */
  known: number[];
  /** at most this many target users per (data set, n) (a seeded sample above it) */
  targets: number;
}

/** The block's settings in words (`--dry-run`, `lshdp status`). */
export function describeAttack(a: AttackConfig): { settings: string } {
  return { settings: `known [${a.known.join(', ')}], targets ${formatCount(a.targets)}` };
}
