/**
 * The look every Vega-Lite spec of the report shares (schema, font, palette, marker shapes, the
 * baselines' dash, each series' colour and shape) and the legend patch the renderer and the HTML
 * report apply. The figures' specs, with their data inlined from the run's CSVs so a spec is
 * self-contained (the SVG/PNG renderer and the HTML report use the very same object), are built
 * per figure family: nnFigure.ts (Fig. 1), utilityFigure.ts and panelFigure.ts (Fig. 2),
 * recommendFigure.ts, privacyFigures.ts, reidFigure.ts and frontierFigure.ts.
 */

import { ACCOUNTANT_ROWS_MECHANISM, BUILT_IN_FACTS } from '../mechanisms/catalog.js';

export type VlSpec = Record<string, unknown>;

export const VL_SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';
import { FONT } from './png.js';

export { FONT };
/**
 * Okabe–Ito colours (colour-blind safe), most distinct first; yellow left out (unreadable on
 * white), sky blue next to last (beside the blue it is the weakest contrast), and the grey of the
 * usual colour-blind-safe extension last: 8 colours, so the shared configs' 8 drawn mechanisms
 * each have their own. Then Paul Tol's muted colours (also colour-blind safe; his wine and indigo
 * are the baselines'), so that the rivals from outside the paper (jl-gaussian, the private MinHash
 * sketches) do not share a colour with a mechanism of the paper.
 */
export const PALETTE = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#000000', '#56B4E9', '#999999', '#AA4499', '#999933', '#44AA99', '#117733', '#88CCEE', '#DDCC77'];
/** Angular distance at which the budget is stated and Fig. 1 draws its threshold. */
export const DEFAULT_THRESHOLD = 0.1;

/** Shared look: print-size fonts and the DejaVu font everywhere. */
export function baseConfig(): Record<string, unknown> {
  return {
    font: FONT,
    title: { fontSize: 15, subtitleFontSize: 12, anchor: 'start', subtitleColor: '#444', offset: 22 },
    axis: { labelFontSize: 12, titleFontSize: 13, grid: true, gridColor: '#e6e6e6' },
    legend: { labelFontSize: 12, titleFontSize: 13, symbolStrokeWidth: 2, labelLimit: 0, titleLimit: 0 },
    header: { labelFontSize: 13, titleFontSize: 13 },
    view: { stroke: '#888' },
    background: 'white',
  };
}

/** Marker shapes, one per series beside its colour, so series stay apart without colour vision. */
export const SHAPES = ['circle', 'square', 'triangle-up', 'diamond', 'triangle-down', 'cross', 'triangle-right', 'triangle-left'];
/** The dash of a mechanism without ξ (vanilla LSH): its rule in the panels and its legend sample. */
export const BASELINE_DASH = [6, 3];
/** The legend sample of a mechanism without ξ: a line (not a marker: it has none in the panels). */
export const BASELINE_SYMBOL = 'M-1.9,0H1.3';

/**
 * The labels whose look is fixed in every figure of every run, in the order that gives each its
 * slot: the built-in mechanisms that release codes (the catalog's order) with LSHRR's exact
 * accountant's conventional label after LSHRR's, the labels the shared configs and the paper show.
 * A label's colour never depends on which mechanisms a run has.
 */
const FIXED_LABELS: readonly string[] = BUILT_IN_FACTS.filter((f) => f.kind === 'code').flatMap((f) => (f.name === ACCOUNTANT_ROWS_MECHANISM ? [f.name, `${f.name}-exact`] : [f.name]));
/**
 * The baselines' own colours, outside the palette of the mechanisms (Paul Tol's wine and indigo):
 * the exact neighbours (`exact`, the recommendations' ceiling) and the popularity list (`pop`).
 */
const BASELINE_COLORS: Readonly<Record<string, string>> = { exact: '#882255', pop: '#332288' };

/** Colour and shape of slot s: the palette in order, the shape shifting by one per round (112 distinct pairs). */
const slotStyle = (s: number) => ({ color: PALETTE[s % PALETTE.length]!, shape: SHAPES[(s + Math.floor(s / PALETTE.length)) % SHAPES.length]! });

/**
 * Colour and shape of every series shown. A fixed label (a built-in mechanism's name, `lshrr-exact`)
 * and a baseline (`exact`, `pop`) look the same in every figure of every run. Any other label (a
 * plugin's, an entry's own) takes, in the order of `allSeries` (the data set's series), the first
 * slot that no fixed label of `allSeries` holds and no earlier such label took: it keeps its look
 * across the figures of one data set, and within a figure every series has its own colour while
 * there are at most 14 (its own pair of colour and marker up to 112). Every series of a figure
 * shares its axes: however many there are, none is moved to another figure.
 */
export function seriesStyle(allSeries: string[], shown: string[]): { colors: string[]; shapes: string[] } {
  const taken = new Set(allSeries.map((m) => FIXED_LABELS.indexOf(m)).filter((i) => i >= 0));
  const slotOf = new Map<string, number>();
  let next = 0;
  for (const m of allSeries) {
    if (FIXED_LABELS.includes(m) || BASELINE_COLORS[m] !== undefined || slotOf.has(m)) continue;
    while (taken.has(next)) next++;
    slotOf.set(m, next);
    taken.add(next);
  }
  const style = (m: string) => {
    const fixed = FIXED_LABELS.indexOf(m);
    if (fixed >= 0) return slotStyle(fixed);
    if (BASELINE_COLORS[m] !== undefined) return { color: BASELINE_COLORS[m]!, shape: SHAPES[0]! };
    return slotStyle(slotOf.get(m) ?? next);
  };
  return { colors: shown.map((m) => style(m).color), shapes: shown.map((m) => style(m).shape) };
}

/**
 * vega-lite (6.x) compiles a legend that only encodes strokeDash with `stroke: transparent`, so its
 * samples are invisible when the lines' colour comes from another field. Give them a visible
 * stroke in the compiled Vega spec. The HTML report applies the same patch through vega-embed's
 * `patch` option (html.ts embeds this function's source), so SVG, PNG and browser agree; hence
 * it must stay self-contained (no outside names) and plain ES2020.
 */
export function patchDashLegends<T>(vgSpec: T): T {
  const legends = (vgSpec as { legends?: Record<string, unknown>[] }).legends ?? [];
  for (const lg of legends) {
    // a legend with a shape scale (Fig. 2's) draws its own samples, markers and the baseline's
    // dashed line, in their colours: leave it as it is
    if (!('strokeDash' in lg) || 'shape' in lg) continue;
    if (!lg.encode) lg.encode = {};
    const encode = lg.encode as Record<string, { update?: Record<string, unknown> }>;
    encode.symbols ??= {};
    encode.symbols.update = { ...(encode.symbols.update ?? {}), stroke: { value: '#333' } };
  }
  return vgSpec;
}

/**
 * The ξ axis of the figures drawn against ξ (Fig. 2's panels, re-identification): symmetric-log,
 * since the paper's grid (0, 0.5, 1, 2, 5, 10, 20) crowds its interesting low end on a linear
 * axis; ticks at the grid's own ξ (`xis`, ascending) when there are at most 9.
 */
export function xiAxis(xis: readonly number[]) {
  return {
    field: 'xi',
    type: 'quantitative',
    title: 'total privacy budget ξ',
    scale: { type: 'symlog', constant: 1, domainMin: 0 },
    axis: xis.length > 0 && xis.length <= 9 ? { values: xis, format: '~g', labelOverlap: 'greedy' } : { tickCount: 5, format: '~g' },
  };
}
