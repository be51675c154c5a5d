import type { GroupExtras, UserVectors } from '../data/types.js';
import type { ExactKnn } from '../knn/angular.js';
import type { TrialHashing } from '../lsh/hyperplanes.js';
import type { EpsilonInfo } from '../privacy/types.js';
import { deriveSeed, makeRng, type Rng } from '../random/rng.js';
import { freshFloat64, type Float64Alloc } from '../util/bufferPool.js';
import { getFamily, type LshFamily, type MetricName } from '../lsh/families/index.js';
import { epsilonOnFamily } from '../privacy/onFamily.js';
import { describeRelease, releaseKind, releaseKnn, type ReleaseSet } from '../lsh/releases.js';
import { tieSeed } from '../lsh/tieKey.js';
import { getMechanism } from '../mechanisms/registry.js';
import type { Mechanism, MechanismContext } from '../mechanisms/types.js';
import { isBuiltIn } from '../mechanisms/catalog.js';
import type { CodeSet } from '../lsh/codes.js';
import { evaluateAnswers, type AnswerSet, type DistanceMemo } from './utility.js';
import { UserError } from '../util/errors.js';
import type { CellRow, TrialCellSpec, TrialResult } from './cellSpec.js';
import { evaluations, type Evaluation } from '../evaluations/index.js';
import type { GroupData, MeasureCell, TrialPlace } from '../evaluations/measure.js';

export type { CellRow, TrialCellSpec, TrialResult, TrialResultSpec } from './cellSpec.js';

/** Named arrays of a trial cell's setup (its hashing and the draws shared across ξ). */
export type SetupArrays = Map<string, Float64Array | Uint32Array>;

/**
 * Where a trial cell's setup is kept between runs (src/machinery/setupCache.ts): the
 * hashing (planes, clean projections and codes) and the draws built-in mechanisms share across
 * the ξ of the trial (MechanismContext.perTrial), exactly as computed. A cell set up from it gives
 * the same numbers bit for bit, so a run that adds ξ to a grid pays for its new results only.
 */
export interface TrialSetupStore {
  /** the arrays kept for this cell, or null */
  read(): SetupArrays | null;
  /** keep these arrays for this cell (best effort) */
  write(arrays: SetupArrays): void;
}

/**
 * What the thread running trial cells lends each one (src/machinery/trialThread.ts), to save the
 * work an earlier cell of the thread did; none of it changes a number, and a cell run without it
 * allocates fresh arrays and computes its own distances.
 */
export interface TrialThread {
  /** where the cell's big arrays come from (the thread takes them back when the cell is done) */
  alloc: Float64Alloc;
  /** the thread's memo of the distances of this (data set, n) group, or undefined: the cell computes them */
  memo(vectors: UserVectors, queries: Int32Array, truth: ExactKnn, metric: MetricName): DistanceMemo | undefined;
}

/** The xi part of the seed cell of mechanisms without a budget (lsh). */
const NO_XI = 'none';

function checkKs(k: number[], users: number): number[] {
  if (k.length === 0) throw new UserError('k: at least one k is needed');
  for (const v of k) {
    if (!Number.isInteger(v) || v < 1) throw new UserError(`k: every k must be a positive integer, got ${v}`);
  }
  const kMax = Math.max(...k);
  if (kMax > users - 1) throw new UserError(`k: k = ${kMax} needs at least ${kMax + 1} users, the data have ${users}`);
  return [...k].sort((a, b) => a - b);
}

/**
 * Evaluates the asked results of one trial cell: hyperplanes from the `planes` seed (data set, n,
 * kappa, trial), projections and clean codes once; then per result fresh noise from the `noise`
 * seed (those and the base mechanism and xi: entries that differ only in options see the same
 * uniforms), draws a mechanism shares across the xi of the trial from the same seed without xi
 * (MechanismContext.perTrial: LapLSH's noise directions and radii, the directional mechanisms'
 * orthogonal parts), and one Hamming k-NN with kMax = the result's largest k, ties broken by keys of
 * (data set, n, kappa, trial, query, candidate) only (src/lsh/tieKey.ts), so every k is a prefix
 * of the same answer. Each release goes to the evaluations asked of it (the result's `asks`, in
 * list order: src/evaluations/measure.ts), which give their values when the cell is done. A
 * result's numbers depend only on its own identity and the cell, never on which other results are
 * computed with it, nor on the `thread` that lends it arrays and distances. The plugins of
 * `spec.plugins` must be registered in this thread already. `extras`: what the group carries
 * beside its vectors (a recommendation split's items, item sets), for the evaluations that read it.
 */
