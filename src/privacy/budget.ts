import { lshrrEpsilon } from './epsilon.js';
import { solveAlpha } from './kl.js';

/** One row of budgets.csv / the appendix table (LSHRR). */
export interface BudgetRow {
  d: number;
  delta: number;
  kappa: number;
  xi: number;
  /** null when no alpha exists (fallback to the pure LDP bound) */
  alpha: number | null;
  epsilon: number;
  /** kappa·eps, the LDP-equivalent total budget */
  ldpBudget: number;
  fallback: boolean;
}

/** The LSHRR budget grid, rows ordered by d, then xi, then kappa (each in the given order). */
export function budgetTable(opts: { d: number[]; kappa: number[]; xi: number[]; delta: number }): BudgetRow[] {
  const rows: BudgetRow[] = [];
  for (const d of opts.d) {
    for (const xi of opts.xi) {
      for (const kappa of opts.kappa) {
        const info = lshrrEpsilon(xi, kappa, { d, delta: opts.delta });
        const epsilon = info.epsilon!;
        rows.push({
          d, delta: opts.delta, kappa, xi,
          alpha: solveAlpha(kappa, d, opts.delta),
          epsilon,
          ldpBudget: kappa * epsilon,
          fallback: info.fallback,
        });
      }
    }
  }
  return rows;
}
