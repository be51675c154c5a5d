/**
 * The recommendations' table (`lshdp table recommend`, tables/recommend.*): HR@N, NDCG@N and item
 * recall@N as mean ± se over trials, one row per row of recommend.csv, in its order. Formats as
 * the utility table: json rows are recommend.csv's rows; csv keeps every column of the file at
 * full precision and adds the rounded display columns; md and latex print the display table.
 */
import { createRequire } from 'node:module';
import { RECOMMEND_COLUMNS, type RecommendRow } from './read.js';
import { escapeLatex, escapeMdNote, formatMeanSe, latexTabular, markdownTable, NO_SE, type TableFormat } from './tables.js';
import { CONCENTRATION_COLUMNS } from '../experiment/columns.js';

const require = createRequire(import.meta.url);

/** The rounded display columns `table recommend --format csv` adds after recommend.csv's columns. */
export const RECOMMEND_DISPLAY_COLUMNS = ['hr', 'ndcg', 'item_recall'] as const;

const dash = (x: number | null): string => (x === null ? '–' : String(x));

/** The md/latex cells of one row (the three measures as "mean ± se"). */
function displayCells(r: RecommendRow): string[] {
  return [
    r.dataset,
    String(r.n),
    dash(r.kappa),
    dash(r.k),
    r.mechanism,
    dash(r.xi),
    String(r.top),
    String(r.trials),
    String(r.queries),
    formatMeanSe(r.hr_mean, r.hr_se),
    formatMeanSe(r.ndcg_mean, r.ndcg_se),
    formatMeanSe(r.item_recall_mean, r.item_recall_se),
  ];
}

/** What the md and latex tables say under the rows. */
function recommendNotes(rows: readonly RecommendRow[]): string[] {
  return [
    "HR@N: share of query users with a held-out item in their top N; NDCG@N: discounted gain of the held-out items in the top N over its ideal; item recall@N: share of a user's held-out items in the top N (each averaged over the queries of a trial; docs/RECOMMEND.md).",
    'Rows without ξ: no privacy (vanilla LSH; exact k-NN, κ –) and the popularity baseline pop (no neighbours, k –); ξ = 0: uniformly random bits.',
    ...(rows.some((r) => r.ndcg_se === null) ? [`${NO_SE}: standard error unknown (one trial: the baselines).`] : []),
  ];
}

/** The table of recommend.csv's rows in `format`. */
export function recommendTable(rows: readonly RecommendRow[], format: TableFormat): string {
  if (format === 'json') return JSON.stringify(rows, null, 2) + '\n';
  if (format === 'csv') {
    const papa = require('papaparse') as typeof import('papaparse');
    const columns = [...RECOMMEND_COLUMNS, ...(rows.some((r) => 'concentration' in r) ? CONCENTRATION_COLUMNS : [])];
    const cell = (v: unknown): string | number => (v === null || v === undefined ? '' : (v as string | number));
    const data = rows.map((r) => [...columns.map((c) => cell(r[c])), formatMeanSe(r.hr_mean, r.hr_se), formatMeanSe(r.ndcg_mean, r.ndcg_se), formatMeanSe(r.item_recall_mean, r.item_recall_se)]);
    return papa.unparse({ fields: [...columns, ...RECOMMEND_DISPLAY_COLUMNS], data }, { newline: '\n' }) + '\n';
  }
  const cells = rows.map(displayCells);
  const notes = recommendNotes(rows);
  const text = new Set([0, 4]);
  if (format === 'md') {
    const header = ['dataset', 'n', 'κ', 'k', 'mechanism', 'ξ', 'N', 'trials', 'queries', 'HR@N (mean ± se)', 'NDCG@N (mean ± se)', 'item recall@N (mean ± se)'];
    return (
      markdownTable(
        header,
        cells,
        header.map((_, i) => (text.has(i) ? 'l' : 'r')),
      ) +
      '\n' +
      notes.map(escapeMdNote).join('  \n') +
      '\n'
    );
  }
  const header = ['data set', '$n$', '$\\kappa$', '$k$', 'mechanism', '$\\xi$', '$N$', 'trials', 'queries', 'HR@$N$', 'NDCG@$N$', 'item recall@$N$'];
  const body = cells.map((row) => row.map((c, i) => (text.has(i) ? escapeLatex(c) : c.replace(/±/g, '$\\pm$').replace(/–/g, '--'))));
  const align = header.map((_, i) => (text.has(i) ? 'l' : 'r')).join('');
  return latexTabular(header, body, align, 'recommendations: mean $\\pm$ standard error over trials') + notes.map((n) => `% ${n}`).join('\n') + '\n';
}
