/**
 * The linkage attack's table (attack.csv; `lshdp table attack`, tables/attack.{md,tex}): reid@1 and
 * reid@10 as mean ± se over trials beside the chance level 1/N, in the formats of the utility
 * table. `json` rows are attack.csv's rows; `csv` keeps every attack.csv column at full precision
 * and adds the rounded display columns `reid1` and `reid10`.
 */
import Papa from 'papaparse';
import { ATTACK_COLUMNS, type AttackRow } from './read.js';
import { escapeLatex, escapeMdNote, formatMeanSe, formatNumber, latexTabular, markdownTable, type TableFormat } from './tables.js';
import { uniqueInOrder } from '../util/unique.js';
import { markLabel } from '../mechanisms/releasable.js';
import { latexMark, releaseNotes } from './releasable.js';
import { UserError } from '../util/errors.js';

/** The rounded display columns `table attack --format csv` adds after attack.csv's columns. */
export const ATTACK_DISPLAY_COLUMNS = ['reid1', 'reid10'] as const;

const NOTES = [
  "reid@1, reid@10: the chance that the adversary's Hamming ranking of the N released codes puts the target first, or within the first 10 (ties broken uniformly at random), mean ± se over trials (docs/ATTACKS.md).",
  'chance: 1/N at rank 1 (10/N within the first 10); a mechanism without ξ is the no-noise ceiling.',
];

/** A share as the md and latex tables print it: as it is, or in percent (`percent`: 0.203 → 20.3). */
const share = (x: number, percent: boolean): string => (percent ? formatNumber(100 * x, 3) : formatNumber(x));
/** mean ± se of a share, in percent points with `percent` (the README's attack table). */
const shareMeanSe = (mean: number, se: number | null, percent: boolean): string => (percent ? formatMeanSe(100 * mean, se === null ? null : 100 * se) : formatMeanSe(mean, se));

/** `percent` (md and latex): reid@1, reid@10 and the chance level in %, as the README prints them. */
export function attackTable(rows: readonly AttackRow[], format: TableFormat, percent = false, unreleasable: ReadonlySet<string> = new Set()): string {
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
    markLabel(r.mechanism, unreleasable),
    r.xi === null ? '–' : String(r.xi),
    String(r.known),
    shareMeanSe(r.reid1_mean, r.reid1_se, percent),
    shareMeanSe(r.reid10_mean, r.reid10_se, percent),
    share(1 / r.users, percent),
    String(r.trials),
    `${r.targets} of ${r.users}`,
  ]);
  const notes = [
    ...NOTES,
    ...releaseNotes(
      rows.map((r) => r.mechanism),
      unreleasable,
    ),
  ];
  if (format === 'md') {
    const pc = percent ? ' %' : '';
    const header = ['dataset', 'n', 'κ', 'mechanism', 'ξ', 'known', `reid@1${pc} (mean ± se)`, `reid@10${pc} (mean ± se)`, `chance 1/N${pc}`, 'trials', 'targets of N'];
    const align = header.map((_, i) => (i === 0 || i === 3 ? 'l' : 'r') as 'l' | 'r');
    return markdownTable(header, cells, align) + '\n' + notes.join('  \n') + '\n';
  }
  const pc = percent ? ' (\\%)' : '';
  const header = ['data set', '$n$', '$\\kappa$', 'mechanism', '$\\xi$', 'known', `reid@1${pc}`, `reid@10${pc}`, `chance $1/N$${pc}`, 'trials', 'targets of $N$'];
  const body = cells.map((row) => row.map((c, i) => (i === 0 || i === 3 ? latexMark(escapeLatex(c)) : c.replace(/±/g, '$\\pm$').replace(/–/g, '--'))));
  const align = header.map((_, i) => (i === 0 || i === 3 ? 'l' : 'r')).join('');
  return latexTabular(header, body, align, 'linkage attack: mean $\\pm$ standard error over trials') + notes.map((n) => `% ${n}`).join('\n') + '\n';
}

/**
 * The compact reid@1 table (`table attack --wide`, the shape of the README's attack table, as
 * `table recommend --wide`): one row per (data set, n, κ) with its chance level 1/N, one column per
 * mechanism label, its ξ side by side ("0.002 / 0.016 / 0.152" for ξ = 1 / 5 / 20); in % with
 * `percent` (one decimal). Needs one known share (the caller filters). Markdown, the largest
 * standard error said under it.
 */
export function attackWideTable(rows: readonly AttackRow[], percent = false, unreleasable: ReadonlySet<string> = new Set()): string {
  const known = uniqueInOrder(rows.map((r) => r.known));
  if (known.length > 1) throw new UserError(`--wide: needs one known share (has known ${known.join(', ')}); choose it with --known`);
  const value = (x: number) => (percent ? (100 * x).toFixed(1) : x.toFixed(3));
  const labels = uniqueInOrder(rows.map((r) => r.mechanism));
  const xisOf = (m: string) => uniqueInOrder(rows.flatMap((r) => (r.mechanism === m && r.xi !== null ? [r.xi] : []))).sort((a, b) => a - b);
  const header = [
    'data set',
    'n',
    'κ',
    `chance 1/N${percent ? ' %' : ''}`,
    ...labels.map((m) => (xisOf(m).length ? `${markLabel(m, unreleasable)} ξ=${xisOf(m).join(' / ')}` : markLabel(m, unreleasable))),
  ];
  const body: string[][] = [];
  for (const ds of uniqueInOrder(rows.map((r) => r.dataset)))
    for (const n of uniqueInOrder(rows.filter((r) => r.dataset === ds).map((r) => r.n)))
      for (const kappa of uniqueInOrder(rows.filter((r) => r.dataset === ds && r.n === n).map((r) => r.kappa)).sort((a, b) => a - b)) {
        const here = rows.filter((r) => r.dataset === ds && r.n === n && r.kappa === kappa);
        const chance = uniqueInOrder(here.map((r) => share(1 / r.users, percent))).join(' / ');
        const cell = (m: string) =>
          (xisOf(m).length ? xisOf(m) : [null])
            .map((xi) => here.find((r) => r.mechanism === m && r.xi === xi)?.reid1_mean ?? null)
            .map((x) => (x === null ? '–' : value(x)))
            .join(' / ');
        body.push([ds, String(n), String(kappa), chance, ...labels.map(cell)]);
      }
  const se = Math.max(0, ...rows.flatMap((r) => (r.reid1_se === null ? [] : [percent ? 100 * r.reid1_se : r.reid1_se])));
  const note = `reid@1${percent ? ' in %' : ''} (mean over trials${known.length ? `; known = ${known[0]}` : ''}; standard errors ≤ ${formatNumber(se, 2)}); a mechanism without ξ is the no-noise ceiling.`;
  const align = header.map((_, i) => (i === 0 ? 'l' : 'r') as 'l' | 'r');
  return markdownTable(header, body, align) + '\n' + [note, ...releaseNotes(labels, unreleasable)].map(escapeMdNote).join('  \n') + '\n';
}
