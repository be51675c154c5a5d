/**
 * The verdict rule on synthetic per-trial values whose truth is known: clear wins, clear losses, a
 * null effect (inconclusive at the nominal rate over many simulated families), zero-variance cells,
 * what each claim needs from the grid, and the accountant's worked examples.
 */
import { describe, it, expect } from 'vitest';
import { evaluateClaims } from '../../src/claims/evaluate.js';
import { CLAIM_IDS, type ClaimResult } from '../../src/claims/types.js';
import { accountEpsilon } from '../../src/privacy/accountants.js';
import { inputOf, nnRows, type GridSpec, type EntrySpec } from '../helpers/claims.js';

const lshrr = (level: EntrySpec['level'], noise?: number): EntrySpec => ({ label: 'lshrr', base: 'lshrr', level, noise });
const laplsh = (level: EntrySpec['level'], noise?: number): EntrySpec => ({ label: 'laplsh', base: 'laplsh', level, noise });
const lsh = (level: EntrySpec['level']): EntrySpec => ({ label: 'lsh', base: 'lsh', usesXi: false, level });

function claim(results: ClaimResult[], id: string, dataset = 'synth'): ClaimResult {
  const r = results.find((x) => x.id === id && x.dataset === dataset);
  if (!r) throw new Error(`no result for ${id} on ${dataset}`);
  return r;
}

const GRID: Omit<GridSpec, 'entries'> = { dims: [100, 500], kappa: [10, 20], k: [1, 5], xi: [0, 2, 20], trials: 10 };

describe('evaluateClaims: shape', () => {
  it('reports every claim id once per data set, with the JSON fields', () => {
    const input = inputOf({ ...GRID, entries: [lshrr(() => 0.1)] });
    input.config.datasets = ['a', 'synth'];
    const results = evaluateClaims(input);
    expect(results.map((r) => `${r.dataset}/${r.id}`)).toEqual([...CLAIM_IDS.map((id) => `a/${id}`), ...CLAIM_IDS.map((id) => `synth/${id}`)]);
    for (const r of results) {
      expect(Object.keys(r).sort()).toEqual(['cells_against', 'cells_for', 'cells_tested', 'dataset', 'detail', 'id', 'statement', 'verdict']);
      expect(r.cells_for + r.cells_against).toBeLessThanOrEqual(r.cells_tested);
      if (r.verdict === 'not-tested') expect(r.detail).toMatch(/^needs /);
    }
  });

  it('rejects alpha outside (0, 1)', () => {
    const input = inputOf({ ...GRID, entries: [] });
    expect(() => evaluateClaims(input, { alpha: 0 })).toThrow(/alpha/);
    expect(() => evaluateClaims(input, { alpha: 1.5 })).toThrow(/alpha/);
  });
});

