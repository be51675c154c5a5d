/**
 * The privacy-budget tables of a run and of `lshdp table budgets`: the paper's appendix table (LDP
 * budget κ·ε against ξ, per accountant and d) and the long table of LSHRR's rows, then the
 * directional mechanisms' and those with a parameter of their own. Formats: markdown, CSV, LaTeX,
 * JSON (budgets.csv's column names).
 */
import { createRequire } from 'node:module';
import type { BudgetRecord, DirectionalBudgetRecord } from './read.js';
import { BUDGET_RECORD_COLUMNS as BUDGET_COLUMNS, DIRECTIONAL_BUDGET_COLUMNS } from '../privacy/budget.js';
import { uniqueInOrder } from '../util/unique.js';
import { ACCOUNTANT_ROWS_MECHANISM } from '../mechanisms/catalog.js';
import { OWN_BUDGET_COLUMNS, type OwnBudgetRecord } from '../mechanisms/ownBudget.js';
import { escapeLatex, escapeMdNote, formatNumber, latexTabular, markdownTable, type TableFormat } from './tables.js';

// papaparse writes the CSV tables only: loaded on first use, so `table budgets` in markdown does not pay for it
const require = createRequire(import.meta.url);
let papaModule: typeof import('papaparse') | undefined;
const papa = (): typeof import('papaparse') => (papaModule ??= require('papaparse') as typeof import('papaparse'));

// ---------------------------------------------------------------- budget table

/**
 * The appendix table, per accountant and d. `paper` layout: one cell per ξ holding the rounded
 * LDP budgets "a/b/c" for κ = κ1/κ2/κ3 (the paper's table); `long` layout: one row per
 * (accountant, d, κ, ξ) with α, ε_bit, the flip probability and ε_LDP. Markdown and LaTeX print
 * both; CSV and JSON the long one, with budgets.csv's column names.
 */
/** The columns of the long budgets table (md/tex of `table budgets` and the HTML report). */
export function budgetCellsHeader(hasHockey: boolean): string[] {
  return ['accountant', 'd_θ', 'δ', 'κ', 'ξ', 'α', 'ε_bit', 'flip', 'ε_LDP', 'ε_LDP rounded', 'fallback', ...(hasHockey ? ['δ_hockey'] : [])];
}

/** One budgets row as the long tables print it (`flipDigits` decimals of the flip probability). */
export function budgetCells(r: BudgetRecord, hasHockey: boolean, flipDigits: number): string[] {
  const fixed = (x: number | null, digits: number) => (x === null ? '–' : x.toFixed(digits));
  return [
    r.accountant,
    String(r.d),
    String(r.delta),
    String(r.kappa),
    String(r.xi),
    fixed(r.alpha, 6),
    r.unbounded ? '∞' : fixed(r.epsilon_bit, 6),
    fixed(r.flip, flipDigits),
    r.unbounded ? '∞' : fixed(r.epsilon_ldp, 4),
    r.unbounded || r.epsilon_ldp === null ? '∞' : String(Math.round(r.epsilon_ldp)),
    r.fallback ? 'yes' : 'no',
    ...(hasHockey ? [r.delta_hockey === null ? '–' : formatNumber(r.delta_hockey, 4)] : []),
  ];
}

/**
 * budgets.csv's rows as flat records: LSHRR's, then (when there are any) the directional
 * mechanisms' with `mechanism`, `concentration` and `concentration_metric` (null where a column
 * does not apply), the file's layout.
 */
