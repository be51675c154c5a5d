/**
 * Vega-Lite specs of the paper's figures, with their data inlined from the run's CSVs, so a spec
 * is self-contained: the SVG/PNG renderer and the HTML report use the very same object.
 */
import type { UtilityRow, NnDistanceRow } from './read.js';
import { uniqueInOrder } from './read.js';

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

/** How a figure names the run's distance: angular (the paper's) or Jaccard (`metric: jaccard`). */
export interface DistanceWords {
  name: string;
  symbol: string;
}
export const ANGULAR_WORDS: DistanceWords = { name: 'angular distance', symbol: 'd_θ' };
export const JACCARD_WORDS: DistanceWords = { name: 'Jaccard distance', symbol: 'd_J' };

/** The words of a config's `metric` (absent: angular). */
export function distanceWords(metric: unknown): DistanceWords {
  return metric === 'jaccard' ? JACCARD_WORDS : ANGULAR_WORDS;
}

/** Fig. 1: distribution of the true 1-NN distance of one data set, one curve per n. */
export function fig1Spec(dataset: string, rows: NnDistanceRow[], threshold = DEFAULT_THRESHOLD, words: DistanceWords = ANGULAR_WORDS): VlSpec {
  const hist = nnHistogram(
    rows.filter((r) => r.dataset === dataset),
    threshold,
  );
  // the threshold stays inside the plot even when every distance is below it
  const xMax = Math.max(
    hist.reduce((m, h) => Math.max(m, h.bin_end), 0),
    threshold * 1.2,
  );
  const series = uniqueInOrder(hist.map((h) => h.series));
  return {
    $schema: VL_SCHEMA,
    title: {
      text: `${dataset}: true 1-NN ${words.name}`,
      subtitle: `share of query users per bin of width 0.02; dashed line: ${words.symbol} = ${threshold}`,
    },
    width: 460,
    height: 260,
    data: { values: hist },
    layer: [
      {
        mark: { type: 'line', point: { filled: true, size: 30 }, strokeWidth: 2 },
        encoding: {
          x: { field: 'bin_mid', type: 'quantitative', title: `true 1-NN ${words.name} ${words.symbol}`, scale: { domain: [0, xMax], nice: false } },
          y: { field: 'share', type: 'quantitative', title: 'share of query users', axis: { format: '.0%' } },
          color: {
            field: 'series',
            type: 'nominal',
            title: `dimension n: share of users with ${words.symbol} < ${threshold}`,
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
        data: { values: [{ threshold, label: `${words.symbol} = ${threshold}` }] },
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

/** What Fig. 2 puts on its y axis: utility loss (the paper's figure) or recall@k. */
export type Fig2Metric = 'utility' | 'recall';
export const FIG2_METRICS: Fig2Metric[] = ['utility', 'recall'];

/** Marker shapes, one per series beside its colour, so series stay apart without colour vision. */
export const SHAPES = ['circle', 'square', 'triangle-up', 'diamond', 'triangle-down', 'cross', 'triangle-right', 'triangle-left'];
/** The dash of a mechanism without ξ (vanilla LSH): its rule in the panels and its legend sample. */
export const BASELINE_DASH = [6, 3];
/** The legend sample of a mechanism without ξ: a line (not a marker: it has none in the panels). */
export const BASELINE_SYMBOL = 'M-1.9,0H1.3';

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

const kappaLabel = (kappa: number) => `κ = ${kappa}`;
const panelLabel = (kappa: string, dim: string) => `${kappa}, ${dim}`;

/**
 * Rows of Fig. 2 for one data set and k (exact rows are dropped: their loss is 0 by definition,
 * their recall 1). Rows without κ are repeated in every κ row of the figure.
 */
export function fig2Rows(dataset: string, rows: UtilityRow[], k: number, metric: Fig2Metric = 'utility'): Fig2Row[] {
  const sub = rows.filter((r) => r.dataset === dataset && r.k === k && r.base !== 'exact' && (metric === 'utility' || r.recall_mean !== null));
  const kappas = uniqueInOrder(sub.flatMap((r) => (r.kappa === null ? [] : [r.kappa]))).sort((a, b) => a - b);
  return sub.flatMap((r) => {
    const value = metric === 'utility' ? r.utility_loss_mean : r.recall_mean!;
    const se = metric === 'utility' ? r.utility_loss_se : r.recall_se;
    const facetKappas = r.kappa !== null ? [kappaLabel(r.kappa)] : kappas.length ? kappas.map(kappaLabel) : ['κ: none'];
    return facetKappas.map((kappa) => ({
      n: r.n,
      k: r.k,
      kappa,
      dim: `n = ${r.n}`,
      panel: panelLabel(kappa, `n = ${r.n}`),
      mechanism: r.mechanism,
      base: r.base,
      accountant: r.accountant,
      kind: r.xi === null ? ('baseline' as const) : ('curve' as const),
      xi: r.xi,
      epsilon_ldp: r.epsilon_ldp,
      value,
      lo: value - (se ?? 0),
      hi: value + (se ?? 0),
      se,
      trials: r.trials,
      fallback: r.fallback === true,
    }));
  });
}

/** The series (mechanism labels) Fig. 2 draws for a data set, in file order: exact is not drawn. */
export function fig2Series(dataset: string, rows: UtilityRow[]): string[] {
  return uniqueInOrder(rows.filter((r) => r.dataset === dataset && r.base !== 'exact').map((r) => r.mechanism));
}

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

export interface Fig2Options {
  d?: number;
  metric?: Fig2Metric;
  /** the series to draw (default: all); colours stay those of their place in `allSeries` */
  series?: string[];
  /** every series of the data set (default: those of `rows`), for stable colours */
  allSeries?: string[];
  /** how the run's distance is named (default angular) */
  words?: DistanceWords;
}

/**
 * Fig. 2 for one data set and k: utility loss (or recall) against ξ, one panel per (κ, n) — κ
 * down, n across — so a panel holds one curve per mechanism label (colour and marker shape),
 * never one per (mechanism, κ). Mechanisms without ξ (vanilla LSH) are dashed horizontal rules
 * with their ±1 se band; the curves carry ±1 se bars. ξ = 0 (LSHRR with uniformly random bits)
 * sits on the y axis.
 */
export function fig2Spec(dataset: string, rows: UtilityRow[], k: number, opts: Fig2Options = {}): VlSpec {
  const d = opts.d ?? DEFAULT_THRESHOLD;
  const words = opts.words ?? ANGULAR_WORDS;
  const metric = opts.metric ?? 'utility';
  const allSeries = opts.allSeries ?? fig2Series(dataset, rows);
  const series = opts.series ?? allSeries;
  const what = metric === 'utility' ? 'utility loss' : `recall@${k}`;
  return panelSpec(
    fig2Rows(dataset, rows, k, metric).filter((r) => series.includes(r.mechanism)),
    { allSeries, series },
    {
      what,
      scale: metric === 'utility' ? { zero: true } : { domain: [0, 1] },
      title: `${dataset}: ${what} against ξ (k = ${k})`,
      subtitle: [
        ...(metric === 'utility' ? [`utility loss: mean ${words.name} to the k answers minus that to the true k nearest neighbours`] : []),
        `ξ: extended DP at ${words.symbol} = ${d}, on a symmetric log scale; ξ = 0: LSHRR with uniformly random bits; dashed lines: no privacy (vanilla LSH)`,
        'one panel per hash length κ (rows) and dimension n (columns); bars and bands: ±1 standard error over trials',
      ],
    },
  );
}

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
  const x = {
    field: 'xi',
    type: 'quantitative',
    title: 'total privacy budget ξ',
    scale: { type: 'symlog', constant: 1, domainMin: 0 },
    axis: xis.length > 0 && xis.length <= 9 ? { values: xis, format: '~g', labelOverlap: 'greedy' } : { tickCount: 5, format: '~g' },
  };
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
