/**
 * Mechanisms built for the release-law audit's tests (tests/audit/lawRows*.test.ts): releases that
 * are not bits on the angular family, declaring their law through `releaseLaw` as a unit would, in
 * a correct version, with a hidden factor on the ε their sampler uses, and with a wrong noise law.
 *
 * - `baryRr`: position j's clean symbol is hash bit j (0 or 1) in an alphabet of b, released by
 *   b-ary randomized response with the library's sampler (src/random/symbols.ts) at the realized
 *   count of src/privacy/bucketRr.ts: the per-position disagreement is d (the bit's), the accountant
 *   bucketExactEpsilon (tight: it sits at the largest ε′ the claim allows) or ξ/κ (`ldp`).
 * - `laplaceBits`: hash bit j plus Laplace noise of scale 1/ε′ (src/random/laplace.ts), released as
 *   reals, ε′ from LSHRR's paper accountant at p = d (the positions claim) or ξ/κ (`ldp`).
 * - `uniformJl`: jl-gaussian's clean release plus uniform noise of the declared σ's variance.
 */
import type { Mechanism, MechanismContext } from '../../src/mechanisms/types.js';
import type { EpsilonInfo, PrivacyParams } from '../../src/privacy/types.js';
import type { ReleaseLaw } from '../../src/mechanisms/releaseLaw.js';
import { getMechanism } from '../../src/mechanisms/registry.js';
import { packSymbols, type RealSet, type SymbolSet } from '../../src/lsh/releases.js';
import { bucketExactEpsilon, realizedOtherCount, realizedOtherProbability } from '../../src/privacy/bucketRr.js';
import { accountEpsilon } from '../../src/privacy/accountants.js';
import { nextDown } from '../../src/privacy/exactLoss.js';
import { randomizeSymbols } from '../../src/random/symbols.js';
import { laplaceNoisyValues } from '../../src/random/laplace.js';
import { uniformWord } from '../../src/random/rng.js';
import { runAudit, type AuditEntry, type AuditPlan, type AuditResult } from '../../src/audit/run.js';
import { scaledEntry } from './auditor.js';

/** The hash bits of both users of a sample (users × κ, row-major). */
function bitsOf(ctx: MechanismContext): Uint8Array {
  const { codes, bits, words } = ctx.hashing.codes!;
  const users = codes.length / words;
  const out = new Uint8Array(users * bits);
  for (let i = 0; i < users; i++) for (let j = 0; j < bits; j++) out[i * bits + j] = (codes[i * words + (j >>> 5)] >>> (j & 31)) & 1;
  return out;
}

/** How a test mechanism goes wrong: a factor on the ε its sampler uses, or a wrong noise shape. */
export interface Fault {
  factor?: number;
  /** bary-rr: replaced symbols always the next one; laplace: uniform noise of the declared variance */
  wrongLaw?: boolean;
}

/** The largest double ε′ with κ·ε′ <= ξ in floating point (pure ξ-LDP over κ positions). */
const ldpEpsilon = (xi: number, kappa: number) => {
  let e = xi / kappa;
  while (e * kappa > xi) e = nextDown(e);
  return e;
};

const used = (eps: EpsilonInfo, fault: Fault) => (eps.epsilon! === Infinity ? Infinity : eps.epsilon! * (fault.factor ?? 1));

/** b-ary randomized response on the hash bits (see the file comment); accountant `exact` or `ldp`. */
export function baryRr(b: number, accountant: 'exact' | 'ldp', fault: Fault = {}, name = `bary-rr-${b}-${accountant}`): Mechanism {
  return {
    name,
    description: 'test: b-ary randomized response on the hash bits',
    kind: 'code',
    usesKappa: true,
    usesXi: true,
    release: 'symbols',
    epsilon(xi, kappa, privacy): EpsilonInfo {
      const epsilon = accountant === 'ldp' ? ldpEpsilon(xi, kappa) : bucketExactEpsilon(xi, kappa, privacy.d, b, privacy.delta).epsilon;
      return { epsilon, ldpEpsilon: kappa * epsilon, fallback: false, accountant };
    },
    releaseLaw(eps, _ctx, privacy: PrivacyParams): ReleaseLaw {
      return {
        noise: { kind: 'bary-rr', alphabet: b, keep: 1 - (b - 1) * realizedOtherProbability(eps.epsilon!, b) },
        claim: accountant === 'ldp' ? { kind: 'ldp' } : { kind: 'positions', disagreement: privacy.d },
      };
    },
    encode(ctx, eps): SymbolSet {
      const kappa = ctx.hashing.kappa;
      const clean = bitsOf(ctx);
      const e = used(eps, fault);
      let out: Uint8Array;
      if (!fault.wrongLaw) out = randomizeSymbols(clean, b, realizedOtherCount(e, b), ctx.rng);
      else {
        // the right keep rate, every replacement the next symbol
        const keep = 1 - (b - 1) * realizedOtherProbability(e, b);
        out = clean.map((x) => (e === Infinity || uniformWord(ctx.rng) / 4294967296 < keep ? x : (x + 1) % b));
      }
      return packSymbols(out, clean.length / kappa, kappa, b);
    },
  };
}

