/**
 * The linkage attack's claims on constructed per-trial values whose answer is known: clear
 * effects decide them, null data stay inconclusive at the nominal rate (Monte Carlo over many
 * simulated families, fixed seeds), Holm's correction changes a verdict where it should, and each
 * claim says what it needs.
 */
import { describe, it, expect } from 'vitest';
import { nearest } from '../../src/util/nearest.js';
import type { AttackTrialValue, RecommendTrialValue } from '../../src/experiment/trialValues.js';
import { claim, inputOf, lap, lsh, only, rising, rr } from '../helpers/attackClaims.js';
import { evaluateClaims } from '../../src/claims/evaluate.js';
import { ATTACK_CLAIM_IDS, MATCHED_CLAIM_IDS } from '../../src/claims/types.js';
import { oneSampleTTest } from '../../src/stats/tTests.js';
import { makeRng } from '../../src/random/rng.js';
import { normalSource } from '../../src/random/samplers.js';

const GRID = { dims: [100, 500], kappa: [20, 50], known: [0.5, 1], trials: 10 };

describe('clean-lsh-reidentifies', () => {
  it('reid@1 far above 10/N is supported in every (n, κ, known) cell', () => {
    const r = claim(inputOf({ ...GRID, entries: [lsh(() => 0.3)] }), 'clean-lsh-reidentifies');
    expect(r.verdict).toBe('supported');
    expect([r.cells_tested, r.cells_for, r.cells_against]).toEqual([8, 8, 0]);
    expect(r.detail).toContain('one-sample t-tests');
    // 10/N: N = 1000 at n = 100, 5000 at n = 500
    expect(r.detail).toContain('10/N 0.002–0.01');
  });

  it('reid@1 below 10/N is contradicted', () => {
    const r = claim(inputOf({ ...GRID, users: () => 50, entries: [lsh(() => 0.05, 0.005)] }), 'clean-lsh-reidentifies');
    // 10/N = 0.2
    expect(r.verdict).toBe('contradicted');
    expect(r.cells_against).toBe(8);
  });

  it('needs attack values and an lsh entry, in words; a folder without attack values lists no attack claim', () => {
    expect((only(inputOf({ ...GRID, entries: [] }), 'clean-lsh-reidentifies') as unknown as { detail: string }).detail).toBe('needs linkage-attack values (config attack) and an lsh entry');
    expect(evaluateClaims(inputOf({ ...GRID, entries: [] })).filter((r) => ATTACK_CLAIM_IDS.includes(r.id as (typeof ATTACK_CLAIM_IDS)[number]))).toEqual([]);
    const noLsh = inputOf({ ...GRID, entries: [{ label: 'lshrr', base: 'lshrr', xis: [1], reid: () => 0.2 }] });
    expect(claim(noLsh, 'clean-lsh-reidentifies').detail).toBe('needs an lsh entry');
    expect(claim(inputOf({ ...GRID, trials: 1, entries: [lsh(() => 0.3)] }), 'clean-lsh-reidentifies').detail).toMatch(/^needs at least 2 trials/);
  });

  it("Holm's correction: two cells at raw p ≈ 0.03 are not enough, one alone is", () => {
    // ten trials at 10/N + δ ± a (alternating): t = δ/(a·√(10/9)/√10)
    const mu = 10 / 1000;
    const trials = Array.from({ length: 10 }, (_, i) => mu + 0.00215 + (i % 2 ? 0.003 : -0.003));
    const p = oneSampleTTest(trials, mu).pAbove;
    expect(p).toBeGreaterThan(0.025);
    expect(p).toBeLessThan(0.05);
    const cellValues = (n: number): AttackTrialValue[] =>
      trials.map((reid1, trial) => ({
        dataset: 'synth',
        n,
        kappa: 20,
        mechanism: 'lsh',
        base: 'lsh',
        accountant: null,
        xi: null,
        known: 0.5,
        trial,
        reid1,
        reid10: reid1,
        users: 1000,
        targets: 1000,
      }));
    const base = inputOf({ ...GRID, entries: [] });
    const one = claim({ ...base, attack: cellValues(100) }, 'clean-lsh-reidentifies');
    expect([one.verdict, one.cells_for]).toEqual(['supported', 1]);
    const two = claim({ ...base, attack: [...cellValues(100), ...cellValues(200)] }, 'clean-lsh-reidentifies');
    // Holm: the smaller p times 2 > 0.05
    expect([two.verdict, two.cells_for, two.cells_tested]).toEqual(['inconclusive', 0, 2]);
  });
});

