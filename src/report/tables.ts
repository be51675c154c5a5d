/**
 * Tables of a run: utility loss (mean ± standard error), and the formatting every table shares
 * (numbers, escapes, markdown and LaTeX layouts; the budget tables are budgetTables.ts). Formats:
 * markdown, CSV, LaTeX, JSON.
 */
import { createRequire } from 'node:module';
import type { UtilityRow } from './read.js';
import { UTILITY_COLUMNS } from '../experiment/columns.js';
import { ACCOUNTANT_ROWS_MECHANISM, BUILT_IN_FACTS } from '../mechanisms/catalog.js';
import { markLabel } from '../mechanisms/releasable.js';
import { latexMark, releaseNotes } from './releasable.js';

// papaparse writes the CSV tables only: loaded on first use, so `table budgets` in markdown does not pay for it
const require = createRequire(import.meta.url);
let papaModule: typeof import('papaparse') | undefined;
const papa = (): typeof import('papaparse') => (papaModule ??= require('papaparse') as typeof import('papaparse'));

export type TableFormat = 'md' | 'csv' | 'latex' | 'json';

/** What tables print for a standard error that is unknown (one trial: utility.csv leaves it empty). */
export const NO_SE = 'n/a';

/**
 * `mean ± se` with the standard error to 2 significant digits and the mean to the same decimal
 * place (the usual reporting rule); `mean ± 0` (the mean to 4 significant digits) when se is 0
 * (or floating-point noise, below 1e-12 of the mean), and `mean ± n/a` when se is unknown
 * (null: one trial), so every cell of a column has the same form and a missing se never reads
 * as zero.
 */
export function formatMeanSe(mean: number, se: number | null): string {
  if (se === null || Number.isNaN(se)) return `${formatNumber(mean, 4)} ± ${NO_SE}`;
  if (!Number.isFinite(se)) return `${formatNumber(mean, 4)} ± ∞`;
  // an se at the level of floating-point rounding (trials that agree exactly) is an se of 0
  if (!(se > 1e-12 * Math.max(1, Math.abs(mean)))) return `${formatNumber(mean, 4)} ± 0`;
  const decimals = Math.max(0, Math.min(12, 1 - Math.floor(Math.log10(se))));
  return `${mean.toFixed(decimals)} ± ${se.toFixed(decimals)}`;
}

/** Up to `sig` significant digits, no exponent for ordinary magnitudes, no trailing zeros. */
export function formatNumber(x: number, sig = 4): string {
  if (x === 0 || !Number.isFinite(x)) return String(x);
  return String(Number(x.toPrecision(sig)));
}

