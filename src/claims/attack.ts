/**
 * lshdp's own claims about the linkage attack on released codes (config `attack`, docs/ATTACKS.md),
 * tested on the per-trial attack values (reid@1: the chance that the adversary's Hamming ranking
 * puts the target first, ties broken uniformly) beside the utility values of the same release.
 * Mechanisms are picked by the roles their units declare (grid.ts), never by name; the rules, and
 * what each test can and cannot detect, are stated in docs/RESULTS.md.
 */
import { ATTACK_FACTS } from '../evaluations/attack/facts.js';
import { RECOMMEND_FACTS } from '../evaluations/recommend/facts.js';
import { UTILITY_FACTS } from '../evaluations/utility/facts.js';
import type { AttackCoordinates, AttackTrialValue } from '../experiment/trialValues.js';
import { oneSampleTTest, welchTTest } from '../stats/tTests.js';
import { nearest } from '../util/nearest.js';
import { directionalCell, distinct, isLaplsh, isLsh, isLshrrPaper, pairedSamples, seriesOf } from './grid.js';
import { decide, needs, notTested, RECOMMEND_AND_ATTACK, type ClaimDefinition, type DatasetContext, type Outcome } from './family.js';
import type { CellTest, FamilyOutcome } from './rule.js';

/** The per-trial reid@1 of one (data set, n, κ, mechanism label, ξ, known share). */
export interface AttackSeries extends AttackCoordinates {
  /** released codes ranked (N): the chance levels are 1/N and 10/N */
  users: number;
  /** trial index → reid@1 (mean over the trial's targets) */
  byTrial: Map<number, number>;
}

/** Group per-trial attack values into series, in first-seen order. */
export function groupAttack(values: readonly AttackTrialValue[]): AttackSeries[] {
  return seriesOf(
    values,
    (v) => `${v.dataset}\u0000${v.n}\u0000${v.kappa}\u0000${v.mechanism}\u0000${v.xi}\u0000${v.known}`,
    (v) => ({ dataset: v.dataset, n: v.n, kappa: v.kappa, mechanism: v.mechanism, base: v.base, accountant: v.accountant, xi: v.xi, known: v.known, users: v.users }),
    (v) => v.reid1,
  );
}

/** A series' trial values in trial order. */
const trialValues = (m: Map<number, number>): number[] => [...m.entries()].sort((a, b) => a[0] - b[0]).map((e) => e[1]);

const NEEDS_ATTACK = 'linkage-attack values (config attack)';
const several = (xs: { mechanism: string }[]) => new Set(xs.map((s) => s.mechanism)).size > 1;

// ------------------------------------------------------------------ clean-lsh-reidentifies

const cleanLshReidentifies: ClaimDefinition = {
  id: 'clean-lsh-reidentifies',
  statement:
    "lshdp's own (linkage attack, docs/ATTACKS.md): codes released without noise (vanilla LSH) re-identify users: an adversary who knows part of a user's non-zero entries, hashes them with the public hash functions and ranks the N released codes by Hamming distance puts the user first (reid@1) more often than 10/N, at every n, κ and known share.",
  evaluation: 'attack',
  angular: false,
  evaluate(ctx) {
    const attack = groupAttack(ctx.attack);
    const lsh = attack.filter(isLsh);
    const missing = needs([
      [attack.length > 0, NEEDS_ATTACK],
      [lsh.length > 0, 'an lsh entry'],
    ]);
    if (missing) return notTested(missing);
    const label = several(lsh);
    const cells = lsh.map((s): CellTest | null => {
      const xs = trialValues(s.byTrial);
      if (xs.length < 2) return null;
      const t = oneSampleTTest(xs, 10 / s.users);
      const where = `n=${s.n} κ=${s.kappa} known=${s.known}${label ? ` [${s.mechanism}]` : ''}`;
      return { where, kind: t.kind, pFor: t.pAbove, pAgainst: t.pBelow, zeroVariance: t.zeroVariance, diff: t.diff };
    });
    const means = lsh.map((s) => trialValues(s.byTrial).reduce((a, b) => a + b, 0) / s.byTrial.size);
    const chance = lsh.map((s) => 10 / s.users);
    const range = (xs: number[]) => `${fmt(Math.min(...xs))}–${fmt(Math.max(...xs))}`;
    return decide(
      cells,
      ctx,
      { forWord: 'reid@1 above 10/N', againstWord: 'below', tests: 'one-sided one-sample t-tests over trials against 10/N; Δ = reid@1 − 10/N' },
      'needs an lsh entry in the attack values',
      'directional',
      [`mean reid@1 ${range(means)} against 10/N ${range(chance)}`],
    );
  },
};

