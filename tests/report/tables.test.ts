import { describe, it, expect } from 'vitest';
import { budgetsTable, utilityTable, formatMeanSe, escapeLatex } from '../../src/report/tables.js';
import type { BudgetRowLike } from '../../src/report/read.js';
import { readUtilityCsv } from '../../src/report/read.js';
import { join } from 'node:path';
import { ROOT } from '../helpers/cli.js';

/** Independent of src/privacy: bisection on kappa·KL(d+a||d) = ln(1/delta) (protocol §5). */
function referenceRow(d: number, kappa: number, xi: number, delta: number): BudgetRowLike {
  const kl = (a: number, b: number) => a * Math.log(a / b) + (1 - a) * Math.log((1 - a) / (1 - b));
  if (kappa * Math.log(1 / d) <= Math.log(1 / delta)) {
    return { d, delta, kappa, xi, alpha: null, epsilon: xi / kappa, ldpBudget: xi, fallback: true };
  }
  let lo = 0;
  let hi = 1 - d;
  for (let i = 0; i < 200; i++) {
    const mid = (lo + hi) / 2;
    if (kappa * kl(d + mid, d) < Math.log(1 / delta)) lo = mid;
    else hi = mid;
  }
  const epsilon = xi / (kappa * (d + lo));
  return { d, delta, kappa, xi, alpha: lo, epsilon, ldpBudget: kappa * epsilon, fallback: false };
}

function grid(ds: number[], kappas: number[], xis: number[], delta: number): BudgetRowLike[] {
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

  it('CSV and JSON carry exact values and the rounded ones', () => {
    const csv = budgetsTable(rows, 'csv').trim().split('\n');
    expect(csv[0]).toBe('d,delta,kappa,xi,alpha,epsilon,ldp_budget,ldp_budget_rounded,fallback');
    expect(csv).toHaveLength(1 + 24);
    const last = csv[24].split(',');
    expect(Number(last[6])).toBeCloseTo(rows[23].ldpBudget, 12);
    expect(last[7]).toBe('80');
    expect(JSON.parse(budgetsTable(rows, 'json'))).toEqual(rows);
  });

  it('flags fallback cells (d^κ >= δ: no α, ξ = κε)', () => {
    const fb = grid([0.5], [2, 10], [5], 0.01); // 0.5^2 = 0.25 >= 0.01, 0.5^10 < 0.01
    const md = budgetsTable(fb, 'md');
    expect(fb[0].fallback).toBe(true);
    expect(md).toContain('| 5*/5 |'); // κ=2 falls back (ξ = κε = 5), κ=10 does not
    expect(md).toMatch(/fallback: no α exists/);
  });
});

describe('utility table', () => {
  const rows = readUtilityCsv(join(ROOT, 'tests/fixtures/results/small/utility.csv'));

  it('mean ± se: se to 2 significant digits, mean to the same place', () => {
    expect(formatMeanSe(0.123456, 0.00123)).toBe('0.1235 ± 0.0012');
    expect(formatMeanSe(12.34, 0.56)).toBe('12.34 ± 0.56');
    expect(formatMeanSe(123.4, 15)).toBe('123 ± 15');
    expect(formatMeanSe(0.5, null)).toBe('0.5');
    expect(formatMeanSe(0, 0)).toBe('0');
  });

  it('has one line per CSV row in every format', () => {
    const md = utilityTable(rows, 'md').trim().split('\n');
    expect(md).toHaveLength(2 + rows.length);
    const lshrr = rows.find((r) => r.mechanism === 'lshrr' && r.xi === 5)!;
    expect(md.some((l) => l.includes('LSHRR') && l.includes(formatMeanSe(lshrr.lossMean, lshrr.lossSe)))).toBe(true);
    const csv = utilityTable(rows, 'csv').trim().split('\n');
    expect(csv).toHaveLength(1 + rows.length);
    const tex = utilityTable(rows, 'latex');
    expect(tex.match(/\\\\\n/g)!.length).toBe(1 + rows.length);
    expect(tex).toContain('$\\pm$');
  });

  it('escapes LaTeX and markdown specials in data set names', () => {
    expect(escapeLatex('a_b & 50% #1 {x} ~ ^ \\')).toBe('a\\_b \\& 50\\% \\#1 \\{x\\} \\textasciitilde{} \\textasciicircum{} \\textbackslash{}');
    const odd = rows.slice(0, 1).map((r) => ({ ...r, dataset: 'a|b_c' }));
    expect(utilityTable(odd, 'md')).toContain('| a\\|b_c |');
    expect(utilityTable(odd, 'latex')).toContain('a|b\\_c');
  });
});
