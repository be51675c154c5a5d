/** The `infer:` block's settings in words, apart from its schema (./config.ts): the worker threads load this, not the schema library. */
import { formatCount } from '../../util/format.js';

/** The `infer:` block: the auxiliary group's shares, how many neighbours vote, and how many targets. */
export interface InferConfig {
  /** shares in (0, 1) of the kept users in the auxiliary group (nested groups), ascending */
  aux: number[];
  /** the auxiliary users nearest to a target's release that vote for its items (one value, not an axis) */
  k: number;
  /** at most this many target users per (data set, n, trial) (a seeded sample above it) */
  targets: number;
}

/** The block's settings in words (`--dry-run`, `lshdp status`). */
export function describeInfer(b: InferConfig): { settings: string } {
  return { settings: `aux [${b.aux.join(', ')}], k ${b.k}, targets ${formatCount(b.targets)}` };
}
