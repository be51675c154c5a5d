/**
 * The auditor tested at the sizes (long tier, npm run test:full): one κ, two ξ, M = 1000;
 * (a) 200 repetitions of every correct mechanism, (b) 50 repetitions of each must-reject case,
 * (c) 50 repetitions at each row's detectable_inflation.
 */
import { describe, expect, it } from 'vitest';
import { FAMILY_ALPHA, POWER_TARGET } from '../../src/audit/defaults.js';
import { CORRECT, SMALL, audit, consistentWithAtLeast, consistentWithAtMost, scaledEntry } from '../helpers/auditor.js';

const M_SMALL = CORRECT.length * SMALL.xi.length;

describe('the auditor at the issue sizes', () => {
  it('(a) 200 repetitions of every correct mechanism: the share with any violated row is <= α within binomial slack', () => {
    let alarms = 0;
    for (let rep = 0; rep < 200; rep++) if (audit(CORRECT, `long-fa-${rep}`).some((r) => r.verdict === 'violated')) alarms++;
    expect(consistentWithAtMost(alarms, 200, FAMILY_ALPHA), `${alarms} of 200`).toBe(true);
  }, 1_800_000);

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

  it('(c) every sampled row: at its detectable_inflation it is flagged in >= 80% of 50 repetitions', () => {
    const found = audit(CORRECT.slice(3), 'long-c-found', { skipInflation: false });
    let checked = 0;
    for (const r of found) {
      if (r.detectable_inflation === null) continue;
      checked++;
      let hits = 0;
      for (let rep = 0; rep < 50; rep++) {
        const [row] = audit([scaledEntry(r.base, r.detectable_inflation)], `long-c-${r.mechanism}-${r.xi}-${rep}`, { familySize: M_SMALL, xi: [r.xi] });
        if (row.verdict === 'violated') hits++;
      }
      expect(consistentWithAtLeast(hits, 50, POWER_TARGET), `${r.mechanism} ξ ${r.xi} ×${r.detectable_inflation}: ${hits} of 50`).toBe(true);
    }
    expect(checked).toBeGreaterThanOrEqual(5);
  }, 600_000);
});
