/**
 * The search of `lshdp calibrate` (issue 51, stage 3; docs/ATTACKS.md "Calibrating ξ"): given one
 * entry's per-trial attack successes over its ξ grid, the next ξ to compute near its crossing with
 * the target, or why none is needed. Pure: the caller runs the grid, reads the folder and adds the
 * proposed values to the entry's ξ list of that cell, round after round.
 *
 * - `none` (even the smallest ξ exceeds T): nothing to add;
 * - `all` (every ξ meets T): double past the top of the grid while rounds remain, and stop only on
 *   evidence that no crossing exists:
 *   - `ceiling`: the entry's noise-free limit is clean LSH's code (the caller says so, and passes
 *     clean `lsh`'s per-trial successes in the same cell) and clean LSH's mean success meets T: the
 *     success cannot rise past it, so no ξ crosses T ("no noise needed" in the matched tables);
 *   - `flat`: no such limit is known (rappor, rappor-vector, plugins), and the pooled success has
 *     not risen over a span of the grid: at least three points from ξ_j0 > 0 to the top with
 *     ξ_J ≥ 4·ξ_j0, the top within 2 SE (of the difference) of each, and some trial variation in
 *     the span (a run of exact zeros measures no rise). A rise too slow to show over 4× within
 *     2 SE, if real, crosses T only far beyond what 8 doublings reach. An entry whose limit is
 *     clean LSH above T is never `flat`: its success must still rise to clean LSH's, so it doubles
 *     until it crosses T or the rounds run out (the old rule, the top two points within 2 SE,
 *     stopped VMF and Purkayastha on MovieLens n 1000 below crossings near ξ 63–120);
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
/** `flat`: the span of ξ over which the success must not have risen, as a ratio, and its points at least */
export const FLAT_SPAN = 4;
export const FLAT_POINTS = 3;

/**
 * Why the search of a crossing stops, or `step` (a new ξ to compute):
 * - none: even the smallest ξ exceeds T (nothing to add);
 * - bracketed: the bracket is within 5% in ξ;
 * - near: the pooled success at a bracket end is within max(2 SE, 0.1 T) of T;
 * - resolution: no 3-digit ξ lies strictly inside the bracket;
 * - ceiling: `all`, and the entry's noise-free limit (clean LSH's success) meets T: no ξ crosses T;
 * - flat: `all`, and the success has not risen over ≥ 3 points spanning ≥ 4× in ξ (within 2 SE);
 * - step / beyond: a new ξ inside the bracket / past the top of the grid (`all`).
 */
export type SearchState = 'none' | 'bracketed' | 'near' | 'resolution' | 'ceiling' | 'flat' | 'step' | 'beyond';

export interface SearchStep {
  state: SearchState;
  /** the ξ to add (step, beyond), else null */
  xi: number | null;
  /** the crossing on the current grid (of the binding target) */
  crossing: Crossing;
  /** which target binds (index into the targets) */
  binding: number;
}

/** Why a stopped `all` search believes no crossing exists (ceiling, flat), in numbers. */
export interface SearchEvidence {
  /** ceiling: clean LSH's mean success and its SE; flat: the pooled success at the span's ends */
  from: number;
  to: number;
  /** flat: the span's ξ (ceiling: the top of the grid at both ends) */
  xiFrom: number;
  xiTo: number;
  /** ceiling: clean LSH's SE; flat: the largest 2-SE tolerance of the span's differences */
  se: number;
}

/** x to `digits` significant digits (the added ξ values: short decimals, the same on every machine). */
export function roundXi(x: number, digits = 3): number {
  return x === 0 ? 0 : Number(x.toPrecision(digits));
}

const meanOf = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;
/** the SE of a mean of trials (0 for one trial: the 0.1 T floor then decides) */
const seOf = (xs: readonly number[]): number => (xs.length > 1 ? sdOf(xs) / Math.sqrt(xs.length) : 0);

/**
 * The success at the top of an `all` grid has not risen over a span: the points from the largest
 * ξ_j0 > 0 with ξ_J ≥ FLAT_SPAN·ξ_j0 to the top J, at least FLAT_POINTS of them, the top's pooled
 * mean within 2 SE of each one's (pooled[J] − pooled[j] ≤ 2·√(SE_J² + SE_j²)), and not every trial of
 * the span equal (a run of zeros has SE 0 and measures no rise). The evidence, or null.
 */
export function flatSpan(xis: readonly number[], success: readonly (readonly number[])[], pooled: readonly number[]): SearchEvidence | null {
  const J = xis.length - 1;
  let j0 = -1;
  for (let j = J; j >= 0; j--) {
    if (xis[j] > 0 && xis[J] >= FLAT_SPAN * xis[j]) {
      j0 = j;
      break;
    }
  }
  if (j0 < 0 || J - j0 + 1 < FLAT_POINTS) return null;
  let tol = 0;
  let varied = false;
  for (let j = j0; j < J; j++) {
    const t = 2 * Math.hypot(seOf(success[j]), seOf(success[J]));
    if (pooled[J] - pooled[j] > t) return null;
    tol = Math.max(tol, t);
    if (seOf(success[j]) > 0) varied = true;
  }
  if (!varied && !(seOf(success[J]) > 0)) return null;
  return { from: pooled[j0], to: pooled[J], xiFrom: xis[j0], xiTo: xis[J], se: tol };
}

