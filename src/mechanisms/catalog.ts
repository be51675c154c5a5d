/**
 * What the built-in mechanisms are, without their code: the list of the units' declared facts
 * (each unit's facts.ts: name, description, algorithm version, what it needs, its roles, its
 * wording), which the grid, the tables, `lshdp mechanisms` and a run's currency check read. Each
 * unit's code spreads its facts into its Mechanism (the single source), so listing them loads no
 * sampler, kernel or accountant.
 */
import type { MechanismFacts, OptionSpec } from './types.js';
import { cannotBeReleased } from './releasable.js';
import { EXACT_FACTS } from './exact/facts.js';
import { LSH_FACTS } from './lsh/facts.js';
import { LSHRR_FACTS } from './lshrr/facts.js';
import { LAPLSH_FACTS } from './laplsh/facts.js';
import { RAPPOR_FACTS, RAPPOR_VECTOR_FACTS } from './rappor/facts.js';
import { PURKAYASTHA_FACTS, VMF_FACTS } from './directional/facts.js';
import { JL_GAUSSIAN_FACTS } from './jl/facts.js';
import { MINHASH_BUCKET_FACTS, MINHASH_NOISY_FACTS } from './minhash/facts.js';

export type { MechanismFacts } from './types.js';

/** The built-ins in the canonical order (the registry's). */
export const BUILT_IN_FACTS: readonly MechanismFacts[] = [
  EXACT_FACTS,
  LSH_FACTS,
  LSHRR_FACTS,
  LAPLSH_FACTS,
  RAPPOR_FACTS,
  RAPPOR_VECTOR_FACTS,
  VMF_FACTS,
  PURKAYASTHA_FACTS,
  JL_GAUSSIAN_FACTS,
  MINHASH_BUCKET_FACTS,
  MINHASH_NOISY_FACTS,
];

/**
 * Every option a built-in's config entry may carry (the units' optionSchema, in the catalog's
 * order): the config schema and its checks are built from it. Units that take the same key (the
 * sampler of LapLSH, VMF and Purkayastha) declare the same spec.
 */
export const BUILT_IN_OPTIONS: Readonly<Record<string, OptionSpec>> = Object.freeze(Object.fromEntries(BUILT_IN_FACTS.flatMap((f) => Object.entries(f.optionSchema ?? {}))));

/** Whether `name` is a built-in (not a plugin that took another name). */
export const isBuiltIn = (name: string): boolean => BUILT_IN_FACTS.some((f) => f.name === name);

/**
 * The built-in mechanisms' own algorithm versions (Mechanism.algorithm, declared on each unit with
 * its history), so that a run can check whether its outputs are current without loading the
 * mechanisms. Mechanisms without one have had one algorithm.
 */
export const MECHANISM_ALGORITHMS: Readonly<Record<string, string>> = Object.freeze(Object.fromEntries(BUILT_IN_FACTS.flatMap((f) => (f.algorithm ? [[f.name, f.algorithm]] : []))));

/**
 * The built-ins `lshdp encode --mechanism` releases codes of: those that release a code, but those
 * that draw their hash functions from the secret noise (RAPPOR: codes released apart could not be
 * compared). encode checks against it and completion offers it.
 */
export const ENCODE_MECHANISMS: readonly string[] = BUILT_IN_FACTS.filter((m) => m.kind === 'code' && !cannotBeReleased(m)).map((m) => m.name);

/** The built-in of that name, or undefined (a plugin, a name from another version's folder). */
export function builtInFacts(name: string): MechanismFacts | undefined {
  return BUILT_IN_FACTS.find((f) => f.name === name);
}

/** The built-ins with rows in the budget tables (`lshdp table budgets --mechanism`, budgets.csv). */
export const BUDGET_MECHANISMS: readonly string[] = BUILT_IN_FACTS.filter((m) => m.budgetRows !== undefined).map((m) => m.name);

/** The built-in whose budget rows are one per accountant (LSHRR): its name fills budgets.csv's
 *  mechanism column on those rows, and it is `lshdp table budgets`' default. */
export const ACCOUNTANT_ROWS_MECHANISM: string = BUILT_IN_FACTS.find((m) => m.budgetRows === 'accountant')!.name;