export function runTrialCell(vectors: UserVectors, queries: Int32Array, truth: ExactKnn, spec: TrialCellSpec, setup?: TrialSetupStore, thread?: TrialThread, extras?: GroupExtras): TrialResult[] {
  const { n } = spec;
  if (vectors.n !== n) throw new RangeError(`spec n = ${n} but the vectors have n = ${vectors.n}`);
  if (spec.results.length === 0) return [];
  return evaluateCell(vectors, queries, truth, spec, getFamily(spec.metric ?? 'angular'), setup, thread, extras);
}

/** The evaluation of this name among the listed ones (a RangeError for an unknown one: a bug of the plan). */
function measured(name: string): Evaluation {
  const e = evaluations().find((u) => u.facts.name === name);
  if (!e) throw new RangeError(`a result asks the evaluation "${name}", which is not listed`);
  return e;
}

/**
 * The evaluations' setups per (data set, n, trial), kept per vectors object by the thread: the
 * cells of one trial at other κ (and every mechanism) share them, so a thread that runs them one
 * after another makes them once. Only a cache: a setup made again is the same.
 */
const trialSetups = new WeakMap<UserVectors, Map<string, unknown>>();
/** Trials (× evaluations) kept per vectors object: a group's cells come in κ order, so its trials interleave. */
const TRIAL_SETUPS_KEPT = 32;

/** An evaluation's measurement; one asked of a cell without one is a bug (the plan asks only those that measure). */
function measureOf(e: Evaluation) {
  if (!e.measure) throw new RangeError(`evaluation ${e.facts.name} measures nothing and cannot be asked of a trial cell`);
  return e.measure;
}
function trialSetupOf(e: Evaluation, data: GroupData, at: TrialPlace): unknown {
  let byKey = trialSetups.get(data.vectors);
  if (!byKey) {
    byKey = new Map();
    trialSetups.set(data.vectors, byKey);
  }
  const key = JSON.stringify([e.facts.name, at.runSeed, at.dataset, at.n, at.trial]);
  let setup = byKey.get(key);
  if (setup === undefined) {
    setup = measureOf(e).trialSetup!(data, at);
    if (byKey.size >= TRIAL_SETUPS_KEPT) byKey.delete(byKey.keys().next().value!);
    byKey.set(key, setup);
  }
  return setup;
}

