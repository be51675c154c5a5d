/**
 * The linkage attack's figures (config `attack`, docs/ATTACKS.md), Vega-Lite specs with their data
 * inlined from attack.csv (and utility.csv or recommend.csv), like src/report/specs.ts:
 * re-identification against ξ per data set, and the privacy–utility frontier per data set with one
 * panel per (κ, n). A mechanism keeps the colour and marker it has in Fig. 2.
 */
import { nearest } from '../util/nearest.js';
import { uniqueInOrder, type AttackRow, type RecommendRow, type ResultsFolder, type UtilityRow } from './read.js';
import { BASELINE_DASH, BASELINE_SYMBOL, VL_SCHEMA, baseConfig, fig2Series, seriesStyle, type VlSpec } from './specs.js';
import type { FigureEntry } from './markup.js';

/** The known share and k the figures read (the grid's nearest where these are missing). */
export const FRONTIER_KNOWN = 0.5;
export const FRONTIER_K = 10;
export const FRONTIER_TOP = 10;

const panelOf = (kappa: number, n: number) => `κ = ${kappa}, n = ${n}`;

/** Panels in figure order: κ down, n across (as Fig. 2). */
function panels(rows: readonly { kappa: number; n: number }[]): { panels: string[]; columns: number } {
  const kappas = uniqueInOrder(rows.map((r) => r.kappa)).sort((a, b) => a - b);
  const dims = uniqueInOrder(rows.map((r) => r.n)).sort((a, b) => a - b);
  return { panels: kappas.flatMap((k) => dims.map((n) => panelOf(k, n))), columns: Math.max(1, dims.length) };
}

/** "known = 0.5", or the grid's nearest with a note. */
function knownWords(known: number): string {
  return known === FRONTIER_KNOWN ? `known = ${known}` : `known = ${known} (the grid's nearest to ${FRONTIER_KNOWN})`;
}

/** The colour, marker and (for a mechanism without ξ) dash of every mechanism shown, as Fig. 2 draws them. */
function legendScales(allSeries: string[], shown: string[], baselines: string[]) {
  const style = seriesStyle(allSeries, shown);
  const isBaseline = (m: string) => baselines.includes(m);
  const legend = { symbolOpacity: 1, symbolSize: 110, symbolStrokeWidth: 2, orient: 'right' };
  return {
    color: { field: 'mechanism', type: 'nominal', title: 'mechanism', scale: { domain: shown, range: style.colors }, legend },
    shape: { field: 'mechanism', type: 'nominal', title: 'mechanism', scale: { domain: shown, range: shown.map((m, i) => (isBaseline(m) ? BASELINE_SYMBOL : style.shapes[i])) }, legend },
    strokeDash: { field: 'mechanism', type: 'nominal', title: 'mechanism', scale: { domain: shown, range: shown.map((m) => (isBaseline(m) ? BASELINE_DASH : [1, 0])) }, legend },
  };
}

const CHANCE_RULE = { type: 'rule', color: '#777', strokeDash: [2, 2], strokeWidth: 1.5 };

// ---------------------------------------------------------------- re-identification against ξ

export interface ReidRow {
  panel: string;
  mechanism: string;
  base: string;
  accountant: string | null;
  /** curve: a mechanism with ξ; baseline: without (the clean-LSH level); chance: 1/N */
  kind: 'curve' | 'baseline' | 'chance';
  xi: number | null;
  known: number;
  value: number;
  lo: number;
  hi: number;
  se: number | null;
  reid10: number | null;
  trials: number | null;
  users: number;
}