describe('lshrr-beats-laplsh: the rule on paired cells', () => {
  it('a clear win is supported in every cell with ξ > 0', () => {
    const r = claim(evaluateClaims(inputOf({ ...GRID, entries: [lshrr(() => 0.1), laplsh(() => 0.12)] })), 'lshrr-beats-laplsh');
    expect(r.verdict).toBe('supported');
    // n 100, 500 × κ 10, 20 × k 1, 5 × ξ 2, 20
    expect(r.cells_tested).toBe(16);
    expect(r.cells_for).toBe(16);
    expect(r.cells_against).toBe(0);
    expect(r.detail).toContain('paired');
  });

  it('a clear loss is contradicted', () => {
    const r = claim(evaluateClaims(inputOf({ ...GRID, entries: [lshrr(() => 0.12), laplsh(() => 0.1)] })), 'lshrr-beats-laplsh');
    expect(r.verdict).toBe('contradicted');
    expect(r.cells_against).toBe(16);
    expect(r.detail).toMatch(/against: n=\d+/);
  });

  it('pairing cancels the shared trial effect: a small win hidden by between-trial spread is still found', () => {
    // shared sd 0.05 ≫ effect 0.003 ≫ own noise 0.0005: Welch could not see it, the paired test does
    const r = claim(evaluateClaims(inputOf({ ...GRID, shared: 0.05, entries: [lshrr(() => 0.1, 0.0005), laplsh(() => 0.103, 0.0005)] })), 'lshrr-beats-laplsh');
    expect(r.verdict).toBe('supported');
    expect(r.cells_for).toBe(16);
  });

  it('only n ≥ 100 and ξ > 0 count; n = 50 alone is not-tested, naming it', () => {
    const r = claim(evaluateClaims(inputOf({ ...GRID, dims: [50], entries: [lshrr(() => 0.1), laplsh(() => 0.12)] })), 'lshrr-beats-laplsh');
    expect(r.verdict).toBe('not-tested');
    expect(r.detail).toBe('needs n ≥ 100');
  });

  it("identical sides (zero-variance differences, no difference) are no evidence under the t test's limit, and the detail says so", () => {
    const input = inputOf({ ...GRID, entries: [lshrr(() => 0.1)] });
    const twin = input.values.map((v) => ({ ...v, mechanism: 'laplsh', base: 'laplsh', accountant: null }));
    const r = claim(evaluateClaims({ ...input, values: [...input.values, ...twin] }), 'lshrr-beats-laplsh');
    expect(r.verdict).toBe('inconclusive');
    expect(r.cells_tested).toBe(16);
    expect(r.cells_for + r.cells_against).toBe(0);
    expect(r.detail).toContain("16 cells without variance (the t test's limit: p = 0 where every trial is beyond, else 1)");
  });

  it("a zero-variance cell with every trial beyond counts as for (the t test's limit, p = 0)", () => {
    const input = inputOf({ ...GRID, entries: [lshrr(() => 0.1)] });
    // LapLSH exactly 0.02 above LSHRR in every trial: no variance in the differences, all one way
    const twin = input.values.map((v) => ({ ...v, mechanism: 'laplsh', base: 'laplsh', accountant: null, loss: v.loss + 0.02 }));
    const r = claim(evaluateClaims({ ...input, values: [...input.values, ...twin] }), 'lshrr-beats-laplsh');
    expect(r.verdict).toBe('supported');
    expect(r.cells_for).toBe(16);
    expect(r.detail).toContain('16 cells without variance');
  });

  it('a single trial cannot be tested: not-tested, needing trials', () => {
    const r = claim(evaluateClaims(inputOf({ ...GRID, trials: 1, entries: [lshrr(() => 0.1), laplsh(() => 0.12)] })), 'lshrr-beats-laplsh');
    expect(r.verdict).toBe('not-tested');
    expect(r.detail).toMatch(/needs at least 2 trials/);
  });

  it('uses only the paper accountant for LSHRR', () => {
    const exactOnly: EntrySpec = { label: 'lshrr-exact', base: 'lshrr', accountant: 'exact', level: () => 0.1 };
    const r = claim(evaluateClaims(inputOf({ ...GRID, entries: [exactOnly, laplsh(() => 0.12)] })), 'lshrr-beats-laplsh');
    expect(r.verdict).toBe('not-tested');
    expect(r.detail).toBe('needs an lshrr entry with the paper accountant');
  });
});

describe('the null effect stays inconclusive at the nominal rate', () => {
  it('over 400 simulated families of 16 cells, the false-contradiction and false-support rates are ≤ α within Monte Carlo error', () => {
    // 400 families: the rate's se at 0.05 is sqrt(.05·.95/400) ≈ 0.011; allow α + 3 se
    const FAMILIES = 400;
    const alpha = 0.05;
    let contradicted = 0;
    let supported = 0;
    for (let f = 0; f < FAMILIES; f++) {
      const r = claim(evaluateClaims(inputOf({ ...GRID, seed: `null-family-${f}`, entries: [lshrr(() => 0.1), laplsh(() => 0.1)] }), { alpha }), 'lshrr-beats-laplsh');
      if (r.verdict === 'contradicted') contradicted++;
      if (r.verdict === 'supported') supported++;
    }
    const tol = 3 * Math.sqrt((alpha * (1 - alpha)) / FAMILIES);
    expect(contradicted / FAMILIES).toBeLessThanOrEqual(alpha + tol);
    expect(supported / FAMILIES).toBeLessThanOrEqual(alpha + tol);
    // and the rule is not vacuous: some false alarms do happen (Holm is not infinitely conservative)
    expect(contradicted + supported).toBeGreaterThan(0);
  });
});