function flatBudgetRecords(rows: readonly BudgetRecord[], directional: readonly DirectionalBudgetRecord[], own: readonly OwnBudgetRecord[] = []): Record<string, string | number | boolean | null>[] {
  if (directional.length === 0 && own.length === 0) return rows.map((r) => ({ ...r }));
  const none = Object.fromEntries(BUDGET_COLUMNS.map((c) => [c, null])) as Record<string, null>;
  type Cells = Record<string, null>;
  const dir: Cells = directional.length > 0 ? { concentration: null, concentration_metric: null } : {};
  const ownNone: Cells = own.length > 0 ? { parameter: null, value: null, ldp_delta: null } : {};
  return [
    ...rows.map((r) => ({ ...r, mechanism: ACCOUNTANT_ROWS_MECHANISM, ...dir, ...ownNone })),
    ...directional.map((r) => ({
      ...none,
      d: r.d,
      delta: r.delta,
      kappa: r.kappa,
      xi: r.xi,
      epsilon_ldp: r.epsilon_ldp,
      mechanism: r.mechanism,
      concentration: r.concentration,
      concentration_metric: r.concentration_metric,
      ...ownNone,
    })),
    ...own.map((r) => ({
      ...none,
      accountant: r.accountant,
      d: r.d,
      delta: r.delta,
      kappa: r.kappa,
      xi: r.xi,
      epsilon_ldp: r.epsilon_ldp,
      fallback: r.fallback,
      mechanism: r.mechanism,
      ...dir,
      parameter: r.parameter,
      value: r.value,
      ldp_delta: r.ldp_delta,
    })),
  ];
}

/** What an own row's parameter is, as the tables name it. */
const OWN_PARAMETER_WORDS: Record<string, string> = {
  sigma: 'σ (Gaussian noise)',
  sigma_per_sigma_max: 'σ / σ_max(W) (per trial)',
  epsilon_position: 'ε per position',
};

/**
 * The own rows' sections (src/mechanisms/ownBudget.ts): per entry and d, the parameter and the LDP
 * equivalent (with its δ) against ξ, one line per κ.
 */
function ownBudgetSections(rows: readonly OwnBudgetRecord[], format: 'md' | 'latex'): string[] {
  const sections: string[] = [];
  for (const m of uniqueInOrder(rows.map((r) => r.mechanism))) {
    for (const d of uniqueInOrder(rows.filter((r) => r.mechanism === m).map((r) => r.d))) {
      const sub = rows.filter((r) => r.mechanism === m && r.d === d);
      const xis = uniqueInOrder(sub.map((r) => r.xi));
      const at = (kappa: number, xi: number) => sub.find((r) => r.kappa === kappa && r.xi === xi);
      const first = sub[0]!;
      const words = OWN_PARAMETER_WORDS[first.parameter] ?? first.parameter;
      const body: string[][] = [];
      for (const kappa of uniqueInOrder(sub.map((r) => r.kappa))) {
        body.push([`κ=${kappa}: ${words}`, ...xis.map((xi) => formatNumber(at(kappa, xi)?.value ?? NaN))]);
        body.push([`κ=${kappa}: ε_LDP`, ...xis.map((xi) => formatNumber(at(kappa, xi)?.epsilon_ldp ?? NaN))]);
      }
      const ldpDelta = uniqueInOrder(sub.map((r) => r.ldp_delta));
      const title = `${m}${first.accountant ? ` (${first.accountant})` : ''}, d = ${d}, δ = ${first.delta}; ε_LDP with δ = ${ldpDelta.map((x) => (x === null ? '–' : String(x))).join(', ')}`;
      if (format === 'md') {
        sections.push(`**${title}**\n\n` + markdownTable(['ξ (extended DP)', ...xis.map(String)], body, ['l', ...xis.map(() => 'r' as const)]));
      } else {
        sections.push(
          `% ${title.replace(/δ/g, 'delta').replace(/ε/g, 'eps').replace(/κ/g, 'kappa')}\n` +
            latexTabular(
              ['Total privacy budget $\\xi$ in XDP', ...xis.map(String)],
              body.map((r) => r.map((c, i) => (i === 0 ? escapeLatex(c) : c.replace(/∞/g, '$\\infty$')))),
              'l||' + xis.map(() => 'c').join('|'),
            ),
        );
      }
    }
  }
  return sections;
}

