/**
 * The Laplace per-position loss bounds (src/privacy/laplaceLoss.ts) against a Monte Carlo of the
 * loss itself (4 standard errors), their order and convergence in the grid, their limits, and the
 * failing ε the audit judges noisy releases by.
 */
import { describe, expect, it } from 'vitest';
import { laplaceFailingEpsilon, laplacePositionTail } from '../../src/privacy/laplaceLoss.js';
import { tailLimit } from '../../src/privacy/exactLoss.js';
import { makeRng } from '../../src/random/rng.js';
import { laplaceSource } from '../../src/random/laplace.js';

/** Pr[L > ξ] by simulation: D ~ Bin(κ, p) positions, each loss ε(|N + 1| − |N|) for N ~ Laplace(1/ε). */
function simulatedTail(kappa: number, p: number, eps: number, xi: number, n: number, seed: string): number {
  const rng = makeRng(seed);
  const laplace = laplaceSource(rng);
  let hits = 0;
  for (let i = 0; i < n; i++) {
    let loss = 0;
    for (let j = 0; j < kappa; j++) {
      if (rng() >= p) continue;
      const noise = laplace() / eps;
      loss += eps * (Math.abs(noise + 1) - Math.abs(noise));
    }
    if (loss > xi) hits++;
  }
  return hits / n;
}

describe('laplacePositionTail', () => {
  it('brackets a simulation of the loss within 4 standard errors (κ 20, p 0.1, ξ 5; κ 10, p 0.3, ξ 2)', () => {
    for (const [kappa, p, eps, xi] of [
      [20, 0.1, 2, 5],
      [20, 0.1, 1, 5],
      [10, 0.3, 0.5, 2],
    ]) {
      const n = 60000;
      const sim = simulatedTail(kappa, p, eps, xi, n, `mc-${kappa}-${eps}`);
      const { lower, upper } = laplacePositionTail(kappa, p, eps, xi);
      const se = Math.sqrt(Math.max(sim * (1 - sim), 1 / n) / n);
      expect(lower, `κ ${kappa} ε ${eps}`).toBeLessThanOrEqual(upper);
      expect(sim, `κ ${kappa} ε ${eps}: ${sim} in [${lower}, ${upper}]`).toBeGreaterThanOrEqual(lower - 4 * se);
      expect(sim).toBeLessThanOrEqual(upper + 4 * se);
    }
  });

  it('narrows as the grid refines and the finer bounds lie inside the coarser ones', () => {
    const coarse = laplacePositionTail(20, 0.1, 2, 5, 16);
    const fine = laplacePositionTail(20, 0.1, 2, 5, 256);
    expect(fine.upper - fine.lower).toBeLessThan((coarse.upper - coarse.lower) / 4);
    expect(fine.lower).toBeGreaterThanOrEqual(coarse.lower - 1e-15);
    expect(fine.upper).toBeLessThanOrEqual(coarse.upper + 1e-15);
  });

  it('limits: no noise loses on any differing position (the tail limit), no loss at ε 0 or below ξ/κ', () => {
    expect(laplacePositionTail(20, 0.1, Infinity, 5)).toEqual({ lower: tailLimit(20, 0.1), upper: tailLimit(20, 0.1) });
    expect(laplacePositionTail(20, 0.1, 0, 5)).toEqual({ lower: 0, upper: 0 });
    expect(laplacePositionTail(20, 0.1, 5 / 20, 5).lower).toBe(0);
    // the upper bound rounds up: at most the mass of every position at its largest loss
    expect(laplacePositionTail(20, 0.1, 5 / 20, 5).upper).toBeLessThan(1e-12);
  });

  it('never decreases in ε (lower bound, a scan)', () => {
    let last = 0;
    for (let eps = 0.1; eps < 6; eps *= 1.15) {
      const t = laplacePositionTail(20, 0.1, eps, 5).lower;
      expect(t).toBeGreaterThanOrEqual(last - 1e-15);
      last = t;
    }
  });
});

describe('laplaceFailingEpsilon', () => {
  it('is where the lower bound first exceeds δ (relative 1e-6 on each side), above ξ/κ; Infinity when no ε fails', () => {
    for (const [xi, kappa, p] of [
      [5, 20, 0.1],
      [2, 10, 0.05],
      [20, 50, 0.05],
    ]) {
      const e = laplaceFailingEpsilon(xi, kappa, p, 0.01);
      expect(e).toBeGreaterThan(xi / kappa);
      expect(laplacePositionTail(kappa, p, e, xi).lower).toBeGreaterThan(0.01);
      expect(laplacePositionTail(kappa, p, e * (1 - 1e-6), xi).lower).toBeLessThanOrEqual(0.01);
    }
    // (1 − p)^κ >= 1 − δ: even no noise meets the claim
    expect(laplaceFailingEpsilon(5, 2, 0.001, 0.01)).toBe(Infinity);
  });
});
