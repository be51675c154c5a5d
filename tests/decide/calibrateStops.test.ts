/**
 * What stops calibrate's search above the grid (docs/ATTACKS.md "Calibrating ξ"), on known monotone
 * curves, each ξ's trials the curve ± SE (two trials p − s, p + s: mean p, SE s exactly), from the
 * shared configs' grid (0 … 20) at T 0.01:
 * - a slow log-rise crossing far above the grid, which the old rule (the top two within 2 SE) stopped
 *   as flat: the search doubles to it and brackets it, with or without a known noise-free limit;
 * - a true plateau below T: `flat` when no limit is known (its evidence: the span), `ceiling` when
 *   the limit (clean LSH's success) meets T, and the rounds running out when the limit is above T
 *   (the success must still rise: it never stops as flat);
 * - a plateau shorter than 4× that then rises: bracketed.
 */
import { describe, expect, it } from 'vitest';
import { CALIBRATE_ROUNDS, searchStepOne, type SearchEvidence, type SearchState } from '../../src/decide/calibrate.js';
import { crossingOf, pava } from '../../src/decide/crossing.js';

const T = 0.01;
const SE = 0.0004;
const GRID = [0, 0.5, 1, 2, 5, 10, 20];

/** The search round by round on curve p (trials p ± SE), with clean LSH's trials as the ceiling or none. */
function search(p: (xi: number) => number, ceiling: number[] | null = null): { xis: number[]; state: SearchState; rounds: number; xiStar: number; evidence: SearchEvidence | null } {
  const at = (xi: number) => [p(xi) - SE, p(xi) + SE];
  let xis = [...GRID];
  let last = searchStepOne(xis, xis.map(at), T, ceiling);
  let rounds = 0;
  for (; rounds < CALIBRATE_ROUNDS && last.xi !== null; rounds++) {
    xis = [...xis, last.xi].sort((a, b) => a - b);
    last = searchStepOne(xis, xis.map(at), T, ceiling);
  }
  return { xis, state: last.state, rounds, xiStar: crossingOf(xis, pava(xis.map(p)), T, true).xi, evidence: last.evidence };
}

/** The stopping rule's tolerance at a bracket end: max(2 SE, 0.1 T). */
const NEAR = Math.max(2 * SE, 0.1 * T);

describe('calibrate: what stops the search above the grid', () => {
  it('a slow log-rise crossing far above the grid: doubled to and bracketed, never flat', () => {
    // 0.004 + 0.0012 ln ξ (3 SE per e-fold): crosses T 0.012 at e^6.67 ≈ 786, 39× the grid's top
    const p = (xi: number) => (xi < 1 ? 0.004 * xi : 0.004 + 0.0012 * Math.log(xi));
    const target = 0.012;
    const rise = (a: number, b: number) => p(b) - p(a);
    // the old rule's case: the top two within 2 SE of their difference (2√2·SE)
    expect(rise(10, 20)).toBeLessThan(2 * Math.SQRT2 * SE);
    // over 4× it shows
    expect(rise(5, 20)).toBeGreaterThan(2 * Math.SQRT2 * SE);
    const at = (xi: number) => [p(xi) - SE, p(xi) + SE];
    for (const ceiling of [null, [0.05, 0.06]]) {
      let xis = [...GRID];
      let s = searchStepOne(xis, xis.map(at), target, ceiling);
      let rounds = 0;
      for (; rounds < CALIBRATE_ROUNDS && s.xi !== null; rounds++) {
        expect(s.state).toBe(xis[xis.length - 1] < 786 ? 'beyond' : 'step');
        xis = [...xis, s.xi].sort((a, b) => a - b);
        s = searchStepOne(xis, xis.map(at), target, ceiling);
      }
      expect(['bracketed', 'near']).toContain(s.state);
      const xiStar = crossingOf(xis, pava(xis.map(p)), target, true).xi;
      expect(xiStar).toBeGreaterThanOrEqual(320);
      // the crossing's line meets T within the rule's tolerance of the curve (here: the top, 320, near T by 0.1 T)
      expect(Math.abs(p(xiStar) - target)).toBeLessThanOrEqual(Math.max(2 * SE, 0.1 * target));
    }
  });

  it('a true plateau below T: flat without a known limit, ceiling when the limit meets T, the rounds run out when it is above', () => {
    const p = (xi: number) => 0.006 * (1 - Math.exp(-xi / 2));
    const flat = search(p);
    expect(flat).toMatchObject({ state: 'flat', rounds: 0 });
    // the evidence: 5, 10, 20 span 4×, each within 2 SE of the top
    expect(flat.evidence).toMatchObject({ xiFrom: 5, xiTo: 20 });
    expect(flat.evidence!.to - flat.evidence!.from).toBeLessThanOrEqual(2 * Math.SQRT2 * SE);
    const ceiling = search(p, [0.007, 0.008]);
    expect(ceiling).toMatchObject({ state: 'ceiling', rounds: 0, evidence: { from: 0.0075 } });
    // clean LSH's success above T: the success must still rise, so the search doubles to the end
    const exhausted = search(p, [0.05, 0.06]);
    expect(exhausted).toMatchObject({ state: 'beyond', rounds: CALIBRATE_ROUNDS });
    expect(exhausted.xis[exhausted.xis.length - 1]).toBe(20 * 2 ** CALIBRATE_ROUNDS);
  });

  it('a plateau shorter than 4× that then rises: bracketed, not flat', () => {
    // linear to 0.005 at 8, level to 30, then 0.006 per e-fold: crosses T at 30·e^(5/6) ≈ 69
    const p = (xi: number) => (xi <= 8 ? (0.005 * xi) / 8 : xi <= 30 ? 0.005 : 0.005 + 0.006 * Math.log(xi / 30));
    const xiTrue = 30 * Math.exp(5 / 6);
    for (const ceiling of [null, [0.05, 0.06]]) {
      const r = search(p, ceiling);
      expect(['bracketed', 'near']).toContain(r.state);
      expect(r.xis).toContain(40);
      expect(Math.abs(p(r.xiStar) - T)).toBeLessThanOrEqual(NEAR);
      expect(Math.abs(Math.log(r.xiStar / xiTrue))).toBeLessThan(0.2);
    }
  });
});
