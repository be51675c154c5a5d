/**
 * The linkage attack's claims on null data: false support and false contradiction (mixed counts as
 * both) each stay at most α over many simulated families (fixed seeds; 3 binomial standard
 * deviations above α as the Monte Carlo margin).
 */
import { describe, it, expect } from 'vitest';
import { only, inputOf, lap, lsh, rr } from '../helpers/attackClaims.js';

const GRID = { dims: [100, 500], kappa: [20, 50], known: [0.5, 1], trials: 10 };
const FRONT = { dims: [100], kappa: [20], known: [0.5, 1], trials: 10, shared: 0 };

describe('the attack claims on null data', () => {
  it('at exactly 10/N, false support and false contradiction stay at most α (400 simulated families)', () => {
    let supported = 0;
    let contradicted = 0;
    const families = 400;
    for (let f = 0; f < families; f++) {
      const r = only(inputOf({ ...GRID, users: () => 100, shared: 0, seed: `null-${f}`, entries: [lsh(() => 0.1, 0.02)] }), 'clean-lsh-reidentifies');
      if (r.verdict === 'supported' || r.verdict === 'mixed') supported++;
      if (r.verdict === 'contradicted' || r.verdict === 'mixed') contradicted++;
    }
    // each ≤ α = 0.05 by Holm; 3 binomial sd above α as the Monte Carlo margin
    const bound = families * 0.05 + 3 * Math.sqrt(families * 0.05 * 0.95);
    expect(supported).toBeLessThanOrEqual(bound);
    expect(contradicted).toBeLessThanOrEqual(bound);
  });
  it('flat reid@1 (the null) gives a false contradiction in at most α of 400 families', () => {
    let contradicted = 0;
    let supported = 0;
    for (let f = 0; f < 400; f++) {
      const r = only(inputOf({ ...GRID, seed: `flat-${f}`, entries: [rr(() => 0.05)] }), 'reid-rises-with-xi');
      if (r.verdict === 'contradicted' || r.verdict === 'mixed') contradicted++;
      if (r.verdict === 'supported' || r.verdict === 'mixed') supported++;
    }
    const bound = 400 * 0.05 + 3 * Math.sqrt(400 * 0.05 * 0.95);
    expect(contradicted).toBeLessThanOrEqual(bound);
    expect(supported).toBeLessThanOrEqual(bound);
  });
  it('on null data (both mechanisms alike) neither verdict exceeds α over 400 families', () => {
    let contradicted = 0;
    let supported = 0;
    for (let f = 0; f < 400; f++) {
      const r = only(inputOf({ ...FRONT, dims: [100, 500], seed: `front-${f}`, entries: [rr(() => 0.05), lap(() => 0.05)] }), 'lshrr-frontier-dominates-laplsh');
      if (r.verdict === 'contradicted' || r.verdict === 'mixed') contradicted++;
      if (r.verdict === 'supported' || r.verdict === 'mixed') supported++;
    }
    const bound = 400 * 0.05 + 3 * Math.sqrt(400 * 0.05 * 0.95);
    expect(contradicted).toBeLessThanOrEqual(bound);
    expect(supported).toBeLessThanOrEqual(bound);
  });
});
