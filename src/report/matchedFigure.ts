/**
 * The figure "utility retained at matched attack success" (issue 51, docs/ATTACKS.md), per data set
 * of a run with a `decide:` block, from matched_curve.csv: x the target T (reid@1 on a log axis from
 * chance to clean LSH's level; a second row for the auc advantage over null, linear from 0, where
 * inference runs), y retained on one scale shared by every panel, one line per entry with its 90%
 * bootstrap band, one panel per (κ, n) at the block's k, the block's targets as rules.
 */
import { MATCHED_CAVEAT } from '../decide/choose.js';
import type { CurveRow } from '../decide/curveRows.js';
import { BAND } from '../decide/curve.js';
import { panelOf, panels } from './attackPanels.js';
import { frontierLegend, frontierMarkNote } from './frontierFigure.js';
import type { FigureEntry } from './markup.js';
import { readCurve } from './matchedCurve.js';
import { uniqueInOrder, type ResultsFolder } from './read.js';
import { marksOf } from './releasable.js';
import { VL_SCHEMA, baseConfig, type VlSpec } from './specs.js';
import { fig2Series } from './utilityFigure.js';

/** The figure ids' prefix: the report shows these in its decision section. */
export const MATCHED_FIGURE_PREFIX = 'matched-';
export const isMatchedFigure = (f: Pick<FigureEntry, 'id'>): boolean => f.id.startsWith(MATCHED_FIGURE_PREFIX);

/** A data set's figure title (the matched claims' badges find it by this). */
export const matchedFigureTitle = (dataset: string): string => `Utility retained at matched attack success: ${dataset}`;

/** The shared y axis' widest reach: a band beyond it is cut at its edge (a resample near chance can put u* far below random). */
export const Y_LIMITS = [-1, 2] as const;

const BAND_WORDS = `shaded: the ${Math.round(100 * (BAND[1] - BAND[0]))}% band, the ${100 * BAND[0]}% and ${100 * BAND[1]}% quantiles of retained over the same 2,000 bootstrap resamples of the trials as lshdp choose (a resample in which no ξ of the grid meets T counts below every value: where more than ${100 * BAND[0]}% do, the band has no lower end and is not drawn)`;

/** The y scale every panel of both rows shares: from the lowest to the highest value drawn (0% and 100% always in), cut to Y_LIMITS. */
export function sharedY(rows: readonly CurveRow[]): [number, number] {
  const drawn = rows.flatMap((r) => (r.retained === null ? [] : [r.retained, ...(r.retained_low !== null && r.retained_high !== null ? [r.retained_low, r.retained_high] : [])]));
  const lo = Math.max(Y_LIMITS[0], Math.min(0, ...drawn));
  const hi = Math.min(Y_LIMITS[1], Math.max(1, ...drawn));
  return [lo, hi];
}

interface Look {
  color: unknown;
  shape: unknown;
  y: Record<string, unknown>;
  layout: { panels: string[]; columns: number };
}

/** One row of panels: the band, the line, a marker at each of the block's targets, the targets' rules, and a note in a panel without a line. */
function block(rows: readonly Record<string, unknown>[], x: Record<string, unknown>, look: Look, what: string): VlSpec {
  const { color, shape, y } = look;
  const shown = 'datum.retained !== null && isFinite(datum.retained)';
  const banded = `${shown} && datum.retained_low !== null && datum.retained_high !== null`;
  const tooltip = [
    { field: 'mechanism', type: 'nominal' },
    { field: 'panel', type: 'nominal', title: 'κ, n' },
    { field: 'target', type: 'quantitative', title: `T (${what})`, format: '.4~g' },
    { field: 'xi', type: 'quantitative', title: 'ξ*', format: '.3~g' },
    { field: 'flag', type: 'nominal' },
    { field: 'retained', type: 'quantitative', format: '.1%' },
    { field: 'retained_low', type: 'quantitative', title: 'band low', format: '.1%' },
    { field: 'retained_high', type: 'quantitative', title: 'band high', format: '.1%' },
  ];
  const layer = [
    {
      transform: [{ filter: banded }],
      mark: { type: 'area', opacity: 0.13 },
      encoding: { x, y: { ...y, field: 'retained_low' }, y2: { field: 'retained_high' }, color, detail: { field: 'mechanism', type: 'nominal' } },
    },
    { transform: [{ filter: shown }], mark: { type: 'line', strokeWidth: 1.6 }, encoding: { x, y, color, detail: { field: 'mechanism', type: 'nominal' } } },
    { transform: [{ filter: `datum.config_target && ${shown}` }], mark: { type: 'point', filled: true, size: 45, opacity: 1 }, encoding: { x, y, color, shape, tooltip } },
    { transform: [{ filter: 'datum.config_target' }], mark: { type: 'rule', color: '#555', strokeDash: [4, 3], strokeWidth: 1 }, encoding: { x } },
    {
      transform: [{ filter: "datum.retained_note !== ''" }, { aggregate: [{ op: 'min', field: 'retained_note', as: 'note' }], groupby: ['panel'] }],
      mark: { type: 'text', fontSize: 11, color: '#444' },
      encoding: { text: { field: 'note', type: 'nominal' }, x: { value: 110 }, y: { value: 80 } },
    },
  ];
  return {
    data: { values: rows },
    facet: { field: 'panel', type: 'nominal', title: null, sort: look.layout.panels, header: { labelFontSize: 13, labelFontWeight: 'bold' } },
    columns: look.layout.columns,
    spec: { width: 220, height: 160, layer },
    resolve: { scale: { x: 'independent', y: 'shared' } },
  };
}

