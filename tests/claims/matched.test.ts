/**
 * The matched claims (src/claims/matched.ts) on constructed per-trial values whose answer is known:
 * the same law at equal ξ and at matched reid@1 can say opposite things (LapLSH leaks less per ξ),
 * a hand case each for supported, contradicted and inconclusive; the cells are exactly the
 * (n, κ, target) where both entries cross inside their grids (checked against crossingOf on the
 * means); the test is a t test of Δu* with the SE of choose's resamples; not applicable
 * without a decide: block; and these claims alone read an entry's own ξ.
 */
import { describe, expect, it } from 'vitest';
import { claim, inputOf, type Entry, type Grid } from '../helpers/attackClaims.js';
import { evaluateClaims } from '../../src/claims/evaluate.js';
import { onTheGrid } from '../../src/claims/write.js';
import { CLAIM_IDS, MATCHED_CLAIM_IDS, type ClaimsInput } from '../../src/claims/types.js';
import { MATCHED_CLAIMS } from '../../src/claims/matched.js';
import type { DecideSettings } from '../../src/experiment/config/decide.js';
import { crossingOf } from '../../src/decide/crossing.js';
import { matchCell } from '../../src/decide/matched.js';
import { cellSeed } from '../../src/decide/choose.js';
import { pairedBootstrapCell } from '../../src/claims/matchedCells.js';
import { tCdf } from '../../src/vendor/stdlib.js';

const XIS = [0, 1, 5, 20];
const DECIDE: DecideSettings = { reid1: [0.01], known: 0.5, auc_adv: [], aux: null, k: 10 };
const GRID: Omit<Grid, 'entries'> = { dims: [100, 500], kappa: [20, 50], known: [0.5], trials: 10, shared: 0.0005 };

/** reid@1 0.002 + slope·ξ (T = 0.01 crossed between 1 and 5 at slope 0.002, between 5 and 20 at 0.0005), loss `at0` − 0.01 ξ */
const entry = (label: string, base: string, slope: number, at0: number, xis = XIS): Entry => ({
  label,
  base,
  xis,
  reid: ({ xi }) => 0.002 + slope * xi!,
  loss: ({ xi }) => at0 - 0.01 * xi!,
  noise: 0.0005,
});

const withDecide = (input: ClaimsInput, decide: DecideSettings | null = DECIDE): ClaimsInput => ({ ...input, config: { ...input.config, decide } });

