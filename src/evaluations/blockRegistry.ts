/**
 * The evaluation blocks registered after the built-ins (a test, an extension in process). Kept
 * apart from the built-in blocks' schemas (src/evaluations/blocks.ts) so that registering an
 * evaluation loads no schema library: the worker threads load src/evaluations/index.ts.
 */
import type { z } from 'zod';
import type { EvaluationFacts } from './types.js';

export interface EvaluationBlock {
  facts: EvaluationFacts & { block: string };
  schema: z.ZodObject;
}

let extra: readonly EvaluationBlock[] = [];

/** The registered blocks, in order (a new array whenever the list changes). */
export function registeredBlocks(): readonly EvaluationBlock[] {
  return extra;
}

/** Adds an evaluation's block after the built-ins (src/evaluations/index.ts registerEvaluation); returns its removal. */
export function registerBlock(block: EvaluationBlock): () => void {
  extra = [...extra, block];
  return () => {
    extra = extra.filter((b) => b !== block);
  };
}
