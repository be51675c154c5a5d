/**
 * What the matched claims test (matched.ts): one data set's entries over their whole ξ lists (an
 * entry's own `xi:` included: the crossing is read where calibration put its values), each
 * with its per-trial attack success and utility loss at the decide: block's known share, auxiliary
 * share and k, the crossing of each with a target through src/decide (matchCell: the same chain,
 * the same bootstrap resamples as `lshdp choose`), and the paired one-sided test of two entries'
 * u* with the standard error those resamples give.
 */
import type { DecideSettings } from '../experiment/config/decide.js';
import type { AttackTrialValue, InferTrialValue, TrialValue } from '../experiment/trialValues.js';
import { ATTACK_FACTS } from '../evaluations/attack/facts.js';
import { INFER_FACTS } from '../evaluations/infer/facts.js';
import { NULL_BASELINE } from '../evaluations/infer/store.js';
import { matchCell, type EntrySeries, type MatchedCell } from '../decide/matched.js';
import { cellSeed } from '../decide/choose.js';
import { byTrial, complete, key } from '../decide/read.js';
import type { DatasetContext } from './family.js';
import type { CellTest } from './rule.js';
import { resampledPairedT } from '../decide/rank.js';

/** Which attack a matched claim is matched on: reid@1 of the linkage attack, or attribute inference's auc advantage over null. */
export type MatchedOn = 'reid' | 'auc';

/** One entry of one (n, κ): its coordinates, for the claims to pick it by role, and its series. */
export interface MatchedEntryAt {
  n: number;
  kappa: number;
  label: string;
  base: string;
  accountant: string | null;
  series: EntrySeries;
}

export interface MatchedEntries {
  /** the entries with every trial at every ξ of their list, in first-seen order */
  entries: MatchedEntryAt[];
  /** "lshrr n=100 κ=20": entries left out for a missing trial or value */
  skipped: string[];
}

/** A privatized series of the attack's values: its place, and its success per trial. */
interface Attacked {
  n: number;
  kappa: number;
  mechanism: string;
  base: string;
  accountant: string | null;
  xi: number;
}

/**
 * The data set's privatized entries at the block's known share (reid) or auxiliary share (auc)
 * and k, each over the ξ its attack values hold (the auc advantage paired with null's trial).
 */
export function matchedEntries(ctx: Pick<DatasetContext, 'withEntryXi' | 'config'>, on: MatchedOn, s: DecideSettings): MatchedEntries {
  // the eight matched claims of a data set read the same entries: grouped once per context and attack
  const cached = cache.get(ctx)?.get(on);
  if (cached && cached.settings === s) return cached.entries;
  const entries = groupEntries(ctx, on, s);
  cache.set(ctx, (cache.get(ctx) ?? new Map()).set(on, { settings: s, entries }));
  return entries;
}

const cache = new WeakMap<object, Map<MatchedOn, { settings: DecideSettings; entries: MatchedEntries }>>();

