/**
 * `evaluateClaims`: every claim on every data set of a run, from its per-trial values alone (pure:
 * no files, no randomness, so the same folder always gives the same verdicts). One loop over the
 * one list (all.ts), whichever evaluation a claim reads.
 */
import { claimDefinitions } from './all.js';
import type { ClaimDefinition, ClaimEvaluation, DatasetContext, Outcome } from './family.js';
import { notTested, RECOMMEND_AND_ATTACK } from './family.js';
import { groupRecommendSeries, groupSeries, type RecommendSeries, type Series } from './grid.js';
import type { ClaimResult, ClaimsInput, ClaimsOptions } from './types.js';

export const DEFAULT_ALPHA = 0.05;

/** Angular unless the config says otherwise (a missing metric is the paper's angular distance). */
export function metricOf(input: ClaimsInput, dataset: string): string {
  return input.config.metric?.[dataset] ?? 'angular';
}

/** Data sets in config order, then any others the values or 1-NN distances name. */
export function datasetsOf(input: ClaimsInput): string[] {
  return [...new Set([...input.config.datasets, ...input.values.map((v) => v.dataset), ...input.nn.map((r) => r.dataset), ...(input.attack ?? []).map((v) => v.dataset)])];
}

export function checkAlpha(alpha: number): void {
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be in (0, 1), got ${alpha}`);
}

interface Gate {
  listed(input: ClaimsInput): boolean;
  lacks(ctx: DatasetContext): string | null;
}

/**
 * When a run lists an evaluation's claims (`listed`: a folder without its values lists none of
 * them), and what a data set of such a run lacks for them (`lacks`: its not-tested detail, or
 * null to let each claim say). Utility claims are always listed; the linkage attack's claims
 * name what they miss themselves.
 */
const EVALUATION_GATES: Readonly<Record<string, Gate>> = {
  utility: { listed: () => true, lacks: () => null },
  attack: { listed: (input) => (input.attack ?? []).length > 0, lacks: () => null },
  recommend: {
    listed: (input) => (input.recommend ?? []).length > 0,
    lacks: (ctx) => (ctx.recommendSeries.length ? null : 'needs recommendation values for this data set'),
  },
  [RECOMMEND_AND_ATTACK]: {
    listed: (input) => (input.recommend ?? []).length > 0 && (input.attack ?? []).length > 0,
    lacks: (ctx) => (ctx.recommendSeries.length ? null : 'needs recommendation values for this data set'),
  },
};

/** Any other evaluation's claims: listed when the run has its values (under the evaluation's name), each claim saying what it lacks. */
const gateOf = (evaluation: ClaimEvaluation): Gate =>
  EVALUATION_GATES[evaluation] ?? { listed: (input) => Array.isArray(input[evaluation]) && (input[evaluation] as unknown[]).length > 0, lacks: () => null };

/** The series of every data set, grouped once (a run's claims group tens of thousands of values). */
interface Grouped {
  series: Series[];
  recommendSeries: RecommendSeries[];
}

function groupedOf(input: ClaimsInput): Grouped {
  return { series: groupSeries(input.values), recommendSeries: groupRecommendSeries(input.recommend ?? []) };
}

/** What every claim sees of data set `dataset` (`grouped`: the input's series, when the caller has grouped them). */
export function datasetContext(input: ClaimsInput, dataset: string, alpha: number, grouped: Grouped = groupedOf(input)): DatasetContext {
  const nn = input.nn.filter((r) => r.dataset === dataset);
  const queriesPerN = new Map<number, number>();
  for (const r of nn) queriesPerN.set(r.n, (queriesPerN.get(r.n) ?? 0) + 1);
  return {
    dataset,
    series: grouped.series.filter((s) => s.dataset === dataset),
    nn,
    attack: (input.attack ?? []).filter((v) => v.dataset === dataset),
    recommend: (input.recommend ?? []).filter((v) => v.dataset === dataset),
    recommendSeries: grouped.recommendSeries.filter((s) => s.dataset === dataset),
    valuesOf: <V extends { dataset: string }>(evaluation: string) => ((input[evaluation] ?? []) as V[]).filter((v) => v.dataset === dataset),
    withEntryXi: <V extends { dataset: string }>(evaluation: string) => ((input.entryXi?.[evaluation] ?? input[evaluation] ?? []) as V[]).filter((v) => v.dataset === dataset),
    config: input.config,
    alpha,
    allQueries: (n) => {
      if (input.config.queries === 0) return true;
      const users = input.population?.find((p) => p.dataset === dataset && p.n === n)?.users;
      return users !== undefined && users === queriesPerN.get(n);
    },
  };
}

/** One claim's outcome on one data set: not-tested when the data set lacks its evaluation's values or its metric, else its own. */
function outcomeOf(claim: ClaimDefinition, ctx: DatasetContext, metric: string): Outcome {
  const lacking = gateOf(claim.evaluation).lacks(ctx);
  if (lacking !== null) return notTested(lacking);
  if (claim.angular && metric !== 'angular') return notTested(`needs the angular distance: the paper's experiment is angular, this data set uses metric ${metric}`);
  return claim.evaluate(ctx);
}

/**
 * Every claim of `CLAIMS` whose evaluation the run has, on every data set, data set by data set
 * in the list's order.
 */
export function evaluateClaims(input: ClaimsInput, opts: ClaimsOptions = {}): ClaimResult[] {
  const alpha = opts.alpha ?? DEFAULT_ALPHA;
  checkAlpha(alpha);
  const grouped = groupedOf(input);
  const claims = claimDefinitions().filter((c) => gateOf(c.evaluation).listed(input));
  const out: ClaimResult[] = [];
  for (const dataset of datasetsOf(input)) {
    const ctx = datasetContext(input, dataset, alpha, grouped);
    const metric = metricOf(input, dataset);
    for (const claim of claims) {
      const o = outcomeOf(claim, ctx, metric);
      out.push({ id: claim.id, dataset, verdict: o.verdict, statement: claim.statement, cells_tested: o.cells_tested, cells_for: o.cells_for, cells_against: o.cells_against, detail: o.detail });
    }
  }
  return out;
}