/** The LDP diameter factor and the distance a directional mechanism's concentration is private for, as tables print them. */
const DIRECTIONAL_WORDS = {
  euclidean: { metric: 'c·d₂', ldp: '2c', texMetric: '$c\\,d_2$', texLdp: '2c' },
  angle: { metric: 'c·θ', ldp: 'πc', texMetric: '$c\\,\\theta$', texLdp: '\\pi c' },
} as const;

/**
 * The directional mechanisms' section: per d, their concentration c and LDP equivalent per ξ
 * (one row each; the same for every κ, so κ is not a column), δ = 0.
 */
function directionalBudgetSections(rows: readonly DirectionalBudgetRecord[], format: 'md' | 'latex'): string[] {
  const sections: string[] = [];
  for (const d of uniqueInOrder(rows.map((r) => r.d))) {
    const sub = rows.filter((r) => r.d === d);
    const xis = uniqueInOrder(sub.map((r) => r.xi));
    const body: string[][] = [];
    for (const m of uniqueInOrder(sub.map((r) => r.mechanism))) {
      const of = sub.filter((r) => r.mechanism === m);
      const words = DIRECTIONAL_WORDS[of[0].concentration_metric];
      const at = (xi: number) => of.find((r) => r.xi === xi);
      const [cLabel, ldpLabel] =
        format === 'md'
          ? [`${m}: c (${words.metric}-private)`, `${m}: ε_LDP = ${words.ldp}`]
          : [`${escapeLatex(m)}: $c$ (${words.texMetric}-private)`, `${escapeLatex(m)}: $\\varepsilon_{\\mathrm{LDP}} = ${words.texLdp}$`];
      body.push([cLabel, ...xis.map((xi) => formatNumber(at(xi)?.concentration ?? NaN))]);
      body.push([ldpLabel, ...xis.map((xi) => formatNumber(at(xi)?.epsilon_ldp ?? NaN))]);
    }
    const title = `directional mechanisms, d_θ = ${d}, δ = 0 (for every pair and every hash function; the same for every κ)`;
    if (format === 'md') {
      sections.push(
        `**${title}**: concentration c giving loss ξ at d_θ, and the LDP equivalent\n\n` + markdownTable(['ξ (extended DP)', ...xis.map(String)], body, ['l', ...xis.map(() => 'r' as const)]),
      );
    } else {
      sections.push(
        `% ${title.replace('d_θ', 'd_theta').replace('δ', 'delta').replace('κ', 'kappa')}\n` +
          latexTabular(['Total privacy budget $\\xi$ in XDP', ...xis.map(String)], body, 'l||' + xis.map(() => 'c').join('|')),
      );
    }
  }
  return sections;
}

