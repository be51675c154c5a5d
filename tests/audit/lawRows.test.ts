/**
 * The audit of releases that are not bits (src/audit/lawRows.ts), at fast-tier sizes (their
 * repetitions: lawRows.long.test.ts): jl-gaussian at its three guarantees, and test mechanisms of the
 * other two laws (tests/helpers/lawMechanisms.ts: b-ary randomized response on symbols, Laplace
 * noise on reals, as the MinHash units will declare them). For each: (a) false alarms of the correct
 * release over seeds, bounded as tests/audit/auditorSmall.long.test.ts bounds them, (b) a hidden ×2 on the ε
 * its sampler uses flagged `violated`, and ×1.2 where the row's detectable_inflation promises it,
 * (c) a wrong noise law flagged `law-mismatch`. Every assertion can fail: a rule that flags too
 * often fails (a), one too weak (b) and (c).
 */
import { describe, expect, it } from 'vitest';
import type { AuditEntry } from '../../src/audit/run.js';
import { auditCsv } from '../../src/audit/output.js';
import { getMechanism } from '../../src/mechanisms/registry.js';
import { spectralNorm, jlGaussianAccount } from '../../src/privacy/gaussian.js';
import { drawHashing } from '../../src/audit/sampling.js';
import { syntheticPair } from '../../src/audit/pairs.js';
import { makeRng } from '../../src/random/rng.js';
import { FAMILY_ALPHA, POWER_TARGET } from '../../src/audit/defaults.js';
import { consistentWithAtLeast, consistentWithAtMost } from '../helpers/auditor.js';
import { CORRECT_LAW, GUARANTEES, M_LAW, auditLaw, bary, jl, laplace, uniformJl } from '../helpers/lawMechanisms.js';

describe('jl-gaussian declares the law its encode draws', () => {
  it('σ = 1/precision (expected), σ_max(W)/precision (every-w, ldp) with the account’s sensitivity; no law at precision 0', () => {
    const m = getMechanism('jl-gaussian');
    const pair = syntheticPair(0.1, 50);
    const hashing = drawHashing(makeRng('law-h'), pair.vectors, 20);
    const ctx = (guarantee: string) => ({ vectors: pair.vectors, hashing, rng: makeRng('unused'), options: { guarantee } });
    const privacy = { d: 0.1, delta: 0.01 };
    const sigmaMax = spectralNorm(hashing.planes, 20, 50);
    for (const g of GUARANTEES) {
      const eps = m.epsilon(5, 20, privacy, { guarantee: g });
      const law = m.releaseLaw!(eps, ctx(g), privacy)!;
      expect(law.noise.kind).toBe('gaussian');
      const sigma = (law.noise as { sigma: number }).sigma;
      const account = jlGaussianAccount(g, 5, 20, privacy, sigmaMax);
      expect(sigma / account.sigma, g).toBeCloseTo(1, 9);
      if (g === 'expected') expect(law.claim).toEqual({ kind: 'jl-expected' });
      else expect(law.claim).toEqual({ kind: 'sensitivity', sensitivity: account.sensitivity });
      expect(m.releaseLaw!({ ...eps, epsilon: 0 }, ctx(g), privacy)).toBeNull();
    }
  });
});

