/**
 * The recommendations' table (`lshdp table recommend`, tables/recommend.*): HR@N, NDCG@N and item
 * recall@N as mean ± se over trials, one row per row of recommend.csv, in its order. Formats as
 * the utility table: json rows are recommend.csv's rows; csv keeps every column of the file at
 * full precision and adds the rounded display columns; md and latex print the display table.
 */
import { createRequire } from 'node:module';
import { RECOMMEND_COLUMNS, type RecommendRow } from './read.js';
import { escapeLatex, escapeMdNote, formatMeanSe, formatNumber, latexTabular, markdownTable, NO_SE, type TableFormat } from './tables.js';
import { uniqueInOrder } from '../util/unique.js';
import { UserError } from '../util/errors.js';
import { CONCENTRATION_COLUMNS } from '../experiment/columns.js';
import { markLabel } from '../mechanisms/releasable.js';
import { latexMark, releaseNotes } from './releasable.js';

const require = createRequire(import.meta.url);

/** The rounded display columns `table recommend --format csv` adds after recommend.csv's columns. */
export const RECOMMEND_DISPLAY_COLUMNS = ['hr', 'ndcg', 'item_recall'] as const;

const dash = (x: number | null): string => (x === null ? '–' : String(x));

/** The md/latex cells of one row (the three measures as "mean ± se"). */
function displayCells(r: RecommendRow, unreleasable: ReadonlySet<string>): string[] {
  return [
    r.dataset,
    String(r.n),
    dash(r.kappa),
    dash(r.k),
    markLabel(r.mechanism, unreleasable),
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
function recommendNotes(rows: readonly RecommendRow[], unreleasable: ReadonlySet<string>): string[] {
  return [
    "HR@N: share of query users with a held-out item in their top N; NDCG@N: discounted gain of the held-out items in the top N over its ideal; item recall@N: share of a user's held-out items in the top N (each averaged over the queries of a trial; docs/RECOMMEND.md).",
    'Rows without ξ: no privacy (vanilla LSH; exact k-NN, κ –) and the popularity baseline pop (no neighbours, k –); ξ = 0: uniformly random bits.',
    ...(rows.some((r) => r.ndcg_se === null) ? [`${NO_SE}: standard error unknown (one trial: the baselines).`] : []),
    ...releaseNotes(
      rows.map((r) => r.mechanism),
      unreleasable,
    ),
  ];
}

/** The table of recommend.csv's rows in `format`. */
export function recommendTable(rows: readonly RecommendRow[], format: TableFormat, unreleasable: ReadonlySet<string> = new Set()): string {
  if (format === 'json') return JSON.stringify(rows, null, 2) + '\n';
  if (format === 'csv') {
    const papa = require('papaparse') as typeof import('papaparse');
    const columns = [...RECOMMEND_COLUMNS, ...(rows.some((r) => 'concentration' in r) ? CONCENTRATION_COLUMNS : [])];
    const cell = (v: unknown): string | number => (v === null || v === undefined ? '' : (v as string | number));
    const data = rows.map((r) => [...columns.map((c) => cell(r[c])), formatMeanSe(r.hr_mean, r.hr_se), formatMeanSe(r.ndcg_mean, r.ndcg_se), formatMeanSe(r.item_recall_mean, r.item_recall_se)]);
    return papa.unparse({ fields: [...columns, ...RECOMMEND_DISPLAY_COLUMNS], data }, { newline: '\n' }) + '\n';
  }
  const cells = rows.map((r) => displayCells(r, unreleasable));
  const notes = recommendNotes(rows, unreleasable);
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
  const body = cells.map((row) => row.map((c, i) => (text.has(i) ? latexMark(escapeLatex(c)) : c.replace(/±/g, '$\\pm$').replace(/–/g, '--'))));
  const align = header.map((_, i) => (text.has(i) ? 'l' : 'r')).join('');
  return latexTabular(header, body, align, 'recommendations: mean $\\pm$ standard error over trials') + notes.map((n) => `% ${n}`).join('\n') + '\n';
}

/**
 * The compact NDCG table (`table recommend --wide`, the README's layout): one row per (data set,
 * n, κ), one column per mechanism label, its ξ side by side ("0.105 / 0.181 / 0.290" for ξ =
 * 1 / 5 / 20); the rows without κ (exact, pop) in every κ row. Needs one k and one N (the
 * caller filters). Markdown, means to 3 decimals, the largest standard error said under it.
 */
export function recommendWideTable(rows: readonly RecommendRow[], unreleasable: ReadonlySet<string> = new Set()): string {
  const ks = uniqueInOrder(rows.flatMap((r) => (r.k === null ? [] : [r.k])));
  const tops = uniqueInOrder(rows.map((r) => r.top));
  if (ks.length > 1 || tops.length > 1) throw new UserError(`--wide: needs one k and one N (has k ${ks.join(', ')} and N ${tops.join(', ')}); choose them with --k and --top`);
  const labels = uniqueInOrder(rows.map((r) => r.mechanism));
  const xisOf = (m: string) => uniqueInOrder(rows.flatMap((r) => (r.mechanism === m && r.xi !== null ? [r.xi] : []))).sort((a, b) => a - b);
  const header = ['data set', 'n', 'κ', ...labels.map((m) => (xisOf(m).length ? `${markLabel(m, unreleasable)} ξ=${xisOf(m).join(' / ')}` : markLabel(m, unreleasable)))];
  const body: string[][] = [];
  for (const ds of uniqueInOrder(rows.map((r) => r.dataset)))
    for (const n of uniqueInOrder(rows.filter((r) => r.dataset === ds).map((r) => r.n))) {
      const here = rows.filter((r) => r.dataset === ds && r.n === n);
      const kappas = uniqueInOrder(here.flatMap((r) => (r.kappa === null ? [] : [r.kappa]))).sort((a, b) => a - b);
      for (const kappa of kappas.length ? kappas : [null]) {
        const at = (m: string, xi: number | null) => here.find((r) => r.mechanism === m && r.xi === xi && (r.kappa === null || r.kappa === kappa));
        const cell = (m: string) => (xisOf(m).length ? xisOf(m) : [null]).map((xi) => at(m, xi)?.ndcg_mean.toFixed(3) ?? '–').join(' / ');
        body.push([ds, String(n), kappa === null ? '–' : String(kappa), ...labels.map(cell)]);
      }
    }
  const se = Math.max(0, ...rows.flatMap((r) => (r.ndcg_se === null ? [] : [r.ndcg_se])));
  const note = `NDCG@${tops[0] ?? '?'} (mean over trials${ks.length ? `; k = ${ks[0]}` : ''}; standard errors ≤ ${formatNumber(se, 2)}; exact and pop: one trial each).`;
  return (
    markdownTable(
      header,
      body,
      header.map((_, i) => (i === 0 ? 'l' : 'r')),
    ) +
    '\n' +
    [note, ...releaseNotes(labels, unreleasable)].map(escapeMdNote).join('  \n') +
    '\n'
  );
}
