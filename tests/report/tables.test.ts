import { describe, it, expect } from 'vitest';
import { utilityTable, formatMeanSe, escapeLatex, UTILITY_DISPLAY_COLUMNS } from '../../src/report/tables.js';
import { budgetsTable } from '../../src/report/budgetTables.js';
import type { BudgetRecord } from '../../src/report/read.js';
import { readUtilityCsv, UTILITY_COLUMNS, BUDGET_COLUMNS } from '../../src/report/read.js';
import { join } from 'node:path';
import { ROOT } from '../helpers/cli.js';

/** Independent of src/privacy: bisection on kappa·KL(d+a||d) = ln(1/delta) (protocol §5). */
function referenceRow(d: number, kappa: number, xi: number, delta: number): BudgetRecord {
  const kl = (a: number, b: number) => a * Math.log(a / b) + (1 - a) * Math.log((1 - a) / (1 - b));
  const row = (alpha: number | null, eps: number, fallback: boolean): BudgetRecord => ({
    accountant: 'paper',
    d,
    delta,
    kappa,
    xi,
    alpha,
    epsilon_bit: eps,
    flip: 1 / (1 + Math.exp(eps)),
    epsilon_ldp: kappa * eps,
    fallback,
    unbounded: false,
    delta_hockey: null,
  });
  if (kappa * Math.log(1 / d) <= Math.log(1 / delta)) return row(null, xi / kappa, true);
  let lo = 0;
  let hi = 1 - d;
  for (let i = 0; i < 200; i++) {
    const mid = (lo + hi) / 2;
    if (kappa * kl(d + mid, d) < Math.log(1 / delta)) lo = mid;
    else hi = mid;
  }
  return row(lo, xi / (kappa * (d + lo)), false);
}

function grid(ds: number[], kappas: number[], xis: number[], delta: number): BudgetRecord[] {
  return ds.flatMap((d) => xis.flatMap((xi) => kappas.map((k) => referenceRow(d, k, xi, delta))));
}

describe('budget table layout', () => {
  const rows = grid([0.05, 0.1], [10, 20, 50], [1, 5, 10, 20], 0.01);

  it("prints the appendix's cells κ=10/20/50 rounded, digit for digit, in markdown and LaTeX", () => {
    const md = budgetsTable(rows, 'md');
    expect(md).toContain('| κε (κ=10/20/50) | 3/4/6 | 14/20/30 | 28/40/60 | 55/79/120 |');
    expect(md).toContain('| κε (κ=10/20/50) | 2/3/4 | 10/14/20 | 21/28/40 | 42/57/80 |');
    const tex = budgetsTable(rows, 'latex');
    expect(tex).toContain('3/4/6 & 14/20/30 & 28/40/60 & 55/79/120 \\\\');
    expect(tex).toContain('2/3/4 & 10/14/20 & 21/28/40 & 42/57/80 \\\\');
  });

  it('LaTeX section comments spell d_theta and delta (no "d__theta")', () => {
    const tex = budgetsTable(rows, 'latex');
    expect(tex).toContain('% d_theta = 0.05, delta = 0.01\n');
    expect(tex).not.toMatch(/__theta|θ|δ/);
    const exact = rows.map((r) => ({ ...r, accountant: 'exact' }));
    expect(budgetsTable([...rows, ...exact], 'latex')).toContain('% exact accountant, d_theta = 0.1, delta = 0.01\n');
    expect(budgetsTable(exact, 'md')).toContain('**exact accountant, d_θ = 0.1, δ = 0.01**');
  });

  it("CSV and JSON carry budgets.csv's columns, exact values", () => {
    const csv = budgetsTable(rows, 'csv').trim().split('\n');
    expect(csv[0]).toBe(BUDGET_COLUMNS.join(','));
    expect(csv[0]).toBe('accountant,d,delta,kappa,xi,alpha,epsilon_bit,flip,epsilon_ldp,fallback,unbounded,delta_hockey');
    expect(csv).toHaveLength(1 + 24);
    const last = csv[24].split(',');
    expect(Number(last[8])).toBeCloseTo(rows[23].epsilon_ldp!, 12);
    expect(Math.round(Number(last[8]))).toBe(80);
    expect(last[11]).toBe(''); // delta_hockey: only the exact accountant has one
    expect(JSON.parse(budgetsTable(rows, 'json'))).toEqual(rows);
  });

  it('flags fallback cells (d^κ >= δ: no α, ξ = κε) and unbounded ones', () => {
    const fb = grid([0.5], [2, 10], [5], 0.01); // 0.5^2 = 0.25 >= 0.01, 0.5^10 < 0.01
    const md = budgetsTable(fb, 'md');
    expect(fb[0].fallback).toBe(true);
    expect(md).toContain('| 5*/5 |'); // κ=2 falls back (ξ = κε = 5), κ=10 does not
    expect(md).toMatch(/fallback: the pure-LDP bound/);
    const unb: BudgetRecord = { ...fb[1], accountant: 'exact', epsilon_bit: null, epsilon_ldp: null, flip: 0, unbounded: true, delta_hockey: 0 };
    const md2 = budgetsTable([unb], 'md');
    expect(md2).toContain('| ∞ |');
    expect(md2).toMatch(/∞ unbounded/);
    expect(budgetsTable([unb], 'latex')).toContain('$\\infty$');
  });
});