/** Hash bits plus Laplace noise of scale 1/ε′ (see the file comment); accountant `paper` or `ldp`. */
export function laplaceBits(accountant: 'paper' | 'ldp', fault: Fault = {}, name = `laplace-bits-${accountant}`): Mechanism {
  return {
    name,
    description: 'test: hash bits plus Laplace noise',
    kind: 'code',
    usesKappa: true,
    usesXi: true,
    release: 'reals',
    epsilon(xi, kappa, privacy): EpsilonInfo {
      const epsilon = accountant === 'ldp' ? ldpEpsilon(xi, kappa) : accountEpsilon('paper', { xi, kappa, p: privacy.d, delta: privacy.delta }).epsilonBit;
      return { epsilon, ldpEpsilon: kappa * epsilon, fallback: false, accountant };
    },
    releaseLaw(eps, _ctx, privacy): ReleaseLaw {
      return { noise: { kind: 'laplace', scale: 1 / eps.epsilon! }, claim: accountant === 'ldp' ? { kind: 'ldp' } : { kind: 'positions', disagreement: privacy.d } };
    },
    encode(ctx, eps): RealSet {
      const kappa = ctx.hashing.kappa;
      const clean = bitsOf(ctx);
      const e = used(eps, fault);
      if (!fault.wrongLaw) return { kind: 'reals', dims: kappa, values: laplaceNoisyValues(clean, e, ctx.rng) };
      // uniform on ±a with the variance 2/ε′² of Laplace(1/ε′): a = √6/ε′
      const a = Math.sqrt(6) / e;
      return { kind: 'reals', dims: kappa, values: Float64Array.from(clean, (v) => (e === Infinity ? v : v + a * (2 * (uniformWord(ctx.rng) / 4294967296) - 1))) };
    },
  };
}

/** jl-gaussian whose noise is uniform with the variance of the σ it declares (a wrong law). */
export function uniformJl(guarantee: string): Mechanism {
  const jl = getMechanism('jl-gaussian');
  return {
    ...jl,
    encode(ctx, eps): RealSet {
      const clean = jl.encode!(ctx, { ...eps, epsilon: Infinity }) as RealSet;
      if (eps.epsilon === Infinity) return clean;
      const law = jl.releaseLaw!(eps, ctx, { d: 0.1, delta: 0.01 })!;
      const sigma = (law.noise as { sigma: number }).sigma;
      const a = Math.sqrt(3) * sigma;
      return { ...clean, values: clean.values.map((v) => v + a * (2 * (uniformWord(ctx.rng) / 4294967296) - 1)) };
    },
    // the entry's options carry the guarantee
    optionKeys: [...(jl.optionKeys ?? [])],
    description: `test: jl-gaussian (${guarantee}) with uniform noise`,
  };
}

/** κ 20, two ξ, M = 1000 at d = 0.1, δ = 0.01, n = 50 (jl-gaussian's vectors). */
export const LAW_PLAN: Omit<AuditPlan, 'entries' | 'seed'> = { d: 0.1, delta: 0.01, kappa: [20], xi: [2, 5], n: 50, samples: 1000, realPairs: [], skipInflation: true };

export const GUARANTEES = ['expected', 'every-w', 'ldp'] as const;

export const jl = (guarantee: string, factor = 1): AuditEntry =>
  factor === 1 ? { label: `jl-${guarantee}`, name: 'jl-gaussian', options: { guarantee } } : scaledEntry('jl-gaussian', factor, `jl-${guarantee}×${factor}`, { guarantee });

export const bary = (accountant: 'exact' | 'ldp', fault: Fault = {}): AuditEntry => {
  const m = baryRr(4, accountant, fault);
  return { label: `${m.name}${fault.factor ? `×${fault.factor}` : ''}${fault.wrongLaw ? '-wrong' : ''}`, name: m.name, options: {}, mechanism: m };
};

export const laplace = (accountant: 'paper' | 'ldp', fault: Fault = {}): AuditEntry => {
  const m = laplaceBits(accountant, fault);
  return { label: `${m.name}${fault.factor ? `×${fault.factor}` : ''}${fault.wrongLaw ? '-wrong' : ''}`, name: m.name, options: {}, mechanism: m };
};

/** Every correct release-law entry: jl-gaussian at each guarantee, the b-ary and Laplace test mechanisms. */
export const CORRECT_LAW: AuditEntry[] = [...GUARANTEES.map((g) => jl(g)), bary('exact'), bary('ldp'), laplace('paper'), laplace('ldp')];

/** The m of LAW_PLAN with every correct entry (rows are tested at α/m as in that config). */
export const M_LAW = CORRECT_LAW.length * LAW_PLAN.xi.length;

export function auditLaw(entries: AuditEntry[], seed: string, plan: Partial<AuditPlan> = {}): AuditResult[] {
  return runAudit({ ...LAW_PLAN, familySize: M_LAW, ...plan, seed, entries }).results;
}
