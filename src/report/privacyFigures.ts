/**
 * Vega-Lite specs of the privacy accounting (issue "privacy you can check"): the per-bit ε (or
 * the flip probability) each LSHRR accountant gives against ξ, one panel per κ; and the audit's
 * empirical CDF of the privacy loss against the exact one. Data inlined, like src/report/specs.ts.
 */
import { ACCOUNTANT_NAMES } from '../privacy/accountants.js';
import type { BudgetRecord } from '../privacy/budget.js';
import type { LossCdfPoint } from '../audit/run.js';
import { VL_SCHEMA, PALETTE, baseConfig, type VlSpec } from './specs.js';

export type BudgetMetric = 'epsilon' | 'flip';

/** Accountants in a fixed order (the accountants' own list), so colours stay put whichever ones a run uses. */
const ACCOUNTANT_ORDER: readonly string[] = ACCOUNTANT_NAMES;

function orderedAccountants(rows: readonly { accountant: string }[]): string[] {
  const seen = [...new Set(rows.map((r) => r.accountant))];
  return [...ACCOUNTANT_ORDER.filter((a) => seen.includes(a)), ...seen.filter((a) => !ACCOUNTANT_ORDER.includes(a))];
}

/**
 * Per-bit ε (metric 'epsilon') or flip probability 1/(1+e^ε) (metric 'flip') against ξ, one line
 * per accountant, one panel per κ, for one d (the rows' first d unless given). Unbounded points
 * (ε = ∞, flip 0) are left out of the ε plot and drawn at flip 0 in the flip plot.
 */
export function budgetFigureSpec(rows: readonly BudgetRecord[], metric: BudgetMetric = 'epsilon', d?: number): VlSpec {
  const at = d ?? rows[0]?.d;
  const sel = rows.filter((r) => r.d === at);
  const accountants = orderedAccountants(sel);
  const data = sel
    .filter((r) => metric === 'flip' || r.epsilon_bit !== null)
    .map((r) => ({
      accountant: r.accountant,
      kappa: `κ = ${r.kappa}`,
      kappaValue: r.kappa,
      xi: r.xi,
      value: metric === 'flip' ? r.flip : r.epsilon_bit,
      epsilon_bit: r.epsilon_bit,
      flip: r.flip,
      fallback: r.fallback,
      unbounded: r.unbounded,
    }));
  const kappas = [...new Set(sel.map((r) => r.kappa))].sort((a, b) => a - b).map((k) => `κ = ${k}`);
  const deltas = [...new Set(sel.map((r) => r.delta))];
  const title = metric === 'flip' ? 'Flip probability per bit against ξ' : 'Per-bit ε against ξ';
  return {
    $schema: VL_SCHEMA,
    title: {
      text: title,
      subtitle: `LSHRR accountants at d_θ = ${at}, δ = ${deltas.join(', ')}; larger ε (smaller flip probability) is the same guarantee with less noise when the accountant is sound`,
    },
    data: { values: data },
    facet: { column: { field: 'kappa', type: 'nominal', title: null, sort: kappas } },
    spec: {
      width: 220,
      height: 200,
      layer: [
        {
          mark: { type: 'line', point: { filled: true, size: 45 }, strokeWidth: 2 },
          encoding: {
            x: { field: 'xi', type: 'quantitative', title: 'total privacy budget ξ', scale: { domainMin: 0 } },
            y: {
              field: 'value',
              type: 'quantitative',
              title: metric === 'flip' ? 'flip probability 1/(1+e^ε)' : 'per-bit ε',
              scale: metric === 'flip' ? { domain: [0, 0.5] } : { zero: true },
            },
            color: { field: 'accountant', type: 'nominal', title: 'accountant', scale: { domain: accountants, range: accountants.map((_, i) => PALETTE[i % PALETTE.length]) } },
            strokeDash: { field: 'accountant', type: 'nominal', title: 'accountant', scale: { domain: accountants, range: accountants.map((a) => (a === 'naive' ? [4, 3] : [1, 0])) } },
            tooltip: [
              { field: 'accountant', type: 'nominal' },
              { field: 'kappaValue', type: 'quantitative', title: 'κ' },
              { field: 'xi', type: 'quantitative', title: 'ξ' },
              { field: 'epsilon_bit', type: 'quantitative', title: 'ε per bit', format: '.4f' },
              { field: 'flip', type: 'quantitative', title: 'flip', format: '.4f' },
              { field: 'fallback', type: 'nominal' },
              { field: 'unbounded', type: 'nominal' },
            ],
          },
        },
      ],
    },
    resolve: { scale: { y: 'shared' } },
    config: baseConfig(),
  };
}