const fmt = (x: number) => String(Number(x.toPrecision(3)));

// ------------------------------------------------------------------ reid-rises-with-xi

const reidRisesWithXi: ClaimDefinition = {
  id: 'reid-rises-with-xi',
  statement:
    "lshdp's own (linkage attack): a larger budget ξ never makes the attack weaker: for each privatized mechanism, no step between consecutive ξ of the grid shows a significant fall of reid@1 (same n, κ and known share).",
  evaluation: 'attack',
  angular: false,
  evaluate(ctx) {
    const attack = groupAttack(ctx.attack).filter((s) => s.xi !== null);
    const missing = needs([
      [ctx.attack.length > 0, NEEDS_ATTACK],
      [attack.length > 0, 'a mechanism with ξ'],
    ]);
    if (missing) return notTested(missing);
    const cells: (CellTest | null)[] = [];
    const labels = [...new Set(attack.map((s) => s.mechanism))];
    for (const label of labels) {
      const mine = attack.filter((s) => s.mechanism === label);
      const xis = distinct(mine.map((s) => s.xi));
      for (let i = 0; i + 1 < xis.length; i++) {
        const at = (xi: number) => new Map(mine.filter((s) => s.xi === xi).map((s) => [`${s.n}/${s.kappa}/${s.known}`, s]));
        const lower = at(xis[i]);
        for (const [key, high] of at(xis[i + 1])) {
          const low = lower.get(key);
          if (!low) continue;
          // the same trial shares its hash functions and partial profiles across ξ: paired
          const w = `${label} n=${high.n} κ=${high.kappa} known=${high.known} ξ=${xis[i]}→${xis[i + 1]}`;
          cells.push(directionalCell(w, pairedSamples(high.byTrial, low.byTrial), true, 'above', label));
        }
      }
    }
    const perMechanism = (out: FamilyOutcome) =>
      labels.flatMap((label) => {
        const mine = out.cells.filter((c) => c.part === label);
        const falls = mine.filter((c) => c.isAgainst).length;
        return mine.length ? [`${label}: rises in ${mine.filter((c) => c.isFor).length} of ${mine.length} steps, falls in ${falls}`] : [];
      });
    return decide(
      cells,
      ctx,
      { forWord: 'reid@1 rises', againstWord: 'falls', tests: 'one-sided paired t-tests over trials between consecutive ξ' },
      'needs a mechanism attacked at two ξ with the same n, κ and known share',
      'directional',
      perMechanism,
    );
  },
};

// ------------------------------------------------------------------ lshrr-frontier-dominates-laplsh

/** One point of the privacy–utility frontier: a (mechanism, n, κ, ξ) with both axes per trial. */
interface FrontierPoint {
  mechanism: string;
  n: number;
  kappa: number;
  xi: number | null;
  reid: number[];
  utility: number[];
  /** a LapLSH point (else an LSHRR one) */
  lap: boolean;
}

/** Which grid values the frontier's axes are read at, and the utility axis' direction. */
interface FrontierAxes {
  known: number;
  /** utility: loss at k (higher is worse), or NDCG@top at k (lower is worse) for the recommendations' twin */
  k: number;
  top: number | null;
  points: FrontierPoint[];
}

const pointKey = (n: number, kappa: number | null, mechanism: string, xi: number | null) => `${n}\u0000${kappa}\u0000${mechanism}\u0000${xi}`;

/** The frontier's headline slice: reid@1 at this known share, utility at this k (the twin's NDCG at this N); the grid's nearest where missing. */
export const FRONTIER_KNOWN = ATTACK_FACTS.headline.known;
export const FRONTIER_K = UTILITY_FACTS.headline.k;
export const FRONTIER_TOP = RECOMMEND_FACTS.headline.top;

