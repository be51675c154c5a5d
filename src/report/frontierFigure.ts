/**
 * The linkage attack's privacy–utility frontier (config `attack`, docs/ATTACKS.md): per data set,
 * reid@1 against utility loss (or NDCG@N with recommendations), one panel per (κ, n), as a
 * Vega-Lite spec with its data inlined from attack.csv and utility.csv or recommend.csv.
 */
import { nearest } from '../util/nearest.js';
import { uniqueInOrder, type AttackRow, type RecommendRow, type UtilityRow } from './read.js';
import { VL_SCHEMA, baseConfig, type VlSpec } from './specs.js';
import { UNRELEASABLE_MARK, UNRELEASABLE_SHORT } from '../mechanisms/releasable.js';
import { ruleLayers, rulesWords, type RuleRow } from './frontierRules.js';
import { CHANCE_RULE, FRONTIER_K, FRONTIER_KNOWN, FRONTIER_TOP, knownWords, legendScales, panelOf, panels } from './attackPanels.js';

/** What the frontier's y axis is, and at which grid values its axes are read. */
export interface FrontierAxes {
  known: number;
  /** utility loss (higher is worse) or NDCG@top from recommend.csv (lower is worse) */
  metric: 'loss' | 'ndcg';
  k: number;
  top: number | null;
}

export interface FrontierRow {
  panel: string;
  kappa: number;
  n: number;
  mechanism: string;
  accountant: string | null;
  kind: 'point' | 'chance';
  xi: number | null;
  /** the line's order: ξ (a mechanism without ξ has one point) */
  order: number;
  x: number;
  xlo: number;
  xhi: number;
  xse: number | null;
  y: number;
  ylo: number;
  yhi: number;
  yse: number | null;
  users: number;
}

/** The slice a user asks the frontier for (`lshdp plot --known --top --aux`); absent: the headline slices. */
export interface FrontierSlice {
  known?: number;
  top?: number;
  /** the attribute inference's auxiliary share (the second row of panels) */
  aux?: number;
}

/** The axes of a data set's frontier: known ≈ 0.5; NDCG@10 at k ≈ 10 with recommendations, else the loss at k ≈ 10 (the grid's nearest to what `slice` asks). */
export function frontierAxes(
  dataset: string,
  attack: readonly AttackRow[],
  utility: readonly UtilityRow[],
  recommend: readonly RecommendRow[] | null | undefined,
  slice: FrontierSlice = {},
): FrontierAxes | null {
  const known = nearest(
    attack.filter((r) => r.dataset === dataset).map((r) => r.known),
    slice.known ?? FRONTIER_KNOWN,
  );
  if (known === undefined) return null;
  const rec = (recommend ?? []).filter((r) => r.dataset === dataset && r.k !== null && r.kappa !== null);
  if (rec.length > 0) {
    return {
      known,
      metric: 'ndcg',
      k: nearest(
        rec.map((r) => r.k!),
        FRONTIER_K,
      )!,
      top: nearest(
        rec.map((r) => r.top),
        slice.top ?? FRONTIER_TOP,
      )!,
    };
  }
  const k = nearest(
    utility.filter((r) => r.dataset === dataset && r.kappa !== null).map((r) => r.k),
    FRONTIER_K,
  );
  return k === undefined ? null : { known, metric: 'loss', k, top: null };
}

/** The key a point's utility value is found under: (n, κ, mechanism label, ξ). */
export const joinKey = (n: number, kappa: number | null, mechanism: string, xi: number | null) => `${n}\u0000${kappa}\u0000${mechanism}\u0000${xi}`;

/** The frontier's y value (and its se) of every (n, κ, mechanism label, ξ) of the data set, by `joinKey`. */
export function utilityYs(dataset: string, utility: readonly UtilityRow[], recommend: readonly RecommendRow[] | null | undefined, axes: FrontierAxes): Map<string, { y: number; se: number | null }> {
  const ys = new Map<string, { y: number; se: number | null }>();
  if (axes.metric === 'ndcg') {
    for (const r of recommend ?? []) if (r.dataset === dataset && r.k === axes.k && r.top === axes.top) ys.set(joinKey(r.n, r.kappa, r.mechanism, r.xi), { y: r.ndcg_mean, se: r.ndcg_se });
  } else {
    for (const r of utility) if (r.dataset === dataset && r.k === axes.k) ys.set(joinKey(r.n, r.kappa, r.mechanism, r.xi), { y: r.utility_loss_mean, se: r.utility_loss_se });
  }
  return ys;
}

/** A frontier point's fields shared by both rows of panels: its panel, mechanism and ξ, x ± its se, y ± its se (in that key order). */
export function pointFields(r: { n: number; kappa: number; mechanism: string; accountant: string | null; xi: number | null }, u: { y: number; se: number | null }, x: number, xse: number | null) {
  const dx = xse ?? 0;
  const dy = u.se ?? 0;
  return {
    panel: panelOf(r.kappa, r.n),
    kappa: r.kappa,
    n: r.n,
    mechanism: r.mechanism,
    accountant: r.accountant,
    kind: 'point' as const,
    xi: r.xi,
    order: r.xi ?? -1,
    x,
    xlo: x - dx,
    xhi: x + dx,
    xse,
    y: u.y,
    ylo: u.y - dy,
    yhi: u.y + dy,
    yse: u.se,
  };
}

