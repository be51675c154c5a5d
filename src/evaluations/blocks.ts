/**
 * The evaluations that a config turns on with a block of its own, each with the schema of its
 * block (defaults included): the config schema, its "did you mean" and `lshdp run --help` read
 * this list (src/experiment/config/schema.ts), in its order.
 */
import { registeredBlocks, type EvaluationBlock } from './blockRegistry.js';
import { RECOMMEND_FACTS } from './recommend/facts.js';
import { RECOMMEND_BLOCK } from './recommend/config.js';
import { ATTACK_FACTS } from './attack/facts.js';
import { ATTACK_BLOCK } from './attack/config.js';
import { INFER_FACTS } from './infer/facts.js';
import { INFER_BLOCK } from './infer/config.js';

export { registerBlock, type EvaluationBlock } from './blockRegistry.js';

const BUILT_IN: readonly EvaluationBlock[] = [
  { facts: RECOMMEND_FACTS, schema: RECOMMEND_BLOCK },
  { facts: ATTACK_FACTS, schema: ATTACK_BLOCK },
  { facts: INFER_FACTS, schema: INFER_BLOCK },
];

let listed: { extra: readonly EvaluationBlock[]; all: readonly EvaluationBlock[] } | null = null;

/** Every evaluation block, in list order (a new array whenever the list changes: the config schema rebuilds on it). */
export function evaluationBlocks(): readonly EvaluationBlock[] {
  const extra = registeredBlocks();
  if (listed?.extra !== extra) listed = { extra, all: extra.length === 0 ? BUILT_IN : [...BUILT_IN, ...extra] };
  return listed.all;
}