/** The rows of one data set's re-identification figure at one known share, with a chance row per panel. */
export function reidRows(dataset: string, rows: readonly AttackRow[], known: number): ReidRow[] {
  const sub = rows.filter((r) => r.dataset === dataset && r.known === known);
  const out: ReidRow[] = sub.map((r) => ({
    panel: panelOf(r.kappa, r.n),
    mechanism: r.mechanism,
    base: r.base,
    accountant: r.accountant,
    kind: r.xi === null ? 'baseline' : 'curve',
    xi: r.xi,
    known,
    value: r.reid1_mean,
    lo: r.reid1_mean - (r.reid1_se ?? 0),
    hi: r.reid1_mean + (r.reid1_se ?? 0),
    se: r.reid1_se,
    reid10: r.reid10_mean,
    trials: r.trials,
    users: r.users,
  }));
  const seen = new Set<string>();
  for (const r of sub) {
    const panel = panelOf(r.kappa, r.n);
    if (seen.has(panel)) continue;
    seen.add(panel);
    const chance = 1 / r.users;
    out.push({
      panel,
      mechanism: 'chance 1/N',
      base: '',
      accountant: null,
      kind: 'chance',
      xi: null,
      known,
      value: chance,
      lo: chance,
      hi: chance,
      se: null,
      reid10: null,
      trials: null,
      users: r.users,
    });
  }
  return out;
}

/**
 * Re-identification against ξ for one data set: reid@1 at one known share against ξ, one panel
 * per (κ, n), one line per mechanism with ±1 se bars; the clean-LSH level (mechanisms without ξ)
 * as a dashed rule with its ±1 se band, chance 1/N as a dotted grey rule.
 */
export function reidSpec(dataset: string, rows: readonly AttackRow[], known: number, allSeries: string[]): VlSpec {
  const data = reidRows(dataset, rows, known);
  const drawn = data.filter((r) => r.kind !== 'chance');
  const shown = allSeries.filter((m) => drawn.some((r) => r.mechanism === m));
  const baselines = shown.filter((m) => drawn.some((r) => r.mechanism === m && r.kind === 'baseline') && !drawn.some((r) => r.mechanism === m && r.kind === 'curve'));
  const { color, shape, strokeDash } = legendScales(allSeries, shown, baselines);
  const layout = panels(rows.filter((r) => r.dataset === dataset && r.known === known));
  const xis = uniqueInOrder(drawn.flatMap((r) => (r.xi === null ? [] : [r.xi]))).sort((a, b) => a - b);
  const x = {
    field: 'xi',
    type: 'quantitative',
    title: 'total privacy budget ξ',
    scale: { type: 'symlog', constant: 1, domainMin: 0 },
    axis: xis.length > 0 && xis.length <= 9 ? { values: xis, format: '~g', labelOverlap: 'greedy' } : { tickCount: 5, format: '~g' },
  };
  const y = { field: 'value', type: 'quantitative', title: 'reid@1', scale: { zero: true } };
  const tooltip = [
    { field: 'mechanism', type: 'nominal' },
    { field: 'accountant', type: 'nominal' },
    { field: 'panel', type: 'nominal', title: 'κ, n' },
    { field: 'xi', type: 'quantitative', title: 'ξ' },
    { field: 'value', type: 'quantitative', title: 'reid@1', format: '.4f' },
    { field: 'se', type: 'quantitative', title: 'se', format: '.4f' },
    { field: 'reid10', type: 'quantitative', title: 'reid@10', format: '.4f' },
    { field: 'users', type: 'quantitative', title: 'N' },
    { field: 'trials', type: 'quantitative' },
  ];
  const only = (kind: ReidRow['kind']) => ({ filter: `datum.kind === '${kind}'` });
  return {
    $schema: VL_SCHEMA,
    title: {
      text: `${dataset}: re-identification against ξ (${knownWords(known)})`,
      subtitle: [
        'reid@1: the chance that ranking the N released codes by Hamming distance to the hashed partial profile puts the target first',
        `(ties at random), the adversary knowing a share ${known} of each target's non-zero entries; ξ on a symmetric log scale`,
        'dashed lines: no noise (vanilla LSH, the clean-LSH level); dotted grey lines: chance 1/N; bars and bands: ±1 standard error over trials',
        'one panel per hash length κ (rows) and dimension n (columns)',
      ],
    },
    data: { values: data },
    facet: { field: 'panel', type: 'nominal', title: null, sort: layout.panels, header: { labelFontSize: 13, labelFontWeight: 'bold' } },
    columns: layout.columns,
    spec: {
      width: 220,
      height: 160,
      layer: [
        {
          transform: [only('chance')],
          mark: CHANCE_RULE,
          encoding: { y: { field: 'value', type: 'quantitative' }, tooltip: [{ field: 'value', type: 'quantitative', title: 'chance 1/N', format: '.4g' }] },
        },
        { transform: [only('baseline')], mark: { type: 'rect', opacity: 0.12 }, encoding: { y: { field: 'lo', type: 'quantitative' }, y2: { field: 'hi' }, color } },
        { transform: [only('baseline')], mark: { type: 'rule', strokeWidth: 1.8 }, encoding: { y, color, strokeDash, tooltip } },
        { transform: [only('curve')], mark: { type: 'rule', strokeWidth: 1.2 }, encoding: { x, y: { field: 'lo', type: 'quantitative' }, y2: { field: 'hi' }, color } },
        { transform: [only('curve')], mark: { type: 'line', strokeWidth: 1.8 }, encoding: { x, y, color, detail: { field: 'mechanism', type: 'nominal' } } },
        { transform: [only('curve')], mark: { type: 'point', filled: true, size: 45, opacity: 1 }, encoding: { x, y, color, shape, tooltip } },
      ],
    },
    resolve: { scale: { y: 'independent' } },
    config: baseConfig(),
  };
}

