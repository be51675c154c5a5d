/**
 * The linkage attack's re-identification figure (config `attack`, docs/ATTACKS.md): reid@1 against
 * ξ per data set, one panel per (κ, n), as a Vega-Lite spec with its data inlined from attack.csv.
 */
import { uniqueInOrder, type AttackRow } from './read.js';
import { VL_SCHEMA, baseConfig, xiAxis, type VlSpec } from './specs.js';
import { CHANCE_RULE, knownWords, legendScales, panelOf, panels } from './attackPanels.js';

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
  const x = xiAxis(xis);
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
