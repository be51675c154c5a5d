/**
 * The linkage attack's figures (config `attack`, docs/ATTACKS.md), Vega-Lite specs with their data
 * inlined from attack.csv (and utility.csv or recommend.csv), like the paper's figures:
 * re-identification against ξ per data set (reidFigure.ts), and the privacy–utility frontier per
 * data set with one panel per (κ, n) (frontierFigure.ts). A mechanism keeps the colour and marker
 * it has in Fig. 2.
 */
import { nearest } from '../util/nearest.js';
import { INFER_FACTS } from '../evaluations/infer/facts.js';
import { uniqueInOrder, type ResultsFolder } from './read.js';
import { fig2Series } from './utilityFigure.js';
import type { FigureEntry } from './markup.js';
import { FRONTIER_K, FRONTIER_KNOWN, FRONTIER_TOP } from './attackPanels.js';
import { reidSpec } from './reidFigure.js';
import { frontierAxes, frontierRows, frontierSpec, frontierYTitle, type FrontierAxes, type FrontierRow, type FrontierSlice } from './frontierFigure.js';
import { advantageConstant, inferAux, inferFrontierRows, inferRowsOf, twoRowFrontierSpec } from './inferFrontier.js';
import type { VlSpec } from './specs.js';
import { marksOf } from './releasable.js';
import { frontierRules, type RuleRow } from './frontierRules.js';
import { randomLossOf, type RandomLoss } from '../decide/randomLoss.js';

/** The caption's sentence on the frontier's horizontal references (frontierRules.ts). */
function rulesCaption(axes: FrontierAxes): string {
  return axes.metric === 'loss'
    ? `Grey dotted horizontal lines, per panel: random codes (u_rand, the exact expected loss of k = ${axes.k} neighbours drawn uniformly at random, from the exact cells' records) and clean LSH's mean loss.`
    : `Grey dotted horizontal lines, per panel: clean LSH's, exact k-NN's and pop's NDCG@${axes.top} (random codes have no exact NDCG: no line).`;
}

/** The figure ids' prefixes: the report's attack section shows the figures whose id starts so. */
export const ATTACK_FIGURE_PREFIXES = ['reid-', 'frontier-'] as const;

export const isAttackFigure = (f: Pick<FigureEntry, 'id'>): boolean => ATTACK_FIGURE_PREFIXES.some((p) => f.id.startsWith(p));

/**
 * The attack's figures of a folder with attack.csv (none without): per data set, re-identification
 * against ξ and the frontier (when utility.csv or recommend.csv gives the y axis). `stem` makes
 * the file stems unique, `slug` makes a data set name safe in them.
 */
