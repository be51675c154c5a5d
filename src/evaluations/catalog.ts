/**
 * The list of evaluations: each unit's facts (plain data, no code), in the order their files,
 * config blocks, report sections and `compare` tables come. Adding an evaluation is a folder of
 * src/evaluations/ and one line here (docs/EXTENDING.md, "Your own evaluation").
 */
import type { EvaluationFacts } from './types.js';
import { UTILITY_FACTS } from './utility/facts.js';
import { RECOMMEND_FACTS } from './recommend/facts.js';
import { ATTACK_FACTS } from './attack/facts.js';
import { INFER_FACTS } from './infer/facts.js';

const BUILT_IN: readonly EvaluationFacts[] = [UTILITY_FACTS, RECOMMEND_FACTS, ATTACK_FACTS, INFER_FACTS];
let listed: EvaluationFacts[] = [...BUILT_IN];

/** Every evaluation, in list order. */
export function evaluationFacts(): readonly EvaluationFacts[] {
  return listed;
}

/** The evaluation of this name; a RangeError for a name no unit has (a bug, not a user's typo). */
export function evaluationNamed(name: string): EvaluationFacts {
  const e = listed.find((f) => f.name === name);
  if (!e) throw new RangeError(`no evaluation named "${name}"`);
  return e;
}

/** The evaluations a config turns on with a block of their own (every one but the always-on utility). */
export function optionalEvaluations(): readonly EvaluationFacts[] {
  return listed.filter((f) => f.block !== null);
}

/** The evaluations a config evaluates: the always-on ones, and those whose block it has. */
export function evaluationsOf(cfg: object): EvaluationFacts[] {
  return listed.filter((f) => f.block === null || (cfg as Record<string, unknown>)[f.block] !== undefined);
}

/**
 * Adds an evaluation to the list (after the built-ins), for a test or an extension registered in
 * process; returns a function that takes it out again.
 */
export function registerEvaluation(facts: EvaluationFacts): () => void {
  if (listed.some((f) => f.name === facts.name || f.file === facts.file)) throw new RangeError(`an evaluation named "${facts.name}" (or writing ${facts.file}) is listed already`);
  listed = [...listed, facts];
  return () => {
    listed = listed.filter((f) => f !== facts);
  };
}