export function budgetsTable(rows: BudgetRecord[], format: TableFormat, directional: readonly DirectionalBudgetRecord[] = [], own: readonly OwnBudgetRecord[] = []): string {
  if (format === 'json') return JSON.stringify(flatBudgetRecords(rows, directional, own), null, 2) + '\n';
  if (format === 'csv') {
    const fields = [
      ...BUDGET_COLUMNS,
      ...(directional.length > 0 || own.length > 0 ? ['mechanism'] : []),
      ...(directional.length > 0 ? DIRECTIONAL_BUDGET_COLUMNS.slice(1) : []),
      ...(own.length > 0 ? OWN_BUDGET_COLUMNS : []),
    ];
    return papa().unparse({ fields, data: flatBudgetRecords(rows, directional, own).map((r) => fields.map((c) => r[c] ?? '')) }, { newline: '\n' }) + '\n';
  }
  const others = [...directionalBudgetSections(directional, format), ...ownBudgetSections(own, format)];
  if (rows.length === 0) return others.join('\n');
  const sections: string[] = [];
  const anyFallback = rows.some((r) => r.fallback);
  const anyUnbounded = rows.some((r) => r.unbounded);
  const accountants = uniqueInOrder(rows.map((r) => r.accountant));
  // the paper's accountant alone prints the paper's table as it is; others are named in the titles
  const named = accountants.length > 1 || accountants.some((a) => a !== 'paper');
  for (const acc of accountants) {
    for (const d of uniqueInOrder(rows.filter((r) => r.accountant === acc).map((r) => r.d))) {
      const sub = rows.filter((r) => r.accountant === acc && r.d === d);
      const kappas = uniqueInOrder(sub.map((r) => r.kappa));
      const xis = uniqueInOrder(sub.map((r) => r.xi));
      const deltas = uniqueInOrder(sub.map((r) => r.delta));
      const cell = (xi: number) =>
        kappas
          .map((k) => {
            const r = sub.find((x) => x.kappa === k && x.xi === xi);
            if (!r) return '?';
            if (r.unbounded || r.epsilon_ldp === null) return '∞';
            return `${Math.round(r.epsilon_ldp)}${r.fallback ? '*' : ''}`;
          })
          .join('/');
      if (format === 'md') {
        sections.push(
          `**${named ? `${acc} accountant, ` : ''}d_θ = ${d}, δ = ${deltas.join(', ')}**: total LDP budget κε for κ = ${kappas.join('/')} (rounded)\n\n` +
            markdownTable(['ξ (extended DP)', ...xis.map(String)], [[`κε (κ=${kappas.join('/')})`, ...xis.map(cell)]], ['l', ...xis.map(() => 'r' as const)]),
        );
      } else {
        sections.push(
          `% ${named ? `${acc} accountant, ` : ''}d_theta = ${d}, delta = ${deltas.join(', ')}\n` +
            latexTabular(
              ['Total privacy budget $\\xi$ in XDP', ...xis.map(String)],
              [[`Total privacy budget in LDP ($\\kappa=${kappas.join('/')}$)`, ...xis.map((x) => cell(x).replace(/∞/g, '$\\infty$'))]],
              'c||' + xis.map(() => 'c').join('|'),
            ),
        );
      }
    }
  }
  const hasHockey = rows.some((r) => r.delta_hockey !== null);
  const long = rows.map((r) => budgetCells(r, hasHockey, 6));
  const notes = [
    ...(anyFallback ? ["* fallback: the pure-LDP bound ξ = κε is larger than the accountant's ε (for the paper accountant: no α exists, d^κ ≥ δ)."] : []),
    ...(anyUnbounded ? ['∞ unbounded: every ε satisfies the bound ((1−d)^κ ≥ 1−δ).'] : []),
  ];
  if (format === 'md') {
    sections.push(
      'Exact values (ε_bit: per-bit randomized-response ε; flip = 1/(1+e^ε_bit); ε_LDP = κ·ε_bit):\n\n' +
        markdownTable(budgetCellsHeader(hasHockey), long, ['l', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'r', 'l', 'r']),
    );
    if (notes.length) sections.push(notes.map(escapeMdNote).join('  \n') + '\n');
    return [...sections, ...others].join('\n');
  }
  sections.push(
    latexTabular(
      [
        'accountant',
        '$d_\\theta$',
        '$\\delta$',
        '$\\kappa$',
        '$\\xi$',
        '$\\alpha$',
        '$\\varepsilon_{\\mathrm{bit}}$',
        'flip',
        '$\\varepsilon_{\\mathrm{LDP}}$',
        'rounded',
        'fallback',
        ...(hasHockey ? ['$\\delta_{\\mathrm{hockey}}$'] : []),
      ],
      long.map((r) => r.map((c, i) => (i === 0 ? escapeLatex(c) : c.replace(/–/g, '--').replace(/∞/g, '$\\infty$')))),
      'lrrrrrrrrrl' + (hasHockey ? 'r' : ''),
    ) +
      notes.map((n) => `% ${n}`).join('\n') +
      (notes.length ? '\n' : ''),
  );
  return [...sections, ...others].join('\n');
}
