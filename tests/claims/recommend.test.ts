/**
 * The recommendation claims on constructed per-trial NDCG values whose truth is known: clear wins
 * and losses, equivalence within the margin and beyond it, the ξ from which a mechanism beats pop
 * (and "never"), Holm's effect on that ξ, and false alarms on null data at about the nominal rate.
 */
import { describe, it, expect } from 'vitest';
import { evaluateClaims } from '../../src/claims/evaluate.js';
import { popThreshold } from '../../src/claims/recommend.js';
import { CLAIM_IDS, RECOMMEND_CLAIM_IDS, type ClaimResult } from '../../src/claims/types.js';
import type { RecommendTrialValue } from '../../src/experiment/trialValues.js';
import { pairedTTest } from '../../src/stats/tTests.js';
import { makeRng } from '../../src/random/rng.js';
import { normalSource } from '../../src/random/samplers.js';
import { inputOf } from '../helpers/claims.js';
import { claimsJson, claimsMarkdown } from '../../src/claims/format.js';
import { RECOMMEND_CLAIMS } from '../../src/claims/recommend.js';

interface Cell {
  n: number;
  kappa: number;
  k: number;
  xi: number | null;
  top: number;
}

interface Entry {
  label: string;
  base: string;
  accountant?: string | null;
  /** false: one series without ξ (lsh) */
  usesXi?: boolean;
  /** mean NDCG in the cell */
  level: (c: Cell) => number;
  /** sd of the entry's own noise per trial (default 0.002) */
  noise?: number;
}

interface RecGrid {
  dims: number[];
  kappa: number[];
  k: number[];
  xi: number[];
  top: number[];
  trials: number;
  entries: Entry[];
  /** pop's NDCG@N at (n, N); absent: no pop rows */
  pop?: (n: number, top: number) => number;
  /** sd of the per-(n, κ, trial) effect the entries share (default 0.005) */
  shared?: number;
  seed?: string;
}

/** Per-trial values of a recommendation grid (pop: trial 0, no κ, k or ξ; as recommend.csv's baselines). */
function recValues(g: RecGrid): RecommendTrialValue[] {
  const z = normalSource(makeRng(g.seed ?? 'recommend-claims'));
  const out: RecommendTrialValue[] = [];
  const value = (c: Omit<RecommendTrialValue, 'hr' | 'itemRecall' | 'queries'>): RecommendTrialValue => ({ ...c, hr: 0, itemRecall: 0, queries: 500 });
  for (const n of g.dims) {
    if (g.pop) for (const top of g.top) out.push(value({ dataset: 'synth', n, kappa: null, k: null, mechanism: 'pop', base: 'pop', accountant: null, xi: null, top, trial: 0, ndcg: g.pop(n, top) }));
    for (const kappa of g.kappa) {
      const shared = Array.from({ length: g.trials }, () => (g.shared ?? 0.005) * z());
      for (const e of g.entries)
        for (const k of g.k)
          for (const xi of e.usesXi === false ? [null] : g.xi)
            for (const top of g.top)
              for (let trial = 0; trial < g.trials; trial++) {
                const ndcg = e.level({ n, kappa, k, xi, top }) + shared[trial] + (e.noise ?? 0.002) * z();
                const accountant = e.accountant === undefined ? (e.base === 'lshrr' ? 'paper' : null) : e.accountant;
                out.push(value({ dataset: 'synth', n, kappa, k, mechanism: e.label, base: e.base, accountant, xi, top, trial, ndcg }));
              }
    }
  }
  return out;
}

const GRID: Omit<RecGrid, 'entries'> = { dims: [100, 500], kappa: [10, 20], k: [5, 10], xi: [0, 2, 20], top: [10, 20], trials: 10 };

const entry = (label: string, level: Entry['level'], extra: Partial<Entry> = {}): Entry => ({ label, base: label, level, ...extra });

function run(g: RecGrid, alpha?: number): ClaimResult[] {
  const input = inputOf({ dims: g.dims, kappa: g.kappa, k: g.k, xi: g.xi, trials: g.trials, entries: [] });
  return evaluateClaims({ ...input, recommend: recValues(g) }, { alpha });
}

function claim(results: ClaimResult[], id: string): ClaimResult {
  const r = results.find((x) => x.id === id);
  if (!r) throw new Error(`no result for ${id}`);
  return r;
}