describe('(a) no false alarms', () => {
  it('every correct release-law entry, 6 seeded repetitions (14 rows each): the shares with any violated and with any law-mismatch row are <= α within binomial slack', () => {
    let alarms = 0;
    let mismatches = 0;
    for (let rep = 0; rep < 6; rep++) {
      const rows = auditLaw(CORRECT_LAW, `law-fa-${rep}`, { samples: 400 });
      expect(rows).toHaveLength(M_LAW);
      if (rows.some((r) => r.verdict === 'violated')) alarms++;
      if (rows.some((r) => r.verdict === 'law-mismatch')) mismatches++;
    }
    expect(consistentWithAtMost(alarms, 6, FAMILY_ALPHA), `violated in ${alarms} of 6`).toBe(true);
    expect(consistentWithAtMost(mismatches, 6, FAMILY_ALPHA), `law-mismatch in ${mismatches} of 6`).toBe(true);
  });

  it('the rows name their tests, parameter and claim; no-violation-found with a detectable inflation by the decisive test', () => {
    const rows = auditLaw([jl('expected'), bary('exact'), laplace('ldp')], 'law-fields', { xi: [5], skipInflation: false });
    const [g, b, l] = rows;
    expect(g.tests).toEqual(['declared-tail', 'gaussian-scale', 'gaussian-law']);
    expect(b.tests).toEqual(['declared-tail', 'keep-rate', 'rr-law']);
    expect(l.tests).toEqual(['declared-tail', 'laplace-scale', 'laplace-law']);
    expect([g.parameter, b.parameter, l.parameter]).toEqual(['precision', 'epsilon_position', 'epsilon_position']);
    expect([g.claim, g.delta, l.claim, l.delta]).toEqual(['xi', 0.01, 'ldp', 0]);
    for (const r of rows) {
      expect(r.verdict, `${r.mechanism}: ${r.reason}`).toBe('no-violation-found');
      expect(r.exact_tail!).toBeLessThanOrEqual(r.delta! * (1 + 1e-9));
      expect(r.realized_lb!).toBeLessThanOrEqual(r.allowed!);
      expect(r.realized_tail!).toBeLessThanOrEqual(0.01);
      expect(r.detectable_by).toBe(r.tests[1]);
      expect(r.detectable_inflation!).toBeGreaterThanOrEqual(1);
      expect(r.detectable_inflation!).toBeLessThan(2);
      expect(r.reason).toMatch(/^no test rejected; ×[\d.]+ on the release's/);
    }
    // jl-gaussian's precision 1/σ sits at the claim's bound (σ is the smallest that meets it)
    expect(g.allowed! / getMechanism('jl-gaussian').epsilon(5, 20, { d: 0.1, delta: 0.01 }).epsilon!).toBeCloseTo(1, 6);
    expect(auditCsv(rows).split('\n')[0]).toContain('realized_tail');
  });
});

describe('(b) a hidden inflation is violated', () => {
  it('jl-gaussian at ×2 (half its σ) at every guarantee, and at ×1.2 (M 1000, κ 20: each row promises ×1.2 or less)', () => {
    const honest = auditLaw(
      GUARANTEES.map((g) => jl(g)),
      'jl-promise',
      { skipInflation: false },
    );
    for (const h of honest) expect(h.detectable_inflation!, h.mechanism).toBeLessThanOrEqual(1.2);
    const rows = auditLaw([...GUARANTEES.map((g) => jl(g, 2)), ...GUARANTEES.map((g) => jl(g, 1.2))], 'jl-hidden');
    for (const r of rows) {
      expect(r.verdict, `${r.mechanism} ξ ${r.xi}: ${r.reason}`).toBe('violated');
      expect(r.reason).toMatch(/^gaussian-scale: the release's σ is at most [\d.]+ × the declared/);
      expect(r.exact_tail!).toBeLessThanOrEqual(0.01 * (1 + 1e-9)); // the declaration passes its accounting
      expect(r.realized_tail!).toBeGreaterThan(0.01);
    }
  });

  it('b-ary randomized response (exact and ldp) and Laplace noise (paper and ldp) at ×2: violated in every row', () => {
    const rows = auditLaw([bary('exact', { factor: 2 }), bary('ldp', { factor: 2 }), laplace('paper', { factor: 2 }), laplace('ldp', { factor: 2 })], 'law-x2');
    for (const r of rows) expect(r.verdict, `${r.mechanism} ξ ${r.xi}: ${r.reason}`).toBe('violated');
  });

  it('at ×1.2 where the honest row promises ×1.2: 4 seeded repetitions each flagged at least as the promise allows (binomial slack)', () => {
    const honest = auditLaw([bary('exact'), bary('ldp'), laplace('paper'), laplace('ldp')], 'law-promise', { skipInflation: false });
    let promised = 0;
    for (const h of honest) {
      if (h.detectable_inflation! > 1.2) continue;
      promised++;
      const fault = { factor: 1.2 };
      const entry = h.mechanism.startsWith('bary') ? bary(h.mechanism.endsWith('ldp') ? 'ldp' : 'exact', fault) : laplace(h.mechanism.endsWith('ldp') ? 'ldp' : 'paper', fault);
      let hits = 0;
      for (let rep = 0; rep < 4; rep++) if (auditLaw([entry], `law-x1.2-${h.mechanism}-${h.xi}-${rep}`, { xi: [h.xi] })[0].verdict === 'violated') hits++;
      expect(consistentWithAtLeast(hits, 4, POWER_TARGET), `${h.mechanism} ξ ${h.xi} (detectable ×${h.detectable_inflation}): ${hits} of 4`).toBe(true);
    }
    // the tight claims (exact accountant at ξ 5, Laplace ldp) promise it: the promise is tested, not skipped
    expect(promised, honest.map((h) => `${h.mechanism} ${h.xi} ×${h.detectable_inflation}`).join(', ')).toBeGreaterThanOrEqual(3);
  });

  it('an accounting that declares ×2 its σ’s precision (declared and used): violated by the declared tail, no sampling needed', () => {
    const m = getMechanism('jl-gaussian');
    const inflated: AuditEntry = {
      label: 'jl-accounting×2',
      name: 'jl-gaussian',
      options: {},
      epsilonOf: (xi, kappa) => {
        const e = m.epsilon(xi, kappa, { d: 0.1, delta: 0.01 });
        return { ...e, epsilon: e.epsilon! * 2 };
      },
    };
    for (const r of auditLaw([inflated], 'jl-accounting')) {
      expect(r.verdict).toBe('violated');
      expect(r.exact_tail!).toBeGreaterThan(0.01);
      expect(r.reason).toMatch(/^declared tail [\d.e-]+ > δ = 0\.01 at the declared gaussian σ/);
    }
  });
});

describe('(c) a wrong noise law is law-mismatch', () => {
  it('uniform noise of the declared variance (jl-gaussian, Laplace), every replacement the next symbol (b-ary): law-mismatch, never violated', () => {
    const uniform: AuditEntry = { label: 'jl-uniform', name: 'jl-gaussian', options: {}, mechanism: uniformJl('expected') };
    const rows = auditLaw([uniform, bary('exact', { wrongLaw: true }), laplace('paper', { wrongLaw: true })], 'law-wrong');
    for (const r of rows) {
      expect(r.verdict, `${r.mechanism} ξ ${r.xi}: ${r.reason}`).toBe('law-mismatch');
      expect(r.p_law!).toBeLessThanOrEqual(r.level!);
    }
    const of = (prefix: string) => rows.filter((r) => r.mechanism.startsWith(prefix));
    for (const r of of('jl-uniform')) expect(r.reason).toMatch(/gaussian-law: the standardized residuals are not normal/);
    for (const r of of('bary')) expect(r.reason).toMatch(/rr-law: the replaced symbols are not uniform over the other 3 by offset/);
    for (const r of of('laplace')) {
      expect(r.reason).toMatch(/laplace-law: the standardized residuals are not Laplace/);
      expect(r.law_direction).toBe('safer'); // its mean |e| is √6/2 of the declared scale
    }
    expect(rows).toHaveLength(6);
  });

  it('jl-gaussian at ξ 0 declares no law (its release is the noise alone): not-testable, with a reason', () => {
    const [r] = auditLaw([jl('expected')], 'jl-zero', { xi: [0] });
    expect(r.verdict).toBe('not-testable');
    expect(r.reason).toMatch(/declares no release law at ξ = 0/);
  });
});
