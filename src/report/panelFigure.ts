/**
 * Fig. 2's layout (one panel per (κ, n), one curve per mechanism against ξ), for the rows of
 * Fig. 2 itself (utilityFigure.ts) and of the NDCG@N figure of the recommendations
 * (recommendFigure.ts).
 */
import { uniqueInOrder } from './read.js';
import { BASELINE_DASH, BASELINE_SYMBOL, VL_SCHEMA, baseConfig, seriesStyle, xiAxis, type VlSpec } from './specs.js';

export interface Fig2Row {
  n: number;
  k: number;
  /** "κ = 10" (mechanisms without hash bits are drawn in every κ row) */
  kappa: string;
  /** "n = 100" */
  dim: string;
  /** the panel: "κ = 10, n = 100" */
  panel: string;
  /** the config entry's label */
  mechanism: string;
  base: string;
  accountant: string | null;
  /** curve: a privatized mechanism against ξ; baseline: a mechanism without ξ (vanilla LSH) as a horizontal rule */
  kind: 'curve' | 'baseline';
  xi: number | null;
  epsilon_ldp: number | null;
  value: number;
  lo: number;
  hi: number;
  se: number | null;
  trials: number;
  fallback: boolean;
}

/** "κ = 10, n = 100": the panel of a row. */
export const panelLabel = (kappa: string, dim: string) => `${kappa}, ${dim}`;

/** What a panel figure puts on its y axis, and its titles. */
export interface PanelMeasure {
  /** the y axis' title and the tooltip's name of the value, e.g. "utility loss" */
  what: string;
  /** the y scale (e.g. from zero, or [0, 1]) */
  scale: Record<string, unknown>;
  title: string;
  subtitle: string[];
}

/**
 * Fig. 2's layout for rows already made (Fig. 2 itself, and the NDCG@N figure of the
 * recommendations): one panel per (κ, n), one curve per mechanism against ξ, rows without ξ as
 * dashed rules with their ±1 se band, colours fixed by each series' place in `allSeries`.
 */
export function panelSpec(data: Fig2Row[], seriesOf: { allSeries: string[]; series: string[] }, measure: PanelMeasure): VlSpec {
  const { allSeries, series } = seriesOf;
  const shown = series.filter((m) => data.some((r) => r.mechanism === m));
  const kappaRows = uniqueInOrder(data.map((r) => r.kappa));
  const dims = uniqueInOrder(data.map((r) => r.n))
    .sort((a, b) => a - b)
    .map((n) => `n = ${n}`);
  const panels = kappaRows.flatMap((kappa) => dims.map((dim) => panelLabel(kappa, dim)));
  const style = seriesStyle(allSeries, shown);
  // a mechanism without ξ has no markers, only its dashed rule: its legend sample is that dashed
  // line (shape 'stroke' with the rule's dash), and its label says so in words too
  const baselines = shown.filter((m) => data.some((r) => r.mechanism === m && r.kind === 'baseline') && !data.some((r) => r.mechanism === m && r.kind === 'curve'));
  const legend = {
    symbolOpacity: 1,
    symbolSize: 110,
    symbolStrokeWidth: 2,
    orient: 'right',
    labelExpr: `indexof(${JSON.stringify(baselines)}, datum.label) >= 0 ? datum.label + ' (dashed line)' : datum.label`,
  };
  const isBaseline = (m: string) => baselines.includes(m);
  const color = { field: 'mechanism', type: 'nominal', title: 'mechanism', scale: { domain: shown, range: style.colors }, legend };
  const shape = { field: 'mechanism', type: 'nominal', title: 'mechanism', scale: { domain: shown, range: shown.map((m, i) => (isBaseline(m) ? BASELINE_SYMBOL : style.shapes[i])) }, legend };
  // same field and title as colour and shape: vega-lite merges the three into one legend
  const strokeDash = { field: 'mechanism', type: 'nominal', title: 'mechanism', scale: { domain: shown, range: shown.map((m) => (isBaseline(m) ? BASELINE_DASH : [1, 0])) }, legend };
  // a symmetric-log ξ axis: the paper's grid (0, 0.5, 1, 2, 5, 10, 20) crowds its interesting low end
  // on a linear axis (ξ ≈ 2 is where LSHRR beats the random hash); ticks at the grid's own ξ
  const xis = uniqueInOrder(data.flatMap((r) => (r.xi === null ? [] : [r.xi]))).sort((a, b) => a - b);
  const x = xiAxis(xis);
  const y = {
    field: 'value',
    type: 'quantitative',
    title: measure.what,
    scale: measure.scale,
  };
  const tooltip = [
    { field: 'mechanism', type: 'nominal' },
    { field: 'base', type: 'nominal' },
    { field: 'accountant', type: 'nominal' },
    { field: 'kappa', type: 'nominal', title: 'κ' },
    { field: 'dim', type: 'nominal', title: 'n' },
    { field: 'xi', type: 'quantitative', title: 'ξ' },
    { field: 'epsilon_ldp', type: 'quantitative', title: 'ε_LDP', format: '.4~g' },
    { field: 'value', type: 'quantitative', title: measure.what, format: '.4f' },
    { field: 'se', type: 'quantitative', title: 'se', format: '.4f' },
    { field: 'trials', type: 'quantitative' },
  ];
  const curve = { filter: "datum.kind === 'curve'" };
  const base = { filter: "datum.kind === 'baseline'" };
  const header = { labelFontSize: 13, labelFontWeight: 'bold' };

  return {
    $schema: VL_SCHEMA,
    title: { text: measure.title, subtitle: measure.subtitle },
    data: { values: data },
    // one labelled panel per (κ, n), κ down and n across: every panel says which it is
    facet: { field: 'panel', type: 'nominal', title: null, sort: panels, header },
    columns: dims.length,
    spec: {
      width: 220,
      height: 160,
      layer: [
        { transform: [base], mark: { type: 'rect', opacity: 0.12 }, encoding: { y: { field: 'lo', type: 'quantitative' }, y2: { field: 'hi' }, color } },
        { transform: [base], mark: { type: 'rule', strokeWidth: 1.8 }, encoding: { y, color, strokeDash, tooltip } },
        { transform: [curve], mark: { type: 'rule', strokeWidth: 1.2 }, encoding: { x, y: { field: 'lo', type: 'quantitative' }, y2: { field: 'hi' }, color } },
        { transform: [curve], mark: { type: 'line', strokeWidth: 1.8 }, encoding: { x, y, color, detail: { field: 'mechanism', type: 'nominal' } } },
        { transform: [curve], mark: { type: 'point', filled: true, size: 45, opacity: 1 }, encoding: { x, y, color, shape, tooltip } },
      ],
    },
    resolve: { scale: { y: 'shared' } },
    config: baseConfig(),
  };
}
