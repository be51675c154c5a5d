/**
 * The audit of releases that are not bits at the long tier's sizes (npm run test:full): κ 20, ξ 2
 * and 5, M = 1000 (LAW_PLAN) unless said; (a) 60 repetitions of every correct release-law entry,
 * (b) 30 repetitions of each hidden inflation at ×2 and wherever a row promises ×1.2 (and at the
 * printed factor), (c) 20 repetitions of each wrong noise law.
 */
import { describe, expect, it } from 'vitest';
import { FAMILY_ALPHA, POWER_TARGET } from '../../src/audit/defaults.js';
import type { AuditEntry } from '../../src/audit/run.js';
import { consistentWithAtLeast, consistentWithAtMost } from '../helpers/auditor.js';
import { CORRECT_LAW, GUARANTEES, auditLaw, bary, jl, laplace, uniformJl } from '../helpers/lawMechanisms.js';
import type { Fault } from '../helpers/lawMechanisms.js';

/** The entry of an honest row's mechanism with a fault. */
function faulty(mechanism: string, fault: Fault): AuditEntry {
  if (mechanism.startsWith('jl-')) return jl(mechanism.slice(3), fault.factor);
  if (mechanism.startsWith('bary')) return bary(mechanism.endsWith('ldp') ? 'ldp' : 'exact', fault);
  return laplace(mechanism.endsWith('ldp') ? 'ldp' : 'paper', fault);
}

describe('the release-law audit at the long sizes', () => {
  it('(a) 60 repetitions of every correct release-law entry (14 rows each): the shares with any violated and with any law-mismatch row are <= α within binomial slack', () => {
    let alarms = 0;
    let mismatches = 0;
    for (let rep = 0; rep < 60; rep++) {
      const rows = auditLaw(CORRECT_LAW, `law-long-fa-${rep}`);
      if (rows.some((r) => r.verdict === 'violated')) alarms++;
      if (rows.some((r) => r.verdict === 'law-mismatch')) mismatches++;
    }
    console.log(`release-law false alarms: violated ${alarms} of 60, law-mismatch ${mismatches} of 60`);
    expect(consistentWithAtMost(alarms, 60, FAMILY_ALPHA), `violated in ${alarms} of 60`).toBe(true);
    expect(consistentWithAtMost(mismatches, 60, FAMILY_ALPHA), `law-mismatch in ${mismatches} of 60`).toBe(true);
  }, 1_800_000);

  it('(b) a hidden ×2 is violated in 30 of 30; ×1.2 and the printed factor wherever promised, at least as often as promised (binomial slack)', () => {
    const honest = auditLaw(CORRECT_LAW, 'law-long-honest', { skipInflation: false });
    const counts: string[] = [];
    let promised = 0;
    for (const h of honest) {
      for (const factor of [2, 1.2, h.detectable_inflation!]) {
        if (factor < 2 && h.detectable_inflation! > factor) continue;
        if (factor < 2) promised++;
        let hits = 0;
        for (let rep = 0; rep < 30; rep++) if (auditLaw([faulty(h.mechanism, { factor })], `law-long-${h.mechanism}-${factor}-${rep}`, { xi: [h.xi] })[0].verdict === 'violated') hits++;
        counts.push(`${h.mechanism} ξ ${h.xi} ×${factor} (detectable ×${h.detectable_inflation}): ${hits}/30`);
        if (factor === 2) expect(hits, counts[counts.length - 1]).toBe(30);
        else expect(consistentWithAtLeast(hits, 30, POWER_TARGET), counts[counts.length - 1]).toBe(true);
      }
    }
    console.log(counts.join('\n'));
    expect(promised).toBeGreaterThanOrEqual(10);
  }, 1_800_000);

  it('(c) wrong noise laws: law-mismatch in every row of 20 repetitions', () => {
    const wrong: AuditEntry[] = [
      ...GUARANTEES.map((g) => ({ label: `jl-uniform-${g}`, name: 'jl-gaussian', options: { guarantee: g }, mechanism: uniformJl(g) })),
      bary('exact', { wrongLaw: true }),
      laplace('paper', { wrongLaw: true }),
    ];
    for (let rep = 0; rep < 20; rep++) for (const r of auditLaw(wrong, `law-long-wrong-${rep}`)) expect(r.verdict, `${r.mechanism} ξ ${r.xi} rep ${rep}: ${r.reason}`).toBe('law-mismatch');
  }, 1_800_000);
});
