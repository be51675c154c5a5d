/**
 * How an evaluation measures (docs/ARCHITECTURE.md, "Evaluations"): the hooks the trial cells, the
 * plan and the computation call for every evaluation a config asks for, in list order
 * (src/evaluations/index.ts), instead of naming one.
 *
 * - what it asks of the data: the group's queries (`queries`: recommendations keep the users with
 *   a held-out item) and values of its own on the exact record (`exact`: the recommendation
 *   baselines);
 * - a setup per (data set, n, trial), shared by the cells of every κ and every mechanism of that
 *   trial (`trialSetup`: the attack's targets and partial profiles), kept by the thread;
 * - per trial cell: `begin`, `take` for each release asked of it, `finish` with one value per
 *   result taken. What is shared across the results of a cell lives in its state (the utility's
 *   one batched pass over the distances, the recommendation memo, the attack's probes);
 * - where its values are kept: a field of each result in the trial cell records (`InRecord`,
 *   cells/) or a store folder of its own (`OwnStore`, attack/), with what a stored value lacks for
 *   the asked grid and how fresh values merge in.
 */
import type { GroupExtras, UserVectors } from '../data/types.js';
import type { ExactKnn } from '../knn/angular.js';
import type { ReleaseSet } from '../lsh/releases.js';
import type { LshFamily, MetricName } from '../lsh/families/index.js';
import type { Mechanism } from '../mechanisms/types.js';
import type { EpsilonInfo } from '../privacy/types.js';
import type { ExperimentConfig } from '../experiment/config/schema.js';
import type { ResultSpec, TrialCell } from '../experiment/grid.js';
import type { TrialResult } from '../experiment/cellSpec.js';
import type { AnswerSet, DistanceMemo } from '../experiment/utility.js';

/** A (data set, n) group's data as the evaluations see it: its vectors and what the group carries beside them (a recommendation split's items, item sets). */
export interface GroupData extends GroupExtras {
  vectors: UserVectors;
}

/** The coordinates of a trial of a (data set, n): what a trial setup may depend on (never κ, a mechanism or ξ). */
export interface TrialPlace {
  dataset: string;
  n: number;
  trial: number;
  runSeed: number | string;
}

/** What a trial cell lends its evaluations: the group's data, the cell, the family and the thread's distance memo. */
export interface MeasureCell extends GroupData, TrialPlace {
  kappa: number;
  queries: Int32Array;
  truth: ExactKnn;
  family: LshFamily;
  metric: MetricName;
  /** the thread's memo of the group's distances, or undefined (src/experiment/trial.ts TrialThread) */
  memo?(vectors: UserVectors, queries: Int32Array, truth: ExactKnn, metric: MetricName): DistanceMemo | undefined;
}

/** One result's release in a trial cell: its mechanism, noise seed, what its ξ meant, its released rows (bits, symbols or reals) and its k-NN answer. */
export interface Release {
  id: string;
  mech: Mechanism;
  options: Record<string, unknown>;
  noiseSeed: string;
  eps: EpsilonInfo;
  codes: ReleaseSet;
  /** the k-NN in the release's distance of the queries (every k a prefix of the answer), or null when no k was asked of the result */
  knn: AnswerSet | null;
  /** the release at ε = ∞ of the cell's vectors (src/evaluations/clean.ts), when the mechanism kept it on the way (MechanismContext.keepClean) */
  clean?: ReleaseSet;
}

/** What an evaluation does in the trial cells (in the thread that runs them). */
export interface Measurement<A = unknown, S = unknown, V = unknown, T = unknown> {
  /** What is shared by every cell of a trial (kept by the thread, per vectors object): made at the first cell that asks. */
  trialSetup?(data: GroupData, at: TrialPlace): T;
  /** The cell's state; `setup` gives the trial's setup (made once per trial). */
  begin(cell: MeasureCell, setup: () => T): S;
  /** One release it is asked of, with what it is asked (the result spec's `asks` entry). */
  take(state: S, release: Release, asked: A): void;
  /** Its value per result id, as its store keeps it. */
  finish(state: S): ReadonlyMap<string, V>;
}

/** Values kept as one field of each result of the trial cell records (cells/<key>.json). */
export interface InRecord<A = unknown, V = unknown> {
  where: 'record';
  /** the result's field (in list order after `eps`) */
  field: string;
  /** what the config asks of every result (its `asks` entry) */
  ask(cfg: ExperimentConfig): A;
  /** whether a stored value holds every k of `ks` and everything `asked` */
  holds(stored: V | undefined, ks: readonly number[], asked: A): boolean;
  /** what to ask of a result recomputed with `stored` kept so far, so that a record never loses a value */
  grow(stored: V | undefined, asked: A): A;
  /** the k values a stored value holds (a recomputation keeps them) */
  keptKs?(stored: V): number[];
}

/**
 * A store record of one trial cell (its file `<store folder>/<cell key>.json`): entries of their
 * own hashes (the manifest lists each trial cell's under the store folder's name; `status`
 * counts, prunes and `merge` checks them by it).
 */
export interface OwnRecord {
  format: number;
  key: string;
  entries: Record<string, { hash: string }>;
}

/** One result of a trial cell with what an evaluation of its own store must compute of it. */
export interface PendingAsk<A = unknown> {
  spec: ResultSpec;
  asked: A;
}

/** What an evaluation with its own store folder holds of a trial cell, and what it must compute. */
export interface OwnCellPlan<A = unknown> {
  todo: PendingAsk<A>[];
  /** its entries of the cell, and how many are reused */
  total: number;
  reused: number;
}

/** Values kept in a store folder of the evaluation's own (`facts.store`), one record per trial cell with entries of their own hashes. */
export interface OwnStore<A = unknown, R extends OwnRecord = OwnRecord> {
  where: 'own';
  /** whether a parsed record is whole and of the current format */
  accepts(rec: R): boolean;
  /** the hash of every entry of the given cells (cell key → entry key → hash), from the results' hashes */
  hashes(
    cfg: ExperimentConfig,
    cells: readonly TrialCell[],
    results: readonly ResultSpec[],
    resultHashes: ReadonlyMap<string, ReadonlyMap<string, string>>,
    usersOf: (c: TrialCell) => number,
    /** the hash of the exact cell of a trial cell's (data set, n): its input, seed and n, for entries of no result (baselines) */
    exactHashOf: (c: TrialCell) => string,
  ): Map<string, Map<string, string>>;
  /** what a cell's stored record (null: none, or recomputed) lacks for the config */
  pending(cfg: ExperimentConfig, rec: R | null, results: readonly ResultSpec[], hashes: ReadonlyMap<string, string>): OwnCellPlan<A>;
  /** how many entries an `asked` computes (the run's count of results) */
  count(asked: A): number;
  /** the record of a cell with fresh values merged in (other entries kept) */
  merge(prev: R | undefined, key: string, todo: readonly PendingAsk<A>[], out: readonly TrialResult[], hashes: ReadonlyMap<string, string>, ms: number): R;
}

/** Values an evaluation keeps on the exact record of a (data set, n) (cells/exact_….json), computed from the true neighbours. */
export interface ExactValues<V = unknown> {
  /** the exact record's field (in list order after `ms`) */
  field: string;
  compute(data: GroupData, queries: Int32Array, truth: ExactKnn, ks: readonly number[], cfg: ExperimentConfig): V;
  /** whether a stored value holds every k of `ks` and everything the config asks */
  holds(stored: V | undefined, ks: readonly number[], cfg: ExperimentConfig): boolean;
}