// ---------------------------------------------------------------- the privacy–utility frontier

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

/** The axes of a data set's frontier: known ≈ 0.5; NDCG@10 at k ≈ 10 with recommendations, else the loss at k ≈ 10. */
export function frontierAxes(dataset: string, attack: readonly AttackRow[], utility: readonly UtilityRow[], recommend: readonly RecommendRow[] | null | undefined): FrontierAxes | null {
  const known = nearest(
    attack.filter((r) => r.dataset === dataset).map((r) => r.known),
    FRONTIER_KNOWN,
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
        FRONTIER_TOP,
      )!,
    };
  }
  const k = nearest(
    utility.filter((r) => r.dataset === dataset && r.kappa !== null).map((r) => r.k),
    FRONTIER_K,
  );
  return k === undefined ? null : { known, metric: 'loss', k, top: null };
}

const joinKey = (n: number, kappa: number | null, mechanism: string, xi: number | null) => `${n}\u0000${kappa}\u0000${mechanism}\u0000${xi}`;

/** One point per (mechanism, ξ) of the data set with both axes, and a chance row per panel. */
export function frontierRows(
  dataset: string,
  attack: readonly AttackRow[],
  utility: readonly UtilityRow[],
  recommend: readonly RecommendRow[] | null | undefined,
  axes: FrontierAxes,
): { rows: FrontierRow[]; missing: number } {
  const ys = new Map<string, { y: number; se: number | null }>();
  if (axes.metric === 'ndcg') {
    for (const r of recommend ?? []) if (r.dataset === dataset && r.k === axes.k && r.top === axes.top) ys.set(joinKey(r.n, r.kappa, r.mechanism, r.xi), { y: r.ndcg_mean, se: r.ndcg_se });
  } else {
    for (const r of utility) if (r.dataset === dataset && r.k === axes.k) ys.set(joinKey(r.n, r.kappa, r.mechanism, r.xi), { y: r.utility_loss_mean, se: r.utility_loss_se });
  }
  const sub = attack.filter((r) => r.dataset === dataset && r.known === axes.known);
  const rows: FrontierRow[] = [];
  let missing = 0;
  for (const r of sub) {
    const u = ys.get(joinKey(r.n, r.kappa, r.mechanism, r.xi));
    if (!u) {
      missing++;
      continue;
    }
    const xse = r.reid1_se ?? 0;
    const yse = u.se ?? 0;
    rows.push({
      panel: panelOf(r.kappa, r.n),
      kappa: r.kappa,
      n: r.n,
      mechanism: r.mechanism,
      accountant: r.accountant,
      kind: 'point',
      xi: r.xi,
      order: r.xi ?? -1,
      x: r.reid1_mean,
      xlo: r.reid1_mean - xse,
      xhi: r.reid1_mean + xse,
      xse: r.reid1_se,
      y: u.y,
      ylo: u.y - yse,
      yhi: u.y + yse,
      yse: u.se,
      users: r.users,
    });
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

/**
 * The privacy–utility frontier of one data set: one point per (mechanism, ξ) with x = reid@1 and
 * y = utility loss (or NDCG), ±1 se bars on both, a mechanism's points joined in ξ order; one
 * panel per (κ, n), each with its own scales; chance 1/N as a dotted grey vertical rule.
 */
export function frontierSpec(dataset: string, rows: readonly FrontierRow[], axes: FrontierAxes, allSeries: string[]): VlSpec {
  const drawn = rows.filter((r) => r.kind === 'point');
  const shown = allSeries.filter((m) => drawn.some((r) => r.mechanism === m));
  const { color, shape } = legendScales(allSeries, shown, []);
  const layout = panels(drawn);
  const yTitle = frontierYTitle(axes);
  const x = { field: 'x', type: 'quantitative', title: `reid@1 (${knownWords(axes.known)})`, scale: { zero: true } };
  const y = { field: 'y', type: 'quantitative', title: yTitle, scale: { zero: true } };
  const tooltip = [
    { field: 'mechanism', type: 'nominal' },
    { field: 'accountant', type: 'nominal' },
    { field: 'panel', type: 'nominal', title: 'κ, n' },
    { field: 'xi', type: 'quantitative', title: 'ξ' },
    { field: 'x', type: 'quantitative', title: 'reid@1', format: '.4f' },
    { field: 'xse', type: 'quantitative', title: 'se', format: '.4f' },
    { field: 'y', type: 'quantitative', title: yTitle, format: '.4f' },
    { field: 'yse', type: 'quantitative', title: 'se', format: '.4f' },
  ];
  const points = { filter: "datum.kind === 'point'" };
  const better = axes.metric === 'ndcg' ? 'up and to the left is better' : 'down and to the left is better';
  return {
    $schema: VL_SCHEMA,
    title: {
      text: `${dataset}: privacy–utility frontier`,
      subtitle: [
        `one point per (mechanism, ξ): x = reid@1 of the linkage attack (${knownWords(axes.known)}),`,
        `y = ${axes.metric === 'ndcg' ? `NDCG@${axes.top} of the recommendations` : 'utility loss'} at k = ${axes.k}; ${better}`,
        "a mechanism's points joined in ξ order; dotted grey lines: chance 1/N; bars: ±1 se over trials",
        'one panel per κ (rows) and n (columns), each with its own scales',
      ],
    },
    data: { values: rows },
    facet: { field: 'panel', type: 'nominal', title: null, sort: layout.panels, header: { labelFontSize: 13, labelFontWeight: 'bold' } },
    columns: layout.columns,
    spec: {
      width: 220,
      height: 180,
      layer: [
        { transform: [{ filter: "datum.kind === 'chance'" }], mark: CHANCE_RULE, encoding: { x: { field: 'x', type: 'quantitative' } } },
        { transform: [points], mark: { type: 'rule', strokeWidth: 1 }, encoding: { x: { field: 'xlo', type: 'quantitative' }, x2: { field: 'xhi' }, y, color } },
        { transform: [points], mark: { type: 'rule', strokeWidth: 1 }, encoding: { x, y: { field: 'ylo', type: 'quantitative' }, y2: { field: 'yhi' }, color } },
        { transform: [points], mark: { type: 'line', strokeWidth: 1.6 }, encoding: { x, y, color, detail: { field: 'mechanism', type: 'nominal' }, order: { field: 'order', type: 'quantitative' } } },
        { transform: [points], mark: { type: 'point', filled: true, size: 45, opacity: 1 }, encoding: { x, y, color, shape, tooltip } },
      ],
    },
    resolve: { scale: { x: 'independent', y: 'independent' } },
    config: baseConfig(),
  };
}

/** The figure ids' prefixes: the report's attack section shows the figures whose id starts so. */
export const ATTACK_FIGURE_PREFIXES = ['reid-', 'frontier-'] as const;

export const isAttackFigure = (f: Pick<FigureEntry, 'id'>): boolean => ATTACK_FIGURE_PREFIXES.some((p) => f.id.startsWith(p));

/**
 * The attack's figures of a folder with attack.csv (none without): per data set, re-identification
 * against ξ and the frontier (when utility.csv or recommend.csv gives the y axis). `stem` makes
 * the file stems unique, `slug` makes a data set name safe in them.
 */
export function attackFigureEntries(res: ResultsFolder, stem: (base: string) => string, slug: (name: string) => string): FigureEntry[] {
  const attack = res.attack ?? [];
  const utility = res.utility ?? [];
  const out: FigureEntry[] = [];
  for (const ds of uniqueInOrder(attack.map((r) => r.dataset))) {
    // Fig. 2's series first, so a mechanism keeps its colour and marker; then any the attack adds
    const allSeries = uniqueInOrder([...fig2Series(ds, utility), ...attack.filter((r) => r.dataset === ds).map((r) => r.mechanism)]);
    const known = nearest(
      attack.filter((r) => r.dataset === ds).map((r) => r.known),
      FRONTIER_KNOWN,
    )!;
    const reidId = stem(`reid-${slug(ds)}`);
    out.push({
      id: reidId,
      title: `Re-identification: ${ds}`,
      caption: `Re-identification against ξ (${ds}): reid@1 of the linkage attack (docs/ATTACKS.md) with the adversary knowing a share ${known} of each target's non-zero entries${known === FRONTIER_KNOWN ? '' : ` (the grid's nearest to ${FRONTIER_KNOWN})`}, one panel per κ and n, one line per mechanism; dashed: the clean-LSH level (no noise), dotted grey: chance 1/N; ±1 standard error over trials.`,
      spec: reidSpec(ds, attack, known, allSeries),
      svgPath: `figures/${reidId}.svg`,
    });
    const axes = frontierAxes(ds, attack, utility, res.recommend);
    if (!axes) continue;
    const { rows, missing } = frontierRows(ds, attack, utility, res.recommend, axes);
    if (!rows.some((r) => r.kind === 'point')) continue;
    const id = stem(`frontier-${slug(ds)}`);
    const nearestNote = [
      ...(axes.known === FRONTIER_KNOWN ? [] : [`known = ${axes.known} is the grid's nearest to ${FRONTIER_KNOWN}`]),
      ...(axes.k === FRONTIER_K ? [] : [`k = ${axes.k} is the grid's nearest to ${FRONTIER_K}`]),
      ...(axes.top === null || axes.top === FRONTIER_TOP ? [] : [`NDCG@${axes.top} is the grid's nearest list length to ${FRONTIER_TOP}`]),
      ...(missing > 0 ? [`${missing} attacked point${missing === 1 ? '' : 's'} without a utility value left out`] : []),
    ];
    out.push({
      id,
      title: `Privacy–utility frontier: ${ds}`,
      caption: `Privacy–utility frontier (${ds}): one point per mechanism and ξ, x = reid@1 at known = ${axes.known}, y = ${frontierYTitle(axes)}${axes.metric === 'ndcg' ? ' from recommend.csv' : ''}; a mechanism's points joined in ξ order, one panel per κ and n; dotted grey: chance 1/N; ±1 standard error over trials${nearestNote.length ? ` (${nearestNote.join('; ')})` : ''}.`,
      spec: frontierSpec(ds, rows, axes, allSeries),
      svgPath: `figures/${id}.svg`,
    });
  }
  return out;
}
