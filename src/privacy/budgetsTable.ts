/**
 * Text renderings of budgets rows (`lshdp table budgets`, a run's budgets tables): JSON and CSV
 * carry the rows as they are (snake_case keys, the budgets.csv columns); Markdown and LaTeX print,
 * per accountant and d, the paper's appendix layout (one cell per ξ holding the rounded LDP
 * budgets κε for every κ, "a/b/c") and then the exact values one row per (κ, ξ).
 */
import Papa from 'papaparse';
import { BUDGET_RECORD_COLUMNS, type BudgetRecord } from './budget.js';

export type BudgetsFormat = 'md' | 'csv' | 'latex' | 'json';

function unique<T>(xs: readonly T[]): T[] {
  return [...new Set(xs)];
}

function escapeMd(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

function markdownTable(header: string[], rows: string[][], align: ('l' | 'r')[]): string {
  const line = (cells: string[]) => `| ${cells.map(escapeMd).join(' | ')} |`;
  const sep = `| ${header.map((_, i) => (align[i] === 'r' ? '---:' : '---')).join(' | ')} |`;
  return [line(header), sep, ...rows.map(line)].join('\n') + '\n';
}

function latexTabular(header: string[], rows: string[][], align: string): string {
  return ['\\begin{tabular}{' + align + '}', '\\hline', header.join(' & ') + ' \\\\', '\\hline',
    ...rows.map((r) => r.join(' & ') + ' \\\\'), '\\hline', '\\end{tabular}'].join('\n') + '\n';
}

/** The compact appendix cell of one row: rounded κε, `*` when the pure LDP bound was used, ∞ when unbounded. */
function compactCell(r: BudgetRecord | undefined): string {
  if (!r) return '?';
  if (r.unbounded || r.epsilon_ldp === null) return '∞';
  return `${Math.round(r.epsilon_ldp)}${r.fallback ? '*' : ''}`;
}

const fixed = (x: number | null, digits: number, none: string) => (x === null ? none : x.toFixed(digits));

/** Renders budgets rows; the default grid with the paper accountant alone prints the paper's table. */
export function formatBudgets(rows: readonly BudgetRecord[], format: BudgetsFormat): string {
  if (format === 'json') return JSON.stringify(rows, null, 2) + '\n';
  if (format === 'csv') {
    return Papa.unparse({
      fields: [...BUDGET_RECORD_COLUMNS],
      data: rows.map((r) => BUDGET_RECORD_COLUMNS.map((c) => (r[c] === null ? '' : r[c]))),
    }, { newline: '\n' }) + '\n';
  }
  const md = format === 'md';
  const accountants = unique(rows.map((r) => r.accountant));
  const named = accountants.length > 1 || accountants.some((a) => a !== 'paper');
  const sections: string[] = [];
  for (const acc of accountants) {
    for (const d of unique(rows.filter((r) => r.accountant === acc).map((r) => r.d))) {
      const sub = rows.filter((r) => r.accountant === acc && r.d === d);
      const kappas = unique(sub.map((r) => r.kappa));
      const xis = unique(sub.map((r) => r.xi));
      const deltas = unique(sub.map((r) => r.delta));
      const cell = (xi: number) => kappas.map((k) => compactCell(sub.find((x) => x.kappa === k && x.xi === xi))).join('/');
      const title = `${named ? `${acc} accountant, ` : ''}d_θ = ${d}, δ = ${deltas.join(', ')}`;
      if (md) {
        sections.push(`**${title}**: total LDP budget κε for κ = ${kappas.join('/')} (rounded)\n\n` +
          markdownTable(['ξ (extended DP)', ...xis.map(String)], [[`κε (κ=${kappas.join('/')})`, ...xis.map(cell)]],
            ['l', ...xis.map(() => 'r' as const)]));
      } else {
        sections.push(`% ${title.replace('θ', '_theta').replace('δ', 'delta')}\n` + latexTabular(
          ['Total privacy budget $\\xi$ in XDP', ...xis.map(String)],
          [[`Total privacy budget in LDP ($\\kappa=${kappas.join('/')}$)`, ...xis.map((x) => cell(x).replace(/∞/g, '$\\infty$'))]],
          'c||' + xis.map(() => 'c').join('|'),
        ));
      }
    }
  }
  const none = md ? '–' : '--';
  const long = rows.map((r) => [
    r.accountant, String(r.d), String(r.delta), String(r.kappa), String(r.xi),
    fixed(r.alpha, 6, none),
    r.unbounded ? 'unbounded' : fixed(r.epsilon_bit, 6, none),
    r.flip.toFixed(6),
    r.unbounded ? 'unbounded' : fixed(r.epsilon_ldp, 4, none),
    r.fallback ? 'yes' : 'no',
    r.delta_hockey === null ? none : r.delta_hockey.toExponential(3),
  ]);
  const anyFallback = rows.some((r) => r.fallback);
  const anyUnbounded = rows.some((r) => r.unbounded);
  if (md) {
    sections.push('Exact values (LSHRR; per-bit ε, flip probability 1/(1+e^ε), LDP budget κε; δ_hockey: approximate-XDP δ of the exact accountant):\n\n' +
      markdownTable(['accountant', 'd_θ', 'δ', 'κ', 'ξ', 'α', 'ε (per bit)', 'flip', 'κε', 'fallback', 'δ_hockey'], long,
        ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'l', 'r']));
    if (anyFallback) sections.push('\\* fallback: the pure LDP bound ξ = κε gives at least the accountant\'s ε (paper: no α exists, d^κ ≥ δ).\n');
    if (anyUnbounded) sections.push('∞ unbounded: (1 − d)^κ ≥ 1 − δ, every ε meets the claim; a run flips no bit.\n');
    return sections.join('\n');
  }
  sections.push(latexTabular(['accountant', '$d_\\theta$', '$\\delta$', '$\\kappa$', '$\\xi$', '$\\alpha$', '$\\varepsilon$', 'flip', '$\\kappa\\varepsilon$', 'fallback', '$\\delta_{\\mathrm{hs}}$'],
    long, 'lrrrrrrrrlr'));
  return sections.join('\n');
}