describe('recommendation claims: when they appear', () => {
  it('a folder without recommendation values lists none of them; with them, each follows the paper claims of its data set', () => {
    const input = inputOf({ dims: [100], kappa: [10], k: [5], xi: [1], trials: 3, entries: [] });
    expect(evaluateClaims(input).map((r) => r.id)).toEqual([...CLAIM_IDS]);
    expect(evaluateClaims({ ...input, recommend: [] }).map((r) => r.id)).toEqual([...CLAIM_IDS]);
    const ids = run({ ...GRID, entries: [entry('lshrr', () => 0.2)] }).map((r) => r.id);
    expect(ids).toEqual([...CLAIM_IDS, ...RECOMMEND_CLAIM_IDS]);
  });
});

describe('recommendation claims in claims.json and claims.md', () => {
  it('are written like the others, their statements listed under the scorecard', () => {
    const results = run({ ...GRID, entries: [entry('lshrr', () => 0.2), entry('laplsh', () => 0.18)] });
    const json = JSON.parse(claimsJson(results)) as { claims: { id: string }[] };
    expect(json.claims.map((c) => c.id).slice(-3)).toEqual([...RECOMMEND_CLAIM_IDS]);
    const md = claimsMarkdown(results, 0.05);
    for (const c of RECOMMEND_CLAIMS) expect(md).toContain(`- **${c.id}**: ${c.statement}`);
    expect(md).toMatch(/\| recommend-lshrr-beats-laplsh \| supported \(32 of 32 cells for, none against\) \|/);
  });
});

