/**
 * Vega-Lite specs of the paper's figures, with their data inlined from the run's CSVs, so a spec
 * is self-contained: the SVG/PNG renderer and the HTML report use the very same object.
 */
import type { UtilityRow, NnDistanceRow } from './read.js';
import { uniqueInOrder } from './read.js';
import { mechanismLabel } from './tables.js';

export type VlSpec = Record<string, unknown>;

export const VL_SCHEMA = 'https://vega.github.io/schema/vega-lite/v6.json';
/** The font the PNG renderer loads from /usr/share/fonts (Debian's fonts-dejavu-core), so SVG and PNG agree. */
export const FONT = 'DejaVu Sans';
/** Okabe–Ito colours (colour-blind safe), most distinct first; yellow left out (unreadable on white). */
export const PALETTE = ['#0072B2', '#D55E00', '#009E73', '#CC79A7', '#E69F00', '#56B4E9', '#000000'];
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

// ---------------------------------------------------------------- Fig. 1

export interface NnHistogramRow {
  n: number;
  series: string;
  bin_start: number;
  bin_end: number;
  bin_mid: number;
  count: number;
  share: number;
}

/** Share of users whose true 1-NN distance is strictly below the threshold. */
export function shareBelow(values: number[], threshold: number): number {
  if (values.length === 0) return 0;
  let c = 0;
  for (const v of values) if (v < threshold) c++;
  return c / values.length;
}

/**
 * Histogram of the 1-NN distances of one data set, per n, as shares of the query users (so curves
 * for different n are comparable). Bins of width `binWidth` from 0 up to the largest distance.
 */
export function nnHistogram(rows: NnDistanceRow[], threshold: number, binWidth = 0.02): NnHistogramRow[] {
  const ns = uniqueInOrder(rows.map((r) => r.n));
  const maxD = rows.reduce((m, r) => Math.max(m, r.nn1), 0);
  const bins = Math.max(1, Math.ceil(maxD / binWidth - 1e-9));
  const out: NnHistogramRow[] = [];
  for (const n of ns) {
    const vals = rows.filter((r) => r.n === n).map((r) => r.nn1);
    const counts = new Array<number>(bins).fill(0);
    for (const v of vals) counts[Math.min(bins - 1, Math.max(0, Math.floor(v / binWidth)))]++;
    const series = `n = ${n}: ${(100 * shareBelow(vals, threshold)).toFixed(1)}% (${vals.length} users)`;
    counts.forEach((c, i) => {
      const start = Number((i * binWidth).toFixed(10));
      const end = Number(((i + 1) * binWidth).toFixed(10));
      out.push({ n, series, bin_start: start, bin_end: end, bin_mid: Number(((start + end) / 2).toFixed(10)), count: c, share: c / vals.length });
    });
  }
  return out;
}