/**
 * The next step for one target. `xis` increasing; `success[j]` the per-trial successes at xis[j].
 * `ceiling`: clean LSH's per-trial successes in the same cell when the entry's noise-free limit is
 * clean LSH's code (src/pipeline/calibrate.ts says which are), else null: no limit is known.
 */
export function searchStepOne(
  xis: readonly number[],
  success: readonly (readonly number[])[],
  target: number,
  ceiling: readonly number[] | null = null,
): Omit<SearchStep, 'binding'> & { evidence: SearchEvidence | null } {
  const pooled = pava(success.map(meanOf));
  const crossing = crossingOf(xis, pooled, target, true);
  const near = (j: number) => Math.abs(pooled[j] - target) <= Math.max(2 * seOf(success[j]), 0.1 * target);
  const plain = (state: SearchState, xi: number | null = null) => ({ state, xi, crossing, evidence: null });
  if (crossing.flag === 'none') return plain('none');
  if (crossing.flag === 'all') {
    const top = xis[xis.length - 1];
    const J = xis.length - 1;
    if (near(J)) return plain('near');
    if (ceiling !== null && ceiling.length > 0) {
      // the success rises to clean LSH's at most: at or below T, no ξ crosses; above, a crossing exists
      const limit = meanOf(ceiling);
      if (limit <= target) return { state: 'ceiling', xi: null, crossing, evidence: { from: limit, to: limit, xiFrom: top, xiTo: top, se: seOf(ceiling) } };
    } else {
      const flat = flatSpan(xis, success, pooled);
      if (flat) return { state: 'flat', xi: null, crossing, evidence: flat };
    }
    return plain('beyond', top === 0 ? 1 : roundXi(2 * top));
  }
  const { i } = crossing;
  const lo = xis[i];
  const hi = xis[i + 1];
  if (lo > 0 && hi <= (1 + BRACKET_WITHIN) * lo) return plain('bracketed');
  if (near(i) || near(i + 1)) return plain('near');
  const f = Math.min(1 - SAFEGUARD, Math.max(SAFEGUARD, crossing.f));
  const x = xiAt(xis, i, f);
  // 3 digits, more only when 3 land on an end of the bracket
  for (let digits = 3; digits <= 6; digits++) {
    const r = roundXi(x, digits);
    if (r > lo && r < hi) return plain('step', r);
  }
  return plain('resolution');
}

/** Among `all` searches, which crossing lies lowest: one near T at the top, then one still doubling, then one that stopped (ceiling, flat: none). */
const ALL_ORDER: Partial<Record<SearchState, number>> = { near: 0, beyond: 1, ceiling: 2, flat: 2 };

/**
 * The next step for an entry under several targets (reid@1 and the auc advantage): `none` when any
 * target's is, else the step of the binding target (the smaller ξ*, as the matched tables take; of
 * `all` crossings, the one near T, then one still doubling, before one with no crossing).
 * `success[g][j]` the per-trial successes of target g at xis[j]; `ceilings[g]` as searchStepOne's.
 */
export function searchStep(
  xis: readonly number[],
  success: readonly (readonly (readonly number[])[])[],
  targets: readonly number[],
  ceilings: readonly (readonly number[] | null)[] = [],
): SearchStep & { evidence: SearchEvidence | null } {
  if (targets.length === 0 || targets.length !== success.length) throw new RangeError(`searchStep: ${targets.length} targets for ${success.length} success series`);
  const steps = targets.map((t, g) => searchStepOne(xis, success[g], t, ceilings[g] ?? null));
  let { index } = bindingCrossing(steps.map((s) => s.crossing));
  if (steps.every((s) => s.crossing.flag === 'all')) {
    index = 0;
    for (let g = 1; g < steps.length; g++) if ((ALL_ORDER[steps[g].state] ?? 2) < (ALL_ORDER[steps[index].state] ?? 2)) index = g;
  }
  return { ...steps[index], binding: index };
}

/**
 * Proposals for one entry in one cell (from several target sets), thinned to the search's
 * resolution: ascending, a value within BRACKET_WITHIN of the last one kept is dropped (two ξ within
 * 5% are one point to a bracket that stops at 5%).
 */
export function thinProposals(xs: Iterable<number>): number[] {
  const out: number[] = [];
  for (const x of [...new Set(xs)].sort((a, b) => a - b)) {
    const last = out[out.length - 1];
    if (last === undefined || x > (1 + BRACKET_WITHIN) * last) out.push(x);
  }
  return out;
}
