/**
 * `evaluateClaims`: every claim on every data set of a run, from its per-trial values alone (pure:
 * no files, no randomness, so the same folder always gives the same verdicts).
 */
import { CLAIMS } from './definitions.js';
import type { DatasetContext } from './family.js';
import { groupSeries } from './grid.js';
import { ATTACK_CLAIMS } from './attackClaims.js';
import { groupRecommendSeries, RECOMMEND_CLAIMS, type RecommendClaimDefinition } from './recommend.js';
import type { ClaimResult, ClaimsInput, ClaimsOptions } from './types.js';
import type { Outcome } from './definitions.js';

export const DEFAULT_ALPHA = 0.05;

/** Angular unless the config says otherwise (a missing metric is the paper's angular distance). */
export function metricOf(input: ClaimsInput, dataset: string): string {
  return input.config.metric?.[dataset] ?? 'angular';
}

/** Data sets in config order, then any others the values or 1-NN distances name. */
export function datasetsOf(input: ClaimsInput): string[] {
  return [...new Set([...input.config.datasets, ...input.values.map((v) => v.dataset), ...input.nn.map((r) => r.dataset), ...(input.attack ?? []).map((v) => v.dataset)])];
}

const notTestedHere = (): Outcome => ({ verdict: 'not-tested', cells_tested: 0, cells_for: 0, cells_against: 0, detail: 'needs recommendation values for this data set' });

export function checkAlpha(alpha: number): void {
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be in (0, 1), got ${alpha}`);
}

function resultOf(claim: Pick<RecommendClaimDefinition, 'id' | 'statement'>, dataset: string, outcome: Outcome): ClaimResult {
  return {
    id: claim.id,
    dataset,
    verdict: outcome.verdict,
    statement: claim.statement,
    cells_tested: outcome.cells_tested,
    cells_for: outcome.cells_for,
    cells_against: outcome.cells_against,
    detail: outcome.detail,
  };
}

/**
 * Every claim of `CLAIMS` on every data set, data set by data set; after each data set's, the
 * recommendation claims when the input has recommendation values (a folder without them lists
 * none of those claims); the linkage attack's claims likewise only with attack values.
 */
const ATTACK_CLAIM_IDS = new Set<string>(ATTACK_CLAIMS.map((c) => c.id));

export function evaluateClaims(input: ClaimsInput, opts: ClaimsOptions = {}): ClaimResult[] {
  const alpha = opts.alpha ?? DEFAULT_ALPHA;
  checkAlpha(alpha);
  const series = groupSeries(input.values);
  const recommend = groupRecommendSeries(input.recommend ?? []);
  const hasAttack = (input.attack ?? []).length > 0;
  const out: ClaimResult[] = [];
  for (const dataset of datasetsOf(input)) {
    const nn = input.nn.filter((r) => r.dataset === dataset);
    const queriesPerN = new Map<number, number>();
    for (const r of nn) queriesPerN.set(r.n, (queriesPerN.get(r.n) ?? 0) + 1);
    const ctx: DatasetContext = {
      dataset,
      series: series.filter((s) => s.dataset === dataset),
      nn,
      attack: (input.attack ?? []).filter((v) => v.dataset === dataset),
      recommend: (input.recommend ?? []).filter((v) => v.dataset === dataset),
      config: input.config,
      alpha,
      allQueries: (n) => {
        if (input.config.queries === 0) return true;
        const users = input.population?.find((p) => p.dataset === dataset && p.n === n)?.users;
        return users !== undefined && users === queriesPerN.get(n);
      },
    };
    const metric = metricOf(input, dataset);
    for (const claim of CLAIMS) {
      // the linkage attack's claims only for a folder with attack values (others list them not at all)
      if (!hasAttack && ATTACK_CLAIM_IDS.has(claim.id)) continue;
      const outcome =
        claim.angular && metric !== 'angular'
          ? {
              verdict: 'not-tested' as const,
              cells_tested: 0,
              cells_for: 0,
              cells_against: 0,
              detail: `needs the angular distance: the paper's experiment is angular, this data set uses metric ${metric}`,
            }
          : claim.evaluate(ctx);
      out.push(resultOf(claim, dataset, outcome));
    }
    if (recommend.length === 0) continue;
    const recCtx = { dataset, series: recommend.filter((s) => s.dataset === dataset), config: input.config, alpha };
    for (const claim of RECOMMEND_CLAIMS) out.push(resultOf(claim, dataset, recCtx.series.length ? claim.evaluate(recCtx) : notTestedHere()));
  }
  return out;
}
