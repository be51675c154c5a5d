/**
 * Holm's step-down correction of a family of p-values (claims over their cells, the audit over its
 * verdicts): it controls the family-wise error rate under any dependence.
 */

export interface Holm {
  /** Holm-adjusted p-values, in the input order */
  adjusted: number[];
  /** adjusted p ≤ alpha */
  rejected: boolean[];
}

/**
 * Holm–Bonferroni step-down at family-wise level alpha: sort the p-values, compare the i-th smallest
 * (0-based) with alpha/(m − i), and reject up to the first that fails. Reported as adjusted
 * p-values, max over j ≤ i of min(1, (m − j) p_(j)), which are ≤ alpha exactly for the rejected ones.
 * Equal p-values keep their input order (a stable sort), so the result is deterministic.
 */
export function holm(pValues: readonly number[], alpha: number): Holm {
  const m = pValues.length;
  const order = pValues.map((p, i) => ({ p, i })).sort((x, y) => x.p - y.p || x.i - y.i);
  const adjusted = new Array<number>(m).fill(1);
  let running = 0;
  order.forEach(({ p, i }, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * p));
    adjusted[i] = running;
  });
  return { adjusted, rejected: adjusted.map((p) => p <= alpha) };
}
