/** The `recommend:` block of a config (docs/RECOMMEND.md): its schema with its defaults, and its type. */
import { z } from 'zod';

/** The `recommend:` block: how each user's items are split, and the list lengths N evaluated. */
export interface RecommendConfig {
  /** `last`: each user's last `holdout` distinct items by time; `random`: `holdout` items drawn per user from the run's seed */
  split: 'last' | 'random';
  /** distinct items held out per user */
  holdout: number;
  /** the list lengths N of HR@N, NDCG@N and item recall@N, ascending */
  top: number[];
}

const posInt = z.number().int().min(1);

export const RECOMMEND_BLOCK = z.strictObject({
  split: z.enum(['last', 'random']).default('last'),
  holdout: posInt.default(1),
  top: z
    .array(posInt)
    .min(1, 'must list at least one value')
    .default([10, 20])
    .transform((a) => [...new Set(a)].sort((x, y) => x - y)),
});
