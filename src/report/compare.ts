/**
 * Where two runs differ ("did my change alter results?"): the utility rows of run A and run B
 * are matched on (dataset, n, κ, k, mechanism, ξ); for each metric the difference B − A and its
 * z-score from the two standard errors, z = (b − a) / √(se_a² + se_b²), flagged beyond a
 * threshold. Without a usable standard error (one trial, or exact rows with se 0) any difference
 * is flagged: nothing says it is noise. Rows present in one run only are flagged too.
 */
import Papa from 'papaparse';
import type { UtilityRow } from './read.js';
import { formatMeanSe, formatNumber } from './tables.js';

import { COMPARE_METRICS, DEFAULT_Z_THRESHOLD, type CompareMetric } from './compareMetrics.js';

export { COMPARE_METRICS, DEFAULT_Z_THRESHOLD, type CompareMetric } from './compareMetrics.js';

/**
 * `same`: identical mean and se; `within`: |z| ≤ threshold; `flagged`: |z| > threshold, or a
 * difference without a standard error, or a changed setting (base, accountant, ε); `only_a` /
 * `only_b`: the row is in one run only.
 */
export type CompareStatus = 'same' | 'within' | 'flagged' | 'only_a' | 'only_b';

/** One compared (row, metric), named in utility.csv's vocabulary (a_ / b_ for the two runs). */
export interface CompareRow {
  dataset: string;
  n: number;
  kappa: number | null;
  k: number;
  mechanism: string;
  xi: number | null;
  metric: CompareMetric;
  a_mean: number | null;
  a_se: number | null;
  b_mean: number | null;
  b_se: number | null;
  /** b_mean − a_mean */
  diff: number | null;
  /** diff / √(a_se² + b_se²); null when that is 0 or unknown */
  z: number | null;
  status: CompareStatus;
  /** why a row is flagged without a z beyond the threshold */
  note: string;
}

export const COMPARE_COLUMNS = [
  'dataset',
  'n',
  'kappa',
  'k',
  'mechanism',
  'xi',
  'metric',
  'a_mean',
  'a_se',
  'b_mean',
  'b_se',
  'diff',
  'z',
  'status',
  'note',
] as const satisfies readonly (keyof CompareRow)[];

export interface CompareResult {
  rows: CompareRow[];
  threshold: number;
  counts: Record<CompareStatus, number>;
}

const keyOf = (r: UtilityRow) => [r.dataset, r.n, r.kappa ?? '', r.k, r.mechanism, r.xi ?? ''].join('\u0000');

function metricOf(r: UtilityRow, m: CompareMetric): { mean: number | null; se: number | null } {
  return m === 'utility' ? { mean: r.utility_loss_mean, se: r.utility_loss_se } : { mean: r.recall_mean, se: r.recall_se };
}

/** Settings that make two rows different experiments rather than two samples of one. */
function settingChanges(a: UtilityRow, b: UtilityRow): string[] {
  const out: string[] = [];
  for (const c of ['base', 'accountant', 'epsilon_bit', 'epsilon_lap', 'epsilon_ldp', 'fallback', 'queries'] as const) {
    if (a[c] !== b[c]) out.push(`${c} ${a[c] ?? '–'} → ${b[c] ?? '–'}`);
  }
  return out;
}

