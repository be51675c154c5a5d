/**
 * What the linkage attack's two figures (reidFigure.ts, frontierFigure.ts) share: the headline
 * slice they read, their panels (one per κ and n), the legend scales that keep each mechanism's
 * Fig. 2 colour and marker, and the chance rule.
 */
import { uniqueInOrder } from './read.js';
import { ATTACK_FACTS } from '../evaluations/attack/facts.js';
import { RECOMMEND_FACTS } from '../evaluations/recommend/facts.js';
import { UTILITY_FACTS } from '../evaluations/utility/facts.js';
import { BASELINE_DASH, BASELINE_SYMBOL, seriesStyle } from './specs.js';

/** The known share, k and N the figures read (the evaluations' headline slices; the grid's nearest where these are missing). */
export const FRONTIER_KNOWN = ATTACK_FACTS.headline.known;
export const FRONTIER_K = UTILITY_FACTS.headline.k;
export const FRONTIER_TOP = RECOMMEND_FACTS.headline.top;

export const panelOf = (kappa: number, n: number) => `κ = ${kappa}, n = ${n}`;

/** Panels in figure order: κ down, n across (as Fig. 2). */
export function panels(rows: readonly { kappa: number; n: number }[]): { panels: string[]; columns: number } {
  const kappas = uniqueInOrder(rows.map((r) => r.kappa)).sort((a, b) => a - b);
  const dims = uniqueInOrder(rows.map((r) => r.n)).sort((a, b) => a - b);
  return { panels: kappas.flatMap((k) => dims.map((n) => panelOf(k, n))), columns: Math.max(1, dims.length) };
}

/** "known = 0.5", or the grid's nearest with a note. */
export function knownWords(known: number): string {
  return known === FRONTIER_KNOWN ? `known = ${known}` : `known = ${known} (the grid's nearest to ${FRONTIER_KNOWN})`;
}

/** The colour, marker and (for a mechanism without ξ) dash of every mechanism shown, as Fig. 2 draws them. */
export function legendScales(allSeries: string[], shown: string[], baselines: string[]) {
  const style = seriesStyle(allSeries, shown);
  const isBaseline = (m: string) => baselines.includes(m);
  const legend = { symbolOpacity: 1, symbolSize: 110, symbolStrokeWidth: 2, orient: 'right' };
  return {
    color: { field: 'mechanism', type: 'nominal', title: 'mechanism', scale: { domain: shown, range: style.colors }, legend },
    shape: { field: 'mechanism', type: 'nominal', title: 'mechanism', scale: { domain: shown, range: shown.map((m, i) => (isBaseline(m) ? BASELINE_SYMBOL : style.shapes[i])) }, legend },
    strokeDash: { field: 'mechanism', type: 'nominal', title: 'mechanism', scale: { domain: shown, range: shown.map((m) => (isBaseline(m) ? BASELINE_DASH : [1, 0])) }, legend },
  };
}

export const CHANCE_RULE = { type: 'rule', color: '#777', strokeDash: [2, 2], strokeWidth: 1.5 };
