/**
 * The auditor tested at the sizes (long tier, npm run test:full): one κ, two ξ, M = 1000
 * (SMALL) unless said; (a) 200 repetitions of every correct mechanism, (b) 50 repetitions of each
 * must-reject case, among them releases that do something else than they declare, (c) 50
 * repetitions at each row's detectable_inflation.
 */
import { describe, expect, it } from 'vitest';
import { FAMILY_ALPHA, POWER_TARGET } from '../../src/audit/defaults.js';
import { CORRECT, M_SMALL, audit, consistentWithAtLeast, consistentWithAtMost, flipperPlugin, hiddenLshrr, ldpPlugin, pluginEntry, scaledEntry, timesViolated } from '../helpers/auditor.js';

/** "Flagged at least as often as the printed detectable inflation promises": 34 of 50 (Pr[Bin(50, 0.8) <= 33] < 3%). */
const PROMISED = 34;

describe('the auditor at the issue sizes', () => {
  it('(a) 200 repetitions of every correct mechanism: the shares with any violated and with any law-mismatch row are <= α within binomial slack', () => {
    let alarms = 0;
    let mismatches = 0;
    for (let rep = 0; rep < 200; rep++) {
      const rows = audit(CORRECT, `long-fa-${rep}`);
      if (rows.some((r) => r.verdict === 'violated')) alarms++;
      if (rows.some((r) => r.verdict === 'law-mismatch')) mismatches++;
    }
    expect(consistentWithAtMost(alarms, 200, FAMILY_ALPHA), `violated in ${alarms} of 200`).toBe(true);
    expect(consistentWithAtMost(mismatches, 200, FAMILY_ALPHA), `law-mismatch in ${mismatches} of 200`).toBe(true);
  }, 1_800_000);

  it('(b) hidden inflation: LSHRR declaring the paper or exact accountant and flipping at ×1.2, ×1.5, ×2 is flagged in >= 34 of 50 wherever the honest row promises that factor; at the printed factor too', () => {
    const honest = audit(CORRECT.slice(0, 2), 'long-hidden-honest', { skipInflation: false, familySize: M_SMALL });
    let promised = 0;
    for (const h of honest) {
      for (const factor of [1.2, 1.5, 2, h.detectable_inflation!]) {
        if (h.detectable_inflation! > factor) continue;
        promised++;
        const hits = timesViolated(50, (rep) => audit([hiddenLshrr(h.accountant!, factor)], `long-hidden-${h.mechanism}-${factor}-${rep}`, { familySize: M_SMALL, xi: [h.xi] }));
        expect(hits, `${h.mechanism} ξ ${h.xi} ×${factor} (detectable ×${h.detectable_inflation}): ${hits} of 50`).toBeGreaterThanOrEqual(PROMISED);
      }
    }
    expect(promised).toBeGreaterThanOrEqual(10);
  }, 1_800_000);

  it('(b) hidden inflation on the shipped grid (M = 5000): the exact accountant flipping at ×1.2 is flagged in >= 80% of 10 repetitions in every row that promises ×1.2', () => {
    const grid = { kappa: [10, 20, 50], xi: [1, 2, 5, 10, 20], samples: 5000, n: 4, familySize: 120 };
    const honest = audit([CORRECT[1]], 'long-grid-honest', { ...grid, skipInflation: false });
    const hits = new Map<string, number>();
    for (let rep = 0; rep < 10; rep++)
      for (const r of audit([hiddenLshrr('exact', 1.2)], `long-grid-${rep}`, grid)) if (r.verdict === 'violated') hits.set(`${r.kappa}/${r.xi}`, (hits.get(`${r.kappa}/${r.xi}`) ?? 0) + 1);
    let promised = 0;
    for (const h of honest) {
      if (h.detectable_inflation! > 1.2) continue;
      promised++;
      const k = hits.get(`${h.kappa}/${h.xi}`) ?? 0;
      expect(consistentWithAtLeast(k, 10, POWER_TARGET), `κ ${h.kappa} ξ ${h.xi} (detectable ×${h.detectable_inflation}): ${k} of 10`).toBe(true);
    }
    expect(promised).toBeGreaterThanOrEqual(9);
  }, 1_800_000);

  it('(b) a plugin (flipsBits) stating the exact accountant and flipping at its printed factor is flagged in >= 34 of 50: plugins are inflated through their own encode', () => {
    const [h] = audit([pluginEntry(flipperPlugin('exact', 1))], 'long-plugin-honest', { skipInflation: false, familySize: M_SMALL, xi: [5] });
    const f = h.detectable_inflation!;
    const hits = timesViolated(50, (rep) => audit([pluginEntry(flipperPlugin('exact', f))], `long-plugin-${rep}`, { familySize: M_SMALL, xi: [5] }));
    expect(hits, `×${f}: ${hits} of 50`).toBeGreaterThanOrEqual(PROMISED);
  }, 600_000);

  it('(b) a release declared as LSHRR at κ 10, ξ 20 that never flips is violated in 50 of 50; one that flips more than declared never is', () => {
    const never = timesViolated(50, (rep) => audit([hiddenLshrr('paper', Infinity)], `long-never-${rep}`, { kappa: [10], xi: [20], samples: 5000, familySize: 120 }));
    expect(never).toBe(50);
    for (const [accountant, factor] of [
      ['exact', 0.5],
      ['exact', 0.9],
      ['paper', 0.8],
    ] as const) {
      const over = timesViolated(50, (rep) => audit([hiddenLshrr(accountant, factor)], `long-over-${accountant}-${factor}-${rep}`, { familySize: M_SMALL }));
      expect(over, `${accountant} ×${factor}`).toBe(0);
    }
  }, 900_000);

  it('(b) RAPPOR ε × 1.9 and VMF with twice the concentration, below the ceiling: flagged in >= 80% of 50 repetitions', () => {
    for (const [name, factor] of [
      ['rappor', 1.9],
      ['vmf', 2],
    ] as const) {
      const hits = new Map<number, number>();
      const eligible = new Set<number>();
      for (let rep = 0; rep < 50; rep++) {
        for (const r of audit([scaledEntry(name, factor)], `long-b-${name}-${rep}`, { familySize: M_SMALL })) {
          if (factor * r.xi < r.epsilon_ceiling!) eligible.add(r.xi);
          if (r.verdict === 'violated') hits.set(r.xi, (hits.get(r.xi) ?? 0) + 1);
        }
      }
      expect(eligible.size, name).toBeGreaterThan(0);
      for (const xi of eligible) expect(consistentWithAtLeast(hits.get(xi) ?? 0, 50, POWER_TARGET), `${name} ξ ${xi}: ${hits.get(xi) ?? 0} of 50`).toBe(true);
    }
  }, 600_000);

  it('(b) VMF and Purkayastha drawn at half their concentration are never violated in 50 repetitions', () => {
    for (const name of ['vmf', 'purkayastha']) {
      const hits = timesViolated(50, (rep) => audit([scaledEntry(name, 0.5)], `long-half-${name}-${rep}`, { familySize: M_SMALL }));
      expect(hits, name).toBe(0);
    }
  }, 600_000);

  it('(c) every sampled row of LapLSH, RAPPOR, VMF and Purkayastha: at its detectable_inflation it is flagged in >= 34 of 50 repetitions', () => {
    const found = audit(CORRECT.slice(3), 'long-c-found', { skipInflation: false });
    let checked = 0;
    for (const r of found) {
      if (r.detectable_inflation === null || r.verdict !== 'no-violation-found') continue;
      checked++;
      let hits = 0;
      for (let rep = 0; rep < 50; rep++) {
        const [row] = audit([scaledEntry(r.base, r.detectable_inflation)], `long-c-${r.mechanism}-${r.xi}-${rep}`, { familySize: M_SMALL, xi: [r.xi] });
        if (row.verdict === 'violated') hits++;
      }
      expect(hits, `${r.mechanism} ξ ${r.xi} ×${r.detectable_inflation}: ${hits} of 50`).toBeGreaterThanOrEqual(PROMISED);
    }
    expect(checked).toBeGreaterThanOrEqual(5);
  }, 900_000);

  it('(d) a plugin that states only an LDP ε: no false alarm in 50 repetitions; at its printed factor flagged in >= 34 of 50', () => {
    const alarms = timesViolated(50, (rep) => audit([pluginEntry(ldpPlugin())], `long-ldp-fa-${rep}`, { familySize: M_SMALL, xi: [2] }));
    expect(consistentWithAtMost(alarms, 50, FAMILY_ALPHA), `${alarms} of 50`).toBe(true);
    const [h] = audit([pluginEntry(ldpPlugin())], 'long-ldp-honest', { skipInflation: false, familySize: M_SMALL, xi: [2] });
    const f = h.detectable_inflation!;
    const hits = timesViolated(50, (rep) => audit([pluginEntry(ldpPlugin(f))], `long-ldp-${rep}`, { familySize: M_SMALL, xi: [2] }));
    expect(hits, `×${f}: ${hits} of 50`).toBeGreaterThanOrEqual(PROMISED);
  }, 600_000);
});
