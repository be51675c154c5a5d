/**
 * Utility at matched attack success for one cell (data set, n, κ, k) and one set of targets: per
 * entry its crossing (crossing.ts), ξ*'s 90% interval, u* ± SE, retained ± SE and one release's
 * bounds, all from one bootstrap of the trials shared by every entry of the cell (resample.ts), then
 * the ranking (rank.ts). Pure: the caller reads the folder (read.ts).
 */
import { bindingCrossing, crossingOf, pavaInto, type Crossing, type CrossingFlag } from './crossing.js';
import { releaseBounds, type ReleaseBounds } from './release.js';
import { bootstrapWeights, BOOTSTRAP_B, quantileOf, sdOf, weightedMean, weightedMeanAt } from './resample.js';
import { rankEntries, type Rank } from './rank.js';
import { retainedAt, retainedShown, type Retained } from './retained.js';

/** One entry of a cell: its ξ grid and, per ξ, the per-trial values (trial t at index t). */
export interface EntrySeries {
  label: string;
  /** increasing */
  xis: number[];
  /** per target, per ξ, per trial: the attack success (reid@1, or auc − null's auc) */
  success: number[][][];
  /** per ξ, per trial: the utility loss at the cell's k */
  loss: number[][];
  /** with recommendations: per ξ, per trial, NDCG@N at the cell's k (shown at ξ*, in no decision) */
  ndcg?: number[][];
  /** false: it cannot be released (src/mechanisms/releasable.ts: hash functions drawn from the secret noise) */
  releasable: boolean;
}

export interface CellInput {
  /** trials m (every series has m values) */
  trials: number;
  entries: EntrySeries[];
  /** T per target, in the order of `success` */
  targets: number[];
  /** clean LSH at the cell: its per-trial loss, and its per-trial success per target */
  lsh?: { loss: number[]; success: number[][] };
  /** u_rand: the exact expected loss of k random neighbours (null: not in the folder) */
  uRand: number | null;
}

export interface MatchedOptions {
  alpha: number;
  seed: string;
  /** bootstrap resamples (default BOOTSTRAP_B) */
  b?: number;
}

export interface MatchedEntry {
  label: string;
  flag: CrossingFlag;
  /** which target binds (index into targets; both given: the smaller ξ*) */
  binding: number;
  /** the crossing's bracket, for the caller's accountant at ξ* */
  crossing: Crossing;
  xi: number;
  /** ξ*'s 90% interval: −Infinity / +Infinity where more than 5% of resamples cross below / beyond the grid; NaN without resamples */
  xiLow: number;
  xiHigh: number;
  /** per target: the mean of the per-trial successes interpolated at ξ*, and one release's bounds */
  success: number[];
  release: (ReleaseBounds | null)[];
  loss: number;
  lossSe: number;
  /** NDCG@N at ξ* (mean of the per-trial values interpolated there); NaN without recommendations or for none */
  ndcg: number;
  retained: Retained;
  releasable: boolean;
  rank: Rank;
}

export interface MatchedCell {
  entries: MatchedEntry[];
  /** clean LSH meets every target (its mean success ≤ T): no noise needed */
  cleanMeets: boolean;
  /** trials m */
  trials: number;
  /** per bootstrap resample, per entry: its u* (+Infinity where that resample has no crossing); what the ranking tested, for a caller's own paired test on the same resamples (the matched claims) */
  boot: readonly Float64Array[];
}

interface Evaluated {
  crossing: Crossing;
  binding: number;
  /** +Infinity when none (no ξ of the grid meets T) */
  loss: number;
  /** the crossing in ξ, as the interval reads it: −Infinity for none, +Infinity for all */
  xiOpen: number;
}

/**
 * One entry's chain (means, pool, crossing, interpolation) under multiplicities w (null: the
 * observed trials), with its scratch kept between calls: the bootstrap runs it B times per entry.
 */
