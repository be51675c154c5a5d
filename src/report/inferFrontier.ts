/**
 * The frontier's second row of panels, for a folder with infer.csv (config `infer`,
 * docs/ATTACKS.md "Attribute inference"): per (κ, n) panel, x = the auc advantage of a mechanism
 * over the `null` baseline (its auc minus null's at the same data set, n, κ and auxiliary share:
 * what the released code adds to what a code that says nothing gives), y = the frontier's utility
 * axis as in the first row. The `null` level is the rule at 0; `prior` (the auxiliary group's
 * popularity alone, no code) is a dashed rule at its own advantage over null.
 */
import { nearest } from '../util/nearest.js';
import { INFER_FACTS } from '../evaluations/infer/facts.js';
import { NULL_BASELINE, PRIOR_BASELINE } from '../evaluations/infer/store.js';
import type { RecommendRow, ResultsFolder, UtilityRow } from './read.js';
import { VL_SCHEMA, baseConfig, type VlSpec } from './specs.js';
import { CHANCE_RULE, knownWords } from './attackPanels.js';
import { ruleLayers, rulesWords, type RuleRow } from './frontierRules.js';
import type { InferCoordinates } from '../experiment/trialValues.js';
import {
  facetBlock,
  frontierLook,
  frontierMarkNote,
  frontierYWords,
  joinKey,
  pointFields,
  pointLayers,
  reidBlock,
  utilityYs,
  type FrontierAxes,
  type FrontierLook,
  type FrontierRow,
} from './frontierFigure.js';

/** infer.csv's rows as the report reads them (src/evaluations/infer/facts.ts columns). */
export interface InferRow extends InferCoordinates {
  k: number;
  auc_mean: number;
  auc_se: number | null;
  prec10_mean: number;
  prec10_se: number | null;
  trials: number;
  targets: number;
}

/** infer.csv's rows of a results folder, or null without one. */
export function inferRowsOf(res: ResultsFolder): InferRow[] | null {
  return ((res as unknown as Record<string, unknown>)[INFER_FACTS.name] as InferRow[] | null | undefined) ?? null;
}

/** The auxiliary share the second row reads: `want` (default the headline 0.5), else the grid's nearest; undefined without rows of the data set. */
export function inferAux(dataset: string, infer: readonly InferRow[], want: number = INFER_FACTS.headline.aux): number | undefined {
  return nearest(
    infer.filter((r) => r.dataset === dataset).map((r) => r.aux),
    want,
  );
}

/** A row of the second row of panels: a point (x = auc advantage over null), or a baseline rule. */
export interface InferFrontierRow extends Omit<FrontierRow, 'kind' | 'users'> {
  kind: 'point' | 'null' | 'prior';
  /** the mechanism's auc and null's at the same n, κ and aux */
  auc: number;
  nullAuc: number;
}

const isBaseline = (r: InferRow) => r.base === null && (r.mechanism === NULL_BASELINE || r.mechanism === PRIOR_BASELINE);
const seOf = (a: number | null, b: number | null) => Math.sqrt((a ?? 0) ** 2 + (b ?? 0) ** 2);

/** The baseline rules of one panel: null at 0, prior at its advantage over null (when infer.csv has it). */
function baselineRules(at: { panel: string; kappa: number; n: number; y: number }, nul: InferRow, prior: InferRow | undefined): InferFrontierRow[] {
  const rule = (kind: 'null' | 'prior', r: InferRow): InferFrontierRow => {
    const x = r.auc_mean - nul.auc_mean;
    return { ...at, mechanism: kind, accountant: null, kind, xi: null, order: 0, x, xlo: x, xhi: x, xse: null, ylo: at.y, yhi: at.y, yse: null, auc: r.auc_mean, nullAuc: nul.auc_mean };
  };
  return [rule('null', nul), ...(prior ? [rule('prior', prior)] : [])];
}

/**
 * One point per (mechanism, κ, n, ξ) of the data set at `aux` with a utility value and a null row
 * at its n and κ: x = auc − null's auc, ±1 se combined as if the two were independent; then the
 * baseline rules of each panel. `missing` counts the points without a utility value or a null row.
 */
export function inferFrontierRows(
  dataset: string,
  infer: readonly InferRow[],
  utility: readonly UtilityRow[],
  recommend: readonly RecommendRow[] | null | undefined,
  axes: FrontierAxes,
  aux: number,
): { rows: InferFrontierRow[]; missing: number } {
  const ys = utilityYs(dataset, utility, recommend, axes);
  const sub = infer.filter((r) => r.dataset === dataset && r.aux === aux);
  const nulls = new Map(sub.filter((r) => isBaseline(r) && r.mechanism === NULL_BASELINE).map((r) => [`${r.n}\u0000${r.kappa}`, r]));
  const rows: InferFrontierRow[] = [];
  let missing = 0;
  for (const r of sub) {
    if (isBaseline(r) || r.kappa === null) continue;
    const u = ys.get(joinKey(r.n, r.kappa, r.mechanism, r.xi));
    const nul = nulls.get(`${r.n}\u0000${r.kappa}`);
    if (!u || !nul) {
      missing++;
      continue;
    }
    const x = r.auc_mean - nul.auc_mean;
    const xse = r.auc_se === null && nul.auc_se === null ? null : seOf(r.auc_se, nul.auc_se);
    rows.push({ ...pointFields({ ...r, kappa: r.kappa }, u, x, xse), auc: r.auc_mean, nullAuc: nul.auc_mean });
  }
  const points = rows.slice();
  for (const p of points.filter((r, i) => points.findIndex((q) => q.panel === r.panel) === i)) {
    const nul = nulls.get(`${p.n}\u0000${p.kappa}`)!;
    const prior = sub.find((r) => r.mechanism === PRIOR_BASELINE && r.base === null && r.n === p.n);
    rows.push(...baselineRules(p, nul, prior));
  }
  return { rows, missing };
}