export function attackFigureEntries(res: ResultsFolder, stem: (base: string) => string, slug: (name: string) => string, slice: FrontierSlice = {}): FigureEntry[] {
  const attack = res.attack ?? [];
  const utility = res.utility ?? [];
  const out: FigureEntry[] = [];
  const marks = marksOf(res);
  // u_rand per (data set, n, k), read from the exact cells' records with the first frontier
  let uRand: RandomLoss | null | undefined;
  for (const ds of uniqueInOrder(attack.map((r) => r.dataset))) {
    // Fig. 2's series first, so a mechanism keeps its colour and marker; then any the attack adds
    const allSeries = uniqueInOrder([
      ...fig2Series(ds, utility),
      ...attack.filter((r) => r.dataset === ds).map((r) => r.mechanism),
      ...(inferRowsOf(res) ?? []).filter((r) => r.dataset === ds && r.base !== null).map((r) => r.mechanism),
    ]);
    const wantKnown = slice.known ?? FRONTIER_KNOWN;
    const known = nearest(
      attack.filter((r) => r.dataset === ds).map((r) => r.known),
      wantKnown,
    )!;
    const reidId = stem(`reid-${slug(ds)}`);
    out.push({
      id: reidId,
      title: `Re-identification: ${ds}`,
      caption: `Re-identification against ξ (${ds}): reid@1 of the linkage attack (docs/ATTACKS.md) with the adversary knowing a share ${known} of each target's non-zero entries${known === wantKnown ? '' : ` (the grid's nearest to ${wantKnown})`}, one panel per κ and n, one line per mechanism; dashed: the clean-LSH level (no noise), dotted grey: chance 1/N; ±1 standard error over trials.`,
      spec: reidSpec(ds, attack, known, allSeries),
      svgPath: `figures/${reidId}.svg`,
    });
    const axes = frontierAxes(ds, attack, utility, res.recommend, slice);
    if (!axes) continue;
    const { rows, missing } = frontierRows(ds, attack, utility, res.recommend, axes);
    if (!rows.some((r) => r.kind === 'point')) continue;
    const id = stem(`frontier-${slug(ds)}`);
    const nearestNote = [
      ...(axes.known === wantKnown ? [] : [`known = ${axes.known} is the grid's nearest to ${wantKnown}`]),
      ...(axes.k === FRONTIER_K ? [] : [`k = ${axes.k} is the grid's nearest to ${FRONTIER_K}`]),
      ...(axes.top === null || axes.top === (slice.top ?? FRONTIER_TOP) ? [] : [`NDCG@${axes.top} is the grid's nearest list length to ${slice.top ?? FRONTIER_TOP}`]),
      ...(missing > 0 ? [`${missing} attacked point${missing === 1 ? '' : 's'} without a utility value left out`] : []),
    ];
    uRand ??= randomLossOf(res.dir);
    const rules = frontierRules(
      ds,
      rows.filter((r) => r.kind === 'chance'),
      axes,
      utility,
      res.recommend,
      uRand,
    );
    const second = inferRow(res, ds, rows, axes, allSeries, slice, marks, rules);
    const caption = `Privacy–utility frontier (${ds}): one point per mechanism and ξ, labelled with its ξ, x = reid@1 at known = ${axes.known} (logarithmic from chance), y = ${frontierYTitle(axes)}${axes.metric === 'ndcg' ? ' from recommend.csv' : ''} (fitted to the points${rules.length ? ' and the reference lines' : ''}); a mechanism's points joined in ξ order, one panel per κ and n; dotted grey: chance 1/N; ±1 standard error over trials${nearestNote.length ? ` (${nearestNote.join('; ')})` : ''}.${rules.length ? ` ${rulesCaption(axes)}` : ''}`;
    out.push({
      id,
      title: `Privacy–utility frontier: ${ds}`,
      caption: second ? `${caption} ${second.caption}` : caption,
      spec: second ? second.spec : frontierSpec(ds, rows, axes, allSeries, marks, rules),
      svgPath: `figures/${id}.svg`,
    });
  }
  return out;
}

/**
 * The frontier's second row of panels when the folder has infer.csv rows of the data set (else
 * null: the one-row figure as before): the spec of both rows and the caption's sentence on the
 * second.
 */
function inferRow(
  res: ResultsFolder,
  ds: string,
  reid: FrontierRow[],
  axes: FrontierAxes,
  allSeries: string[],
  slice: FrontierSlice,
  marks: ReadonlySet<string>,
  rules: readonly RuleRow[],
): { spec: VlSpec; caption: string } | null {
  const infer = inferRowsOf(res);
  if (!infer) return null;
  const want = slice.aux ?? INFER_FACTS.headline.aux;
  const aux = inferAux(ds, infer, want);
  if (aux === undefined) return null;
  const { rows, missing } = inferFrontierRows(ds, infer, res.utility ?? [], res.recommend, axes, aux);
  if (!rows.some((r) => r.kind === 'point')) return null;
  const constant = advantageConstant(ds, infer, aux);
  const notes = [
    ...(aux === want ? [] : [`aux = ${aux} is the grid's nearest to ${want}`]),
    ...(missing > 0 ? [`${missing} inferred point${missing === 1 ? '' : 's'} without a utility value or a null row left out`] : []),
  ];
  return {
    spec: twoRowFrontierSpec(ds, { reid, infer: rows, aux, constant, rules }, axes, allSeries, marks),
    caption: `Second row: x = attribute inference's auc minus the null baseline's (a random code in place of the release) at the same n, κ and aux = ${aux} (symmetric-log, linear within ±${Number(constant.toPrecision(2))}, null's smallest standard error), y as above; dotted grey: null (0), dashed grey: prior, the auxiliary group's popularity alone; bars: ±1 se of the mechanism's and null's auc combined as if independent${notes.length ? ` (${notes.join('; ')})` : ''}.`,
  };
}