/** The figure of one data set's rows of matched_curve.csv; `allSeries` fixes each mechanism's colour and marker (as the frontier's). */
export function matchedSpec(dataset: string, rows: readonly CurveRow[], allSeries: string[], marks: ReadonlySet<string> = new Set()): VlSpec {
  const mine = rows.filter((r) => r.dataset === dataset);
  const data = mine.map((r) => ({ ...r, panel: panelOf(r.kappa, r.n) }));
  const drawn = mine.filter((r) => r.retained !== null);
  const { color, shape } = frontierLegend(allSeries, drawn, marks);
  const [lo, hi] = sharedY(mine);
  const y = { field: 'retained', type: 'quantitative', title: 'utility retained', scale: { domain: [lo, hi], clamp: true, nice: false }, axis: { format: '.0%' } };
  const look: Look = { color, shape, y, layout: panels(mine) };
  const r0 = mine[0];
  const k = r0.k;
  const reid = data.filter((r) => r.target_kind === 'reid1');
  const auc = data.filter((r) => r.target_kind === 'auc_adv');
  const axis = { format: '~g', labelOverlap: 'greedy', tickCount: 4 };
  const reidX = { field: 'target', type: 'quantitative', title: 'target T on reid@1', scale: { type: 'log', nice: false }, axis };
  const aucX = { field: 'target', type: 'quantitative', title: 'target T on the auc advantage', scale: { zero: true, nice: false }, axis };
  const titled = (text: string, spec: VlSpec) => ({ title: { text, anchor: 'start', fontSize: 13 }, ...spec });
  const rowsOfPanels = [
    ...(reid.length ? [titled(`Linkage attack: reid@1 ≤ T (known = ${r0.known}; logarithmic, from chance 1/N to clean LSH's reid@1)`, block(reid, reidX, look, 'reid@1'))] : []),
    ...(auc.length ? [titled(`Attribute inference: auc advantage over null ≤ T (aux = ${r0.aux}; linear, from 0 to clean LSH's)`, block(auc, aucX, look, 'auc advantage'))] : []),
  ];
  return {
    $schema: VL_SCHEMA,
    title: {
      text: `${dataset}: utility retained at matched attack success`,
      subtitle: [
        'per entry and target T: ξ* where its attack success (pooled to rise with ξ) reaches T, and there',
        `retained = (u_rand − u*)/(u_rand − u_lsh) at k = ${k}: 100% is clean LSH, 0% random neighbours`,
        `shaded: the ${Math.round(100 * (BAND[1] - BAND[0]))}% band, the ${100 * BAND[0]}% and ${100 * BAND[1]}% quantiles of retained over lshdp choose's 2,000 bootstrap resamples`,
        `(a resample where no ξ of the grid meets T counts below every value; where over ${100 * BAND[0]}% do, no band)`,
        "markers and dashed rules: the decide block's targets (matched.csv's values); no line where clean LSH ≈ random",
        'one y scale for every panel',
        // the caveat line whole (docs/ATTACKS.md), on lines as wide as the others
        ...MATCHED_CAVEAT.replace(': ', ':\n').replace(', so ', ',\nso ').split('\n'),
        ...frontierMarkNote(drawn, marks),
      ],
    },
    vconcat: rowsOfPanels,
    config: baseConfig(),
  };
}

/** The figure per data set of a folder with matched_curve.csv (none without). */
export function matchedFigureEntries(res: ResultsFolder, stem: (base: string) => string, slug: (name: string) => string): FigureEntry[] {
  const rows = readCurve(res.dir);
  if (!rows || rows.length === 0) return [];
  const marks = marksOf(res);
  return uniqueInOrder(rows.map((r) => r.dataset)).map((ds) => {
    const allSeries = uniqueInOrder([...fig2Series(ds, res.utility ?? []), ...rows.filter((r) => r.dataset === ds).map((r) => r.mechanism)]);
    const id = stem(`${MATCHED_FIGURE_PREFIX}${slug(ds)}`);
    const r0 = rows.find((r) => r.dataset === ds)!;
    return {
      id,
      title: matchedFigureTitle(ds),
      caption: `Utility retained at matched attack success (${ds}, k = ${r0.k}): for each target T, each entry's ξ* (where its mean attack success over trials, pooled to rise with ξ, reaches T) and the share of clean LSH's utility gain over k random neighbours it keeps there, (u_rand − u*)/(u_rand − u_lsh); x = T on reid@1 at known = ${r0.known} (logarithmic, from chance 1/N to clean LSH's mean reid@1)${rows.some((r) => r.dataset === ds && r.target_kind === 'auc_adv') ? `, and in the second row T on the auc advantage over null at aux = ${r0.aux} (linear, from 0 to clean LSH's)` : ''}; one y scale for every panel, cut at ${100 * Y_LIMITS[0]}% and ${100 * Y_LIMITS[1]}%; one panel per κ and n; ${BAND_WORDS}; markers and dashed rules: the decide block's targets, where the lines take the values of matched.csv; no line where retained is n/a (clean LSH not told from random). An entry flat at the right meets T at every ξ of its grid: its retained there is a lower bound. ${MATCHED_CAVEAT} Data: matched_curve.csv.`,
      spec: matchedSpec(ds, rows, allSeries, marks),
      svgPath: `figures/${id}.svg`,
    };
  });
}