describe('the other comparative claims', () => {
  it('laplsh-beats-lshrr-small-n needs n = 50 and κ = 50, and tests only that cell row', () => {
    const missing = claim(evaluateClaims(inputOf({ ...GRID, entries: [lshrr(() => 0.1), laplsh(() => 0.12)] })), 'laplsh-beats-lshrr-small-n');
    expect(missing.verdict).toBe('not-tested');
    expect(missing.detail).toBe('needs n = 50 and κ = 50');
    const g = { ...GRID, dims: [50, 100], kappa: [10, 50], entries: [lshrr((c: { n: number }) => (c.n === 50 ? 0.15 : 0.1)), laplsh(() => 0.12)] };
    const r = claim(evaluateClaims(inputOf(g)), 'laplsh-beats-lshrr-small-n');
    expect(r.verdict).toBe('supported');
    expect(r.cells_tested).toBe(4); // k 1, 5 × ξ 2, 20 at n = 50, κ = 50
  });

  it('lsh-degrades-with-shorter-codes: Welch across κ, per n and k', () => {
    const entries = [lsh((c) => 0.2 - c.kappa / 1000)];
    const r = claim(evaluateClaims(inputOf({ ...GRID, kappa: [10, 20, 50], entries })), 'lsh-degrades-with-shorter-codes');
    expect(r.verdict).toBe('supported');
    expect(r.cells_tested).toBe(2 * 2 * 2); // 2 adjacent κ pairs × n 100, 500 × k 1, 5
    expect(r.detail).toContain('Welch');
    const flat = claim(evaluateClaims(inputOf({ ...GRID, kappa: [10], entries })), 'lsh-degrades-with-shorter-codes');
    expect(flat.detail).toBe('needs two or more κ');
  });

  it('longer-codes-win-at-high-xi compares κ = 20 and 50 with κ = 10 at the largest ξ, and names a largest ξ other than 20', () => {
    const entries = [lshrr((c) => (c.xi === 10 ? 0.1 - c.kappa / 2000 : 0.1))];
    const r = claim(evaluateClaims(inputOf({ ...GRID, kappa: [10, 20, 50], xi: [0, 2, 10], entries })), 'longer-codes-win-at-high-xi');
    expect(r.verdict).toBe('supported');
    expect(r.cells_tested).toBe(2 * 2 * 2);
    expect(r.detail).toContain("largest ξ of the grid is 10 (the paper's: 20)");
  });

  it('lshrr-converges-to-lsh: falling loss that approaches LSH is supported; a rise is contradicted', () => {
    const falling = [lshrr((c) => 0.08 + 0.04 / (1 + (c.xi ?? 0))), lsh(() => 0.08)];
    const r = claim(evaluateClaims(inputOf({ ...GRID, entries: falling })), 'lshrr-converges-to-lsh');
    expect(r.verdict).toBe('supported');
    // 2 ξ steps + 1 closeness cell, per n, κ, k
    expect(r.cells_tested).toBe(3 * 8);
    expect(r.detail).toContain('steps up in ξ: loss falls in');
    expect(r.detail).toContain('closer to LSH at the largest ξ in 8 of 8');
    const rising = [lshrr((c) => (c.xi === 20 ? 0.13 : 0.1)), lsh(() => 0.08)];
    expect(claim(evaluateClaims(inputOf({ ...GRID, entries: rising })), 'lshrr-converges-to-lsh').verdict).toBe('contradicted');
  });

  it('lshrr-beats-random-at-xi-2 needs ξ = 2 and ξ = 0', () => {
    const entries = [lshrr((c) => (c.xi === 0 ? 0.12 : 0.1))];
    expect(claim(evaluateClaims(inputOf({ ...GRID, entries })), 'lshrr-beats-random-at-xi-2').verdict).toBe('supported');
    const r = claim(evaluateClaims(inputOf({ ...GRID, xi: [1, 5], entries })), 'lshrr-beats-random-at-xi-2');
    expect(r.detail).toBe('needs ξ = 2 and ξ = 0');
  });

  it('rappor-inapplicable: supported only when every cell is shown equivalent (TOST), contradicted beyond the margin', () => {
    const random = lshrr(() => 0.1, 0.0005);
    const rv = (level: number, noise: number): EntrySpec => ({ label: 'rappor-vector', base: 'rappor-vector', level: () => level, noise });
    // RAPPOR draws no hyperplanes: no effect shared with LSHRR's trial (shared: 0), Welch
    const G = { ...GRID, shared: 0 };
    const eq = claim(evaluateClaims(inputOf({ ...G, entries: [random, rv(0.1, 0.0005)] })), 'rappor-inapplicable');
    expect(eq.verdict).toBe('supported');
    expect(eq.cells_for).toBe(eq.cells_tested);
    expect(eq.cells_tested).toBe(3 * 8); // every ξ (0, 2, 20) per n, κ, k
    // noisy: no difference, but equivalence within 2% cannot be shown
    const noisy = claim(evaluateClaims(inputOf({ ...G, entries: [random, rv(0.1, 0.02)] })), 'rappor-inapplicable');
    expect(noisy.verdict).toBe('inconclusive');
    const below = claim(evaluateClaims(inputOf({ ...G, entries: [random, rv(0.09, 0.0005)] })), 'rappor-inapplicable');
    expect(below.verdict).toBe('contradicted');
    expect(below.detail).toContain('TOST');
  });

  it('exact-accountant-gain pairs exact with paper at the same ξ, and says what it needs', () => {
    const exact: EntrySpec = { label: 'lshrr-exact', base: 'lshrr', accountant: 'exact', level: (c) => (c.xi === 0 ? 0.12 : 0.09) };
    const r = claim(evaluateClaims(inputOf({ ...GRID, entries: [lshrr((c) => (c.xi === 0 ? 0.12 : 0.1)), exact] })), 'exact-accountant-gain');
    expect(r.verdict).toBe('supported');
    expect(r.cells_tested).toBe(16); // ξ > 0 only
    const none = claim(evaluateClaims(inputOf({ ...GRID, entries: [lshrr(() => 0.1)] })), 'exact-accountant-gain');
    expect(none.detail).toBe('needs an lshrr entry with accountant: exact');
  });

  it('lshrr-beats-jl-gaussian pairs LSHRR with jl-gaussian at its default guarantee only, cell by cell', () => {
    const jl = (level: EntrySpec['level'], accountant: string | null = null, label = 'jl-gaussian'): EntrySpec => ({ label, base: 'jl-gaussian', accountant, level });
    const win = claim(evaluateClaims(inputOf({ ...GRID, entries: [lshrr(() => 0.1), jl(() => 0.12)] })), 'lshrr-beats-jl-gaussian');
    expect(win.verdict).toBe('supported');
    expect(win.cells_tested).toBe(16);
    expect(claim(evaluateClaims(inputOf({ ...GRID, entries: [lshrr(() => 0.12), jl(() => 0.1)] })), 'lshrr-beats-jl-gaussian').verdict).toBe('contradicted');
    // an every-w entry is a stricter statement, not the same ξ: it takes no part, even when it loses
    const strict = claim(evaluateClaims(inputOf({ ...GRID, entries: [lshrr(() => 0.12), jl(() => 0.1), jl(() => 0.2, 'every-w', 'jl-w')] })), 'lshrr-beats-jl-gaussian');
    expect(strict.verdict).toBe('contradicted');
    expect(strict.cells_tested).toBe(16);
    const only = claim(evaluateClaims(inputOf({ ...GRID, entries: [lshrr(() => 0.1), jl(() => 0.2, 'every-w', 'jl-w')] })), 'lshrr-beats-jl-gaussian');
    expect(only.detail).toBe('needs a jl-gaussian entry at its default guarantee');
  });
});

