/**
 * The look every Vega-Lite spec of the report shares (schema, font, palette, marker shapes, the
 * baselines' dash, each series' colour and shape) and the legend patch the renderer and the HTML
 * report apply. The figures' specs, with their data inlined from the run's CSVs so a spec is
 * self-contained (the SVG/PNG renderer and the HTML report use the very same object), are built
 * per figure family: nnFigure.ts (Fig. 1), utilityFigure.ts and panelFigure.ts (Fig. 2),
 * recommendFigure.ts, privacyFigures.ts, reidFigure.ts and frontierFigure.ts.
 */

export type VlSpec = Record<string, unknown>;

export const VL_SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';
/** The font the PNG renderer loads from /usr/share/fonts (Debian's fonts-dejavu-core), so SVG and PNG agree. */
export const FONT = 'DejaVu Sans';
/**
 * Okabe–Ito colours (colour-blind safe), most distinct first; yellow left out (unreadable on
 * white), sky blue next to last (beside the blue it is the weakest contrast), and the grey of the
 * usual colour-blind-safe extension last: 8 colours, so the shared configs' 8 drawn mechanisms
 * each have their own.
 */
export const PALETTE = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#000000', '#56B4E9', '#999999'];
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
 * Colour and shape of every series, fixed by its place among all of the data set's series, so
 * a label keeps its look across the figures of one data set (k, filters). Every series of a
 * figure shares its axes: however many there are, none is moved to another figure.
 */
export function seriesStyle(allSeries: string[], shown: string[]): { colors: string[]; shapes: string[] } {
  const at = (m: string) => Math.max(0, allSeries.indexOf(m));
  return {
    colors: shown.map((m) => PALETTE[at(m) % PALETTE.length]),
    // beyond the palette's length the shape shifts by one per round: every (colour, shape) pair
    // stays distinct for 64 series, and the first 8 keep their looks
    shapes: shown.map((m) => SHAPES[(at(m) + Math.floor(at(m) / PALETTE.length)) % SHAPES.length]),
  };
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