/** One point per (mechanism, ξ) of the data set with both axes, and a chance row per panel. */
export function frontierRows(
  dataset: string,
  attack: readonly AttackRow[],
  utility: readonly UtilityRow[],
  recommend: readonly RecommendRow[] | null | undefined,
  axes: FrontierAxes,
): { rows: FrontierRow[]; missing: number } {
  const ys = utilityYs(dataset, utility, recommend, axes);
  const sub = attack.filter((r) => r.dataset === dataset && r.known === axes.known);
  const rows: FrontierRow[] = [];
  let missing = 0;
  for (const r of sub) {
    const u = ys.get(joinKey(r.n, r.kappa, r.mechanism, r.xi));
    if (!u) {
      missing++;
      continue;
    }
    rows.push({ ...pointFields(r, u, r.reid1_mean, r.reid1_se), users: r.users });
  }
  for (const panel of uniqueInOrder(rows.map((r) => r.panel))) {
    const { users, kappa, n } = rows.find((r) => r.panel === panel)!;
    rows.push({
      panel,
      kappa,
      n,
      mechanism: 'chance 1/N',
      accountant: null,
      kind: 'chance',
      xi: null,
      order: 0,
      x: 1 / users,
      xlo: 1 / users,
      xhi: 1 / users,
      xse: null,
      y: 0,
      ylo: 0,
      yhi: 0,
      yse: null,
      users,
    });
  }
  return { rows, missing };
}

/** The y axis' words: "utility loss (k = 10)" or "NDCG@10 (k = 10)". */
export function frontierYTitle(axes: FrontierAxes): string {
  return axes.metric === 'ndcg' ? `NDCG@${axes.top} (k = ${axes.k})` : `utility loss (k = ${axes.k})`;
}

/** The legend scales of a frontier: every mechanism drawn in any of its rows of panels, in `allSeries` order; the labels among `marks` carry the marker of what cannot be released. */
export function frontierLegend(allSeries: string[], drawn: readonly { mechanism: string }[], marks: ReadonlySet<string> = new Set()) {
  const shown = allSeries.filter((m) => drawn.some((r) => r.mechanism === m));
  const scales = legendScales(allSeries, shown, []);
  const marked = shown.filter((m) => marks.has(m));
  if (marked.length === 0) return scales;
  const labelExpr = `indexof(${JSON.stringify(marked)}, datum.label) >= 0 ? datum.label + ' ${UNRELEASABLE_MARK}' : datum.label`;
  const withMarks = (s: { legend: object }) => ({ ...s, legend: { ...s.legend, labelExpr } });
  return { ...scales, color: withMarks(scales.color), shape: withMarks(scales.shape) };
}

/** The frontier's subtitle line on the marker, when a drawn mechanism carries it. */
export function frontierMarkNote(drawn: readonly { mechanism: string }[], marks: ReadonlySet<string>): string[] {
  return drawn.some((r) => marks.has(r.mechanism)) ? [UNRELEASABLE_SHORT] : [];
}

/** A frontier row of panels' look: the grid of panels, the colour and marker scales, the y axis. */
export interface FrontierLook {
  layout: { panels: string[]; columns: number };
  color: unknown;
  shape: unknown;
  y: Record<string, unknown>;
  yTitle: string;
}

/** The look of a frontier whose rows of panels draw `drawn` (their panels aligned, one legend). */
export function frontierLook(axes: FrontierAxes, allSeries: string[], drawn: readonly { mechanism: string; kappa: number; n: number }[], marks: ReadonlySet<string> = new Set()): FrontierLook {
  const { color, shape } = frontierLegend(allSeries, drawn, marks);
  const yTitle = frontierYTitle(axes);
  return { layout: panels(drawn), color, shape, yTitle, y: { field: 'y', type: 'quantitative', title: yTitle, scale: { zero: false } } };
}

/** Error bars on both axes, the ξ-ordered line, the points and their ξ labels of a row of panels. */
export function pointLayers(x: Record<string, unknown>, look: FrontierLook, tooltip: unknown[]): unknown[] {
  const { y, color, shape } = look;
  const points = { filter: "datum.kind === 'point'" };
  return [
    { transform: [points], mark: { type: 'rule', strokeWidth: 1 }, encoding: { x: { field: 'xlo', type: 'quantitative' }, x2: { field: 'xhi' }, y, color } },
    { transform: [points], mark: { type: 'rule', strokeWidth: 1 }, encoding: { x, y: { field: 'ylo', type: 'quantitative' }, y2: { field: 'yhi' }, color } },
    { transform: [points], mark: { type: 'line', strokeWidth: 1.6 }, encoding: { x, y, color, detail: { field: 'mechanism', type: 'nominal' }, order: { field: 'order', type: 'quantitative' } } },
    { transform: [points], mark: { type: 'point', filled: true, size: 45, opacity: 1 }, encoding: { x, y, color, shape, tooltip } },
    // every point says its ξ (vanilla LSH, without one, says "no noise")
    {
      transform: [points, { calculate: "datum.xi === null ? 'no noise' : 'ξ ' + datum.xi", as: 'label' }],
      mark: { type: 'text', fontSize: 9, dx: 5, dy: -6, align: 'left', baseline: 'bottom' },
      encoding: { x, y, text: { field: 'label', type: 'nominal' }, color },
    },
  ];
}

