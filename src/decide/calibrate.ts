/**
 * The search of `lshdp calibrate` (issue 51, stage 3; docs/ATTACKS.md "Calibrating ξ"): given one
 * entry's per-trial attack successes over its ξ grid, the next ξ to compute near its crossing with
 * the target, or why none is needed. Pure: the caller runs the grid, reads the folder and adds the
 * proposed values to the entry's `xi:` list, round after round.
 *
 * - `none` (even the smallest ξ exceeds T): nothing to add;
 * - `all` (every ξ meets T): double past the top of the grid, unless the success is flat there (the
 *   top two points within 2 SE of their difference: it has levelled off below T, as rappor-vector's
 *   reid@1 does on MovieLens, and doubling would spend every round for nothing);
 * - interior: a secant step in log ξ between the bracket's ends (in ξ when its lower end is 0),
 *   on the pooled means (the crossing's own line: crossingOf), kept inside the middle 80% of the
 *   bracket so that a flat end cannot stall it;
 * - stop when the bracket is within 5% in ξ, or the pooled success at one of its ends (the top, for
 *   `all`) is within max(2 SE, 0.1 T) of T; the caller stops after CALIBRATE_ROUNDS rounds.
 *
 * Added ξ values are rounded to 3 significant digits: stable across machines and readable in a config.
 */
import { bindingCrossing, crossingOf, pava, xiAt, type Crossing } from './crossing.js';
import { sdOf } from './resample.js';

/** rounds of added values at most (the bound) */
export const CALIBRATE_ROUNDS = 8;
/** a bracket [ξ_i, ξ_{i+1}] with ξ_{i+1} ≤ (1 + this)·ξ_i is resolved */
export const BRACKET_WITHIN = 0.05;
/** a secant step lands in the middle share (1 − 2·this) of the bracket */
const SAFEGUARD = 0.1;

/**
 * Why the search of a crossing stops, or `step` (a new ξ to compute):
 * - none: even the smallest ξ exceeds T (nothing to add);
 * - bracketed: the bracket is within 5% in ξ;
 * - near: the pooled success at a bracket end is within max(2 SE, 0.1 T) of T;
 * - resolution: no 3-digit ξ lies strictly inside the bracket;
 * - flat: `all`, and the success at the top two ξ is the same within 2 SE (levelled off below T);
 * - step / beyond: a new ξ inside the bracket / past the top of the grid (`all`).
 */
export type SearchState = 'none' | 'bracketed' | 'near' | 'resolution' | 'flat' | 'step' | 'beyond';

export interface SearchStep {
  state: SearchState;
  /** the ξ to add (step, beyond), else null */
  xi: number | null;
  /** the crossing on the current grid (of the binding target) */
  crossing: Crossing;
  /** which target binds (index into the targets) */
  binding: number;
}

/** x to `digits` significant digits (the added ξ values: short decimals, the same on every machine). */
export function roundXi(x: number, digits = 3): number {
  return x === 0 ? 0 : Number(x.toPrecision(digits));
}

const meanOf = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
/** the SE of a mean of trials (0 for one trial: the 0.1 T floor then decides) */
const seOf = (xs: readonly number[]): number => (xs.length > 1 ? sdOf(xs) / Math.sqrt(xs.length) : 0);

/**
 * The next step for one target. `xis` increasing; `success[j]` the per-trial successes at xis[j].
 */
export function searchStepOne(xis: readonly number[], success: readonly (readonly number[])[], target: number): Omit<SearchStep, 'binding'> {
  const pooled = pava(success.map(meanOf));
  const crossing = crossingOf(xis, pooled, target, true);
  const near = (j: number) => Math.abs(pooled[j] - target) <= Math.max(2 * seOf(success[j]), 0.1 * target);
  if (crossing.flag === 'none') return { state: 'none', xi: null, crossing };
  if (crossing.flag === 'all') {
    const top = xis[xis.length - 1];
    const J = xis.length - 1;
    if (near(J)) return { state: 'near', xi: null, crossing };
    if (J >= 1 && pooled[J] - pooled[J - 1] <= 2 * Math.hypot(seOf(success[J]), seOf(success[J - 1]))) return { state: 'flat', xi: null, crossing };
    return { state: 'beyond', xi: top === 0 ? 1 : roundXi(2 * top), crossing };
  }
  const { i } = crossing;
  const lo = xis[i];
  const hi = xis[i + 1];
  if (lo > 0 && hi <= (1 + BRACKET_WITHIN) * lo) return { state: 'bracketed', xi: null, crossing };
  if (near(i) || near(i + 1)) return { state: 'near', xi: null, crossing };
  const f = Math.min(1 - SAFEGUARD, Math.max(SAFEGUARD, crossing.f));
  const x = xiAt(xis, i, f);
  // 3 digits, more only when 3 land on an end of the bracket
  for (let digits = 3; digits <= 6; digits++) {
    const r = roundXi(x, digits);
    if (r > lo && r < hi) return { state: 'step', xi: r, crossing };
  }
  return { state: 'resolution', xi: null, crossing };
}

/**
 * The next step for an entry under several targets (reid@1 and the auc advantage): `none` when any
 * target's is, else the step of the binding target (the smaller ξ*, as the matched tables take).
 * `success[g][j]` the per-trial successes of target g at xis[j].
 */
export function searchStep(xis: readonly number[], success: readonly (readonly (readonly number[])[])[], targets: readonly number[]): SearchStep {
  if (targets.length === 0 || targets.length !== success.length) throw new RangeError(`searchStep: ${targets.length} targets for ${success.length} success series`);
  const steps = targets.map((t, g) => searchStepOne(xis, success[g], t));
  const { index } = bindingCrossing(steps.map((s) => s.crossing));
  return { ...steps[index], binding: index };
}

/**
 * Proposals for one entry from all its cells, thinned to the search's resolution: ascending, a value
 * within BRACKET_WITHIN of the last one kept is dropped (an entry's list serves every cell, so each
 * added ξ is computed in all of them; two ξ within 5% are one point to a bracket that stops at 5%).
 */
export function thinProposals(xs: Iterable<number>): number[] {
  const out: number[] = [];
  for (const x of [...new Set(xs)].sort((a, b) => a - b)) {
    const last = out[out.length - 1];
    if (last === undefined || x > (1 + BRACKET_WITHIN) * last) out.push(x);
  }
  return out;
}
