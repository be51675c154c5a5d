/**
 * Fig. 2 of the paper: utility loss (or recall@k) against ξ for one data set and k, as a
 * Vega-Lite spec with its data inlined from utility.csv, in the panel layout of panelFigure.ts.
 */
import type { UtilityRow } from './read.js';
import { uniqueInOrder } from './read.js';
import { ANGULAR_WORDS, type DistanceWords } from './nnFigure.js';
import { panelLabel, panelSpec, type Fig2Row } from './panelFigure.js';
import { DEFAULT_THRESHOLD, type VlSpec } from './specs.js';

/** What Fig. 2 puts on its y axis: utility loss (the paper's figure) or recall@k. */
export type Fig2Metric = 'utility' | 'recall';
export const FIG2_METRICS: Fig2Metric[] = ['utility', 'recall'];

const kappaLabel = (kappa: number) => `κ = ${kappa}`;

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