describe('reid-rises-with-xi', () => {
  it('reid@1 rising with ξ is supported; paired tests see a rise smaller than the spread between trials', () => {
    const r = claim(inputOf({ ...GRID, shared: 0.2, entries: [{ ...rr(rising), noise: 0.005 }] }), 'reid-rises-with-xi');
    expect(r.verdict).toBe('supported');
    // 3 steps × n 2 × κ 2 × known 2
    expect([r.cells_tested, r.cells_for, r.cells_against]).toEqual([24, 24, 0]);
    expect(r.detail).toContain('lshrr: rises in 24 of 24 steps, falls in 0');
  });

  it('a fall at one step of one mechanism beside rises elsewhere is mixed, and names the mechanism each way', () => {
    const falling = lap((p) => (p.xi === 20 ? 0.06 : rising(p)));
    const r = claim(inputOf({ ...GRID, entries: [rr(rising), falling] }), 'reid-rises-with-xi');
    expect(r.verdict).toBe('mixed');
    expect(r.cells_against).toBe(8);
    expect(r.detail).toMatch(/mixed: for in lshrr n=\d+ κ=\d+ \(\d+\), .*; against in laplsh n=\d+ κ=\d+ \(\d+\)/);
    expect(r.detail).toContain('laplsh: rises in 16 of 24 steps, falls in 8');
    expect(r.detail).toMatch(/against: laplsh n=\d+ κ=\d+ known=\S+ ξ=5→20/);
  });

  it('mechanisms without ξ are not tested; without any it says what it needs', () => {
    expect(claim(inputOf({ ...GRID, entries: [lsh(() => 0.3)] }), 'reid-rises-with-xi').detail).toBe('needs a mechanism with ξ');
  });
});