/**
 * The audit figure: empirical CDF of the privacy loss L (synthetic pairs at exactly d) against the
 * exact CDF, one panel per (mechanism, κ, ξ), with ξ marked: the tail Pr[L > ξ] is the gap above
 * the curve at the rule.
 */
export function lossCdfSpec(points: readonly LossCdfPoint[], xiByPanel: Record<string, number>): VlSpec {
  const panels = [...new Set(points.map((p) => p.panel))];
  // the rule layer reads ξ from the faceted rows themselves (a layer with its own data is not faceted)
  const values = points.map((p) => ({ ...p, xi: xiByPanel[p.panel] }));
  return {
    $schema: VL_SCHEMA,
    title: { text: 'Privacy loss: empirical CDF against the exact distribution', subtitle: 'synthetic pairs at exactly d; the dashed rule is ξ, the tail Pr[L > ξ] is what lies right of it' },
    data: { values },
    facet: { field: 'panel', type: 'nominal', title: null, sort: panels },
    columns: 3,
    spec: {
      width: 220,
      height: 160,
      layer: [
        {
          mark: { type: 'line', interpolate: 'step-after', strokeWidth: 2 },
          encoding: {
            x: { field: 'loss', type: 'quantitative', title: 'privacy loss L' },
            y: { field: 'cdf', type: 'quantitative', title: 'Pr[L ≤ x]', scale: { domain: [0, 1] } },
            color: { field: 'source', type: 'nominal', title: null, scale: { domain: ['exact', 'empirical'], range: [PALETTE[0], PALETTE[1]] } },
            strokeDash: {
              field: 'source',
              type: 'nominal',
              title: null,
              scale: {
                domain: ['exact', 'empirical'],
                range: [
                  [1, 0],
                  [5, 3],
                ],
              },
            },
          },
        },
        {
          mark: { type: 'rule', strokeDash: [2, 2], color: '#444' },
          encoding: { x: { field: 'xi', type: 'quantitative', aggregate: 'min' } },
        },
      ],
    },
    resolve: { scale: { x: 'independent' } },
    config: baseConfig(),
  };
}

/** A figure of the report (the fields of src/report/html.ts's FigureEntry). */
export interface PrivacyFigureEntry {
  id: string;
  title: string;
  caption: string;
  spec: VlSpec;
  svgPath: string;
}

/**
 * The accounting figures of a run for the report's figure list: per-bit ε and flip probability
 * against ξ, one line per accountant of budgets.csv, one panel per κ (none without budgets).
 */
export function privacyFigureEntries(budgets: readonly BudgetRecord[] | null, d?: number): PrivacyFigureEntry[] {
  if (!budgets || budgets.length === 0) return [];
  const at = d !== undefined && budgets.some((b) => b.d === d) ? d : budgets[0].d;
  const accountants = orderedAccountants(budgets.filter((b) => b.d === at)).join(', ');
  return (['epsilon', 'flip'] as const).map((metric) => ({
    id: `privacy-${metric}`,
    title: metric === 'epsilon' ? 'Per-bit ε against ξ' : 'Flip probability against ξ',
    caption: `LSHRR's ${metric === 'epsilon' ? 'per-bit randomized-response ε' : 'flip probability 1/(1+e^ε)'} against the total budget ξ at d_θ = ${at}, one line per accountant (${accountants}), one panel per κ.`,
    spec: budgetFigureSpec(budgets, metric, at),
    svgPath: `figures/privacy-${metric}.svg`,
  }));
}
