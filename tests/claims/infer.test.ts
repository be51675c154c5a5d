/**
 * The attribute inference's claims on constructed per-trial values whose answer is known: a leak
 * is supported, no leak is not, a leak below null or a fall with ξ contradicts; the pairing is by
 * trial (checked against a Welch test and a shifted pairing, which miss what it sees); a p-value
 * against its closed form; Holm's correction; what each claim needs.
 */
import { describe, it, expect } from 'vitest';
import { evaluateClaims } from '../../src/claims/evaluate.js';
import { INFER_CLAIM_IDS } from '../../src/claims/types.js';
import type { InferTrialValue } from '../../src/experiment/trialValues.js';
import { welchTTest } from '../../src/stats/tTests.js';
import { aucRising, inferClaim, inferInputOf, inferValuesOf, lapAt, lshAt, rrAt } from '../helpers/inferClaims.js';

const GRID = { dims: [100, 500], kappa: [20, 50], aux: [0.25, 0.5], trials: 10 };
const LEAKS = 'clean-lsh-leaks-items';
const RISES = 'inference-rises-with-xi';

/** infer.csv's per-trial values of one cell, written out: null's and lsh's auc per trial. */
function handCell(n: number, nul: number[], lsh: number[]): InferTrialValue[] {
  const at = { dataset: 'synth', n, kappa: 20, xi: null, aux: 0.5, prec10: 0, k: 10, targets: 100 };
  return [
    ...nul.map((auc, trial) => ({ ...at, mechanism: 'null', base: null, accountant: null, trial, auc })),
    ...lsh.map((auc, trial) => ({ ...at, mechanism: 'lsh', base: 'lsh', accountant: null, trial, auc })),
  ];
}

describe('clean-lsh-leaks-items', () => {
  it("lsh's auc clearly above null's is supported in every (n, κ, aux) cell", () => {
    const r = inferClaim(inferInputOf({ ...GRID, entries: [lshAt(() => 0.69)] }), LEAKS);
    expect(r.verdict).toBe('supported');
    expect([r.cells_tested, r.cells_for, r.cells_against]).toEqual([8, 8, 0]);
    expect(r.detail).toContain("one-sided paired t-tests over trials against null's auc");
    expect(r.detail).toMatch(/mean auc advantage over null 0\.0\d+–0\.0\d+/);
    expect(r.detail).toContain('supported rests on 8 cells for and none against, of 8 cells, all with power');
  });

  it('no leak (lsh at null in law) is not supported; a leak below null is contradicted; both at once are mixed', () => {
    const none = inferClaim(inferInputOf({ ...GRID, entries: [lshAt(() => 0.66)] }), LEAKS);
    expect(none.verdict).toBe('inconclusive');
    expect(none.cells_for).toBe(0);
    const below = inferClaim(inferInputOf({ ...GRID, entries: [lshAt(() => 0.64)] }), LEAKS);
    expect([below.verdict, below.cells_against]).toEqual(['contradicted', 8]);
    const both = inferClaim(inferInputOf({ ...GRID, entries: [lshAt(({ kappa }) => (kappa === 20 ? 0.69 : 0.64))] }), LEAKS);
    expect(both.verdict).toBe('mixed');
    expect(both.detail).toMatch(/mixed: for in n=\d+ κ=20 \(\d\).*; against in n=\d+ κ=50 \(\d\)/);
  });

  it('pairs trial t of lsh with trial t of null: a leak smaller than the spread between trials is found, a Welch test and a shifted pairing miss it', () => {
    // the trial's targets move lsh and null alike (sd 0.05); lsh's edge is 0.005 (noise 0.002)
    const g = { ...GRID, dims: [100], kappa: [20], aux: [0.5], shared: 0.05, entries: [lshAt(() => 0.665)] };
    const values = inferValuesOf(g);
    expect(inferClaim(inferInputOf(values), LEAKS).verdict).toBe('supported');
    const auc = (m: string) => values.filter((v) => v.mechanism === m).map((v) => v.auc);
    expect(welchTTest(auc('lsh'), auc('null')).pAbove).toBeGreaterThan(0.05);
    // the same values with lsh's trial indices shifted by one: the pairs no longer share their targets
    const shifted = values.map((v) => (v.mechanism === 'lsh' ? { ...v, trial: (v.trial + 1) % g.trials } : v));
    expect(inferClaim(inferInputOf(shifted), LEAKS).verdict).not.toBe('supported');
    // the order the values come in does not matter, only their trial index
    expect(inferClaim(inferInputOf([...values].reverse()), LEAKS)).toEqual(inferClaim(inferInputOf(values), LEAKS));
  });

  it("a cell's p-value is the paired t test's closed form (df 2), and Holm doubles it for two cells", () => {
    // differences 0.01, 0.02, 0.03: mean 0.02, sd 0.01, t = 2√3 on 2 df; P(T2 > t) = (1 − t/√(t² + 2))/2
    const t = 2 * Math.sqrt(3);
    const p = (1 - t / Math.sqrt(t * t + 2)) / 2;
    expect(p).toBeCloseTo(0.0371, 4);
    const cell = (n: number) => handCell(n, [0.6, 0.7, 0.65], [0.61, 0.72, 0.68]);
    const one = inferClaim(inferInputOf(cell(100)), LEAKS);
    expect([one.verdict, one.cells_for]).toEqual(['supported', 1]);
    expect(one.detail).toContain(`n=100 κ=20 aux=0.5 (Δ = +0.02, Holm p = ${Number(p.toPrecision(2))})`);
    const two = inferClaim(inferInputOf([...cell(100), ...cell(200)]), LEAKS);
    expect([two.verdict, two.cells_for, two.cells_tested]).toEqual(['inconclusive', 0, 2]);
  });

  it("a cell whose paired differences have no variance takes the t test's limit", () => {
    const r = inferClaim(inferInputOf(handCell(100, [0.6, 0.7, 0.65], [0.62, 0.72, 0.67])), LEAKS);
    expect(r.verdict).toBe('supported');
    expect(r.detail).toContain('1 cell without variance');
  });

  it('needs inference values, an lsh entry, null at the same cell and 2 trials; a folder without them lists neither claim', () => {
    const withoutInfer = { ...inferInputOf({ ...GRID, entries: [lshAt(() => 0.69)] }), infer: [] };
    expect(evaluateClaims(withoutInfer).filter((r) => (INFER_CLAIM_IDS as readonly string[]).includes(r.id))).toEqual([]);
    expect(inferClaim(inferInputOf({ ...GRID, entries: [rrAt(aucRising)] }), LEAKS).detail).toBe('needs an lsh entry');
    const noNull = inferValuesOf({ ...GRID, entries: [lshAt(() => 0.69)] }).filter((v) => v.mechanism !== 'null');
    expect(inferClaim(inferInputOf(noNull), LEAKS).detail).toBe('needs the null baseline');
    // null at aux 0.25 only, lsh at aux 0.5 only
    const otherAux = inferValuesOf({ ...GRID, entries: [lshAt(() => 0.69)] }).filter((v) => (v.mechanism === 'null' ? v.aux === 0.25 : v.aux === 0.5));
    expect(inferClaim(inferInputOf(otherAux), LEAKS).detail).toBe('needs an lsh entry and the null baseline at the same n, κ and aux');
    expect(inferClaim(inferInputOf({ ...GRID, trials: 1, entries: [lshAt(() => 0.69)] }), LEAKS).detail).toMatch(/^needs at least 2 trials/);
  });

  it('reads neither prior nor a privatized mechanism as the clean code', () => {
    // prior far above, lshrr far above: lsh alone, at null's level, decides
    const r = inferClaim(inferInputOf({ ...GRID, priorAuc: 0.95, entries: [lshAt(() => 0.66), rrAt(() => 0.9)] }), LEAKS);
    expect(r.cells_tested).toBe(8);
    expect(r.cells_for).toBe(0);
  });
});