describe('utility table', () => {
  const rows = readUtilityCsv(join(ROOT, 'tests/fixtures/results/small/utility.csv'));

  it('mean ± se: se to 2 significant digits, mean to the same place; an se of 0 is ± 0, an unknown one n/a', () => {
    expect(formatMeanSe(0.123456, 0.00123)).toBe('0.1235 ± 0.0012');
    expect(formatMeanSe(12.34, 0.56)).toBe('12.34 ± 0.56');
    expect(formatMeanSe(123.4, 15)).toBe('123 ± 15');
    expect(formatMeanSe(0.5, null)).toBe('0.5 ± n/a');
    // an se of 0 is printed, as every other se is: never a bare mean beside `0 ± n/a`
    expect(formatMeanSe(0, 0)).toBe('0 ± 0');
    expect(formatMeanSe(0.25, 0)).toBe('0.25 ± 0');
    // identical trial values whose sd comes out as rounding noise: no twelve-digit zeros
    expect(formatMeanSe(0.012, 1.7e-18)).toBe('0.012 ± 0');
    // an se that is not a number is unknown, an infinite one is not zero
    expect(formatMeanSe(0.5, Number.NaN)).toBe('0.5 ± n/a');
    expect(formatMeanSe(0.5, Number.POSITIVE_INFINITY)).toBe('0.5 ± ∞');
    expect(formatMeanSe(0.012, 1e-9)).toBe('0.0120000000 ± 0.0000000010');
  });

  it('a row whose se is 0 (exact: deterministic) prints ± 0 in md, tex and csv, like every other row', () => {
    const exact = rows.find((r) => r.mechanism === 'exact')!;
    expect([exact.utility_loss_se, exact.recall_se]).toEqual([0, 0]);
    const line = utilityTable(rows, 'md')
      .split('\n')
      .find((l) => l.includes('| exact |'))!;
    expect(line.endsWith('| 0 ± 0 | 1 ± 0 |')).toBe(true);
    expect(utilityTable(rows, 'latex')).toContain('0 $\\pm$ 0 & 1 $\\pm$ 0 \\\\');
    expect(utilityTable(rows, 'csv').split('\n')[1].endsWith(',0 ± 0,1 ± 0')).toBe(true);
  });

  it('has one line per CSV row in every format', () => {
    const md = utilityTable(rows, 'md').split('\n\n')[0].trim().split('\n');
    expect(md).toHaveLength(2 + rows.length);
    const lshrr = rows.find((r) => r.mechanism === 'lshrr' && r.xi === 5)!;
    expect(md.some((l) => l.includes('| lshrr |') && l.includes(formatMeanSe(lshrr.utility_loss_mean, lshrr.utility_loss_se)))).toBe(true);
    const csv = utilityTable(rows, 'csv').trim().split('\n');
    expect(csv).toHaveLength(1 + rows.length);
    const tex = utilityTable(rows, 'latex');
    expect(tex.match(/\\\\\n/g)!.length).toBe(1 + rows.length);
    expect(tex).toContain('$\\pm$');
  });

  it("json rows and csv columns are utility.csv's names; csv keeps every column at full precision", () => {
    const json = JSON.parse(utilityTable(rows, 'json')) as Record<string, unknown>[];
    expect(Object.keys(json[0])).toEqual([...UTILITY_COLUMNS]);
    expect(json).toEqual(rows);
    const [header, ...lines] = utilityTable(rows, 'csv').trim().split('\n');
    expect(header).toBe([...UTILITY_COLUMNS, ...UTILITY_DISPLAY_COLUMNS].join(','));
    expect(header).toContain('epsilon_ldp');
    expect(header).toContain('fallback');
    const i = rows.findIndex((r) => r.mechanism === 'laplsh' && r.xi === 5);
    const cells = lines[i].split(',');
    expect(Number(cells[UTILITY_COLUMNS.indexOf('epsilon_lap')])).toBe(rows[i].epsilon_lap);
    expect(Number(cells[UTILITY_COLUMNS.indexOf('epsilon_ldp')])).toBe(rows[i].epsilon_ldp);
    expect(cells[UTILITY_COLUMNS.indexOf('epsilon_bit')]).toBe('');
  });

  it('md/tex: ε_LDP for every mechanism, the per-bit and the Laplace ε in columns of their own', () => {
    const md = utilityTable(rows, 'md');
    const header = md
      .split('\n')[0]
      .split('|')
      .map((s) => s.trim());
    expect(header).toEqual(['', 'dataset', 'n', 'κ', 'k', 'mechanism', 'ξ', 'ε_LDP', 'ε_bit', 'ε_Lap', 'trials', 'utility loss (mean ± se)', 'recall (mean ± se)', '']);
    const line = (m: string) =>
      md
        .split('\n')
        .find((l) => l.startsWith('| ml-small | 50 | 10 | 10 |') && l.includes(`| ${m} | 5 |`))!
        .split('|')
        .map((s) => s.trim());
    const lap = rows.find((r) => r.dataset === 'ml-small' && r.n === 50 && r.kappa === 10 && r.mechanism === 'laplsh' && r.xi === 5)!;
    const rr = rows.find((r) => r.dataset === 'ml-small' && r.n === 50 && r.kappa === 10 && r.mechanism === 'lshrr' && r.xi === 5)!;
    // laplsh: Laplace ε in ε_Lap, nothing in ε_bit; lshrr the other way round
    expect(line('laplsh').slice(7, 10)).toEqual([String(Number(lap.epsilon_ldp!.toPrecision(4))), '–', String(Number(lap.epsilon_lap!.toPrecision(4)))]);
    expect(line('lshrr').slice(7, 10)).toEqual([String(Number(rr.epsilon_ldp!.toPrecision(4))), String(Number(rr.epsilon_bit!.toPrecision(4))), '–']);
    expect(md).toContain("ε_Lap: LapLSH's Laplace ε.");
    const tex = utilityTable(rows, 'latex');
    expect(tex).toContain('$\\varepsilon_{\\mathrm{LDP}}$ & $\\varepsilon_{\\mathrm{bit}}$ & $\\varepsilon_{\\mathrm{Lap}}$');
    // a table of LSHRR alone has no Laplace column
    expect(
      utilityTable(
        rows.filter((r) => r.base === 'lshrr'),
        'md',
      ),
    ).not.toContain('ε_Lap');
  });

  it('an unknown standard error (one trial, empty in utility.csv) prints n/a, never a bare mean', () => {
    const one = rows
      .filter((r) => r.mechanism === 'lshrr')
      .slice(0, 2)
      .map((r) => ({ ...r, trials: 1, utility_loss_se: null, recall_se: null }));
    const md = utilityTable(one, 'md');
    expect(md).toContain(`${Number(one[1].utility_loss_mean.toPrecision(4))} ± n/a`);
    expect(md).toContain('n/a: standard error unknown (one trial).');
    expect(utilityTable(one, 'latex')).toContain('$\\pm$ n/a');
    const csv = utilityTable(one, 'csv').trim().split('\n')[1].split(',');
    expect(csv[UTILITY_COLUMNS.indexOf('utility_loss_se')]).toBe('');
  });

  it('escapes LaTeX and markdown specials in data set names', () => {
    expect(escapeLatex('a_b & 50% #1 {x} ~ ^ \\')).toBe('a\\_b \\& 50\\% \\#1 \\{x\\} \\textasciitilde{} \\textasciicircum{} \\textbackslash{}');
    const odd = rows.slice(0, 1).map((r) => ({ ...r, dataset: 'a|b_c' }));
    expect(utilityTable(odd, 'md')).toContain('| a\\|b_c |');
    expect(utilityTable(odd, 'latex')).toContain('a|b\\_c');
  });
});