/** Fig. 1: distribution of the true 1-NN angular distance of one data set, one curve per n. */
export function fig1Spec(dataset: string, rows: NnDistanceRow[], threshold = DEFAULT_THRESHOLD): VlSpec {
  const hist = nnHistogram(rows.filter((r) => r.dataset === dataset), threshold);
  // the threshold stays inside the plot even when every distance is below it
  const xMax = Math.max(hist.reduce((m, h) => Math.max(m, h.bin_end), 0), threshold * 1.2);
  const series = uniqueInOrder(hist.map((h) => h.series));
  return {
    $schema: VL_SCHEMA,
    title: {
      text: `${dataset}: true 1-NN angular distance`,
      subtitle: `share of query users per bin of width 0.02; dashed line: d_θ = ${threshold}`,
    },
    width: 460,
    height: 260,
    data: { values: hist },
    layer: [
      {
        mark: { type: 'line', point: { filled: true, size: 30 }, strokeWidth: 2 },
        encoding: {
          x: { field: 'bin_mid', type: 'quantitative', title: 'true 1-NN angular distance d_θ', scale: { domain: [0, xMax], nice: false } },
          y: { field: 'share', type: 'quantitative', title: 'share of query users', axis: { format: '.0%' } },
          color: {
            field: 'series', type: 'nominal', title: `dimension n: share of users with d_θ < ${threshold}`,
            scale: { domain: series, range: PALETTE.slice(0, Math.max(1, series.length)) },
            legend: { orient: 'bottom', direction: 'vertical', labelLimit: 0, titleLimit: 0 },
          },
          // same field as colour: one merged legend, and curves stay apart without colour vision
          shape: { field: 'series', type: 'nominal', scale: { domain: series }, legend: { orient: 'bottom', direction: 'vertical', labelLimit: 0, titleLimit: 0 } },
          tooltip: [
            { field: 'n', type: 'quantitative' },
            { field: 'bin_start', type: 'quantitative', title: 'from' },
            { field: 'bin_end', type: 'quantitative', title: 'to' },
            { field: 'count', type: 'quantitative', title: 'users' },
            { field: 'share', type: 'quantitative', format: '.1%' },
          ],
        },
      },
      {
        data: { values: [{ threshold, label: `d_θ = ${threshold}` }] },
        layer: [
          { mark: { type: 'rule', strokeDash: [6, 4], color: '#333', strokeWidth: 1.5 }, encoding: { x: { field: 'threshold', type: 'quantitative' } } },
          {
            // above the plot area, where no curve can run through it
            mark: { type: 'text', align: 'center', dy: -4, baseline: 'bottom', fontSize: 12, color: '#333' },
            encoding: { x: { field: 'threshold', type: 'quantitative' }, y: { value: 0 }, text: { field: 'label' } },
          },
        ],
      },
    ],
    config: baseConfig(),
  };
}

// ---------------------------------------------------------------- Fig. 2

export interface Fig2Row {
  n: number;
  k: number;
  panel: string;
  kappa: string;
  mechanism: string;
  /** curve: a privatized mechanism against ξ; baseline: vanilla LSH drawn as a horizontal rule */
  kind: 'curve' | 'baseline';
  xi: number | null;
  loss: number;
  lo: number;
  hi: number;
  se: number | null;
  trials: number;
  fallback: boolean;
}

const DASHES: Record<string, number[]> = {
  LSHRR: [1, 0],
  LapLSH: [7, 3],
  RAPPOR: [2, 2],
  'RAPPOR (vector)': [1, 3],
  LSH: [3, 3],
};

/** Rows of Fig. 2 for one data set (exact rows are dropped: their loss is 0 by definition). */
export function fig2Rows(dataset: string, rows: UtilityRow[]): Fig2Row[] {
  const sub = rows.filter((r) => r.dataset === dataset && r.mechanism !== 'exact');
  const manyK = uniqueInOrder(sub.map((r) => r.k)).length > 1;
  return sub.map((r) => {
    const se = r.lossSe ?? 0;
    return {
      n: r.n,
      k: r.k,
      panel: manyK ? `n = ${r.n}, k = ${r.k}` : `n = ${r.n}`,
      kappa: r.kappa === null ? '–' : String(r.kappa),
      mechanism: mechanismLabel(r.mechanism),
      kind: r.xi === null ? 'baseline' : 'curve',
      xi: r.xi,
      loss: r.lossMean,
      lo: r.lossMean - se,
      hi: r.lossMean + se,
      se: r.lossSe,
      trials: r.trials,
      fallback: r.fallback === true,
    };
  });
}

/**
 * Fig. 2: utility loss against ξ for one data set, one panel per n (and per k when several):
 * LSHRR / LapLSH (/ RAPPOR) lines per κ with ±1 standard-error bars, vanilla LSH per κ as a
 * horizontal rule with its ±1 se band. ξ = 0 (LSHRR with uniformly random bits) sits on the y axis.
 */
