/**
 * Fig. 1 of the paper: the distribution of the true 1-NN distance of one data set, one curve per
 * n, as a Vega-Lite spec with its data inlined from nn_distances.csv.
 */
import type { NnDistanceRow } from './read.js';
import { uniqueInOrder } from './read.js';
import { DEFAULT_THRESHOLD, PALETTE, VL_SCHEMA, baseConfig, type VlSpec } from './specs.js';

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