describe('lshrr-frontier-dominates-laplsh', () => {
  const FRONT = { dims: [100], kappa: [20], known: [0.5, 1], trials: 10, shared: 0 };
  const NDCG_GRID = {
    ...FRONT,
    entries: [
      rr(
        () => 0.01,
        ({ xi }) => (xi === 1 ? 0.08 : 0.1),
        [1],
      ),
      lap(
        () => 0.01,
        () => 0.1,
        [5],
      ),
    ],
  };
  /** NDCG@10 (and @20) of the two points of NDCG_GRID: LSHRR ξ = 1 worse than LapLSH ξ = 5 */
  const ndcgValues = (): RecommendTrialValue[] => {
    const z = normalSource(makeRng('ndcg'));
    const recommend: RecommendTrialValue[] = [];
    for (const [mechanism, base, accountant, xi, ndcg] of [
      ['lshrr', 'lshrr', 'paper', 1, 0.2],
      ['laplsh', 'laplsh', null, 5, 0.3],
    ] as const) {
      for (const top of [10, 20]) {
        for (let trial = 0; trial < 10; trial++) {
          const v = (top === 10 ? ndcg : 1 - ndcg) + 0.01 * z();
          recommend.push({ dataset: 'synth', n: 100, kappa: 20, k: 10, mechanism, base, accountant, xi, top, trial, hr: v, ndcg: v, itemRecall: v, queries: 50 });
        }
      }
    }
    return recommend;
  };

  it('an LSHRR point as private and more useful than each LapLSH point supports it', () => {
    // LapLSH at chance on both axes; LSHRR at ξ = 1 as private, lower loss
    const r = claim(
      inputOf({
        ...FRONT,
        entries: [
          rr(
            ({ xi }) => (xi! <= 1 ? 0.01 : 0.01 + 0.02 * xi!),
            ({ xi }) => (xi === 1 ? 0.08 : 0.1 - 0.001 * xi!),
          ),
          lap(
            () => 0.01,
            () => 0.1,
          ),
        ],
      }),
      'lshrr-frontier-dominates-laplsh',
    );
    expect(r.verdict).toBe('supported');
    expect([r.cells_tested, r.cells_for, r.cells_against]).toEqual([4, 4, 0]);
    expect(r.detail).toContain('reid@1 at known = 0.5 (higher is worse) and utility loss at k = 10 (higher is worse)');
    expect(r.detail).toMatch(/vs LSHRR ξ=1/);
  });

  it('a LapLSH point that every LSHRR point is significantly worse than on some axis, beside points for, is mixed', () => {
    // LSHRR: either identifiable (ξ ≥ 1) or useless (ξ = 0); LapLSH ξ = 5: private and useful
    const r = claim(
      inputOf({
        ...FRONT,
        entries: [
          rr(
            ({ xi }) => (xi === 0 ? 0.01 : 0.3),
            ({ xi }) => (xi === 0 ? 0.2 : 0.05),
          ),
          lap(
            ({ xi }) => (xi === 5 ? 0.01 : 0.3),
            ({ xi }) => (xi === 5 ? 0.05 : 0.2),
          ),
        ],
      }),
      'lshrr-frontier-dominates-laplsh',
    );
    expect(r.verdict).toBe('mixed');
    expect(r.cells_against).toBe(1);
    expect(r.cells_for).toBeGreaterThan(0);
    expect(r.detail).toMatch(/against: n=100 κ=20 LapLSH ξ=5 vs LSHRR ξ=/);
    expect(r.detail).toContain('against in n=100 κ=20 (1)');
  });

  it('with recommendations the loss version keeps the loss; its twin recommend-lshrr-frontier-dominates-laplsh reads NDCG@10, lower worse', () => {
    // loss says LSHRR ξ = 1 is better; NDCG says it is worse than LapLSH
    const input = inputOf(NDCG_GRID);
    expect(claim(input, 'lshrr-frontier-dominates-laplsh').verdict).toBe('supported');
    expect(evaluateClaims(input).some((r) => r.id === 'recommend-lshrr-frontier-dominates-laplsh')).toBe(false);
    const withRecommend = { ...input, recommend: ndcgValues() };
    const loss = claim(withRecommend, 'lshrr-frontier-dominates-laplsh');
    expect(loss.verdict).toBe('supported');
    expect(loss.detail).toContain('utility loss at k = 10 (higher is worse)');
    const r = claim(withRecommend, 'recommend-lshrr-frontier-dominates-laplsh');
    expect(r.verdict).toBe('contradicted');
    expect(r.detail).toContain('NDCG@10 (k = 10; lower is worse)');
  });

  it('every claim id keeps its statement and axes when recommend values are added (stage 1 of issue 51)', () => {
    const axes = (detail: string) => detail.split('; ').filter((part) => part.startsWith('axes: '));
    const grids = [NDCG_GRID, { ...FRONT, kappa: [20, 50], k: [5, 10], entries: [lsh(() => 0.3), rr(rising), lap(rising)] }];
    // with targets (decide:), so that the matched claims are tested too (rising crosses 0.03 between ξ 0 and 1)
    const decide = { reid1: [0.03], known: 0.5, auc_adv: [], aux: null, k: 10 };
    for (const g of grids) {
      const base = inputOf(g);
      const input = { ...base, config: { ...base.config, decide }, infer: [] };
      const without = evaluateClaims(input);
      const withRecommend = evaluateClaims({ ...input, recommend: ndcgValues() });
      expect(without.length).toBeGreaterThan(10);
      for (const r of without) {
        const twin = withRecommend.find((x) => x.id === r.id && x.dataset === r.dataset);
        expect(twin, r.id).toBeDefined();
        expect(twin!.statement, r.id).toBe(r.statement);
        expect(axes(twin!.detail), r.id).toEqual(axes(r.detail));
      }
      // the frontier claim states its axes in its detail: the check above compares something
      expect(axes(without.find((r) => r.id === 'lshrr-frontier-dominates-laplsh')!.detail)).toHaveLength(1);
      for (const id of MATCHED_CLAIM_IDS.filter((x) => x.endsWith('-reid'))) expect(without.some((r) => r.id === id)).toBe(true);
    }
    // and so do the matched claims, where they have cells
    const matched = evaluateClaims({ ...inputOf(grids[1]!), config: { ...inputOf(grids[1]!).config, decide } }).find((r) => r.id === 'lshrr-beats-laplsh-at-matched-reid')!;
    expect(matched.cells_tested).toBe(2);
    expect(axes(matched.detail)).toHaveLength(1);
  });

  it("reads the grid's nearest known share and k when 0.5 and 10 are missing, and says which", () => {
    const r = claim(inputOf({ ...FRONT, known: [0.25, 1], k: [5, 20], entries: [rr(() => 0.01), lap(() => 0.01)] }), 'lshrr-frontier-dominates-laplsh');
    expect(r.detail).toContain('reid@1 at known = 0.25');
    expect(r.detail).toContain('utility loss at k = 5');
  });

  it('needs both mechanisms attacked, and names LapLSH points without an LSHRR point', () => {
    expect(claim(inputOf({ ...FRONT, entries: [rr(() => 0.01)] }), 'lshrr-frontier-dominates-laplsh').detail).toBe('needs a laplsh entry attacked, with its utility');
    const exactAccountant = { ...rr(() => 0.01), accountant: 'exact' };
    expect(claim(inputOf({ ...FRONT, entries: [exactAccountant, lap(() => 0.01)] }), 'lshrr-frontier-dominates-laplsh').detail).toBe(
      'needs an lshrr entry with the paper accountant attacked, with its utility',
    );
    // LapLSH at κ = 50 has no LSHRR point there
    const input = inputOf({ ...FRONT, kappa: [20, 50], entries: [rr(() => 0.01), lap(() => 0.01)] });
    const only20 = { ...input, attack: input.attack!.filter((v) => v.base !== 'lshrr' || v.kappa === 20) };
    expect(claim(only20, 'lshrr-frontier-dominates-laplsh').detail).toContain('4 LapLSH points without an LSHRR point at the same n and κ: not tested');
  });
});

describe('nearest', () => {
  it('takes the closest value, the smaller at a tie, undefined for none', () => {
    expect(nearest([0.25, 1], 0.5)).toBe(0.25);
    expect(nearest([0.25, 0.75], 0.5)).toBe(0.25);
    expect(nearest([5, 20], 10)).toBe(5);
    expect(nearest([20, 15], 10)).toBe(15);
    expect(nearest([], 10)).toBeUndefined();
  });
});
