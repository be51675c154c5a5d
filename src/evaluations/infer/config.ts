/** The `infer:` block of a config (docs/ATTACKS.md, "Attribute inference"): its schema with its defaults, and its type. */
import { z } from 'zod';
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

export const INFER_BLOCK = z.strictObject({
  aux: z
    .array(z.number().refine(Number.isFinite, 'must be a finite number').pipe(z.number().gt(0).lt(1)))
    .min(1, 'must list at least one value')
    .default([0.5])
    .transform((a) => [...new Set(a)].sort((x, y) => x - y)),
  k: z.number().int().min(1).default(10),
  targets: z.number().int().min(1).default(5000),
});

/** The block's settings in words (`--dry-run`, `lshdp status`). */
export function describeInfer(b: InferConfig): { settings: string } {
  return { settings: `aux [${b.aux.join(', ')}], k ${b.k}, targets ${formatCount(b.targets)}` };
}