describe('inference-rises-with-xi', () => {
  it('auc rising with ξ is supported; paired tests see a rise smaller than the spread between trials', () => {
    const r = inferClaim(inferInputOf({ ...GRID, shared: 0.05, entries: [rrAt(aucRising)] }), RISES);
    expect(r.verdict).toBe('supported');
    // 3 steps × n 2 × κ 2 × aux 2
    expect([r.cells_tested, r.cells_for, r.cells_against]).toEqual([24, 24, 0]);
    expect(r.detail).toContain('lshrr: rises in 24 of 24 steps, falls in 0');
  });

  it('a fall contradicts; a fall of one mechanism beside rises of another is mixed and names it', () => {
    const falling = ({ xi }: { xi: number | null }) => 0.7 - 0.01 * [0, 1, 5, 20].indexOf(xi!);
    const down = inferClaim(inferInputOf({ ...GRID, entries: [rrAt(falling)] }), RISES);
    expect([down.verdict, down.cells_for, down.cells_against]).toEqual(['contradicted', 0, 24]);
    const dip = lapAt((p) => (p.xi === 20 ? 0.66 : aucRising(p)));
    const r = inferClaim(inferInputOf({ ...GRID, entries: [rrAt(aucRising), dip] }), RISES);
    expect(r.verdict).toBe('mixed');
    expect(r.cells_against).toBe(8);
    expect(r.detail).toContain('laplsh: rises in 16 of 24 steps, falls in 8');
    expect(r.detail).toMatch(/against: laplsh n=\d+ κ=\d+ aux=\S+ ξ=5→20/);
  });

  it('flat auc is not supported', () => {
    const r = inferClaim(inferInputOf({ ...GRID, entries: [rrAt(() => 0.66)] }), RISES);
    expect(r.verdict).toBe('inconclusive');
  });

  it('steps pair only the same n, κ and aux; mechanisms without ξ and the baselines are not steps', () => {
    expect(inferClaim(inferInputOf({ ...GRID, entries: [lshAt(() => 0.69)] }), RISES).detail).toBe('needs a mechanism with ξ');
    // ξ = 0 at aux 0.25 only, ξ = 1 at aux 0.5 only: no step shares its cell
    const apart = inferValuesOf({ ...GRID, entries: [rrAt(aucRising, [0, 1])] }).filter((v) => v.xi === null || (v.xi === 0) === (v.aux === 0.25));
    expect(inferClaim(inferInputOf(apart), RISES).detail).toBe('needs a mechanism with inference values at two ξ with the same n, κ and aux');
  });
});
