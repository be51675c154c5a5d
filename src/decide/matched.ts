/**
 * Utility at matched attack success for one cell (data set, n, κ, k) and one set of targets: per
 * entry its crossing (crossing.ts), ξ*'s 90% interval, u* ± SE, retained ± SE and one release's
 * bounds, all from one bootstrap of the trials shared by every entry of the cell (resample.ts), then
 * the ranking (rank.ts). Pure: the caller reads the folder (read.ts).
 */
import { bindingCrossing, crossingOf, pava, type Crossing, type CrossingFlag } from './crossing.js';
import { releaseBounds, type ReleaseBounds } from './release.js';
import { bootstrapWeights, BOOTSTRAP_B, quantileOf, sdOf, weightedMean } from './resample.js';
import { rankEntries, type Rank } from './rank.js';
import { retained, retainedShown, type Retained } from './retained.js';

/** One entry of a cell: its ξ grid and, per ξ, the per-trial values (trial t at index t). */
export interface EntrySeries {
  label: string;
  /** increasing */
  xis: number[];
  /** per target, per ξ, per trial: the attack success (reid@1, or auc − null's auc) */
  success: number[][][];
  /** per ξ, per trial: the utility loss at the cell's k */
  loss: number[][];
  /** false: its codes cannot be released apart (hash functions drawn from the noise) */
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
}

interface Evaluated {
  crossing: Crossing;
  binding: number;
  /** +Infinity when none (no ξ of the grid meets T) */
  loss: number;
  /** the crossing in ξ, as the interval reads it: −Infinity for none, +Infinity for all */
  xiOpen: number;
}

/** One entry under multiplicities w (null: the observed trials). */
function evaluate(e: EntrySeries, targets: readonly number[], w: Float64Array | null): Evaluated {
  const crossings = targets.map((t, g) => crossingOf(e.xis, pava(e.success[g].map((xs) => weightedMean(xs, w))), t, true));
  const { crossing, index } = bindingCrossing(crossings);
  if (crossing.flag === 'none') return { crossing, binding: index, loss: Number.POSITIVE_INFINITY, xiOpen: Number.NEGATIVE_INFINITY };
  const u = [weightedMean(e.loss[crossing.i], w), crossing.f > 0 ? weightedMean(e.loss[crossing.i + 1], w) : 0];
  const loss = crossing.f > 0 ? u[0] + crossing.f * (u[1] - u[0]) : u[0];
  return { crossing, binding: index, loss, xiOpen: crossing.flag === 'all' ? Number.POSITIVE_INFINITY : crossing.xi };
}

/** The per-trial values of a per-ξ table at the bracket (i, f). */
const trialsAt = (table: readonly number[][], c: Crossing): number[] => table[c.i].map((lo, t) => (c.f > 0 ? lo + c.f * (table[c.i + 1][t] - lo) : lo));

export function matchCell(input: CellInput, opts: MatchedOptions): MatchedCell {
  const m = input.trials;
  const resamples = m >= 2 ? bootstrapWeights(m, opts.b ?? BOOTSTRAP_B, opts.seed) : [];
  const observed = input.entries.map((e) => evaluate(e, input.targets, null));
  const boot = resamples.map((w) => input.entries.map((e) => evaluate(e, input.targets, w)));
  const lshObserved = input.lsh ? weightedMean(input.lsh.loss, null) : null;
  const lshBoot = input.lsh ? resamples.map((w) => weightedMean(input.lsh!.loss, w)) : [];
  const shown = retainedShown(input.uRand, lshObserved, lshBoot);
  const ranks = rankEntries(
    observed.map((o) => ({ flag: o.crossing.flag, loss: o.loss })),
    boot.map((row) => row.map((o) => o.loss)),
    opts.alpha,
  );
  const entries = input.entries.map((e, x): MatchedEntry => {
    const o = observed[x];
    const c = o.crossing;
    const none = c.flag === 'none';
    const xs = boot.map((row) => row[x].xiOpen).sort((a, b) => a - b);
    const perTrial = none ? [] : e.success.map((table) => trialsAt(table, c));
    const lossBoot = boot.map((row) => row[x].loss);
    const retainedBoot = lshBoot.map((ul, r) => retained(input.uRand, lossBoot[r], ul));
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
      lossSe: none ? Number.NaN : sdOf(lossBoot),
      retained: none || !shown.ok ? { value: Number.NaN, se: Number.NaN, why: none ? '' : shown.why } : { value: retained(input.uRand, o.loss, lshObserved!), se: sdOf(retainedBoot), why: '' },
      releasable: e.releasable,
      rank: ranks[x],
    };
  });
  const cleanMeets = input.lsh !== undefined && input.targets.every((t, g) => weightedMean(input.lsh!.success[g], null) <= t);
  return { entries, cleanMeets, trials: m };
}
