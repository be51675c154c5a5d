/** The `infer:` block of a config (docs/ATTACKS.md, "Attribute inference"): its schema with its defaults, and its type. */
import { z } from 'zod';

export type { InferConfig } from './describe.js';

export const INFER_BLOCK = z.strictObject({
  aux: z
    .array(z.number().refine(Number.isFinite, 'must be a finite number').pipe(z.number().gt(0).lt(1)))
    .min(1, 'must list at least one value')
    .default([0.5])
    .transform((a) => [...new Set(a)].sort((x, y) => x - y)),
  k: z.number().int().min(1).default(10),
  targets: z.number().int().min(1).default(5000),
});