function evaluateCell(
  vectors: UserVectors,
  queries: Int32Array,
  truth: ExactKnn,
  spec: TrialCellSpec,
  family: LshFamily,
  setup?: TrialSetupStore,
  thread?: TrialThread,
  extras: GroupExtras = {},
): TrialResult[] {
  const alloc = thread?.alloc ?? freshFloat64;
  const users = vectors.rowPtr.length - 1;
  const { dataset, n, kappa, trial, runSeed, privacy } = spec;
  // the setup kept by an earlier run of this cell, and what this run adds to it
  const saved = setup?.read() ?? null;
  const fresh: SetupArrays = new Map();
  const hashings = cellHashing(family, vectors, kappa, deriveSeed(runSeed, 'planes', dataset, n, kappa, trial), alloc, saved, setup ? fresh : undefined);
  const ties = tieSeed(runSeed, dataset, n, kappa, trial);

  // the draws mechanisms share across the xi of this trial (MechanismContext.perTrial)
  const shared = new Map<string, unknown>();
  const perTrialOf =
    (mech: Mechanism) =>
    <T>(key: string, make: (rng: Rng, alloc: Float64Alloc) => T): T => {
      const mechanism = mech.name;
      const id = `${mechanism}\u0000${key}`;
      if (!shared.has(id)) {
        const tag = drawsTag(mech, key);
        let value = tag && saved ? drawsFrom(saved, tag) : undefined;
        if (value === undefined) {
          value = make(makeRng(deriveSeed(runSeed, 'noise', dataset, n, kappa, trial, mechanism, 'per-trial', key)), alloc);
          if (tag && setup) addDraws(fresh, tag, value);
        }
        shared.set(id, value);
      }
      return shared.get(id) as T;
    };

  // the evaluations asked of any result, begun at the first result that asks (in list order, their
  // values come back in that order); each keeps what its results share in its state
  const cell: MeasureCell = {
    vectors,
    ...extras,
    queries,
    truth,
    family,
    metric: spec.metric ?? 'angular',
    dataset,
    n,
    kappa,
    trial,
    runSeed,
    ...(thread ? { memo: thread.memo } : {}),
  };
  const states = new Map<Evaluation, unknown>();
  const stateOf = (e: Evaluation) => {
    if (!states.has(e))
      states.set(
        e,
        measureOf(e).begin(cell, () => trialSetupOf(e, cell, cell)),
      );
    return states.get(e);
  };
  const done: { id: string; eps: EpsilonInfo; asked: Evaluation[] }[] = [];
  for (const r of spec.results) {
    const asked = evaluations().filter((e) => r.asks[e.facts.name] !== undefined);
    for (const name of Object.keys(r.asks)) measured(name);
    // a result asked only of evaluations that read the codes (added to a finished grid) skips the k-NN
    const ks = r.ks.length === 0 && !asked.some((e) => e.readsKnn) ? [] : checkKs(r.ks, users);
    const mech = getMechanism(r.base);
    if (mech.kind !== 'code' || !mech.encode) {
      throw new RangeError(`runTrialCell evaluates code mechanisms; "${r.base}" is evaluated by exactRows`);
    }
    // a mechanism bound to its family reads the family's own hashing state, which a kept setup lacks
    const hashing = mech.metric !== undefined ? hashings.whole() : hashings.hashing;
    const xi = mech.usesXi ? r.xi : null;
    const eps = epsilonOnFamily(mech, family.disagreement, xi ?? 0, kappa, privacy, r.options);
    const noiseSeed = deriveSeed(runSeed, 'noise', dataset, n, kappa, trial, mech.name, xi ?? NO_XI);
    const { codes, clean } = encodeKeepingClean(mech, { vectors, hashing, rng: makeRng(noiseSeed), options: r.options, perTrial: perTrialOf(mech) }, eps);
    if (releaseKind(codes) !== (mech.release ?? 'bits')) throw new RangeError(`mechanism ${mech.name} released ${describeRelease(codes)}, not the ${mech.release ?? 'bits'} its facts declare`);
    const kMax = ks[ks.length - 1] ?? 0;
    const knn: AnswerSet | null = ks.length > 0 ? { answers: releaseKnn(codes, queries, kMax, ties), width: kMax, ks } : null;
    const release = { id: r.id, mech, options: r.options, noiseSeed, eps, codes, knn, ...(clean ? { clean } : {}) };
    for (const e of asked) measureOf(e).take(stateOf(e), release, r.asks[e.facts.name]);
    done.push({ id: r.id, eps, asked });
  }
  const values = new Map<Evaluation, ReadonlyMap<string, unknown>>();
  for (const [e, state] of states) values.set(e, measureOf(e).finish(state));
  if (setup && fresh.size > 0) setup.write(new Map([...(saved ?? []), ...fresh]));
  return done.map((d) => {
    const out: TrialResult = { id: d.id, eps: d.eps, values: {} };
    for (const e of d.asked) {
      const v = values.get(e)!.get(d.id);
      if (v !== undefined) out.values[e.facts.name] = v;
    }
    return out;
  });
}

/** A result's release, and its clean release when the mechanism keeps it on the way (Mechanism.keepsClean, MechanismContext.keepClean). */
function encodeKeepingClean(mech: Mechanism, ctx: MechanismContext, eps: EpsilonInfo): { codes: ReleaseSet; clean?: ReleaseSet } {
  if (!mech.keepsClean) return { codes: mech.encode!(ctx, eps) };
  let clean: ReleaseSet | undefined;
  const codes = mech.encode!(
    {
      ...ctx,
      keepClean: (c) => {
        clean = c;
      },
    },
    eps,
  );
  return clean ? { codes, clean } : { codes };
}

/**
 * The hashing of a cell: the kept one when the setup holds it, else the family's (then kept in
 * `keep`); `whole()` the family's whole hashing, with the state of its own that a setup does not
 * keep (the jaccard family's MinHash tables and minima, read by the mechanisms bound to it:
 * Mechanism.metric), hashed again once when the kept one lacks it. The same seed gives the same
 * codes, so no other result changes and the setup files stay as they are.
 */
