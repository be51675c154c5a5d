/**
 * The frontier's horizontal references, per panel and labelled (issue 51): on the utility loss,
 * random codes (u_rand, the exact expected loss of k neighbours drawn uniformly at random, from the
 * exact cells' records) and clean LSH (its mean loss at the panel's n, κ and k); on NDCG@N, clean
 * LSH, `exact` (the true k nearest neighbours) and `pop` (the most popular items), from
 * recommend.csv. Random codes have no exact NDCG, so that axis has no random rule.
 */
import { isLsh } from '../claims/grid.js';
import type { RandomLoss } from '../decide/randomLoss.js';
import type { RecommendRow, UtilityRow } from './read.js';

/** What of a frontier's axes the rules read (frontierFigure.ts's FrontierAxes; not imported: that module imports this one). */
interface RuleAxes {
  metric: 'loss' | 'ndcg';
  k: number;
  top: number | null;
}

/** One reference line of one panel. */
export interface RuleRow {
  panel: string;
  kappa: number;
  n: number;
  kind: 'rule';
  /** the line's label */
  rule: 'random' | 'clean LSH' | 'exact' | 'pop';
  y: number;
}

export const RULE_COLOR = '#555';

/**
 * The rules of every panel of a data set's frontier (`panels`: each panel's name, κ and n), in the
 * order random, clean LSH, exact, pop; a reference the folder lacks is left out.
 */
export function frontierRules(
  dataset: string,
  panels: readonly { panel: string; kappa: number; n: number }[],
  axes: RuleAxes,
  utility: readonly UtilityRow[],
  recommend: readonly RecommendRow[] | null | undefined,
  uRand: RandomLoss | null,
): RuleRow[] {
  const out: RuleRow[] = [];
  for (const p of panels) {
    const add = (rule: RuleRow['rule'], y: number | null | undefined) => {
      if (y !== null && y !== undefined && Number.isFinite(y)) out.push({ panel: p.panel, kappa: p.kappa, n: p.n, kind: 'rule', rule, y });
    };
    if (axes.metric === 'loss') {
      add('random', uRand?.(dataset, p.n, axes.k));
      add('clean LSH', utility.find((r) => r.dataset === dataset && isLsh(r) && r.n === p.n && r.kappa === p.kappa && r.k === axes.k)?.utility_loss_mean);
    } else {
      const rec = (recommend ?? []).filter((r) => r.dataset === dataset && r.n === p.n && r.top === axes.top);
      add('clean LSH', rec.find((r) => isLsh(r) && r.kappa === p.kappa && r.k === axes.k)?.ndcg_mean);
      add('exact', rec.find((r) => r.base === 'exact' && r.k === axes.k)?.ndcg_mean);
      add('pop', rec.find((r) => r.base === 'pop')?.ndcg_mean);
    }
  }
  return out;
}

/** The rules' layers of a panel: a thin grey line and its label at the panel's right edge. */
export function ruleLayers(width: number): unknown[] {
  const rules = { filter: "datum.kind === 'rule'" };
  const y = { field: 'y', type: 'quantitative' };
  return [
    { transform: [rules], mark: { type: 'rule', color: RULE_COLOR, strokeWidth: 1, strokeDash: [1, 3] }, encoding: { y } },
    {
      transform: [rules],
      mark: { type: 'text', fontSize: 9, color: RULE_COLOR, align: 'right', baseline: 'bottom', dy: -1 },
      encoding: { y, x: { value: width - 2 }, text: { field: 'rule', type: 'nominal' } },
    },
  ];
}

/** The subtitle's words on the rules. */
export function rulesWords(axes: RuleAxes): string {
  return axes.metric === 'loss'
    ? "grey dotted horizontal lines: random codes (u_rand, the exact expected loss of k random neighbours) and clean LSH's loss"
    : "grey dotted horizontal lines: clean LSH's, exact k-NN's and pop's NDCG";
}
