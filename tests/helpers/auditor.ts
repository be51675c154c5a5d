/**
 * The auditor tested as prior art tests its own (DP-Auditorium): a small config, correct
 * mechanisms, and test-only broken ones (a factor on the ε a mechanism's sampler uses, or on the
 * ε its accounting hands out). Shared by tests/audit/auditor.test.ts (fast tier, small sizes) and
 * tests/audit/auditor.long.test.ts (the sizes).
 */
import { runAudit, type AuditEntry, type AuditPlan, type AuditResult } from '../../src/audit/run.js';
import { getMechanism } from '../../src/mechanisms/registry.js';
import type { Mechanism } from '../../src/mechanisms/types.js';
import { epsilonOnFamily } from '../../src/privacy/onFamily.js';
import { binomialUpperP } from '../../src/stats/binomial.js';

/** One κ, two ξ, M = 1000 at d = 0.1, δ = 0.01 (no jump point of the exact accountant at these). */
export const SMALL: Omit<AuditPlan, 'entries' | 'seed'> = { d: 0.1, delta: 0.01, kappa: [20], xi: [2, 5], n: 4, samples: 1000, realPairs: [], skipInflation: true };

export const entry = (name: string, options: Record<string, unknown> = {}, label = name): AuditEntry => ({ label, name, options });

/** Every correct mechanism that claims a budget (LSHRR under its sound accountants). */
export const CORRECT: AuditEntry[] = [
  entry('lshrr', { accountant: 'paper' }, 'lshrr'),
  entry('lshrr', { accountant: 'exact' }, 'lshrr-exact'),
  entry('lshrr', { accountant: 'theorem' }, 'lshrr-theorem'),
  entry('laplsh'),
  entry('rappor'),
  entry('vmf'),
  entry('purkayastha'),
];

/** A mechanism whose sampler uses factor × the ε (concentration) its accounting hands out. */
export function scaledSampler(name: string, factor: number): Mechanism {
  const m = getMechanism(name);
  return { ...m, encode: (ctx, eps) => m.encode!(ctx, { ...eps, epsilon: (eps.epsilon ?? NaN) * factor }) };
}

/** An entry whose sampler is scaled (the accounting and the claim unchanged). */
export const scaledEntry = (name: string, factor: number, label = `${name}×${factor}`): AuditEntry => ({ label, name, options: {}, mechanism: scaledSampler(name, factor) });

/** An LSHRR entry whose accountant's per-bit ε is multiplied by factor. */
export function inflatedAccountant(accountant: string, factor: number, label = `lshrr-${accountant}×${factor}`): AuditEntry {
  const m = getMechanism('lshrr');
  return {
    label,
    name: 'lshrr',
    options: { accountant },
    epsilonOf: (xi, kappa) => {
      const e = epsilonOnFamily(m, (d) => d, xi, kappa, { d: SMALL.d, delta: SMALL.delta }, { accountant });
      return { ...e, epsilon: (e.epsilon ?? NaN) * factor };
    },
  };
}

/** The rows of one audit of `entries` on SMALL (or `plan`) with `seed`. */
export function audit(entries: AuditEntry[], seed: number | string, plan: Partial<AuditPlan> = {}): AuditResult[] {
  return runAudit({ ...SMALL, ...plan, seed, entries }).results;
}

/**
 * Whether k hits of n are consistent with a rate >= target: the one-sided exact binomial test of
 * "rate >= target" does not reject at 1% (the binomial slack of the assertions).
 */
export function consistentWithAtLeast(k: number, n: number, target: number): boolean {
  // Pr[X <= k] under Bin(n, target) = 1 − Pr[X >= k + 1]
  return 1 - binomialUpperP(k + 1, n, target) > 0.01;
}

/** Whether k hits of n are consistent with a rate <= target (one-sided exact test at 1%). */
export function consistentWithAtMost(k: number, n: number, target: number): boolean {
  return binomialUpperP(k, n, target) > 0.01;
}