/** The symmetric-log constant of the advantage axis: the null rows' smallest se at this aux (the scale below which an advantage is within null's own noise), 0.001 without one. */
export function advantageConstant(dataset: string, infer: readonly InferRow[], aux: number): number {
  const ses = infer.filter((r) => r.dataset === dataset && r.aux === aux && r.mechanism === NULL_BASELINE && r.base === null && (r.auc_se ?? 0) > 0).map((r) => r.auc_se!);
  return ses.length ? Math.min(...ses) : 0.001;
}

/** The auc-advantage row of panels: null's level as the dotted rule at 0, prior's as a dashed rule. */
function inferBlock(rows: readonly InferFrontierRow[], aux: number, constant: number, look: FrontierLook, rules: readonly RuleRow[]): VlSpec {
  const x = { field: 'x', type: 'quantitative', title: `auc − null's auc (aux = ${aux}; symmetric-log)`, scale: { type: 'symlog', constant, zero: false, nice: false } };
  const tooltip = [
    { field: 'mechanism', type: 'nominal' },
    { field: 'accountant', type: 'nominal' },
    { field: 'panel', type: 'nominal', title: 'κ, n' },
    { field: 'xi', type: 'quantitative', title: 'ξ' },
    { field: 'auc', type: 'quantitative', title: 'auc', format: '.4f' },
    { field: 'nullAuc', type: 'quantitative', title: "null's auc", format: '.4f' },
    { field: 'x', type: 'quantitative', title: 'advantage', format: '.4f' },
    { field: 'xse', type: 'quantitative', title: 'se', format: '.4f' },
    { field: 'y', type: 'quantitative', title: look.yTitle, format: '.4f' },
    { field: 'yse', type: 'quantitative', title: 'se', format: '.4f' },
  ];
  const rule = (kind: string, mark: object) => ({ transform: [{ filter: `datum.kind === '${kind}'` }], mark, encoding: { x: { field: 'x', type: 'quantitative' } } });
  return facetBlock([...rows, ...rules], look, [
    rule('null', CHANCE_RULE),
    rule('prior', { ...CHANCE_RULE, strokeDash: [6, 3] }),
    ...(rules.length ? ruleLayers(220) : []),
    ...pointLayers(x, look, tooltip),
  ]);
}

/** What the two-row frontier draws: its first row's points, its second's, and the second's slice. */
export interface TwoRows {
  reid: readonly FrontierRow[];
  infer: readonly InferFrontierRow[];
  aux: number;
  /** the advantage axis' symmetric-log constant (`advantageConstant`) */
  constant: number;
  /** the horizontal references of both rows (frontierRules.ts) */
  rules?: readonly RuleRow[];
}

/**
 * The frontier of one data set with infer.csv: the reid@1 row of panels (frontierSpec's) above the
 * auc-advantage row, the two aligned panel for panel, with one legend and the same y axis.
 */
export function twoRowFrontierSpec(dataset: string, drawn: TwoRows, axes: FrontierAxes, allSeries: string[], marks: ReadonlySet<string> = new Set()): VlSpec {
  const points = [...drawn.reid, ...drawn.infer].filter((r) => r.kind === 'point');
  const look = frontierLook(axes, allSeries, points, marks);
  const rules = drawn.rules ?? [];
  const words = frontierYWords(axes, rules.length > 0);
  const block = (title: string, spec: VlSpec) => ({ title: { text: title, anchor: 'start', fontSize: 13 }, ...spec });
  return {
    $schema: VL_SCHEMA,
    title: {
      text: `${dataset}: privacy–utility frontier`,
      subtitle: [
        `one point per (mechanism, ξ), labelled with its ξ; top: x = reid@1 of the linkage attack (${knownWords(axes.known)}, logarithmic from chance);`,
        `bottom: x = auc of attribute inference minus null's (aux = ${drawn.aux}; symmetric-log, linear within ±${Number(drawn.constant.toPrecision(2))});`,
        `${words.y}; ${words.better}`,
        "a mechanism's points joined in ξ order; dotted grey lines: chance 1/N (top), null's auc (bottom); dashed: prior's; bars: ±1 se over trials",
        ...(rules.length ? [rulesWords(axes)] : []),
        'one panel per κ (rows) and n (columns), each with its own scales',
        ...frontierMarkNote(points, marks),
      ],
    },
    vconcat: [
      block('Linkage attack: reid@1', reidBlock(drawn.reid, axes, look, rules)),
      block('Attribute inference: auc advantage over null', inferBlock(drawn.infer, drawn.aux, drawn.constant, look, rules)),
    ],
    config: baseConfig(),
  };
}
