/** The `attack:` block of a config (docs/ATTACKS.md): its schema with its defaults, and its type. */
import { z } from 'zod';

export type { AttackConfig } from './describe.js';

export const ATTACK_BLOCK = z.strictObject({
  known: z
    .array(z.number().refine(Number.isFinite, 'must be a finite number').pipe(z.number().gt(0).max(1)))
    .min(1, 'must list at least one value')
    .default([0.5, 1])
    .transform((a) => [...new Set(a)].sort((x, y) => x - y)),
  targets: z.number().int().min(1).default(5000),
});
