/**
 * The one contract every claim is written to, whichever evaluation's values it reads (utility
 * loss, recommendations, the linkage attack): an id, a statement, the evaluation it belongs to,
 * and `evaluate(ctx)` from the context it sees of one data set to an outcome. One loop
 * (evaluate.ts) evaluates every claim of `CLAIMS` (all.ts). Beside it, the steps from a family of
 * cells to a verdict with its one-line detail (`decide`), or to not-tested with what the grid
 * lacks (`notTested`, `needs`), which the claims of every evaluation share.
 */
import type { AttackTrialValue, NnDistance, RecommendTrialValue } from '../experiment/trialValues.js';
import type { RecommendSeries, Series } from './grid.js';
import { describeFamily, familyVerdict, type CellTest, type FamilyMode, type FamilyOutcome } from './rule.js';
import type { ClaimId, ClaimResult, ClaimsConfig } from './types.js';

/** Everything a claim sees of one data set. */
export interface DatasetContext {
  dataset: string;
  /** this data set's utility series (see grid.ts) */
  series: Series[];
  /** this data set's 1-NN distances of the query users */
  nn: NnDistance[];
  /** this data set's per-trial linkage-attack values (empty without `attack`) */
  attack: AttackTrialValue[];
  /** this data set's per-trial recommendation values (empty without `recommend`) */
  recommend: RecommendTrialValue[];
  /** the same grouped into NDCG series (see grid.ts) */
  recommendSeries: RecommendSeries[];
  /** this data set's per-trial values of any evaluation, by its name (src/evaluations/catalog.ts) */
  valuesOf<V extends { dataset: string }>(evaluation: string): V[];
  /**
   * the same with the values at an entry's own ξ (a mechanism entry's `xi:`, e.g. calibrated),
   * which every other list of the context leaves out: `values` the utility values, else the
   * evaluation of that name. Only the matched claims read them (their crossings use each entry's
   * whole ξ list); every other claim reads privacy.xi alone.
   */
  withEntryXi<V extends { dataset: string }>(evaluation: 'values' | string): V[];
  config: ClaimsConfig;
  alpha: number;
  /** true when every user of (this data set, n) was a query, so Fig. 1's shares are exact */
  allQueries: (n: number) => boolean;
}

export type Outcome = Pick<ClaimResult, 'verdict' | 'cells_tested' | 'cells_for' | 'cells_against' | 'detail'>;

/**
 * The evaluation whose claims these are: a run lists a claim only when it has that evaluation's
 * values (utility: always), see `EVALUATION_GATES` in evaluate.ts.
 */
export type ClaimEvaluation = string;

/** The evaluation of a claim that reads both the recommendations and the linkage attack (listed when a run has both). */
export const RECOMMEND_AND_ATTACK: ClaimEvaluation = 'recommend+attack';

export interface ClaimDefinition {
  id: ClaimId;
  statement: string;
  /** which evaluation's values it reads (the accountant's worked examples read none and go with utility) */
  evaluation: ClaimEvaluation;
  /** an experiment on angular vectors (not-tested on data sets of another metric) */
  angular: boolean;
  evaluate(ctx: DatasetContext): Outcome;
}

export function notTested(detail: string): Outcome {
  return { verdict: 'not-tested', cells_tested: 0, cells_for: 0, cells_against: 0, detail };
}

/** "needs a and b" from the requirements that fail, or null when all hold. */
export function needs(reqs: [boolean, string][]): string | null {
  const missing = reqs.filter(([ok]) => !ok).map(([, what]) => what);
  return missing.length ? `needs ${missing.join(' and ')}` : null;
}

export const TRIALS_NEEDED = 'at least 2 trials per cell (per-trial values)';

/**
 * The family's verdict, or not-tested: `whenEmpty` when no cell pairs up, the trials requirement
 * when cells paired up but none had enough trials to test.
 */
export function decide(
  candidates: (CellTest | null)[],
  ctx: Pick<DatasetContext, 'alpha'>,
  words: { forWord: string; againstWord: string; tests: string },
  whenEmpty: string,
  mode: FamilyMode = 'directional',
  extra: string[] | ((out: FamilyOutcome) => string[]) = [],
): Outcome {
  const cells = candidates.filter((c): c is CellTest => c !== null);
  if (candidates.length === 0) return notTested(whenEmpty);
  if (cells.length === 0) return notTested(`needs ${TRIALS_NEEDED}`);
  const out = familyVerdict(cells, ctx.alpha, mode);
  const skipped = candidates.length - cells.length;
  const notes = typeof extra === 'function' ? extra(out) : [...extra];
  if (skipped > 0) notes.push(`${skipped} cell${skipped === 1 ? '' : 's'} skipped: fewer than 2 trials`);
  return {
    verdict: out.verdict,
    cells_tested: out.tested,
    cells_for: out.forCount,
    cells_against: out.againstCount,
    detail: [describeFamily(out, words, ctx.alpha), ...notes].join('; '),
  };
}