function escapeMd(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

export function escapeLatex(s: string): string {
  return s.replace(/[\\{}$&#_%~^]/g, (c) => {
    switch (c) {
      case '\\':
        return '\\textbackslash{}';
      case '~':
        return '\\textasciitilde{}';
      case '^':
        return '\\textasciicircum{}';
      default:
        return `\\${c}`;
    }
  });
}

export function markdownTable(header: string[], rows: string[][], align?: ('l' | 'r')[]): string {
  const sep = header.map((_, i) => ((align?.[i] ?? 'l') === 'r' ? '---:' : '---'));
  const line = (cells: string[]) => `| ${cells.map(escapeMd).join(' | ')} |`;
  return [line(header), `| ${sep.join(' | ')} |`, ...rows.map(line)].join('\n') + '\n';
}

export function latexTabular(header: string[], rows: string[][], align: string, caption?: string): string {
  // header cells may hold LaTeX math on purpose; data cells are escaped by the callers
  const out = ['\\begin{tabular}{' + align + '}', '\\hline', header.join(' & ') + ' \\\\', '\\hline'];
  for (const r of rows) out.push(r.join(' & ') + ' \\\\');
  out.push('\\hline', '\\end{tabular}');
  if (caption) out.unshift(`% ${caption}`);
  return out.join('\n') + '\n';
}

// ---------------------------------------------------------------- utility table

const dash = (x: number | null, f: (v: number) => string = (v) => formatNumber(v)): string => (x === null ? '–' : f(x));

/** The display columns of the utility table: which ε columns appear depends on the rows. */
function utilityDisplay(rows: UtilityRow[], unreleasable: ReadonlySet<string>) {
  const hasBit = rows.some((r) => r.epsilon_bit !== null);
  const hasLap = rows.some((r) => r.epsilon_lap !== null);
  const cells = rows.map((r) => [
    r.dataset,
    String(r.n),
    dash(r.kappa, String),
    String(r.k),
    markLabel(r.mechanism, unreleasable) + (r.fallback ? ' *' : ''),
    dash(r.xi, String),
    dash(r.epsilon_ldp),
    ...(hasBit ? [dash(r.epsilon_bit)] : []),
    ...(hasLap ? [dash(r.epsilon_lap)] : []),
    String(r.trials),
    formatMeanSe(r.utility_loss_mean, r.utility_loss_se),
    r.recall_mean === null ? '–' : formatMeanSe(r.recall_mean, r.recall_se),
  ]);
  return { hasBit, hasLap, cells };
}

/** The notes under the md/tex utility table: what each ε is, n/a, the fallback mark. */
function utilityNotes(rows: UtilityRow[], hasBit: boolean, hasLap: boolean, unreleasable: ReadonlySet<string>): string[] {
  // each unit's own wording (Mechanism.ldpNote): LSHRR's and LapLSH's when their ε column is shown
  // (a plugin's rows fill ε_bit in LSHRR's sense), the others' when one of their rows is
  const ofRows = (name: string) => rows.some((r) => r.base === name);
  const shown = BUILT_IN_FACTS.filter((f) => (f.name === ACCOUNTANT_ROWS_MECHANISM ? hasBit : f.epsilonKind === 'lap' ? hasLap : ofRows(f.name)));
  const how = [...new Set(shown.flatMap((f) => (f.ldpNote ? [f.ldpNote] : [])))];
  const notes = [`ε_LDP: the LDP-equivalent budget, comparable across mechanisms${how.length ? ` (${how.join(', ')})` : ''}.`];
  // the other units whose own ε fills ε_bit (private MinHash's ε′ per position)
  const perPosition = BUILT_IN_FACTS.filter((f) => f.epsilonKind === 'bit' && f.name !== ACCOUNTANT_ROWS_MECHANISM && ofRows(f.name)).map((f) => f.name);
  if (hasBit) notes.push(`ε_bit: LSHRR's per-bit randomized-response ε${perPosition.length ? `; ε′ per position for ${perPosition.join(', ')}` : ''}.`);
  if (hasLap) notes.push("ε_Lap: LapLSH's Laplace ε.");
  if (rows.some((r) => r.utility_loss_se === null)) notes.push(`${NO_SE}: standard error unknown (one trial).`);
  if (rows.some((r) => r.fallback)) notes.push('* fallback: no α exists (d^κ ≥ δ), ξ = κε (pure LDP bound).');
  notes.push(
    ...releaseNotes(
      rows.map((r) => r.mechanism),
      unreleasable,
    ),
  );
  return notes;
}

/**
 * The utility table of a run (mean ± se over trials). `json` and `csv` use utility.csv's column
 * names: json rows are utility.csv's rows; csv keeps every utility.csv column at full precision
 * and adds the rounded display columns `utility_loss` and `recall` ("mean ± se"). `md` and
 * `latex` print the display table, with the comparable ε_LDP and the mechanism's own ε named
 * by what it is; a mechanism among `unreleasable` (labels) is marked, the mark's note under them.
 */
export function utilityTable(rows: UtilityRow[], format: TableFormat, unreleasable: ReadonlySet<string> = new Set()): string {
  if (format === 'json') return JSON.stringify(rows, null, 2) + '\n';
  if (format === 'csv') {
    const cell = (v: unknown): string | number | boolean => (v === null ? '' : (v as string | number | boolean));
    return (
      papa().unparse(
        {
          fields: [...UTILITY_COLUMNS, ...UTILITY_DISPLAY_COLUMNS],
          data: rows.map((r) => [
            ...UTILITY_COLUMNS.map((c) => cell(r[c])),
            formatMeanSe(r.utility_loss_mean, r.utility_loss_se),
            r.recall_mean === null ? '' : formatMeanSe(r.recall_mean, r.recall_se),
          ]),
        },
        { newline: '\n' },
      ) + '\n'
    );
  }
  const { hasBit, hasLap, cells } = utilityDisplay(rows, unreleasable);
  const notes = utilityNotes(rows, hasBit, hasLap, unreleasable);
  if (format === 'md') {
    const header = ['dataset', 'n', 'κ', 'k', 'mechanism', 'ξ', 'ε_LDP', ...(hasBit ? ['ε_bit'] : []), ...(hasLap ? ['ε_Lap'] : []), 'trials', 'utility loss (mean ± se)', 'recall (mean ± se)'];
    const align = header.map((_, i) => (i === 0 || i === 4 ? 'l' : 'r') as 'l' | 'r');
    return markdownTable(header, cells, align) + '\n' + notes.map((n) => escapeMdNote(n)).join('  \n') + '\n';
  }
  const header = [
    'data set',
    '$n$',
    '$\\kappa$',
    '$k$',
    'mechanism',
    '$\\xi$',
    '$\\varepsilon_{\\mathrm{LDP}}$',
    ...(hasBit ? ['$\\varepsilon_{\\mathrm{bit}}$'] : []),
    ...(hasLap ? ['$\\varepsilon_{\\mathrm{Lap}}$'] : []),
    'trials',
    'utility loss',
    'recall',
  ];
  const body = cells.map((row) => row.map((c, i) => (i === 0 || i === 4 ? latexMark(escapeLatex(c)) : c.replace(/±/g, '$\\pm$').replace(/–/g, '--'))));
  const align = header.map((_, i) => (i === 0 || i === 4 ? 'l' : 'r')).join('');
  return latexTabular(header, body, align, 'utility loss: mean $\\pm$ standard error over trials') + notes.map((n) => `% ${n}`).join('\n') + '\n';
}

/** The rounded display columns `table utility --format csv` adds after utility.csv's columns. */
export const UTILITY_DISPLAY_COLUMNS = ['utility_loss', 'recall'] as const;

/** A note line of a markdown table: `*` would start emphasis. */
export function escapeMdNote(s: string): string {
  return s.replace(/\*/g, '\\*');
}
