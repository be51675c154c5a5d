import { accountEpsilon } from './accountants.js';
import type { PrivacyParams } from './types.js';
import { purkayasthaConcentration, vmfConcentration } from './epsilon.js';

/**
 * One row of budgets.csv and of `lshdp table budgets` (csv/json), named like the file's columns
 * (the shared vocabulary): one LSHRR accountant at one (d, delta, kappa, xi).
 */
export interface BudgetRecord {
  accountant: string;
  /** angular distance d at which the budget is stated (per-bit disagreement probability p = d) */
  d: number;
  delta: number;
  kappa: number;
  xi: number;
  /** the paper accountant's alpha; null for the others or when none exists */
  alpha: number | null;
  /** per-bit randomized-response eps; null when unbounded (every eps meets the claim) */
  epsilon_bit: number | null;
  /** flip probability 1/(1+e^eps_bit) (0 when unbounded: a run flips no bit) */
  flip: number;
  /** kappa·eps_bit, the LDP-equivalent budget; null when unbounded */
  epsilon_ldp: number | null;
  /** the pure LDP eps = xi/kappa was used (at least the accountant's own, or its bound does not exist) */
  fallback: boolean;
  /** every eps meets the claim ((1 − d)^kappa >= 1 − delta; exact accountant only) */
  unbounded: boolean;
  /** exact accountant: hockey-stick delta of approximate (xi, delta)-XDP at eps_bit; null otherwise */
  delta_hockey: number | null;
}

/** budgets.csv's columns, in file order. */
export const BUDGET_RECORD_COLUMNS = [
  'accountant',
  'd',
  'delta',
  'kappa',
  'xi',
  'alpha',
  'epsilon_bit',
  'flip',
  'epsilon_ldp',
  'fallback',
  'unbounded',
  'delta_hockey',
] as const satisfies readonly (keyof BudgetRecord)[];

/**
 * The budget record of one accountant at one grid point. `disagreement` maps the distance d to
 * the per-bit disagreement probability p of the LSH family (angular, the default: p = d; 1-bit
 * MinHash: p = d/2); the record keeps d.
 */
export function budgetRecord(accountant: string, d: number, delta: number, kappa: number, xi: number, disagreement: (d: number) => number = (x) => x): BudgetRecord {
  const a = accountEpsilon(accountant, { xi, kappa, p: disagreement(d), delta });
  return {
    accountant: a.accountant,
    d,
    delta,
    kappa,
    xi,
    alpha: a.alpha,
    epsilon_bit: a.unbounded ? null : a.epsilonBit,
    flip: a.flip,
    epsilon_ldp: a.unbounded ? null : a.epsilonLdp,
    fallback: a.fallback,
    unbounded: a.unbounded,
    delta_hockey: a.deltaHockey,
  };
}

/**
 * The budgets rows of a run or of `lshdp table budgets`: one per (accountant, d, kappa, xi),
 * ordered by accountant, then d, then xi, then kappa (each in the given order). With
 * accountants ['paper'] the paper's appendix grid gives its table.
 */
export function budgetRows(opts: {
  accountants: readonly string[];
  d: readonly number[];
  kappa: readonly number[];
  xi: readonly number[];
  delta: number;
  /** the LSH family's per-bit disagreement probability at distance d (default: angular, p = d) */
  disagreement?: (d: number) => number;
}): BudgetRecord[] {
  const rows: BudgetRecord[] = [];
  for (const acc of opts.accountants) {
    for (const d of opts.d) {
      for (const xi of opts.xi) {
        for (const kappa of opts.kappa) rows.push(budgetRecord(acc, d, opts.delta, kappa, xi, opts.disagreement));
      }
    }
  }
  return rows;
}

/**
 * One row of budgets.csv's directional section (and of `lshdp table budgets --mechanism vmf,…`):
 * a mechanism that is (c·m)-private for a metric m on the sphere (vmf: m = d₂, the Euclidean
 * distance; purkayastha: m = θ, the angle), with δ = 0 for every pair and every hash function.
 * Its guarantee does not depend on κ (it perturbs the vector, LSH is post-processing); budgets.csv
 * repeats it per κ so that (mechanism, kappa, xi) joins utility.csv.
 */
export interface DirectionalBudgetRecord {
  mechanism: string;
  d: number;
  /** 0: the bound holds for every pair and every hash function (no failure probability) */
  delta: number;
  kappa: number;
  xi: number;
  /** the concentration c giving loss ξ at distance d: ξ / d₂(d) (euclidean) or ξ / (π d) (angle) */
  concentration: number;
  concentration_metric: 'euclidean' | 'angle';
  /** the LDP equivalent: c times the metric's diameter on the sphere (2 for d₂, π for θ) */
  epsilon_ldp: number;
}

/** budgets.csv's columns after BUDGET_RECORD_COLUMNS when a run has directional mechanisms. */
export const DIRECTIONAL_BUDGET_COLUMNS = ['mechanism', 'concentration', 'concentration_metric'] as const;

/**
 * The directional budget of a (c·metric)-private mechanism at one grid point. `privacy` is the
 * run's (d, δ) (validated like the other accountants'); the record's δ is 0, the mechanism's own.
 */
export function directionalBudgetRecord(mechanism: string, metric: 'euclidean' | 'angle', privacy: PrivacyParams, kappa: number, xi: number): DirectionalBudgetRecord {
  const e = metric === 'euclidean' ? vmfConcentration(xi, privacy) : purkayasthaConcentration(xi, privacy);
  return { mechanism, d: privacy.d, delta: 0, kappa, xi, concentration: e.epsilon as number, concentration_metric: metric, epsilon_ldp: e.ldpEpsilon as number };
}

/** The directional rows: per mechanism (in the given order), d, ξ, κ, like budgetRows. */
export function directionalBudgetRows(opts: {
  mechanisms: readonly { name: string; metric: 'euclidean' | 'angle' }[];
  d: readonly number[];
  kappa: readonly number[];
  xi: readonly number[];
  /** the run's δ (validated; the rows' δ is 0) */
  delta: number;
}): DirectionalBudgetRecord[] {
  const rows: DirectionalBudgetRecord[] = [];
  for (const m of opts.mechanisms) {
    for (const d of opts.d) {
      for (const xi of opts.xi) {
        for (const kappa of opts.kappa) rows.push(directionalBudgetRecord(m.name, m.metric, { d, delta: opts.delta }, kappa, xi));
      }
    }
  }
  return rows;
}