function cellHashing(
  family: LshFamily,
  vectors: UserVectors,
  kappa: number,
  seed: string,
  alloc: Float64Alloc,
  saved: SetupArrays | null,
  keep?: SetupArrays,
): { hashing: TrialHashing; whole(): TrialHashing } {
  const kept = saved ? hashingFrom(saved, kappa, vectors.n, vectors.rowPtr.length - 1) : null;
  if (kept) {
    let again: TrialHashing | undefined;
    return { hashing: kept, whole: () => (again ??= family.hash(vectors, kappa, seed, alloc)) };
  }
  const hashing = family.hash(vectors, kappa, seed, alloc);
  if (keep) addHashing(keep, hashing);
  return { hashing, whole: () => hashing };
}

/** The kept hashing of a cell, or null when absent or not of this cell's shape. */
function hashingFrom(saved: SetupArrays, kappa: number, n: number, users: number): TrialHashing | null {
  const planes = saved.get('hash/planes');
  const projections = saved.get('hash/projections');
  const codes = saved.get('hash/codes');
  const shape = saved.get('hash/shape');
  if (!(planes instanceof Float64Array && projections instanceof Float64Array && codes instanceof Uint32Array && shape instanceof Float64Array && shape.length === 2)) return null;
  const [bits, words] = [shape[0]!, shape[1]!];
  if (codes.length !== users * words || (planes.length !== 0 && planes.length !== kappa * n) || (projections.length !== 0 && projections.length !== users * kappa)) return null;
  const set: CodeSet = { codes, bits, words };
  return { kappa, n, planes, projections, codes: set };
}

function addHashing(fresh: SetupArrays, hashing: TrialHashing): void {
  // codes are computed on demand where a family leaves them out: then nothing is kept
  if (!hashing.codes) return;
  fresh.set('hash/planes', hashing.planes);
  fresh.set('hash/projections', hashing.projections);
  fresh.set('hash/codes', hashing.codes.codes);
  fresh.set('hash/shape', Float64Array.of(hashing.codes.bits, hashing.codes.words));
}

/**
 * The name prefix of a built-in mechanism's shared draws, with its own algorithm version
 * (Mechanism.algorithm, declared in its unit's facts.ts), so that a change to its draws never reads old
 * ones; null for any other mechanism (a plugin's code can change without a version), whose draws
 * are not kept.
 */
function drawsTag(mech: Mechanism, key: string): string | null {
  if (!isBuiltIn(mech.name) || getMechanism(mech.name) !== mech) return null;
  return `draw/${mech.name}/${mech.algorithm ?? '1'}/${key}/`;
}

/** The kept draws under `tag` as an object of their fields, or undefined. */
function drawsFrom(saved: SetupArrays, tag: string): unknown {
  let out: Record<string, Float64Array | Uint32Array> | undefined;
  for (const [name, a] of saved) {
    if (!name.startsWith(tag)) continue;
    out ??= {};
    out[name.slice(tag.length)] = a;
  }
  return out;
}

/** Keeps draws that are an object of typed arrays (LapLSH's, the directional mechanisms'); others are not kept. */
function addDraws(fresh: SetupArrays, tag: string, value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype) return;
  const fields = Object.entries(value);
  if (fields.length === 0 || !fields.every(([, a]) => a instanceof Float64Array || a instanceof Uint32Array)) return;
  for (const [field, a] of fields) fresh.set(tag + field, a as Float64Array | Uint32Array);
}

/**
 * Rows of the exact mechanism: the true neighbours evaluated through the same utility code (loss
 * exactly 0, recall 1), so the exact rows check the evaluation path rather than being typed in.
 */
export function exactRows(vectors: UserVectors, queries: Int32Array, truth: ExactKnn, k: number[], metric: MetricName = 'angular'): CellRow[] {
  const ks = checkKs(k, vectors.rowPtr.length - 1);
  const means = evaluateAnswers(vectors, queries, truth, truth.indices, truth.k, ks, getFamily(metric).distanceFrom(vectors));
  return ks.map((kk, t) => ({
    mechanism: 'exact',
    kappa: null,
    xi: null,
    k: kk,
    epsilon: null,
    ldpEpsilon: null,
    fallback: null,
    loss: means.loss[t],
    recall: means.recall[t],
  }));
}