describe('nn-share', () => {
  const g: GridSpec = { ...GRID, dims: [100, 500, 1000], entries: [] };

  it('with every user a query, compares the shares directly and shows the paper numbers beside them', () => {
    const nn = nnRows('synth', [100, 500, 1000], [200, 200, 200], [86, 50, 32]);
    const r = claim(evaluateClaims(inputOf(g, { nn, config: { queries: 0 } })), 'nn-share');
    expect(r.verdict).toBe('supported');
    expect(r.cells_tested).toBe(2);
    expect(r.cells_for).toBe(2);
    expect(r.detail).toContain('n=100: 43.0% of 200 (paper, Foursquare: 43%)');
    expect(r.detail).toContain('n=1000: 16.0% of 200 (paper, Foursquare: 16%)');
    expect(r.detail).toContain('exact');
    const up = nnRows('synth', [100, 500, 1000], [200, 200, 200], [50, 60, 40]);
    const u = claim(evaluateClaims(inputOf(g, { nn: up, config: { queries: 0 } })), 'nn-share');
    // a rise from 100 to 500 and a fall from 500 to 1000: both ways, mixed, each step named
    expect(u.verdict).toBe('mixed');
    expect(u.cells_against).toBe(1);
    expect(u.detail).toContain('mixed: for in n=500→1000 (1); against in n=100→500 (1)');
    const rising = nnRows('synth', [100, 500, 1000], [200, 200, 200], [40, 50, 60]);
    expect(claim(evaluateClaims(inputOf(g, { nn: rising, config: { queries: 0 } })), 'nn-share').verdict).toBe('contradicted');
  });

  it('counts a distance equal to d as not below it (strict, as in Fig. 1)', () => {
    const nn = [...nnRows('synth', [100], [10], [0]).map((r, i) => ({ ...r, distance: i < 5 ? 0.1 : 0.3 })), ...nnRows('synth', [500], [10], [0])];
    const r = claim(evaluateClaims(inputOf(g, { nn, config: { queries: 0 } })), 'nn-share');
    expect(r.detail).toContain('n=100: 0.0% of 10');
  });

  it('with sampled queries, tests the drop (Welch on indicators) and knows exactness from the population', () => {
    const nn = nnRows('synth', [100, 1000], [300, 300], [130, 50]);
    const sampled = claim(evaluateClaims(inputOf(g, { nn })), 'nn-share');
    expect(sampled.verdict).toBe('supported');
    expect(sampled.detail).toContain('Welch');
    const input = inputOf(g, { nn });
    input.population = [
      { dataset: 'synth', n: 100, users: 300 },
      { dataset: 'synth', n: 1000, users: 300 },
    ];
    expect(claim(evaluateClaims(input), 'nn-share').detail).toContain('every user is a query');
  });

  it('needs distances at two n', () => {
    const r = claim(evaluateClaims(inputOf(g, { nn: nnRows('synth', [100], [10], [3]) })), 'nn-share');
    expect(r.detail).toBe('needs 1-NN distances at two or more n (has n = 100 only)');
  });
});