function groupEntries(ctx: Pick<DatasetContext, 'withEntryXi' | 'config'>, on: MatchedOn, s: DecideSettings): MatchedEntries {
  const trials = ctx.config.trials;
  const point = (v: { n: number; kappa: number | null; mechanism: string }, xi: number | null) => key(v.n, v.kappa, v.mechanism, xi);
  const loss = byTrial(
    ctx.withEntryXi<TrialValue>('values').filter((v) => v.k === s.k),
    (v) => point(v, v.xi),
    (v) => v.loss,
  );
  let attacked: Attacked[];
  let success: Map<string, Map<number, number>>;
  let nulls = new Map<string, Map<number, number>>();
  if (on === 'reid') {
    const at = ctx.withEntryXi<AttackTrialValue>(ATTACK_FACTS.name).filter((v) => v.known === s.known && v.kappa !== null && v.xi !== null && v.base !== null);
    attacked = at as Attacked[];
    success = byTrial(
      at,
      (v) => point(v, v.xi),
      (v) => v.reid1,
    );
  } else {
    const at = ctx.withEntryXi<InferTrialValue>(INFER_FACTS.name).filter((v) => v.aux === s.aux && v.kappa !== null);
    const privatized = at.filter((v) => v.base !== null && v.xi !== null);
    attacked = privatized as Attacked[];
    success = byTrial(
      privatized,
      (v) => point(v, v.xi),
      (v) => v.auc,
    );
    nulls = byTrial(
      at.filter((v) => v.mechanism === NULL_BASELINE),
      (v) => key(v.n, v.kappa),
      (v) => v.auc,
    );
  }
  // each entry's ξ list: the ξ its attack values hold, increasing
  const xis = new Map<string, { first: Attacked; xis: Set<number> }>();
  for (const v of attacked) {
    const k = point(v, null);
    const e = xis.get(k) ?? { first: v, xis: new Set<number>() };
    xis.set(k, e);
    e.xis.add(v.xi);
  }
  const out: MatchedEntries = { entries: [], skipped: [] };
  for (const { first: v, xis: set } of xis.values()) {
    const list = [...set].sort((a, b) => a - b);
    const series: EntrySeries = { label: v.mechanism, xis: list, success: [[]], loss: [], releasable: true };
    const z = on === 'auc' ? complete(nulls.get(key(v.n, v.kappa)), trials) : null;
    let ok = on === 'reid' || z !== null;
    for (const xi of list) {
      if (!ok) break;
      const l = complete(loss.get(point(v, xi)), trials);
      const p = complete(success.get(point(v, xi)), trials);
      if (!l || !p) ok = false;
      else {
        series.loss.push(l);
        series.success[0].push(z ? p.map((x, t) => x - z[t]) : p);
      }
    }
    if (ok) out.entries.push({ n: v.n, kappa: v.kappa, label: v.mechanism, base: v.base, accountant: v.accountant, series });
    else out.skipped.push(`${v.mechanism} n=${v.n} κ=${v.kappa}`);
  }
  return out;
}

/**
 * The matched cell of some entries of one (n, κ) at target T: matchCell on their series alone,
 * seeded as `lshdp choose` seeds the cell, so the resamples are choose's (they depend on the
 * seed and the number of trials only).
 */
export function matchedAt(dataset: string, entries: readonly MatchedEntryAt[], target: number, s: DecideSettings, trials: number, alpha: number): MatchedCell {
  const { n, kappa } = entries[0]!;
  return matchCell({ trials, entries: entries.map((e) => e.series), targets: [target], uRand: null }, { alpha, seed: cellSeed({ dataset, n, kappa, k: s.k }) });
}

/**
 * Entry x's u* below entry y's, paired over the shared resamples: Δ = u*_x − u*_y as observed, its
 * standard error the spread of the per-resample differences (a resample in which either entry
 * meets T at no ξ has no difference and is left out) times √(m/(m − 1)) (the bootstrap of m trials
 * gives a mean's variance (m − 1)/m of the usual estimate), and a one-sided t test on m − 1 degrees
 * of freedom. Not the share of resamples on the other side: with 10 trials that percentile rule
 * reached a false verdict in 13% of families of one law at α = 0.05 (its tails are the normal's,
 * thinner than t_9's; tests/claims/matched.long.test.ts). No spread: the t test's limit (p = 0
 * where Δ is beyond 0 that way, else 1), as every claim's. The direction is the claim's, fixed
 * before the data (the ranking, src/decide/rank.ts, picks no direction: it tests every pair two-sided). Null without
 * resamples (m < 2).
 */
export function pairedBootstrapCell(where: string, cell: MatchedCell, x: number, y: number): CellTest | null {
  const m = cell.trials;
  if (cell.boot.length === 0 || m < 2) return null;
  const diff = cell.entries[x]!.loss - cell.entries[y]!.loss;
  const base = { where, kind: 'bootstrap' as const, diff };
  const test = resampledPairedT(
    cell.boot.map((row) => row[x]! - row[y]!),
    diff,
    m,
    Math.max(Math.abs(cell.entries[x]!.loss), Math.abs(cell.entries[y]!.loss)),
  );
  // fewer than 2 resamples with both crossings: nothing to judge the difference by
  if (test === null) return { ...base, pFor: 1, pAgainst: 1, zeroVariance: false, minPFor: 1 };
  return { ...base, pFor: test.pBelow, pAgainst: test.pAbove, zeroVariance: test.zeroVariance };
}
