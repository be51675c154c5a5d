/**
 * The recommendations' figure (config `recommend`, docs/RECOMMEND.md): NDCG@10 against ξ per data
 * set, in Fig. 2's layout (one panel per κ and n, one line per mechanism, ±1 se), with the rows
 * without ξ as dashed rules: vanilla LSH in its κ row, and the `exact` and `pop` baselines, which
 * have no κ, in every row. Built from recommend.csv's rows alone.
 */
import type { RecommendRow } from './read.js';
import { uniqueInOrder } from './read.js';
import { RECOMMEND_FACTS } from '../evaluations/recommend/facts.js';
import { panelSpec, type Fig2Row } from './panelFigure.js';
import type { VlSpec } from './specs.js';

/** The list length and the number of neighbours the figure prefers (the recommendations' headline slice: NDCG@10 at k = 10). */
export const FIGURE_TOP = RECOMMEND_FACTS.headline.top;
export const FIGURE_K = RECOMMEND_FACTS.headline.k;

/** k = 10 when the data set's rows have it, else their largest k; N = 10 likewise, else the smallest N. */
export function recommendFigureAt(dataset: string, rows: readonly RecommendRow[]): { k: number; top: number } | null {
  const sub = rows.filter((r) => r.dataset === dataset);
  const ks = uniqueInOrder(sub.flatMap((r) => (r.k === null ? [] : [r.k]))).sort((a, b) => a - b);
  const tops = uniqueInOrder(sub.map((r) => r.top)).sort((a, b) => a - b);
  if (ks.length === 0 || tops.length === 0) return null;
  return { k: ks.includes(FIGURE_K) ? FIGURE_K : ks[ks.length - 1], top: tops.includes(FIGURE_TOP) ? FIGURE_TOP : tops[0] };
}

/** The figure's rows at (k, N): pop (no k) at every k; rows without κ repeated in every κ row. */
export function recommendFigureRows(dataset: string, rows: readonly RecommendRow[], k: number, top: number): Fig2Row[] {
  const sub = rows.filter((r) => r.dataset === dataset && r.top === top && (r.k === k || r.k === null));
  const kappas = uniqueInOrder(sub.flatMap((r) => (r.kappa === null ? [] : [r.kappa]))).sort((a, b) => a - b);
  return sub.flatMap((r) => {
    const facetKappas = r.kappa !== null ? [`κ = ${r.kappa}`] : kappas.length ? kappas.map((x) => `κ = ${x}`) : ['κ: none'];
    return facetKappas.map((kappa) => ({
      n: r.n,
      k,
      kappa,
      dim: `n = ${r.n}`,
      panel: `${kappa}, n = ${r.n}`,
      mechanism: r.mechanism,
      base: r.base,
      accountant: r.accountant,
      kind: r.xi === null ? ('baseline' as const) : ('curve' as const),
      xi: r.xi,
      epsilon_ldp: null,
      value: r.ndcg_mean,
      lo: r.ndcg_mean - (r.ndcg_se ?? 0),
      hi: r.ndcg_mean + (r.ndcg_se ?? 0),
      se: r.ndcg_se,
      trials: r.trials,
      fallback: false,
    }));
  });
}

/** "NDCG@10 against ξ" for one data set at (k, N); `d` the distance the budgets are stated at. */
export function recommendSpec(dataset: string, rows: readonly RecommendRow[], at: { k: number; top: number }, d: number, symbol = 'd_θ'): VlSpec {
  // every label of the data set keeps one colour, whatever k, N or filter
  const allSeries = uniqueInOrder(rows.filter((r) => r.dataset === dataset).map((r) => r.mechanism));
  const data = recommendFigureRows(dataset, rows, at.k, at.top);
  const series = allSeries.filter((m) => data.some((r) => r.mechanism === m));
  return panelSpec(
    data,
    { allSeries, series },
    {
      what: `NDCG@${at.top}`,
      scale: { zero: true },
      title: `${dataset}: NDCG@${at.top} of the recommendations against ξ (k = ${at.k})`,
      subtitle: [
        `top-${at.top} lists from the k = ${at.k} neighbours each mechanism finds, scored on the held-out items (docs/RECOMMEND.md)`,
        `ξ: extended DP at ${symbol} = ${d}, on a symmetric log scale; dashed lines: no privacy (vanilla LSH, exact k-NN) and the popularity baseline pop`,
        'one panel per hash length κ (rows) and dimension n (columns); bars and bands: ±1 standard error over trials',
      ],
    },
  );
}