/** A panel's width in px. */
const PANEL_WIDTH = 220;

/** One row of panels: `rows` faceted by panel (κ down, n across), each panel with its own scales. */
export function facetBlock(rows: readonly unknown[], look: FrontierLook, layer: unknown[]): VlSpec {
  return {
    data: { values: rows },
    facet: { field: 'panel', type: 'nominal', title: null, sort: look.layout.panels, header: { labelFontSize: 13, labelFontWeight: 'bold' } },
    columns: look.layout.columns,
    spec: { width: PANEL_WIDTH, height: 180, layer },
    resolve: { scale: { x: 'independent', y: 'independent' } },
  };
}

/** The reid@1 row of panels: x logarithmic from chance (symlog, linear below its constant, the smallest chance 1/N), so the low-ξ points that sit near chance spread out; y fitted to the points, not from 0. */
export function reidBlock(rows: readonly FrontierRow[], axes: FrontierAxes, look: FrontierLook, rules: readonly RuleRow[] = []): VlSpec {
  const chance = Math.min(...rows.filter((r) => r.kind === 'chance').map((r) => r.x), 1);
  const x = { field: 'x', type: 'quantitative', title: `reid@1 (${knownWords(axes.known)}; logarithmic from chance)`, scale: { type: 'symlog', constant: chance, zero: false, nice: false } };
  const tooltip = [
    { field: 'mechanism', type: 'nominal' },
    { field: 'accountant', type: 'nominal' },
    { field: 'panel', type: 'nominal', title: 'κ, n' },
    { field: 'xi', type: 'quantitative', title: 'ξ' },
    { field: 'x', type: 'quantitative', title: 'reid@1', format: '.4f' },
    { field: 'xse', type: 'quantitative', title: 'se', format: '.4f' },
    { field: 'y', type: 'quantitative', title: look.yTitle, format: '.4f' },
    { field: 'yse', type: 'quantitative', title: 'se', format: '.4f' },
  ];
  const chanceLayer = { transform: [{ filter: "datum.kind === 'chance'" }], mark: CHANCE_RULE, encoding: { x: { field: 'x', type: 'quantitative' } } };
  return facetBlock([...rows, ...rules], look, [chanceLayer, ...(rules.length ? ruleLayers(PANEL_WIDTH) : []), ...pointLayers(x, look, tooltip)]);
}

/** The frontier's title lines for a y axis: what y is, which way is better. */
export function frontierYWords(axes: FrontierAxes, withRules = false): { y: string; better: string } {
  return {
    y: `y = ${axes.metric === 'ndcg' ? `NDCG@${axes.top} of the recommendations` : 'utility loss'} at k = ${axes.k} (fitted to the points${withRules ? ' and the reference lines' : ''})`,
    better: axes.metric === 'ndcg' ? 'up and to the left is better' : 'down and to the left is better',
  };
}

/**
 * The privacy–utility frontier of one data set: one point per (mechanism, ξ) with x = reid@1 and
 * y = utility loss (or NDCG), ±1 se bars on both, a mechanism's points joined in ξ order; one
 * panel per (κ, n), each with its own scales; chance 1/N as a dotted grey vertical rule; `rules`:
 * the horizontal references of frontierRules.ts (random codes, clean LSH; exact and pop on NDCG).
 */
export function frontierSpec(dataset: string, rows: readonly FrontierRow[], axes: FrontierAxes, allSeries: string[], marks: ReadonlySet<string> = new Set(), rules: readonly RuleRow[] = []): VlSpec {
  const points = rows.filter((r) => r.kind === 'point');
  const look = frontierLook(axes, allSeries, points, marks);
  const words = frontierYWords(axes, rules.length > 0);
  return {
    $schema: VL_SCHEMA,
    title: {
      text: `${dataset}: privacy–utility frontier`,
      subtitle: [
        `one point per (mechanism, ξ), labelled with its ξ: x = reid@1 of the linkage attack (${knownWords(axes.known)}, logarithmic from chance),`,
        `${words.y}; ${words.better}`,
        "a mechanism's points joined in ξ order; dotted grey lines: chance 1/N; bars: ±1 se over trials",
        ...(rules.length ? [rulesWords(axes)] : []),
        'one panel per κ (rows) and n (columns), each with its own scales',
        ...frontierMarkNote(points, marks),
      ],
    },
    ...reidBlock(rows, axes, look, rules),
    config: baseConfig(),
  };
}