describe('recommend-lshrr-beats-laplsh: higher NDCG is better', () => {
  it('LSHRR clearly above LapLSH is supported in every cell with n ≥ 100 and ξ > 0', () => {
    const r = claim(run({ ...GRID, entries: [entry('lshrr', () => 0.2), entry('laplsh', () => 0.18)] }), 'recommend-lshrr-beats-laplsh');
    expect(r.verdict).toBe('supported');
    // n 100, 500 × κ 10, 20 × k 5, 10 × ξ 2, 20 × N 10, 20
    expect(r.cells_tested).toBe(32);
    expect(r.cells_for).toBe(32);
    expect(r.detail).toContain('LSHRR higher NDCG in 32 of 32 cells');
  });

  it('LSHRR clearly below is contradicted, naming a cell with N', () => {
    const r = claim(run({ ...GRID, entries: [entry('lshrr', () => 0.18), entry('laplsh', () => 0.2)] }), 'recommend-lshrr-beats-laplsh');
    expect(r.verdict).toBe('contradicted');
    expect(r.cells_against).toBe(32);
    expect(r.detail).toMatch(/against: n=\d+ κ=\d+ k=\d+ N=\d+ ξ=\d+ \(Δ = −0\.0/);
  });

  it('a win at one ξ only counts that ξ', () => {
    const r = claim(run({ ...GRID, entries: [entry('lshrr', (c) => (c.xi === 20 ? 0.25 : 0.2)), entry('laplsh', () => 0.2)] }), 'recommend-lshrr-beats-laplsh');
    expect(r.verdict).toBe('supported');
    expect(r.cells_for).toBe(16);
    expect(r.cells_against).toBe(0);
  });

  it('without LapLSH it is not-tested, naming what is missing', () => {
    const r = claim(run({ ...GRID, entries: [entry('lshrr', () => 0.2)] }), 'recommend-lshrr-beats-laplsh');
    expect(r.verdict).toBe('not-tested');
    expect(r.detail).toBe('needs a laplsh entry');
  });
});

describe('recommend-converges-to-lsh: TOST at the largest ξ', () => {
  const lsh = entry('lsh', () => 0.3, { usesXi: false });

  it('equal NDCG at the largest ξ (whatever below it) is supported, cells at N = 10 only', () => {
    const r = claim(run({ ...GRID, entries: [entry('lshrr', (c) => (c.xi === 20 ? 0.3 : 0.1)), lsh] }), 'recommend-converges-to-lsh');
    expect(r.verdict).toBe('supported');
    // n × κ × k at ξ = 20 and N = 10
    expect(r.cells_tested).toBe(8);
    expect(r.cells_for).toBe(8);
    expect(r.detail).toContain('margin ±0.01 NDCG@10');
  });

  it('0.05 below LSH is contradicted (beyond the margin)', () => {
    const r = claim(run({ ...GRID, entries: [entry('lshrr', () => 0.25), lsh] }), 'recommend-converges-to-lsh');
    expect(r.verdict).toBe('contradicted');
    expect(r.cells_against).toBe(8);
  });

  it('noise too large to show equivalence is inconclusive, not supported', () => {
    const r = claim(run({ ...GRID, entries: [entry('lshrr', () => 0.3, { noise: 0.03 }), entry('lsh', () => 0.3, { usesXi: false, noise: 0.03 })] }), 'recommend-converges-to-lsh');
    expect(r.verdict).toBe('inconclusive');
  });

  it('a grid without N = 10 uses its smallest N and says so', () => {
    const r = claim(run({ ...GRID, top: [5, 20], entries: [entry('lshrr', () => 0.3), lsh] }), 'recommend-converges-to-lsh');
    expect(r.verdict).toBe('supported');
    expect(r.detail).toContain('N = 5: the grid has no N = 10');
  });
});

describe('recommend-beats-pop: the smallest ξ from which every larger ξ beats pop', () => {
  const grid: Omit<RecGrid, 'entries'> = { dims: [100], kappa: [20], k: [5, 10], xi: [0, 1, 2, 5, 10, 20], top: [10, 20], trials: 10, pop: () => 0.12 };
  const rising = entry('lshrr', (c) => 0.05 + 0.01 * (c.xi ?? 0));

  it('names the ξ per mechanism and "never" where none; mixed where one is above and another below', () => {
    const r = claim(run({ ...grid, entries: [rising, entry('laplsh', () => 0.05)] }), 'recommend-beats-pop');
    expect(r.verdict).toBe('mixed');
    expect(r.detail).toContain('mixed: for in n=100 κ=20 [lshrr] (1); against in n=100 κ=20 [laplsh] (1)');
    expect(claim(run({ ...grid, entries: [rising, entry('laplsh', () => 0.12)] }), 'recommend-beats-pop').verdict).toBe('supported');
    expect(r.cells_tested).toBe(2);
    expect(r.cells_for).toBe(1);
    expect(r.cells_against).toBe(1);
    // 0.05 + 0.01ξ > 0.12 from ξ = 10 on (ξ = 5: 0.10)
    expect(r.detail).toContain('lshrr: n=100 κ=20 from ξ = 10');
    expect(r.detail).toContain('laplsh: n=100 κ=20 never (below pop at the largest ξ)');
    expect(r.detail).toContain('k = 10, N = 10');
    expect(r.detail).toContain('pop NDCG@10: n=100 0.12');
  });

  it('every mechanism below pop even at its largest ξ is contradicted', () => {
    const r = claim(run({ ...grid, entries: [entry('lshrr', () => 0.06), entry('laplsh', () => 0.05)] }), 'recommend-beats-pop');
    expect(r.verdict).toBe('contradicted');
    expect(r.cells_against).toBe(2);
    expect(r.detail).toContain('lshrr: n=100 κ=20 never (below pop at the largest ξ)');
  });

  it('at the level of pop it is inconclusive: never, and not below', () => {
    const r = claim(run({ ...grid, entries: [entry('lshrr', () => 0.12)] }), 'recommend-beats-pop');
    expect(r.verdict).toBe('inconclusive');
    expect(r.detail).toContain('lshrr: n=100 κ=20 never');
  });

  it('uses the largest k and the smallest N when k = 10 and N = 10 are missing, and says so', () => {
    const r = claim(run({ ...grid, k: [1, 5], top: [5, 20], entries: [rising] }), 'recommend-beats-pop');
    expect(r.detail).toContain('k = 5, N = 5');
    expect(r.detail).toContain('k = 5: the grid has no k = 10');
    expect(r.detail).toContain('N = 5: the grid has no N = 10');
  });

  it('needs the pop baseline', () => {
    const r = claim(run({ ...grid, pop: undefined, entries: [rising] }), 'recommend-beats-pop');
    expect(r.verdict).toBe('not-tested');
    expect(r.detail).toBe('needs the pop baseline');
  });
});

describe('popThreshold: one-sample t against pop, Holm over the ξ', () => {
  // ten trials at pop + d ± 0.01 (alternating): se = 0.01·√(10/9)/√10, so d = t·se hits a chosen t
  const se = (0.01 * Math.sqrt(10 / 9)) / Math.sqrt(10);
  const at = (xi: number, t: number, pop = 0.1) => ({ xi, byTrial: new Map(Array.from({ length: 10 }, (_, i) => [i, pop + t * se + (i % 2 ? 0.01 : -0.01)] as [number, number])) });

  it('is the one-sample t-test of the trials against the constant', () => {
    const s = at(5, 2);
    const a = [...s.byTrial.values()];
    const t = pairedTTest(
      a,
      a.map(() => 0.1),
    );
    expect(t.t).toBeCloseTo(2, 10);
    expect(t.df).toBe(9);
  });

  it("Holm's correction: two ξ each significant alone (p ≈ 0.045, 0.038) give no threshold together", () => {
    const series = [at(5, 1.9), at(20, 2.0)];
    for (const s of series) {
      const a = [...s.byTrial.values()];
      expect(
        pairedTTest(
          a,
          a.map(() => 0.1),
        ).pAbove,
      ).toBeLessThan(0.05);
    }
    expect(popThreshold(series, 0.1, 0.05)!.from).toBeUndefined();
    // alone, the larger ξ is significant: from ξ = 20
    expect(popThreshold([at(20, 2.0)], 0.1, 0.05)!.from).toBe(20);
  });

  it('every larger ξ must be above: a significant ξ below an insignificant one does not count', () => {
    expect(popThreshold([at(1, 0.5), at(5, 8), at(20, 9)], 0.1, 0.05)!.from).toBe(5);
    expect(popThreshold([at(1, 9), at(5, 0.5), at(20, 9)], 0.1, 0.05)!.from).toBe(20);
    expect(popThreshold([at(1, 9), at(5, 9), at(20, 0.5)], 0.1, 0.05)!.from).toBeUndefined();
  });

  it('one trial is no test', () => {
    expect(popThreshold([{ xi: 1, byTrial: new Map([[0, 0.5]]) }], 0.1, 0.05)).toBeNull();
  });
});

describe('false alarms on null data', () => {
  it('equal mechanisms: a decided verdict of any recommendation claim in at most about α of simulated runs', () => {
    const runs = 120;
    const decided = { 'recommend-lshrr-beats-laplsh': 0, 'recommend-beats-pop': 0 };
    for (let i = 0; i < runs; i++) {
      const g: RecGrid = {
        dims: [100],
        kappa: [10, 20],
        k: [10],
        xi: [1, 5, 20],
        top: [10],
        trials: 8,
        pop: () => 0.2,
        seed: `null-${i}`,
        entries: [entry('lshrr', () => 0.2), entry('laplsh', () => 0.2)],
      };
      const results = run(g);
      for (const id of Object.keys(decided) as (keyof typeof decided)[]) if (claim(results, id).verdict !== 'inconclusive') decided[id]++;
    }
    // Holm keeps each direction at α = 0.05: 0.1 per claim at most, binomial sd ≈ 0.027 over 120 runs
    for (const count of Object.values(decided)) expect(count / runs).toBeLessThanOrEqual(0.1 + 3 * Math.sqrt((0.1 * 0.9) / runs));
  });

  it('LSHRR exactly at the margin from LSH: "supported" (equivalent) in at most about α of simulated runs', () => {
    const runs = 120;
    let supported = 0;
    for (let i = 0; i < runs; i++) {
      const g: RecGrid = {
        dims: [100],
        kappa: [20],
        k: [10],
        xi: [20],
        top: [10],
        trials: 8,
        seed: `margin-${i}`,
        // the null of TOST at its boundary: the difference is the margin itself
        entries: [entry('lshrr', () => 0.29), entry('lsh', () => 0.3, { usesXi: false })],
      };
      if (claim(run(g), 'recommend-converges-to-lsh').verdict === 'supported') supported++;
    }
    expect(supported / runs).toBeLessThanOrEqual(0.05 + 3 * Math.sqrt((0.05 * 0.95) / runs));
    // and not vacuous: the test has power where the truth is equivalence
    expect(
      claim(run({ dims: [100], kappa: [20], k: [10], xi: [20], top: [10], trials: 8, entries: [entry('lshrr', () => 0.3), entry('lsh', () => 0.3, { usesXi: false })] }), 'recommend-converges-to-lsh')
        .verdict,
    ).toBe('supported');
  });
});