function evaluator(e: EntrySeries, targets: readonly number[]): (w: Float64Array | null) => Evaluated {
  const J = e.xis.length;
  const means = new Float64Array(J);
  const pooled = new Float64Array(J);
  const blockMeans = new Float64Array(J);
  const sizes = new Int32Array(J);
  const crossings: Crossing[] = new Array(targets.length);
  // per target, the successes as one typed array (ξ-major, m trials each): the bootstrap reads them B times
  const m = J > 0 ? e.success[0][0].length : 0;
  const flat = e.success.map((table) => Float64Array.from(table.flat()));
  return (w) => {
    for (let g = 0; g < targets.length; g++) {
      const xs = flat[g];
      for (let j = 0; j < J; j++) means[j] = weightedMeanAt(xs, j * m, m, w);
      pavaInto(means, pooled, blockMeans, sizes);
      crossings[g] = crossingOf(e.xis, pooled, targets[g], true);
    }
    const { crossing, index } = bindingCrossing(crossings);
    if (crossing.flag === 'none') return { crossing, binding: index, loss: Number.POSITIVE_INFINITY, xiOpen: Number.NEGATIVE_INFINITY };
    const lo = weightedMean(e.loss[crossing.i], w);
    const loss = crossing.f > 0 ? lo + crossing.f * (weightedMean(e.loss[crossing.i + 1], w) - lo) : lo;
    return { crossing, binding: index, loss, xiOpen: crossing.flag === 'all' ? Number.POSITIVE_INFINITY : crossing.xi };
  };
}

/** The per-trial values of a per-ξ table at the bracket (i, f). */
const trialsAt = (table: readonly number[][], c: Crossing): number[] => table[c.i].map((lo, t) => (c.f > 0 ? lo + c.f * (table[c.i + 1][t] - lo) : lo));

export function matchCell(input: CellInput, opts: MatchedOptions): MatchedCell {
  const m = input.trials;
  const resamples = m >= 2 ? bootstrapWeights(m, opts.b ?? BOOTSTRAP_B, opts.seed) : [];
  const runs = input.entries.map((e) => evaluator(e, input.targets));
  const observed = runs.map((run) => run(null));
  // per resample, per entry: u* (+Infinity: no crossing) and ξ* as the interval reads it
  const bootLoss = resamples.map(() => new Float64Array(runs.length));
  const bootXi = runs.map(() => new Float64Array(resamples.length));
  resamples.forEach((w, r) => {
    runs.forEach((run, x) => {
      const o = run(w);
      bootLoss[r][x] = o.loss;
      bootXi[x][r] = o.xiOpen;
    });
  });
  const lshObserved = input.lsh ? weightedMean(input.lsh.loss, null) : null;
  const lshBoot = input.lsh ? resamples.map((w) => weightedMean(input.lsh!.loss, w)) : [];
  const shown = retainedShown(input.uRand, input.lsh ? input.lsh.loss : null);
  const ranks = rankEntries(
    observed.map((o) => ({ flag: o.crossing.flag, loss: o.loss })),
    bootLoss,
    opts.alpha,
    m,
  );
  const entries = input.entries.map((e, x): MatchedEntry => {
    const o = observed[x];
    const c = o.crossing;
    const none = c.flag === 'none';
    // a typed array's own sort: numeric, ascending (±Infinity at the ends; no NaN here)
    const xs = bootXi[x].slice().sort();
    const perTrial = none ? [] : e.success.map((table) => trialsAt(table, c));
    const lossBoot = bootLoss.map((row) => row[x]);
    const retainedBoot = lshBoot.map((ul, r) => retainedAt(input.uRand, lossBoot[r], ul));
    return {
      label: e.label,
      flag: c.flag,
      binding: o.binding,
      crossing: c,
      xi: c.xi,
      xiLow: none || xs.length === 0 ? Number.NaN : quantileOf(xs, 0.05),
      xiHigh: none || xs.length === 0 ? Number.NaN : quantileOf(xs, 0.95),
      success: perTrial.map((v) => v.reduce((a, b) => a + b, 0) / v.length),
      release: perTrial.map((v) => releaseBounds(v)),
      loss: none ? Number.NaN : o.loss,
      ndcg: none || !e.ndcg ? Number.NaN : trialsAt(e.ndcg, c).reduce((a, b) => a + b, 0) / m,
      lossSe: none ? Number.NaN : sdOf(lossBoot),
      retained: none || !shown.ok ? { value: Number.NaN, se: Number.NaN, why: none ? '' : shown.why } : { value: retainedAt(input.uRand, o.loss, lshObserved!), se: sdOf(retainedBoot), why: '' },
      releasable: e.releasable,
      rank: ranks[x],
    };
  });
  const cleanMeets = input.lsh !== undefined && input.targets.every((t, g) => weightedMean(input.lsh!.success[g], null) <= t);
  return { entries, cleanMeets, trials: m, boot: bootLoss };
}
