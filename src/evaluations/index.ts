/**
 * The evaluations' code, one entry per unit in the order of the catalog (src/evaluations/catalog.ts,
 * the facts alone): how the walk of a finished grid reads its rows (src/experiment/walk.ts) and
 * what its per-trial values are for the claims and `compare`. Adding an evaluation is a folder of
 * src/evaluations/ and one line here (docs/EXTENDING.md, "Your own evaluation").
 */
import type { RowHooks, WalkedRow } from '../experiment/walk.js';
import { registerEvaluation as registerFacts } from './catalog.js';
import { registerBlock } from './blockRegistry.js';
import type { z } from 'zod';
import type { EvaluationFacts } from './types.js';
import type { ExperimentConfig } from '../experiment/config/schema.js';
import type { ExactValues, GroupData, InRecord, Measurement, OwnStore } from './measure.js';
import { UTILITY_ROWS, utilityTrialValues } from './utility/rows.js';
import { UTILITY_MEASURE, UTILITY_RECORD } from './utility/measure.js';
import { RECOMMEND_ROWS, recommendTrialValues } from './recommend/rows.js';
import { RECOMMEND_EXACT, RECOMMEND_MEASURE, RECOMMEND_RECORD, describeRecommend, recommendGroupQueries } from './recommend/measure.js';
import { describeAttack } from './attack/describe.js';
import { ATTACK_ROWS, attackTrialValues } from './attack/rows.js';
import { ATTACK_MEASURE } from './attack/measure.js';
import { ATTACK_STORE } from './attack/store.js';
import { INFER_ROWS, inferTrialValues } from './infer/rows.js';
import { INFER_MEASURE } from './infer/measure.js';
import { INFER_STORE } from './infer/store.js';
import { describeInfer } from './infer/describe.js';

export interface Evaluation<V = unknown> {
  facts: EvaluationFacts;
  /** how its rows are read from the store */
  rows: RowHooks;
  /** its rows' per-trial values, as the claims read them */
  trialValues(rows: readonly WalkedRow[]): V[];
  /**
   * What it does in the trial cells (src/evaluations/measure.ts); absent for an evaluation that
   * reads only what the others store (it measures nothing, and the plan never asks it of a cell).
   */
  measure?: Measurement;
  /** whether it reads each result's k-NN answer (a result asked only of evaluations that read the codes skips the k-NN) */
  readsKnn?: boolean;
  /** whether it reads the users' item sets (GroupData.items: loaded for the run only when an evaluation of its config does) */
  readsItems?: boolean;
  /** where its values are kept: a field of the trial cell records' results, or a store folder of its own (`facts.store`); absent with `measure` */
  store?: InRecord | OwnStore;
  /** the queries of a (data set, n) group when it changes them (recommendations: the users with a held-out item) */
  queries?(data: GroupData, sampled: Int32Array, at: { dataset: string; n: number }): Int32Array;
  /** values of its own on the exact record of a (data set, n) (recommendations: the baselines) */
  exact?: ExactValues;
  /**
   * Its block's settings in words for `--dry-run` and `lshdp status` (`known [0.5, 1], targets
   * 5,000`), and a note on what the block changes elsewhere, if anything; with a block only.
   */
  describe?(cfg: ExperimentConfig): { settings: string; note?: string };
}

const unit = <V>(rows: RowHooks, trialValues: (rows: readonly WalkedRow[]) => V[], code: Omit<Evaluation<V>, 'facts' | 'rows' | 'trialValues'>): Evaluation<V> => ({
  facts: rows.facts,
  rows,
  trialValues,
  ...code,
});

const BUILT_IN: readonly Evaluation[] = [
  unit(UTILITY_ROWS, utilityTrialValues, { measure: UTILITY_MEASURE as Measurement, readsKnn: true, store: UTILITY_RECORD as InRecord }),
  unit(RECOMMEND_ROWS, recommendTrialValues, {
    measure: RECOMMEND_MEASURE as Measurement,
    readsKnn: true,
    store: RECOMMEND_RECORD as InRecord,
    queries: recommendGroupQueries,
    exact: RECOMMEND_EXACT as ExactValues,
    describe: (cfg) => describeRecommend(cfg.recommend!),
  }),
  unit(ATTACK_ROWS, attackTrialValues, { measure: ATTACK_MEASURE as Measurement, readsKnn: false, store: ATTACK_STORE as OwnStore, describe: (cfg) => describeAttack(cfg.attack!) }),
  unit(INFER_ROWS, inferTrialValues, {
    measure: INFER_MEASURE as Measurement,
    readsKnn: false,
    readsItems: true,
    store: INFER_STORE as OwnStore,
    describe: (cfg) => describeInfer(cfg.infer!),
  }),
];
let listed: Evaluation[] = [...BUILT_IN];

/** Every evaluation, in list order. */
export function evaluations(): readonly Evaluation[] {
  return listed;
}

/** The evaluations a config evaluates: the always-on ones, and those whose block it has. */
export function evaluationsIn(cfg: object): Evaluation[] {
  return listed.filter((e) => e.facts.block === null || (cfg as Record<string, unknown>)[e.facts.block] !== undefined);
}

/** The evaluation of this name (a RangeError for a name no unit has: a bug, not a typo). */
export function evaluation(name: string): Evaluation {
  const e = listed.find((u) => u.facts.name === name);
  if (!e) throw new RangeError(`no evaluation named "${name}"`);
  return e;
}

/**
 * Adds an evaluation after the built-ins, for a test or an extension registered in process: its
 * facts to the catalog, its code to this list and, when it has a block, the block's schema to the
 * config's (`block`: a strict zod object with its defaults). Returns a function that takes it out again.
 */
export function registerEvaluation(e: Evaluation, block?: z.ZodObject): () => void {
  if (e.facts.block !== null && !block) throw new RangeError(`evaluation ${e.facts.name}: its block ${e.facts.block} needs a schema`);
  const forget = registerFacts(e.facts);
  const forgetBlock = block ? registerBlock({ facts: e.facts as EvaluationFacts & { block: string }, schema: block }) : () => {};
  listed = [...listed, e];
  return () => {
    forget();
    forgetBlock();
    listed = listed.filter((u) => u !== e);
  };
}
