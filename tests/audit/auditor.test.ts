/**
 * The auditor tested as prior art tests its own, at fast-tier sizes (the sizes:
 * auditor.long.test.ts): (a) false alarms on correct mechanisms, (b) must-reject cases, (c) each
 * detectable_inflation checked by simulation. Every assertion can fail: a rule that flags too
 * often fails (a), one too weak fails (b) and (c).
 */
import { describe, expect, it } from 'vitest';
import { FAMILY_ALPHA, POWER_TARGET } from '../../src/audit/defaults.js';
import { exactTail } from '../../src/privacy/exactLoss.js';
import { realizedPerBitEpsilon } from '../../src/privacy/rr.js';
import { CORRECT, SMALL, audit, consistentWithAtLeast, consistentWithAtMost, entry, inflatedAccountant, scaledEntry } from '../helpers/auditor.js';

/** The m of SMALL with every correct mechanism: rows are tested at α/m as in that config. */
const M_SMALL = CORRECT.length * SMALL.xi.length;
const flagged = (rows: { verdict: string }[]) => rows.some((r) => r.verdict === 'violated');

describe('(a) false alarms on correct mechanisms', () => {
  it('LSHRR (exact accountant), 200 seeded repetitions at M = 200: the share with any violated row is <= α within binomial slack', () => {
    let alarms = 0;
    for (let rep = 0; rep < 200; rep++) if (flagged(audit([CORRECT[1]], `fa-${rep}`, { samples: 200 }))) alarms++;
    expect(consistentWithAtMost(alarms, 200, FAMILY_ALPHA), `${alarms} of 200`).toBe(true);
  });
});

describe('(b) must reject', () => {
  const shipped = { kappa: [10, 20, 50], xi: [1, 2, 5, 10, 20], samples: 20 };

  it('the naive accountant in every row of the shipped grid (the exact check, no sampling)', () => {
    const rows = audit([entry('lshrr', { accountant: 'naive' }, 'naive')], 'naive', shipped);
    expect(rows).toHaveLength(15);
    for (const r of rows) expect(r.verdict, `κ ${r.kappa} ξ ${r.xi}`).toBe('violated');
  });

  it('the exact accountant × 1.1 in every shipped row whose exact tail then exceeds δ, and only by the exact check there', () => {
    const rows = audit([inflatedAccountant('exact', 1.1)], 'x1.1', shipped);
    let over = 0;
    for (const r of rows) {
      const tail = exactTail(r.kappa, 0.1, realizedPerBitEpsilon(r.epsilon_bit!), r.xi);
      expect(r.exact_tail).toBe(tail);
      if (tail > 0.01) {
        over++;
        expect(r.verdict, `κ ${r.kappa} ξ ${r.xi}`).toBe('violated');
        expect(r.reason).toMatch(/exact tail/);
      }
    }
    expect(over).toBeGreaterThanOrEqual(10); // the 11 of 15 passed before
  });

  it('a noiseless LapLSH and RAPPOR (clean codes claimed at ξ) are never no-violation-found', () => {
    for (const name of ['laplsh', 'rappor']) {
      for (let rep = 0; rep < 3; rep++) {
        const rows = audit([scaledEntry(name, Infinity)], `clean-${name}-${rep}`, { familySize: M_SMALL });
        for (const r of rows) expect(r.verdict, `${name} ξ ${r.xi}`).not.toBe('no-violation-found');
        // below the ceiling the clean code is violated, beyond it the row says it cannot tell
        for (const r of rows) expect(r.verdict).toBe(r.xi < r.epsilon_ceiling! ? 'violated' : 'not-testable');
      }
    }
  });

  it('RAPPOR ε × 1.9 and VMF with twice the concentration, where the inflated ε is below the ceiling: flagged in >= 80% of 12 repetitions (binomial slack)', () => {
    for (const [name, factor] of [
      ['rappor', 1.9],
      ['vmf', 2],
    ] as const) {
      const hits = new Map<number, number>();
      let eligible: number[] = [];
      for (let rep = 0; rep < 12; rep++) {
        const rows = audit([scaledEntry(name, factor)], `b-${name}-${rep}`, { familySize: M_SMALL });
        eligible = rows.filter((r) => factor * r.xi < r.epsilon_ceiling!).map((r) => r.xi);
        for (const r of rows) if (r.verdict === 'violated') hits.set(r.xi, (hits.get(r.xi) ?? 0) + 1);
      }
      expect(eligible.length, name).toBeGreaterThan(0);
      for (const xi of eligible) expect(consistentWithAtLeast(hits.get(xi) ?? 0, 12, POWER_TARGET), `${name} ξ ${xi}: ${hits.get(xi) ?? 0} of 12`).toBe(true);
    }
  });
});

describe('(c) each detectable_inflation holds up in simulation', () => {
  it('LSHRR: at the detectable factor the exact tail exceeds δ (flagged every time), just below it does not', () => {
    const rows = audit(CORRECT.slice(0, 3), 'c-lshrr', { skipInflation: false, samples: 50 });
    for (const r of rows) {
      const f = r.detectable_inflation!;
      expect(r.detectable_inflation_method).toBe('exact');
      const eps = r.epsilon_realized!;
      expect(exactTail(r.kappa, 0.1, f * eps, r.xi), r.mechanism).toBeGreaterThan(0.01);
      expect(exactTail(r.kappa, 0.1, (f / 1.001) * eps, r.xi), r.mechanism).toBeLessThanOrEqual(0.01);
      const [inflated] = audit([inflatedAccountant(r.accountant!, f)], 'c-lshrr-at', { xi: [r.xi], samples: 50 });
      expect(inflated.verdict).toBe('violated');
    }
  });

  it('RAPPOR (simulation) and VMF (analytic): at the factor found, the row is flagged in >= 80% of 12 repetitions (binomial slack)', () => {
    const found = audit([entry('rappor'), entry('vmf')], 'c-found', { skipInflation: false, familySize: M_SMALL, xi: [2] });
    for (const r of found) {
      expect(r.detectable_inflation, r.mechanism).not.toBeNull();
      expect(r.detectable_inflation_method).toBe(r.base === 'rappor' ? 'simulation' : 'analytic');
      let hits = 0;
      for (let rep = 0; rep < 12; rep++) {
        const [row] = audit([scaledEntry(r.base, r.detectable_inflation!)], `c-${r.base}-${rep}`, { familySize: M_SMALL, xi: [2] });
        if (row.verdict === 'violated') hits++;
      }
      expect(consistentWithAtLeast(hits, 12, POWER_TARGET), `${r.mechanism} ×${r.detectable_inflation}: ${hits} of 12`).toBe(true);
    }
  });
});