/** Compare run A with run B, metric by metric, in A's row order (rows only in B last). */
export function compareRuns(a: UtilityRow[], b: UtilityRow[], opts: { threshold?: number; metrics?: CompareMetric[] } = {}): CompareResult {
  const threshold = opts.threshold ?? DEFAULT_Z_THRESHOLD;
  const metrics = opts.metrics ?? COMPARE_METRICS;
  const bByKey = new Map(b.map((r) => [keyOf(r), r]));
  const aKeys = new Set(a.map(keyOf));
  const rows: CompareRow[] = [];
  const ident = (r: UtilityRow) => ({ dataset: r.dataset, n: r.n, kappa: r.kappa, k: r.k, mechanism: r.mechanism, xi: r.xi });
  for (const ra of a) {
    const rb = bByKey.get(keyOf(ra));
    for (const metric of metrics) {
      const ma = metricOf(ra, metric);
      if (!rb) {
        rows.push({ ...ident(ra), metric, a_mean: ma.mean, a_se: ma.se, b_mean: null, b_se: null, diff: null, z: null, status: 'only_a', note: 'not in run B' });
        continue;
      }
      const mb = metricOf(rb, metric);
      const changes = settingChanges(ra, rb);
      let diff: number | null = null;
      let z: number | null = null;
      let status: CompareStatus;
      let note = changes.length ? `setting changed: ${changes.join('; ')}` : '';
      if (ma.mean === null || mb.mean === null) {
        status = ma.mean === mb.mean && !changes.length ? 'same' : 'flagged';
        if (ma.mean !== mb.mean) note = [note, `${metric} present in one run only`].filter(Boolean).join('; ');
      } else {
        diff = mb.mean - ma.mean;
        const sd = ma.se !== null && mb.se !== null ? Math.sqrt(ma.se * ma.se + mb.se * mb.se) : null;
        if (sd !== null && sd > 0) z = diff / sd;
        if (diff === 0 && ma.se === mb.se) status = 'same';
        else if (z !== null) status = Math.abs(z) > threshold ? 'flagged' : 'within';
        else if (diff === 0) status = 'within';
        else {
          status = 'flagged';
          note = [note, sd === null ? 'no standard error (one trial): any difference counts' : 'standard errors are 0: any difference counts'].filter(Boolean).join('; ');
        }
        if (changes.length) status = 'flagged';
      }
      rows.push({ ...ident(ra), metric, a_mean: ma.mean, a_se: ma.se, b_mean: mb.mean, b_se: mb.se, diff, z, status, note });
    }
  }
  for (const rb of b) {
    if (aKeys.has(keyOf(rb))) continue;
    for (const metric of metrics) {
      const mb = metricOf(rb, metric);
      rows.push({ ...ident(rb), metric, a_mean: null, a_se: null, b_mean: mb.mean, b_se: mb.se, diff: null, z: null, status: 'only_b', note: 'not in run A' });
    }
  }
  const counts: Record<CompareStatus, number> = { same: 0, within: 0, flagged: 0, only_a: 0, only_b: 0 };
  for (const r of rows) counts[r.status]++;
  return { rows, threshold, counts };
}

/** True when the runs agree: no row flagged and no row in one run only. */
export function runsAgree(res: CompareResult): boolean {
  return res.counts.flagged === 0 && res.counts.only_a === 0 && res.counts.only_b === 0;
}

/** One line: how many (row, metric) pairs fell where. */
export function compareSummary(res: CompareResult): string {
  const c = res.counts;
  return `${res.rows.length} (row, metric) pairs: ${c.same} identical, ${c.within} within |z| ≤ ${res.threshold}, ${c.flagged} flagged, ${c.only_a} only in A, ${c.only_b} only in B`;
}

export type CompareFormat = 'md' | 'csv' | 'json';

/**
 * The comparison as text. `md`: the rows that are not identical (all with `all`), then the
 * summary line; `csv` and `json`: the same rows with the CompareRow fields.
 */
export function formatCompare(res: CompareResult, format: CompareFormat, all = false): string {
  const shown = all ? res.rows : res.rows.filter((r) => r.status !== 'same');
  if (format === 'json') {
    return JSON.stringify({ threshold: res.threshold, counts: res.counts, agree: runsAgree(res), rows: shown }, null, 2) + '\n';
  }
  if (format === 'csv') {
    const cell = (v: unknown) => (v === null ? '' : (v as string | number));
    return Papa.unparse({ fields: [...COMPARE_COLUMNS], data: shown.map((r) => COMPARE_COLUMNS.map((c) => cell(r[c]))) }, { newline: '\n' }) + '\n';
  }
  const ms = (m: number | null, se: number | null) => (m === null ? '–' : formatMeanSe(m, se));
  const esc = (s: string) => s.replace(/\|/g, '\\|');
  const lines = [
    '| dataset | n | κ | k | mechanism | ξ | metric | A (mean ± se) | B (mean ± se) | B − A | z | status |',
    '| --- | ---: | ---: | ---: | --- | ---: | --- | ---: | ---: | ---: | ---: | --- |',
    ...shown.map(
      (r) =>
        `| ${[
          esc(r.dataset),
          r.n,
          r.kappa ?? '–',
          r.k,
          esc(r.mechanism),
          r.xi ?? '–',
          r.metric,
          ms(r.a_mean, r.a_se),
          ms(r.b_mean, r.b_se),
          r.diff === null ? '–' : formatNumber(r.diff, 3),
          r.z === null ? '–' : r.z.toFixed(2),
          r.status === 'flagged' ? `**flagged**${r.note ? ` (${esc(r.note)})` : ''}` : r.status,
        ].join(' | ')} |`,
    ),
  ];
  const body = shown.length ? lines.join('\n') + '\n\n' : 'No differences: every compared row is identical.\n\n';
  return body + compareSummary(res) + '\n';
}
