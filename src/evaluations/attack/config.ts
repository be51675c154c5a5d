/** The `attack:` block of a config (docs/ATTACKS.md): its schema with its defaults, and its type. */
import { z } from 'zod';
import { formatCount } from '../../util/format.js';

/** The `attack:` block: the fractions of a target's entries the adversary knows, and how many targets. */
export interface AttackConfig {
  /** fractions in (0, 1] of each target's non-zero entries known to the adversary, ascending */
  known: number[];
  /** at most this many target users per (data set, n) (a seeded sample above it) */
  targets: number;
}

export const ATTACK_BLOCK = z.strictObject({
  known: z
    .array(z.number().refine(Number.isFinite, 'must be a finite number').pipe(z.number().gt(0).max(1)))
    .min(1, 'must list at least one value')
    .default([0.5, 1])
    .transform((a) => [...new Set(a)].sort((x, y) => x - y)),
  targets: z.number().int().min(1).default(5000),
});

/** The block's settings in words (`--dry-run`, `lshdp status`). */
export function describeAttack(a: AttackConfig): { settings: string } {
  return { settings: `known [${a.known.join(', ')}], targets ${formatCount(a.targets)}` };
}
