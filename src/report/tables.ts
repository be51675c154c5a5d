/**
 * Tables of a run: utility loss (mean ± standard error) and the privacy-budget table of the
 * paper's appendix (LDP budget κ·ε against ξ). Formats: markdown, CSV, LaTeX, JSON.
 */
import Papa from 'papaparse';
import type { UtilityRow, BudgetRowLike } from './read.js';
import { uniqueInOrder } from './read.js';

export type TableFormat = 'md' | 'csv' | 'latex' | 'json';

export const MECHANISM_LABELS: Record<string, string> = {
  exact: 'Exact',
  lsh: 'LSH',
  lshrr: 'LSHRR',
  laplsh: 'LapLSH',
  rappor: 'RAPPOR',
  'rappor-vector': 'RAPPOR (vector)',
};

export function mechanismLabel(m: string): string {
  return MECHANISM_LABELS[m] ?? m;
}

/**
 * `mean ± se` with the standard error to 2 significant digits and the mean to the same decimal
 * place (the usual reporting rule); the mean alone (4 significant digits) when se is 0 or absent.
 */
export function formatMeanSe(mean: number, se: number | null): string {
  if (se === null || !(se > 0) || !Number.isFinite(se)) return formatNumber(mean, 4);
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

function markdownTable(header: string[], rows: string[][], align?: ('l' | 'r')[]): string {
  const sep = header.map((_, i) => ((align?.[i] ?? 'l') === 'r' ? '---:' : '---'));
  const line = (cells: string[]) => `| ${cells.map(escapeMd).join(' | ')} |`;
  return [line(header), `| ${sep.join(' | ')} |`, ...rows.map(line)].join('\n') + '\n';
}

function latexTabular(header: string[], rows: string[][], align: string, caption?: string): string {
  // header cells may hold LaTeX math on purpose; data cells are escaped by the callers
  const out = ['\\begin{tabular}{' + align + '}', '\\hline', header.join(' & ') + ' \\\\', '\\hline'];
  for (const r of rows) out.push(r.join(' & ') + ' \\\\');
  out.push('\\hline', '\\end{tabular}');
  if (caption) out.unshift(`% ${caption}`);
  return out.join('\n') + '\n';
}

const opt = (x: number | null): string => (x === null ? '' : String(x));

// ---------------------------------------------------------------- utility table

/** utility.md / utility.tex / utility.csv of a run (mean ± se over trials). */
export function utilityTable(rows: UtilityRow[], format: TableFormat): string {
  if (format === 'json') return JSON.stringify(rows, null, 2) + '\n';
  if (format === 'csv') {
    // full precision for re-analysis, plus the rounded display column
    return Papa.unparse({
      fields: ['dataset', 'n', 'kappa', 'k', 'mechanism', 'xi', 'epsilon', 'trials', 'queries',
        'utility_loss_mean', 'utility_loss_se', 'recall_mean', 'recall_se', 'utility_loss'],
      data: rows.map((r) => [r.dataset, r.n, opt(r.kappa), r.k, r.mechanism, opt(r.xi), opt(r.epsilon), r.trials,
        r.queries, r.lossMean, opt(r.lossSe), opt(r.recallMean), opt(r.recallSe), formatMeanSe(r.lossMean, r.lossSe)]),
    }, { newline: '\n' }) + '\n';
  }
  const display = rows.map((r) => [
    r.dataset,
    String(r.n),
    r.kappa === null ? '–' : String(r.kappa),
    String(r.k),
    mechanismLabel(r.mechanism) + (r.fallback ? ' *' : ''),
    r.xi === null ? '–' : String(r.xi),
    r.epsilon === null ? '–' : formatNumber(r.epsilon),
    String(r.trials),
    formatMeanSe(r.lossMean, r.lossSe),
    r.recallMean === null ? '–' : formatMeanSe(r.recallMean, r.recallSe),
  ]);
  const anyFallback = rows.some((r) => r.fallback);
  const note = anyFallback ? '\n\\* fallback: no α exists (d^κ ≥ δ), ξ = κε (pure LDP bound).\n' : '';
  if (format === 'md') {
    const header = ['dataset', 'n', 'κ', 'k', 'mechanism', 'ξ', 'ε', 'trials', 'utility loss (mean ± se)', 'recall (mean ± se)'];
    return markdownTable(header, display, ['l', 'r', 'r', 'r', 'l', 'r', 'r', 'r', 'r', 'r']) + note;
  }
  const header = ['data set', '$n$', '$\\kappa$', '$k$', 'mechanism', '$\\xi$', '$\\varepsilon$', 'trials',
    'utility loss', 'recall'];
  const body = display.map((cells) => cells.map((c, i) => (i === 0 || i === 4 ? escapeLatex(c) : c.replace(/±/g, '$\\pm$').replace(/–/g, '--'))));
  return latexTabular(header, body, 'lrrrlrrrrr', 'utility loss: mean $\\pm$ standard error over trials') +
    (anyFallback ? '% * fallback: no alpha exists (d^kappa >= delta), xi = kappa*eps\n' : '');
}

// ---------------------------------------------------------------- budget table

/**
 * The appendix table. `paper` layout: for each d, rows ξ and one cell per ξ holding the rounded
 * LDP budgets "a/b/c" for κ = κ1/κ2/κ3 (the paper's table); `long` layout: one row per
 * (d, κ, ξ) with α, ε and the exact κε. Markdown and LaTeX print both; CSV and JSON the long one.
 */
export function budgetsTable(rows: BudgetRowLike[], format: TableFormat): string {
  if (format === 'json') return JSON.stringify(rows, null, 2) + '\n';
  if (format === 'csv') {
    return Papa.unparse({
      fields: ['d', 'delta', 'kappa', 'xi', 'alpha', 'epsilon', 'ldp_budget', 'ldp_budget_rounded', 'fallback'],
      data: rows.map((r) => [r.d, r.delta, r.kappa, r.xi, opt(r.alpha), r.epsilon, r.ldpBudget, Math.round(r.ldpBudget), r.fallback]),
    }, { newline: '\n' }) + '\n';
  }
  const ds = uniqueInOrder(rows.map((r) => r.d));
  const sections: string[] = [];
  const anyFallback = rows.some((r) => r.fallback);
  for (const d of ds) {
    const sub = rows.filter((r) => r.d === d);
    const kappas = uniqueInOrder(sub.map((r) => r.kappa));
    const xis = uniqueInOrder(sub.map((r) => r.xi));
    const deltas = uniqueInOrder(sub.map((r) => r.delta));
    const cell = (xi: number) =>
      kappas
        .map((k) => {
          const r = sub.find((x) => x.kappa === k && x.xi === xi);
          return r ? `${Math.round(r.ldpBudget)}${r.fallback ? '*' : ''}` : '?';
        })
        .join('/');
    const title = `d_θ = ${d}, δ = ${deltas.join(', ')}`;
    if (format === 'md') {
      sections.push(`**${title}**: total LDP budget κε for κ = ${kappas.join('/')} (rounded)\n\n` +
        markdownTable(['ξ (extended DP)', ...xis.map(String)], [[`κε (κ=${kappas.join('/')})`, ...xis.map(cell)]],
          ['l', ...xis.map(() => 'r' as const)]));
    } else {
      sections.push(`% ${title.replace('θ', '_theta').replace('δ', 'delta')}\n` + latexTabular(
        ['Total privacy budget $\\xi$ in XDP', ...xis.map(String)],
        [[`Total privacy budget in LDP ($\\kappa=${kappas.join('/')}$)`, ...xis.map(cell)]],
        'c||' + xis.map(() => 'c').join('|'),
      ));
    }
  }
  const long = rows.map((r) => [
    String(r.d), String(r.delta), String(r.kappa), String(r.xi),
    r.alpha === null ? '–' : r.alpha.toFixed(6), r.epsilon.toFixed(6), r.ldpBudget.toFixed(4),
    String(Math.round(r.ldpBudget)), r.fallback ? 'yes' : 'no',
  ]);
  if (format === 'md') {
    sections.push('Exact values (LSHRR, Proposition "tighter bound": κ·KL(d+α‖d) = ln(1/δ), ε = ξ / (κ(d+α))):\n\n' +
      markdownTable(['d_θ', 'δ', 'κ', 'ξ', 'α', 'ε', 'κε', 'κε rounded', 'fallback'], long,
        ['r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'l']));
    if (anyFallback) sections.push('\\* fallback: no α exists (d^κ ≥ δ), so ξ = κε (pure LDP bound).\n');
    return sections.join('\n');
  }
  sections.push(latexTabular(['$d_\\theta$', '$\\delta$', '$\\kappa$', '$\\xi$', '$\\alpha$', '$\\varepsilon$', '$\\kappa\\varepsilon$', 'rounded', 'fallback'],
    long.map((r) => r.map((c) => c.replace(/–/g, '--'))), 'rrrrrrrrl'));
  return sections.join('\n');
}
