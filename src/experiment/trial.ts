import type { UserVectors } from '../data/types.js';
import type { ExactKnn } from '../knn/exact.js';
import type { PrivacyParams, TrialHashing } from '../mechanisms/types.js';
import { deriveSeed, makeRng } from '../random/rng.js';
import { drawHyperplanes, projectAll } from '../lsh/hyperplanes.js';
import { packSigns } from '../lsh/codes.js';
import { hammingKnn } from '../lsh/hammingKnn.js';
import { tieSeed } from '../lsh/tieKey.js';
import { getMechanism } from '../mechanisms/registry.js';
import { evaluateAnswers } from './utility.js';
import { UserError } from '../util/errors.js';

/** One trial cell (dataset, n, kappa, trial): the code mechanisms and their xi values. */
export interface TrialCellSpec {
  dataset: string;
  n: number;
  kappa: number;
  trial: number;
  /** code mechanisms; for mechanisms without xi (lsh) the xi list is ignored and one row set is produced */
  mechanisms: { name: string; xi: number[]; options?: Record<string, unknown> }[];
  k: number[];
  privacy: PrivacyParams;
  runSeed: number | string;
}

/** Per-trial means over the queries for one (mechanism, xi, k). */
export interface CellRow {
  mechanism: string;
  kappa: number | null;
  xi: number | null;
  k: number;
  epsilon: number | null;
  ldpEpsilon: number | null;
  fallback: boolean | null;
  loss: number;
  recall: number;
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
 * Evaluates one trial cell: hyperplanes from the `planes` seed, projections and clean codes once,
 * then for each mechanism (spec order) and xi (spec order) fresh noise from the `noise` seed,
 * one Hamming k-NN with kMax = max(k) (tie-breaks from the `ties` seed) whose prefixes serve every
 * k. Rows: mechanisms in spec order, xi in spec order, k ascending. The numbers depend only on
 * the spec, the data, the queries and the truth (never on other cells).
 */
export function runTrialCell(vectors: UserVectors, queries: Int32Array, truth: ExactKnn, spec: TrialCellSpec): CellRow[] {
  const users = vectors.rowPtr.length - 1;
  const ks = checkKs(spec.k, users);
  const kMax = ks[ks.length - 1];
  const { dataset, n, kappa, trial, runSeed, privacy } = spec;
  if (vectors.n !== n) throw new RangeError(`spec n = ${n} but the vectors have n = ${vectors.n}`);

  const planes = drawHyperplanes(makeRng(deriveSeed(runSeed, 'planes', dataset, n, kappa, trial)), kappa, n);
  const projections = projectAll(vectors, planes, kappa);
  const hashing: TrialHashing = { kappa, n, planes, projections, codes: packSigns(projections, users, kappa) };

  const rows: CellRow[] = [];
  for (const entry of spec.mechanisms) {
    const mech = getMechanism(entry.name);
    if (mech.kind !== 'code' || !mech.encode) {
      throw new RangeError(`runTrialCell evaluates code mechanisms; "${entry.name}" is evaluated by exactRows`);
    }
    const xis: (number | null)[] = mech.usesXi ? entry.xi : [null];
    for (const xi of xis) {
      const info = mech.epsilon(xi ?? 0, kappa, privacy);
      const cell = [dataset, n, kappa, trial, mech.name, xi ?? NO_XI] as const;
      const codes = mech.encode(
        { vectors, hashing, rng: makeRng(deriveSeed(runSeed, 'noise', ...cell)), options: entry.options ?? {} },
        info,
      );
      const answers = hammingKnn(codes, queries, kMax, tieSeed(runSeed, dataset, n, kappa, trial));
      const means = evaluateAnswers(vectors, queries, truth, answers, kMax, ks);
      ks.forEach((k, t) => {
        rows.push({
          mechanism: mech.name,
          kappa: mech.usesKappa ? kappa : null,
          xi,
          k,
          epsilon: info.epsilon,
          ldpEpsilon: info.ldpEpsilon,
          fallback: mech.hasFallback ? info.fallback : null,
          loss: means.loss[t],
          recall: means.recall[t],
        });
      });
    }
  }
  return rows;
}

/**
 * Rows of the exact mechanism: the true neighbours evaluated through the same utility code (loss
 * exactly 0, recall 1), so the exact rows check the evaluation path rather than being typed in.
 */
export function exactRows(vectors: UserVectors, queries: Int32Array, truth: ExactKnn, k: number[]): CellRow[] {
  const ks = checkKs(k, vectors.rowPtr.length - 1);
  const means = evaluateAnswers(vectors, queries, truth, truth.indices, truth.k, ks);
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