export function fig2Spec(dataset: string, rows: UtilityRow[], d = DEFAULT_THRESHOLD): VlSpec {
  const data = fig2Rows(dataset, rows);
  const kappas = uniqueInOrder(data.map((r) => r.kappa)).sort((a, b) => (Number(a) || Infinity) - (Number(b) || Infinity));
  const mechs = uniqueInOrder(data.map((r) => r.mechanism));
  const order = ['LSHRR', 'LapLSH', 'RAPPOR', 'RAPPOR (vector)', 'LSH'];
  mechs.sort((a, b) => (order.indexOf(a) + 1 || 99) - (order.indexOf(b) + 1 || 99));
  const panels = uniqueInOrder(data.map((r) => r.panel));
  // one column per n, so several k stack as rows (n across, k down)
  const columns = Math.max(1, Math.min(uniqueInOrder(data.map((r) => r.n)).length, 4));
  const kappaScale = { domain: kappas, range: PALETTE.slice(0, Math.max(1, kappas.length)) };
  // symbolOpacity: the translucent bands share this legend, which must still show solid colours
  const color = {
    field: 'kappa', type: 'ordinal', title: 'κ (hash bits)', scale: kappaScale,
    legend: { symbolOpacity: 1, symbolType: 'square', symbolSize: 150 },
  };
  const dash = {
    field: 'mechanism', type: 'nominal', title: 'mechanism',
    scale: { domain: mechs, range: mechs.map((m) => DASHES[m] ?? [4, 2, 1, 2]) },
    // vega-lite draws a dash-only legend with transparent strokes; patchDashLegends fixes the compiled spec
    legend: { symbolType: 'stroke', symbolSize: 500, symbolStrokeWidth: 2 },
  };
  const x = { field: 'xi', type: 'quantitative', title: 'total privacy budget ξ', scale: { domainMin: 0 }, axis: { tickCount: 5 } };
  const y = { field: 'loss', type: 'quantitative', title: 'utility loss (Δ mean d_θ)', scale: { zero: true } };
  const tooltip = [
    { field: 'mechanism', type: 'nominal' },
    { field: 'kappa', type: 'nominal', title: 'κ' },
    { field: 'xi', type: 'quantitative', title: 'ξ' },
    { field: 'loss', type: 'quantitative', title: 'utility loss', format: '.4f' },
    { field: 'se', type: 'quantitative', title: 'se', format: '.4f' },
    { field: 'trials', type: 'quantitative' },
  ];
  const curve = { filter: "datum.kind === 'curve'" };
  const base = { filter: "datum.kind === 'baseline'" };
  return {
    $schema: VL_SCHEMA,
    title: {
      text: `${dataset}: utility loss against ξ`,
      subtitle: [
        `ξ: extended DP at d_θ = ${d}; ξ = 0: LSHRR with uniformly random bits; horizontal lines: vanilla LSH (no privacy)`,
        'bars and bands: ±1 standard error over trials',
      ],
    },
    data: { values: data },
    facet: { field: 'panel', type: 'nominal', title: null, sort: panels, header: { labelFontSize: 13, labelFontWeight: 'bold' } },
    columns,
    spec: {
      width: 250,
      height: 190,
      layer: [
        { transform: [base], mark: { type: 'rect', opacity: 0.15 }, encoding: { y: { field: 'lo', type: 'quantitative' }, y2: { field: 'hi' }, color } },
        { transform: [base], mark: { type: 'rule', strokeWidth: 1.5 }, encoding: { y, color, strokeDash: dash, tooltip } },
        { transform: [curve], mark: { type: 'rule', strokeWidth: 1.2 }, encoding: { x, y: { field: 'lo', type: 'quantitative' }, y2: { field: 'hi' }, color } },
        {
          transform: [curve],
          mark: { type: 'line', strokeWidth: 2, point: { filled: true, size: 28 } },
          encoding: { x, y, color, strokeDash: dash, tooltip },
        },
      ],
    },
    resolve: { scale: { y: 'shared' } },
    config: baseConfig(),
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
    if (!('strokeDash' in lg)) continue;
    const encode = (lg.encode ??= {}) as Record<string, { update?: Record<string, unknown> }>;
    encode.symbols ??= {};
    encode.symbols.update = { ...(encode.symbols.update ?? {}), stroke: { value: '#333' } };
  }
  return vgSpec;
}