describe('lshrr-beats-laplsh-at-matched-reid', () => {
  it('LapLSH leaking less per ξ: LSHRR wins at equal ξ, loses at matched reid@1 (contradicted); the other way round, supported', () => {
    // equal ξ: LapLSH's loss 0.01 higher everywhere. Matched: LSHRR meets 0.01 at ξ* = 4 (u* 0.26),
    // LapLSH at ξ* ≈ 16 (u* ≈ 0.15)
    const input = withDecide(inputOf({ ...GRID, entries: [entry('lshrr', 'lshrr', 0.002, 0.3), entry('laplsh', 'laplsh', 0.0005, 0.31)] }));
    expect(claim(input, 'lshrr-beats-laplsh').verdict).toBe('supported');
    const r = claim(input, 'lshrr-beats-laplsh-at-matched-reid');
    expect([r.verdict, r.cells_tested, r.cells_for, r.cells_against]).toEqual(['contradicted', 4, 0, 4]);
    expect(r.detail).toContain('one-sided t tests on m − 1 df of the paired Δu*, its SE from the 2000 bootstrap resamples');
    expect(r.detail).toMatch(/Δ = \+0\.1\d/);
    expect(r.detail).toContain('axes: u* = utility loss at k = 10');
    const swapped = withDecide(inputOf({ ...GRID, entries: [entry('lshrr', 'lshrr', 0.0005, 0.31), entry('laplsh', 'laplsh', 0.002, 0.3)] }));
    expect(claim(swapped, 'lshrr-beats-laplsh').verdict).toBe('contradicted');
    const s = claim(swapped, 'lshrr-beats-laplsh-at-matched-reid');
    expect([s.verdict, s.cells_tested, s.cells_for, s.cells_against]).toEqual(['supported', 4, 4, 0]);
  });

  it('the same law for both: inconclusive', () => {
    const input = withDecide(inputOf({ ...GRID, seed: 'same-law', entries: [entry('lshrr', 'lshrr', 0.002, 0.3), entry('laplsh', 'laplsh', 0.002, 0.3)] }));
    const r = claim(input, 'lshrr-beats-laplsh-at-matched-reid');
    expect([r.verdict, r.cells_tested, r.cells_for, r.cells_against]).toEqual(['inconclusive', 4, 0, 0]);
  });

  it('its cells are exactly the (n, κ, target) where both entries cross inside their grids', () => {
    // Two targets, 0.01 and 0.02. n 100 κ 20: LSHRR never reaches either (all); n 500 κ 50: LapLSH
    // above both at ξ 0 (none); elsewhere LSHRR reaches only 0.012 at ξ 20 (all at 0.02) but at
    // n 500 κ 20, where it crosses both; LapLSH crosses both wherever it is not none.
    const rr: Entry = {
      ...entry('lshrr', 'lshrr', 0.0005, 0.29),
      reid: ({ n, kappa, xi }) => (n === 100 && kappa === 20 ? 0.001 : n === 500 && kappa === 20 ? 0.002 + 0.002 * xi! : 0.002 + 0.0005 * xi!),
    };
    const lap: Entry = { ...entry('laplsh', 'laplsh', 0.002, 0.3), reid: ({ n, kappa, xi }) => (n === 500 && kappa === 50 ? 0.05 : 0.002 + 0.002 * xi!) };
    const decide = { ...DECIDE, reid1: [0.01, 0.02] };
    const input = withDecide(inputOf({ ...GRID, entries: [rr, lap] }), decide);
    // the cells by hand: crossingOf on each entry's mean reid@1 per ξ
    const means = (label: string, n: number, kappa: number) =>
      XIS.map((xi) => {
        const vs = input.attack!.filter((v) => v.mechanism === label && v.n === n && v.kappa === kappa && v.xi === xi);
        return vs.reduce((a, v) => a + v.reid1, 0) / vs.length;
      });
    const expected: string[] = [];
    for (const n of GRID.dims)
      for (const kappa of GRID.kappa)
        for (const t of decide.reid1) if (['lshrr', 'laplsh'].every((l) => crossingOf(XIS, means(l, n, kappa), t).flag === 'interior')) expected.push(`n=${n} κ=${kappa} k=10 reid@1≤${t}`);
    expect(expected).toEqual(['n=100 κ=50 k=10 reid@1≤0.01', 'n=500 κ=20 k=10 reid@1≤0.01', 'n=500 κ=20 k=10 reid@1≤0.02']);
    const r = claim(input, 'lshrr-beats-laplsh-at-matched-reid');
    expect([r.verdict, r.cells_tested, r.cells_for]).toEqual(['supported', 3, 3]);
    // the detail names the two strongest; every named cell is one of the expected
    const named = [...r.detail.matchAll(/n=\d+ κ=\d+ k=10 reid@1≤[\d.]+/g)].map((m) => m[0]);
    expect(named.length).toBeGreaterThan(0);
    for (const w of named) expect(expected).toContain(w);
    expect(r.detail).toContain('lshrr interior 4, all 4');
    expect(r.detail).toContain('laplsh interior 6, none 2');
  });

  it('n < 100 is outside the claim, as for its equal-ξ twin; without a crossing cell it says why', () => {
    const input = withDecide(inputOf({ ...GRID, dims: [50], entries: [entry('lshrr', 'lshrr', 0.0005, 0.31), entry('laplsh', 'laplsh', 0.002, 0.3)] }));
    expect(claim(input, 'lshrr-beats-laplsh-at-matched-reid').detail).toBe('needs LSHRR (paper accountant) and LapLSH at the same n and κ, n ≥ 100');
    const never = withDecide(inputOf({ ...GRID, entries: [entry('lshrr', 'lshrr', 0, 0.31), entry('laplsh', 'laplsh', 0.002, 0.3)] }));
    const r = claim(never, 'lshrr-beats-laplsh-at-matched-reid');
    expect(r.verdict).toBe('not-tested');
    expect(r.detail).toMatch(/^no \(n, κ, target\) at n ≥ 100 where both entries cross T inside its ξ grid; crossings .*lshrr all 4; laplsh interior 4/);
  });
});