/**
 * The frontier's points of LapLSH and LSHRR (paper accountant): reid@1 at known ≈ 0.5 against the
 * utility loss at k ≈ 10 (`ndcg` false), or NDCG@10 of the recommendations at k ≈ 10 (`ndcg` true).
 * Which axis is the claim's, never the config's: a claim id measures one thing.
 */
function frontierAxes(ctx: DatasetContext, ndcg: boolean): FrontierAxes | string {
  const known = nearest(new Set(ctx.attack.map((v) => v.known)), FRONTIER_KNOWN);
  const recommend = ndcg ? ctx.recommend.filter((v) => v.k !== null && v.kappa !== null) : [];
  const k = nearest(new Set(ndcg ? recommend.map((v) => v.k!) : ctx.series.map((s) => s.k)), FRONTIER_K);
  const top = ndcg && recommend.length ? nearest(new Set(recommend.map((v) => v.top)), FRONTIER_TOP)! : null;
  const missing = needs([
    [known !== undefined, NEEDS_ATTACK],
    [k !== undefined, ndcg ? 'recommendation values of mechanisms with neighbours' : 'utility values'],
  ]);
  if (missing) return missing;
  const utility = new Map<string, Map<number, number>>();
  if (top !== null) {
    for (const v of recommend.filter((r) => r.k === k && r.top === top)) {
      const key = pointKey(v.n, v.kappa, v.mechanism, v.xi);
      utility.set(key, (utility.get(key) ?? new Map()).set(v.trial, v.ndcg));
    }
  } else {
    for (const s of ctx.series.filter((x) => x.k === k)) utility.set(pointKey(s.n, s.kappa, s.mechanism, s.xi), s.byTrial);
  }
  const points = groupAttack(ctx.attack)
    .filter((s) => s.known === known && (isLaplsh(s) || isLshrrPaper(s)))
    .flatMap((s): FrontierPoint[] => {
      const u = utility.get(pointKey(s.n, s.kappa, s.mechanism, s.xi));
      return u ? [{ mechanism: s.mechanism, n: s.n, kappa: s.kappa, xi: s.xi, reid: trialValues(s.byTrial), utility: trialValues(u), lap: isLaplsh(s) }] : [];
    });
  return { known: known!, k: k!, top, points };
}

/** One LSHRR point against one LapLSH point: one-sided Welch tests on both axes. */
function versus(r: FrontierPoint, l: FrontierPoint, lowerUtilityIsWorse: boolean) {
  if (r.reid.length < 2 || l.reid.length < 2 || r.utility.length < 2 || l.utility.length < 2) return null;
  const privacy = welchTTest(r.reid, l.reid);
  const utility = welchTTest(r.utility, l.utility);
  const worseUtility = lowerUtilityIsWorse ? utility.pBelow : utility.pAbove;
  const betterUtility = lowerUtilityIsWorse ? utility.pAbove : utility.pBelow;
  return {
    r,
    // worse on some axis: the union of two one-sided tests (Bonferroni over the two axes)
    pWorse: Math.min(1, 2 * Math.min(privacy.pAbove, worseUtility)),
    pBetter: Math.min(privacy.pBelow, betterUtility),
    zeroVariance: privacy.zeroVariance && utility.zeroVariance,
    dReid: privacy.diff,
  };
}

/**
 * The cell of one LapLSH point. Against: every LSHRR point is significantly worse on some axis
 * (intersection–union over the LSHRR points: the largest of their p-values). For: an LSHRR point
 * not significantly worse on either axis (at α) is significantly better on one (the smallest
 * p-value of those, Bonferroni over every LSHRR point and both axes, so the screening cannot
 * make it smaller).
 */
function frontierCell(l: FrontierPoint, rs: FrontierPoint[], lowerUtilityIsWorse: boolean, alpha: number, label: { lap: boolean; rr: boolean }): CellTest | null {
  const comps = rs.map((r) => versus(r, l, lowerUtilityIsWorse)).filter((c) => c !== null);
  if (comps.length === 0) return null;
  const notWorse = comps.filter((c) => c.pWorse > alpha);
  const named = notWorse.length ? notWorse.reduce((a, b) => (b.pBetter < a.pBetter ? b : a)) : comps.reduce((a, b) => (b.pWorse < a.pWorse ? b : a));
  const where = `n=${l.n} κ=${l.kappa} ${label.lap ? l.mechanism : 'LapLSH'} ξ=${l.xi} vs ${label.rr ? named.r.mechanism : 'LSHRR'} ξ=${named.r.xi}`;
  return {
    where,
    kind: 'welch',
    pFor: notWorse.length ? Math.min(1, 2 * comps.length * Math.min(...notWorse.map((c) => c.pBetter))) : 1,
    pAgainst: Math.max(...comps.map((c) => c.pWorse)),
    // every LSHRR point screened out as worse on some axis: "for" is 1 by construction, no power
    minPFor: notWorse.length ? 0 : 1,
    zeroVariance: comps.every((c) => c.zeroVariance),
    diff: named.dReid,
  };
}

