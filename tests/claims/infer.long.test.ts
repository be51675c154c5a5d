/**
 * The attribute inference's claims on null data: false support and false contradiction (mixed
 * counts as both) each stay at most α over many simulated families (fixed seeds; 3 binomial
 * standard deviations above α as the Monte Carlo margin).
 */
import { describe, it, expect } from 'vitest';
import { inferInputOf, inferOnly, rrAt, lshAt } from '../helpers/inferClaims.js';

const GRID = { dims: [100, 500], kappa: [20, 50], aux: [0.25, 0.5], trials: 10 };
const FAMILIES = 400;
// each ≤ α = 0.05 by Holm; 3 binomial sd above α as the Monte Carlo margin
const BOUND = FAMILIES * 0.05 + 3 * Math.sqrt(FAMILIES * 0.05 * 0.95);

function rates(id: string, familyOf: (f: number) => Parameters<typeof inferInputOf>[0]) {
  let supported = 0;
  let contradicted = 0;
  for (let f = 0; f < FAMILIES; f++) {
    const r = inferOnly(inferInputOf(familyOf(f)), id);
    if (r.verdict === 'supported' || r.verdict === 'mixed') supported++;
    if (r.verdict === 'contradicted' || r.verdict === 'mixed') contradicted++;
  }
  return { supported, contradicted };
}

describe('the inference claims on null data', () => {
  it("lsh's auc equal to null's in law: false support and false contradiction stay at most α (400 simulated families)", () => {
    const r = rates('clean-lsh-leaks-items', (f) => ({ ...GRID, seed: `null-${f}`, entries: [lshAt(() => 0.66)] }));
    expect(r.supported).toBeLessThanOrEqual(BOUND);
    expect(r.contradicted).toBeLessThanOrEqual(BOUND);
  });
  it('flat auc over ξ: false support and false contradiction stay at most α (400 simulated families)', () => {
    const r = rates('inference-rises-with-xi', (f) => ({ ...GRID, seed: `flat-${f}`, entries: [rrAt(() => 0.66)] }));
    expect(r.supported).toBeLessThanOrEqual(BOUND);
    expect(r.contradicted).toBeLessThanOrEqual(BOUND);
  });
});