describe('the matched claims', () => {
  it('are listed under the ids of MATCHED_CLAIM_IDS, in that order, each the twin of an equal-ξ claim', () => {
    expect(MATCHED_CLAIMS.map((c) => c.id)).toEqual([...MATCHED_CLAIM_IDS]);
    for (const id of MATCHED_CLAIM_IDS) expect(CLAIM_IDS).toContain(id.replace(/-at-matched-(reid|auc)$/, ''));
  });

  it('are not applicable without a decide: block, or without a target of their kind; listed only with the attack values', () => {
    const input = inputOf({ ...GRID, entries: [entry('lshrr', 'lshrr', 0.002, 0.3), entry('laplsh', 'laplsh', 0.0005, 0.31)] });
    const reid = MATCHED_CLAIM_IDS.filter((id) => id.endsWith('-reid'));
    for (const id of reid) expect(claim(input, id).detail, id).toMatch(/^not applicable: the config has no decide: block/);
    // the auc twins are listed with inference values only
    expect(evaluateClaims(input).some((r) => r.id.endsWith('-at-matched-auc'))).toBe(false);
    const noAuc = withDecide({ ...input, infer: [{ dataset: 'synth', n: 100, kappa: 20, mechanism: 'null', base: null, accountant: null, xi: null, aux: 0.5, trial: 0, auc: 0.5, prec10: 0 }] });
    expect(claim(noAuc, 'lshrr-beats-laplsh-at-matched-auc').detail).toBe('not applicable: the decide: block names no auc_adv target');
    expect(evaluateClaims({ ...input, attack: [] }).some((r) => r.id.endsWith('-at-matched-reid'))).toBe(false);
  });

  it("tests Δu* with the spread of choose's resamples: t = Δ / (sd of the paired differences · √(m/(m − 1))), t on m − 1 df", () => {
    const input = withDecide(inputOf({ ...GRID, dims: [100], kappa: [20], seed: 'p', entries: [entry('lshrr', 'lshrr', 0.002, 0.3), entry('laplsh', 'laplsh', 0.002, 0.3)] }));
    const series = (label: string) => ({
      label,
      xis: XIS,
      releasable: true,
      success: [XIS.map((xi) => input.attack!.filter((v) => v.mechanism === label && v.xi === xi).map((v) => v.reid1))],
      loss: XIS.map((xi) => input.values.filter((v) => v.mechanism === label && v.xi === xi).map((v) => v.loss)),
    });
    const cell = matchCell({ trials: 10, entries: [series('lshrr'), series('laplsh')], targets: [0.01], uRand: null }, { alpha: 0.05, seed: cellSeed({ dataset: 'synth', n: 100, kappa: 20, k: 10 }) });
    expect(cell.boot.length).toBe(2000);
    const d = cell.boot.map((row) => row[0]! - row[1]!);
    const mean = d.reduce((a, b) => a + b, 0) / d.length;
    const se = Math.sqrt(d.reduce((a, b) => a + (b - mean) ** 2, 0) / (d.length - 1)) * Math.sqrt(10 / 9);
    const diff = cell.entries[0]!.loss - cell.entries[1]!.loss;
    const t = pairedBootstrapCell('w', cell, 0, 1)!;
    expect(t.diff).toBe(diff);
    // t_9's cdf at the statistic recomputed here from the resamples
    expect(t.pFor).toBeCloseTo(tCdf(diff / se, 9), 12);
    expect(t.pFor + t.pAgainst).toBeCloseTo(1, 12);
    // the claim's one cell is this test (a single cell: Holm changes nothing)
    const r = claim(input, 'lshrr-beats-laplsh-at-matched-reid');
    expect(r.cells_tested).toBe(1);
    expect(r.verdict).toBe(t.pFor <= 0.05 ? 'supported' : t.pAgainst <= 0.05 ? 'contradicted' : 'inconclusive');
    // no spread: the t test's limit
    const flat = { ...cell, boot: cell.boot.map(() => Float64Array.of(0.2, 0.3)) };
    expect(pairedBootstrapCell('w', flat, 0, 1)).toMatchObject({ zeroVariance: true });
  });

  it("alone read an entry's own ξ (values off privacy.xi): every other claim gives the grid's verdicts and details", () => {
    // LSHRR with its own ξ 2 and 3 besides privacy.xi (a calibrated entry): its crossing's bracket narrows
    const own = withDecide(inputOf({ ...GRID, entries: [{ ...entry('lshrr', 'lshrr', 0.002, 0.3), xis: [0, 1, 2, 3, 5, 20] }, entry('laplsh', 'laplsh', 0.0005, 0.31)] }));
    own.config.xi = XIS;
    const matched = (id: string) => (MATCHED_CLAIM_IDS as readonly string[]).includes(id);
    const gridValues = onTheGrid(own);
    expect(gridValues.values.some((v) => v.xi === 3)).toBe(false);
    expect((gridValues.entryXi!.values as { xi: number | null }[]).some((v) => v.xi === 3)).toBe(true);
    const onlyGrid = evaluateClaims({ ...gridValues, entryXi: undefined });
    const withOwn = evaluateClaims(gridValues);
    for (const r of withOwn) {
      const twin = onlyGrid.find((x) => x.id === r.id)!;
      if (matched(r.id)) continue;
      expect(r, r.id).toEqual(twin);
    }
    // the matched claim reads LSHRR at ξ 2 and 3: its u* moves
    const m = (rs: typeof withOwn) => rs.find((r) => r.id === 'lshrr-beats-laplsh-at-matched-reid')!.detail;
    expect(m(withOwn)).not.toBe(m(onlyGrid));
  });
});