function frontierDominates(ctx: DatasetContext, ndcg: boolean): Outcome {
  const axes = frontierAxes(ctx, ndcg);
  if (typeof axes === 'string') return notTested(axes);
  const lap = axes.points.filter((p) => p.lap);
  const rr = axes.points.filter((p) => !p.lap);
  const missing = needs([
    [lap.length > 0, 'a laplsh entry attacked, with its utility'],
    [rr.length > 0, 'an lshrr entry with the paper accountant attacked, with its utility'],
  ]);
  if (missing) return notTested(missing);
  const label = { lap: several(lap), rr: several(rr) };
  let alone = 0;
  const cells = lap.flatMap((l) => {
    const rs = rr.filter((r) => r.n === l.n && r.kappa === l.kappa);
    if (rs.length === 0) alone++;
    return rs.length ? [frontierCell(l, rs, axes.top !== null, ctx.alpha, label)] : [];
  });
  const utility = axes.top !== null ? `NDCG@${axes.top} (k = ${axes.k}; lower is worse)` : `utility loss at k = ${axes.k} (higher is worse)`;
  const notes = [`axes: reid@1 at known = ${axes.known} (higher is worse) and ${utility}; Δ = reid@1 of the named LSHRR point minus LapLSH's`];
  if (alone > 0) notes.push(`${alone} LapLSH point${alone === 1 ? '' : 's'} without an LSHRR point at the same n and κ: not tested`);
  return decide(
    cells,
    ctx,
    {
      forWord: 'an LSHRR point significantly better on one axis and not significantly worse on the other',
      againstWord: 'every LSHRR point significantly worse on some axis',
      tests: 'one-sided Welch t-tests over trials per axis, per LapLSH point',
    },
    'needs lshrr and laplsh attacked at the same n and κ',
    'directional',
    notes,
  );
}

const lshrrFrontierDominatesLaplsh: ClaimDefinition = {
  id: 'lshrr-frontier-dominates-laplsh',
  statement: `lshdp's own (linkage attack): on the privacy–utility frontier (reid@1 at known share ${FRONTIER_KNOWN} against utility loss at k = ${FRONTIER_K}; the grid's nearest where those are missing), every LapLSH point (ξ) has an LSHRR point (paper accountant, same n and κ, any ξ) that is significantly worse on neither axis.`,
  evaluation: 'attack',
  angular: false,
  evaluate: (ctx) => frontierDominates(ctx, false),
};

/**
 * The recommendations' twin of `lshrr-frontier-dominates-laplsh` (NDCG for the utility axis): its
 * own id, listed after the recommendation claims for a folder with both kinds of values, so that adding `recommend:` to a config never
 * changes what the loss version measures.
 */
export const recommendFrontierDominatesLaplsh: ClaimDefinition = {
  id: 'recommend-lshrr-frontier-dominates-laplsh',
  statement: `lshdp's own, the recommendations' twin of lshrr-frontier-dominates-laplsh: on the frontier of reid@1 at known share ${FRONTIER_KNOWN} against NDCG@${FRONTIER_TOP} at k = ${FRONTIER_K} (the grid's nearest where those are missing), every LapLSH point (ξ) has an LSHRR point (paper accountant, same n and κ, any ξ) that is significantly worse on neither axis.`,
  evaluation: RECOMMEND_AND_ATTACK,
  angular: false,
  evaluate: (ctx) => frontierDominates(ctx, true),
};

/** The linkage attack's claims, in report order. */
export const ATTACK_CLAIMS: readonly ClaimDefinition[] = [cleanLshReidentifies, reidRisesWithXi, lshrrFrontierDominatesLaplsh];
