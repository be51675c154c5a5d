/**
 * The linkage attack's table (attack.csv; `lshdp table attack`, tables/attack.{md,tex}): reid@1 and
 * reid@10 as mean ± se over trials beside the chance level 1/N, in the formats of the utility
 * table. `json` rows are attack.csv's rows; `csv` keeps every attack.csv column at full precision
 * and adds the rounded display columns `reid1` and `reid10`.
 */
import Papa from 'papaparse';
import { ATTACK_COLUMNS, type AttackRow } from './read.js';
import { escapeLatex, formatMeanSe, formatNumber, latexTabular, markdownTable, type TableFormat } from './tables.js';

/** The rounded display columns `table attack --format csv` adds after attack.csv's columns. */
export const ATTACK_DISPLAY_COLUMNS = ['reid1', 'reid10'] as const;

const NOTES = [
  "reid@1, reid@10: the chance that the adversary's Hamming ranking of the N released codes puts the target first, or within the first 10 (ties broken uniformly at random), mean ± se over trials (docs/ATTACKS.md).",
  'chance: 1/N at rank 1 (10/N within the first 10); a mechanism without ξ is the no-noise ceiling.',
];

export function attackTable(rows: readonly AttackRow[], format: TableFormat): string {
  if (format === 'json') return JSON.stringify(rows, null, 2) + '\n';
  if (format === 'csv') {
    const cell = (v: unknown): string | number => (v === null || v === undefined ? '' : (v as string | number));
    const data = rows.map((r) => [...ATTACK_COLUMNS.map((c) => cell(r[c])), formatMeanSe(r.reid1_mean, r.reid1_se), formatMeanSe(r.reid10_mean, r.reid10_se)]);
    return Papa.unparse({ fields: [...ATTACK_COLUMNS, ...ATTACK_DISPLAY_COLUMNS], data }, { newline: '\n' }) + '\n';
  }
  const cells = rows.map((r) => [
    r.dataset,
    String(r.n),
    String(r.kappa),
    r.mechanism,
    r.xi === null ? '–' : String(r.xi),
    String(r.known),
    formatMeanSe(r.reid1_mean, r.reid1_se),
    formatMeanSe(r.reid10_mean, r.reid10_se),
    formatNumber(1 / r.users),
    String(r.trials),
    `${r.targets} of ${r.users}`,
  ]);
  if (format === 'md') {
    const header = ['dataset', 'n', 'κ', 'mechanism', 'ξ', 'known', 'reid@1 (mean ± se)', 'reid@10 (mean ± se)', 'chance 1/N', 'trials', 'targets of N'];
    const align = header.map((_, i) => (i === 0 || i === 3 ? 'l' : 'r') as 'l' | 'r');
    return markdownTable(header, cells, align) + '\n' + NOTES.join('  \n') + '\n';
  }
  const header = ['data set', '$n$', '$\\kappa$', 'mechanism', '$\\xi$', 'known', 'reid@1', 'reid@10', 'chance $1/N$', 'trials', 'targets of $N$'];
  const body = cells.map((row) => row.map((c, i) => (i === 0 || i === 3 ? escapeLatex(c) : c.replace(/±/g, '$\\pm$').replace(/–/g, '--'))));
  const align = header.map((_, i) => (i === 0 || i === 3 ? 'l' : 'r')).join('');
  return latexTabular(header, body, align, 'linkage attack: mean $\\pm$ standard error over trials') + NOTES.map((n) => `% ${n}`).join('\n') + '\n';
}