describe('claims computed from the accountant', () => {
  it('flip-probability-example: κ = 20, ξ = 5, d = 0.05 rounds to 0.27, value shown', () => {
    const r = claim(evaluateClaims(inputOf({ ...GRID, entries: [] })), 'flip-probability-example');
    const acc = accountEpsilon('paper', { xi: 5, kappa: 20, p: 0.05, delta: 0.01 });
    // the flip probability of randomized response at the per-bit ε
    expect(acc.flip).toBeCloseTo(1 / (1 + Math.exp(acc.epsilonBit)), 12);
    expect(r.verdict).toBe('supported');
    expect(r.cells_tested).toBe(1);
    expect(r.detail).toContain(String(Number(acc.flip.toPrecision(6))));
  });

  it('ldp-equivalent: κ = 50, ξ = 20 gives ≈ 120 (d = 0.05) and ≈ 80 (d = 0.1)', () => {
    const r = claim(evaluateClaims(inputOf({ ...GRID, entries: [] })), 'ldp-equivalent');
    expect(r.verdict).toBe('supported');
    expect(r.cells_for).toBe(2);
    expect(r.detail).toMatch(/d = 0\.05: 119\.\d+ \(paper ≈ 120\)/);
    expect(r.detail).toMatch(/d = 0\.1: 80\.\d+ \(paper ≈ 80\)/);
  });
});

describe('metric', () => {
  it('a jaccard data set leaves the angular experiments not-tested but still computes the worked examples', () => {
    const results = evaluateClaims(inputOf({ ...GRID, entries: [lshrr(() => 0.1), laplsh(() => 0.12)] }, { config: { metric: { synth: 'jaccard' } } }));
    expect(claim(results, 'lshrr-beats-laplsh').verdict).toBe('not-tested');
    expect(claim(results, 'lshrr-beats-laplsh').detail).toContain('metric jaccard');
    expect(claim(results, 'ldp-equivalent').verdict).toBe('supported');
  });
});
