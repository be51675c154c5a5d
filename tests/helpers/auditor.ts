/**
 * The auditor tested as prior art tests its own (DP-Auditorium): a small config, correct
 * mechanisms, and test-only broken ones (a factor on the ε a mechanism's sampler uses, or on the
 * ε its accounting hands out; plugins that release something other than they declare). Shared by
 * tests/audit/auditorSmall.long.test.ts (small sizes) and tests/audit/auditor.long.test.ts (the
 * issue's sizes).
 */
import { runAudit, type AuditEntry, type AuditPlan, type AuditResult } from '../../src/audit/run.js';
import { getMechanism } from '../../src/mechanisms/registry.js';
import type { Mechanism } from '../../src/mechanisms/types.js';
import { pluginMechanism, type MechanismPlugin } from '../../src/mechanisms/plugin.js';
import { accountEpsilon, parseAccountant } from '../../src/privacy/accountants.js';
import { epsilonOnFamily } from '../../src/privacy/onFamily.js';
import { binomialUpperP } from '../../src/stats/binomial.js';
import type { CodeSet } from '../../src/lsh/codes.js';
import type { Rng } from '../../src/random/rng.js';

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

/** The m of SMALL with every correct mechanism: rows are tested at α/m as in that config. */
export const M_SMALL = CORRECT.length * SMALL.xi.length;

/** A mechanism whose sampler uses factor × the ε (concentration) its accounting hands out: a hidden
 *  inflation (Infinity: the clean code; for LSHRR, no bit ever flipped). */
export function scaledSampler(name: string, factor: number): Mechanism {
  const m = getMechanism(name);
  return { ...m, encode: (ctx, eps) => m.encode!(ctx, { ...eps, epsilon: factor === Infinity ? Infinity : (eps.epsilon ?? NaN) * factor }) };
}

/** An entry whose sampler is scaled (the accounting and the claim unchanged). */
export const scaledEntry = (name: string, factor: number, label = `${name}×${factor}`, options: Record<string, unknown> = {}): AuditEntry => ({
  label,
  name,
  options,
  mechanism: scaledSampler(name, factor),
});

/** LSHRR declaring `accountant`'s per-bit ε and flipping at factor × it (the issue's hidden inflation). */
export const hiddenLshrr = (accountant: string, factor: number, label = `lshrr-${accountant}-flips×${factor}`): AuditEntry => scaledEntry('lshrr', factor, label, { accountant });

/** An LSHRR entry whose accountant's per-bit ε is multiplied by factor (declared and used). */
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

/** The codes with each used bit flipped with probability q (one uniform of `rng` per bit). */
export function flipEach(codes: CodeSet, users: number, q: number, rng: Rng): CodeSet {
  const out = codes.codes.slice();
  for (let i = 0; i < users; i++) for (let j = 0; j < codes.bits; j++) if (rng() < q) out[i * codes.words + (j >>> 5)] ^= 1 << (j & 31);
  return { codes: out, bits: codes.bits, words: codes.words };
}

/** An in-memory plugin as a config's `module:` entry would give it to the audit (its own encode path). */
export function pluginEntry(plugin: MechanismPlugin, label = plugin.name, options: Record<string, unknown> = {}): AuditEntry {
  const loaded = { plugin, path: `${plugin.name}.mjs`, file: `/plugins/${plugin.name}.mjs`, sha256: '0'.repeat(64) };
  return { label, name: plugin.name, options, mechanism: pluginMechanism(loaded, (d) => d) };
}

/**
 * A per-bit randomized response plugin (it declares `flipsBits`) that states `accountant`'s per-bit
 * ε, computed with the library's accountants, and flips each bit with probability 1/(1 + e^(f·ε))
 * (f = 0: never flips).
 */
export function flipperPlugin(accountant: string, factor: number, name = `flipper-${accountant}-${String(factor).replace('.', '_')}`): MechanismPlugin {
  const acc = parseAccountant(accountant, 'test');
  return {
    name,
    usesXi: true,
    flipsBits: true,
    cleanIsLshCode: true,
    epsilon: ({ xi, kappa, d, delta, disagreement }) => {
      const a = accountEpsilon(acc, { xi, kappa, p: disagreement(d), delta });
      return { epsilon_bit: a.epsilonBit, epsilon_ldp: a.epsilonLdp, fallback: a.fallback };
    },
    encode: ({ codes, users, eps, rng }) => flipEach(codes, users, factor === 0 ? 0 : 1 / (1 + Math.exp(factor * (eps.epsilon_bit as number))), rng),
  };
}

/** A plugin that states only an LDP ε (ε_LDP = ξ, `epsilon_bit: null`) and flips each bit with
 *  probability 1/(1 + e^(f·ε_LDP/κ)): a correct ξ-LDP mechanism at f = 1. */
export function ldpPlugin(factor = 1, name = `kldp-${String(factor).replace('.', '_')}`): MechanismPlugin {
  return {
    name,
    usesXi: true,
    epsilon: ({ xi }) => ({ epsilon_bit: null, epsilon_ldp: xi }),
    encode: ({ codes, users, kappa, eps, rng }) => flipEach(codes, users, 1 / (1 + Math.exp((factor * (eps.epsilon_ldp as number)) / kappa)), rng),
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

/** How many of `reps` audits of `make(rep)` (one row each) come out `violated`. */
export function timesViolated(reps: number, make: (rep: number) => AuditResult[]): number {
  let hits = 0;
  for (let rep = 0; rep < reps; rep++) if (make(rep).some((r) => r.verdict === 'violated')) hits++;
  return hits;
}
