/**
 * The private MinHash mechanisms (src/mechanisms/minhash/): their facts and options, their ε' from
 * the accountants on the Jaccard distance itself, their budget rows, the releases' laws through
 * `encode` (both directions), ξ → ∞ (the noiseless release's neighbours) and ξ = 0 (the random
 * level), and b = 2 against LSHRR on 1-bit MinHash (the same law: equal utility within noise).
 * Tolerances are Z = 4.9 standard errors (tests/lsh/stats.ts), each SE derived from its statistic.
 */
import { describe, expect, it } from 'vitest';
import { getMechanism } from '../../src/mechanisms/registry.js';
import { BUCKETS_OPTION, MINHASH_BUCKET_FACTS, MINHASH_NOISY_FACTS } from '../../src/mechanisms/minhash/facts.js';
import type { MechanismContext } from '../../src/mechanisms/types.js';
import { angularFamily, jaccardFamily } from '../../src/lsh/families/index.js';
import { bucketSymbols, MAX_BUCKETS, MIN_BUCKETS, minHashBits } from '../../src/lsh/minHash.js';
import { packSymbols, releaseKnn, unpackSymbols, type RealSet, type SymbolSet } from '../../src/lsh/releases.js';
import { DEFAULT_BUCKETS, MINHASH_BUCKET_ACCOUNTANTS, MINHASH_NOISY_ACCOUNTANTS, minhashBucketEpsilon, minhashNoisyEpsilon } from '../../src/privacy/minhash.js';
import { epsilonOnFamily } from '../../src/privacy/onFamily.js';
import { bucketKeepProbability, realizedOtherProbability } from '../../src/privacy/bucketRr.js';
import { makeRng, type Rng } from '../../src/random/rng.js';
import { runTrialCell } from '../../src/experiment/trial.js';
import { sampleQueries } from '../../src/experiment/queries.js';
import { parseConfig } from '../../src/experiment/config.js';
import { encodeUsers } from '../../src/encode/encode.js';
import { UserError } from '../../src/util/errors.js';
import { clusteredVectors } from '../lsh/synthetic.js';
import { Z } from '../lsh/stats.js';

const bucketMech = getMechanism('minhash-bucket');
const noisyMech = getMechanism('minhash-noisy');
const lshrr = getMechanism('lshrr');
const PRIVACY = { d: 0.1, delta: 0.01 };

const USERS = 300;
const N = 40;
const SETS = jaccardFamily.prepare(clusteredVectors({ users: USERS, n: N, clusters: 6, seed: 'minhash-mech' }));
const KAPPA = 16;
const HASHING = jaccardFamily.hash(SETS, KAPPA, 'minhash-mech-planes');
const { tables, minima } = HASHING.minHash!;
const QUERIES = sampleQueries(USERS, 60, 5, 'sets', N);
const TIES = 12345;

/** A source that must not be read (ε' = ∞ draws nothing). */
const noDraws: Rng = Object.assign(() => {
  throw new Error('drew a random number');
}, {}) as Rng;

const ctx = (rng: Rng, options: Record<string, unknown> = {}, hashing = HASHING): MechanismContext => ({ vectors: SETS, hashing, rng, options });
const atEps = (epsilon: number) => ({ epsilon, ldpEpsilon: KAPPA * epsilon, fallback: false });

describe('the private MinHash units', () => {
  it('declare what they release, on which family, with which accountants and options', () => {
    expect([bucketMech.release, noisyMech.release]).toEqual(['symbols', 'reals']);
    for (const m of [bucketMech, noisyMech]) {
      expect([m.kind, m.usesKappa, m.usesXi, m.hasFallback, m.epsilonKind, m.budgetDistance, m.metric, m.budgetRows, m.algorithm]).toEqual([
        'code',
        true,
        true,
        true,
        'bit',
        'family',
        'jaccard',
        'own',
        '1',
      ]);
    }
    expect(bucketMech.accountants).toEqual(MINHASH_BUCKET_ACCOUNTANTS);
    expect(noisyMech.accountants).toEqual(MINHASH_NOISY_ACCOUNTANTS);
    expect([bucketMech.optionKeys, noisyMech.optionKeys]).toEqual([['buckets'], []]);
    // the facts' numbers are the science's (the facts load no code, so they are written twice)
    expect([BUCKETS_OPTION.min, BUCKETS_OPTION.max, BUCKETS_OPTION.default]).toEqual([MIN_BUCKETS, MAX_BUCKETS, DEFAULT_BUCKETS]);
    expect([bucketMech.roles, noisyMech.roles]).toEqual([['bucket-minhash'], ['noisy-minhash']]);
    expect([MINHASH_BUCKET_FACTS.name, MINHASH_NOISY_FACTS.name]).toEqual([bucketMech.name, noisyMech.name]);
  });
});

describe('ε per position', () => {
  it('is the accountants of src/privacy/minhash.ts at the config’s Jaccard distance, which onFamily passes unchanged', () => {
    for (const [xi, kappa] of [
      [0, 10],
      [2, 16],
      [20, 50],
    ] as const) {
      for (const b of [2, 4, 16]) {
        for (const accountant of MINHASH_BUCKET_ACCOUNTANTS) {
          const got = epsilonOnFamily(bucketMech, jaccardFamily.disagreement, xi, kappa, PRIVACY, { buckets: b, accountant });
          expect(got).toEqual(minhashBucketEpsilon(xi, kappa, { jaccardDistance: 0.1, delta: 0.01 }, b, accountant));
        }
      }
      for (const accountant of MINHASH_NOISY_ACCOUNTANTS) {
        expect(epsilonOnFamily(noisyMech, jaccardFamily.disagreement, xi, kappa, PRIVACY, { accountant })).toEqual(minhashNoisyEpsilon(xi, kappa, { jaccardDistance: 0.1, delta: 0.01 }, accountant));
      }
    }
  });

  it('equals LSHRR’s on the jaccard family where the laws agree: bucket b = 2 (paper, exact) and noisy (paper), at disagreement d/2', () => {
    for (const [xi, kappa] of [
      [1, 10],
      [5, 20],
      [20, 50],
    ] as const) {
      const rr = (accountant: string) => epsilonOnFamily(lshrr, jaccardFamily.disagreement, xi, kappa, PRIVACY, { accountant }).epsilon;
      const bucket = (accountant: string) => epsilonOnFamily(bucketMech, jaccardFamily.disagreement, xi, kappa, PRIVACY, { buckets: 2, accountant }).epsilon;
      expect(bucket('paper')).toBe(rr('paper'));
      expect(bucket('exact')).toBe(rr('exact'));
      expect(epsilonOnFamily(noisyMech, jaccardFamily.disagreement, xi, kappa, PRIVACY, {}).epsilon).toBe(rr('paper'));
      // ldp: κε' ≤ ξ exactly, the largest such double
      const ldp = bucketMech.epsilon(xi, kappa, PRIVACY, { accountant: 'ldp' }).epsilon!;
      expect(ldp * kappa).toBeLessThanOrEqual(xi);
      expect(ldp).toBeCloseTo(xi / kappa, 14);
    }
  });

  it('gives budget rows of their own: ε per position, its pure-LDP equivalent, the accountant and the fallback', () => {
    const eps = bucketMech.epsilon(5, 20, PRIVACY, { buckets: 16 });
    expect(bucketMech.budgetRow!(5, 20, PRIVACY, { buckets: 16 })).toEqual({
      parameter: 'epsilon_position',
      value: eps.epsilon,
      epsilon_ldp: 20 * eps.epsilon!,
      ldp_delta: 0,
      accountant: 'paper',
      fallback: false,
    });
    expect(noisyMech.budgetRow!(5, 20, PRIVACY, { accountant: 'ldp' })).toMatchObject({ parameter: 'epsilon_position', epsilon_ldp: 5, ldp_delta: 0, accountant: 'ldp', fallback: false });
    // exact, unbounded: (1 − d/2)^κ ≥ 1 − δ at d = 0.001, κ = 5: no noise, no LDP bound
    expect(bucketMech.budgetRow!(1, 5, { d: 0.001, delta: 0.01 }, { buckets: 2, accountant: 'exact' })).toMatchObject({ value: Infinity, epsilon_ldp: Infinity, accountant: 'exact' });
  });
});

describe('options', () => {
  it('are refused in one line naming the mechanism: bad buckets, unknown keys, unknown accountants with a did-you-mean', () => {
    const e = atEps(1);
    for (const b of [1, 257, 2.5, '4'])
      expect(() => bucketMech.encode!(ctx(makeRng('o'), { buckets: b }), e)).toThrow(`mechanism minhash-bucket: option buckets must be an integer in [2, 256], got ${JSON.stringify(b)}`);
    expect(() => bucketMech.epsilon(1, 8, PRIVACY, { buckets: 300 })).toThrow(UserError);
    expect(() => bucketMech.encode!(ctx(makeRng('o'), { bucket: 4 }), e)).toThrow('mechanism minhash-bucket: unknown option "bucket" (known: buckets, accountant)');
    expect(() => noisyMech.encode!(ctx(makeRng('o'), { buckets: 4 }), e)).toThrow('mechanism minhash-noisy: unknown option "buckets" (known: accountant)');
    expect(() => bucketMech.epsilon(1, 8, PRIVACY, { accountant: 'exakt' })).toThrow(/unknown accountant "exakt" \(did you mean "exact"\?\); known: paper, exact, ldp/);
    expect(() => noisyMech.epsilon(1, 8, PRIVACY, { accountant: 'exact' })).toThrow(/mechanism minhash-noisy: option accountant: unknown accountant "exact"; known: paper, ldp/);
  });

  it('in a config: labels, b and accountants checked with a did-you-mean; refused on the angular family (config check and encodeUsers)', () => {
    const config = (mechanisms: string, metric = 'metric: jaccard') => `name: t
seed: 1
${metric}
datasets: [{ name: a, format: synthetic, preset: small }]
dims: [30]
k: [1]
kappa: [8]
privacy: { xi: [1] }
mechanisms: ${mechanisms}
`;
    const c = parseConfig(config('[lshrr, {name: minhash-bucket, buckets: 16, label: minhash-bucket-16}, minhash-noisy]'), 'c.yaml');
    expect(c.mechanisms.slice(1)).toEqual([
      { name: 'minhash-bucket', label: 'minhash-bucket-16', options: { buckets: 16, accountant: 'paper' } },
      { name: 'minhash-noisy', label: 'minhash-noisy', options: { accountant: 'paper' } },
    ]);
    expect(() => parseConfig(config('[{name: minhash-bucket, accountant: exakt}]'), 'c.yaml')).toThrow(
      /mechanisms\[0\]\.accountant: unknown accountant "exakt" \(did you mean "exact"\?\); known: paper, exact, ldp/,
    );
    expect(() => parseConfig(config('[{name: minhash-noisy, accountant: exact}]'), 'c.yaml')).toThrow(/mechanisms\[0\]\.accountant: unknown accountant "exact"; known: paper, ldp/);
    expect(() => parseConfig(config('[{name: minhash-bucket, buckets: 300}]'), 'c.yaml')).toThrow(/mechanisms\[0\]\.buckets/);
    expect(() => parseConfig(config('[lshrr, {name: minhash-noisy, buckets: 4}]'), 'c.yaml')).toThrow(/mechanisms\[1\]\.buckets: only minhash-bucket take buckets/);
    expect(() => parseConfig(config('[lsh, minhash-bucket]', ''), 'c.yaml')).toThrow(/mechanisms\[1\]: minhash-bucket runs with metric jaccard only, not angular/);
    const vectors = clusteredVectors({ users: 20, n: 10, clusters: 2 });
    for (const m of [bucketMech, noisyMech]) {
      expect(() => encodeUsers({ data: vectors, family: angularFamily, kappa: 8, hashSeed: 's', mechanism: m, xi: 1, privacy: PRIVACY, rng: makeRng('n') })).toThrow(
        `mechanism ${m.name} runs on the jaccard family only, not angular`,
      );
      // a hashing without MinHash (another family's) is refused in one line, not misread
      const angular = angularFamily.hash(vectors, 8, 'a');
      expect(() => m.encode!({ vectors, hashing: angular, rng: makeRng('n'), options: {} }, atEps(1))).toThrow(/needs metric jaccard/);
    }
  });
});

/** Transition counts clean → released symbol (b × b). */
function transitions(clean: Uint8Array, released: Uint8Array, b: number): number[][] {
  const t = Array.from({ length: b }, () => new Array<number>(b).fill(0));
  for (let i = 0; i < clean.length; i++) t[clean[i]!]![released[i]!]!++;
  return t;
}

describe('the bucket release', () => {
  const b = 4;
  const clean = bucketSymbols(minima, tables, b);

  it('at ε′ = ∞ is the MinHash buckets themselves, drawing nothing', () => {
    const set = bucketMech.encode!(ctx(noDraws, { buckets: b }), atEps(Infinity)) as SymbolSet;
    expect(set).toEqual(packSymbols(clean, USERS, KAPPA, b));
  });

  it('keeps each symbol with q and moves it to each other one with r, from every symbol to every other (ε′ = 1, 0)', () => {
    for (const eps of [1, 0]) {
      // many draws of one hashing: 40 releases of 300 × 16 symbols
      const counts = Array.from({ length: b }, () => new Array<number>(b).fill(0));
      for (let rep = 0; rep < 40; rep++) {
        const out = unpackSymbols(bucketMech.encode!(ctx(makeRng(`rr-${eps}-${rep}`), { buckets: b }), atEps(eps)) as SymbolSet);
        const t = transitions(clean, out, b);
        for (let c = 0; c < b; c++) for (let s = 0; s < b; s++) counts[c]![s]! += t[c]![s]!;
      }
      const other = realizedOtherProbability(eps, b);
      const keep = 1 - (b - 1) * other;
      expect(keep).toBeCloseTo(bucketKeepProbability(eps, b), 9);
      for (let c = 0; c < b; c++) {
        const total = counts[c]!.reduce((x, y) => x + y, 0);
        for (let s = 0; s < b; s++) {
          const p = s === c ? keep : other;
          const se = Math.sqrt((p * (1 - p)) / total);
          expect(Math.abs(counts[c]![s]! / total - p), `${c} → ${s} at ε′ = ${eps}`).toBeLessThanOrEqual(Z * se);
        }
      }
    }
  });

  it('at ξ → ∞ gives the neighbours of the noiseless buckets; the same seed gives the same release', () => {
    const eps = bucketMech.epsilon(1e4, KAPPA, PRIVACY, { buckets: 16 });
    const noisy = bucketMech.encode!(ctx(makeRng('big'), { buckets: 16 }), eps);
    const noiseless = packSymbols(bucketSymbols(minima, tables, 16), USERS, KAPPA, 16);
    expect(releaseKnn(noisy, QUERIES, 10, TIES)).toEqual(releaseKnn(noiseless, QUERIES, 10, TIES));
    expect(bucketMech.encode!(ctx(makeRng('big'), { buckets: 16 }), eps)).toEqual(noisy);
  });
});

describe('the noisy release', () => {
  const bits = minHashBits(minima, tables);

  it('at ε′ = ∞ is the 1-bit MinHash values as reals, drawing nothing', () => {
    const set = noisyMech.encode!(ctx(noDraws), atEps(Infinity)) as RealSet;
    expect(set).toEqual({ kind: 'reals', dims: KAPPA, values: Float64Array.from(bits) });
  });

  it('adds Laplace noise of scale 1/ε′ to 0s and 1s alike (mean 0, variance 2/ε′²); at ε′ = 0 the unit noise alone', () => {
    for (const eps of [0.5, 0]) {
      const values = (noisyMech.encode!(ctx(makeRng(`lap-${eps}`)), atEps(eps)) as RealSet).values;
      const scale = eps === 0 ? 1 : 1 / eps;
      for (const bit of [0, 1]) {
        const noise: number[] = [];
        for (let i = 0; i < bits.length; i++) if (bits[i] === bit) noise.push(values[i]! - (eps === 0 ? 0 : bit));
        const m = noise.length;
        const mean = noise.reduce((x, y) => x + y, 0) / m;
        const second = noise.reduce((x, y) => x + y * y, 0) / m;
        const variance = 2 * scale * scale;
        // the mean's SE √(var/m); the second moment's √((E L⁴ − var²)/m) = √((24 − 4) s⁴ / m)
        expect(Math.abs(mean), `mean at ${bit}, ε′ = ${eps}`).toBeLessThanOrEqual(Z * Math.sqrt(variance / m));
        expect(Math.abs(second - variance), `variance at ${bit}, ε′ = ${eps}`).toBeLessThanOrEqual(Z * Math.sqrt((20 * scale ** 4) / m));
      }
    }
  });

  it('at ξ → ∞ gives neighbours at the noiseless release’s distances, rank by rank (the noise only reorders equal distances)', () => {
    const eps = noisyMech.epsilon(1e4, KAPPA, PRIVACY);
    const noisy = noisyMech.encode!(ctx(makeRng('big')), eps);
    const noiseless: RealSet = { kind: 'reals', dims: KAPPA, values: Float64Array.from(bits) };
    const k = 10;
    const a = releaseKnn(noisy, QUERIES, k, TIES);
    const b = releaseKnn(noiseless, QUERIES, k, TIES);
    const hamming = (u: number, v: number) => {
      let d = 0;
      for (let j = 0; j < KAPPA; j++) d += bits[u * KAPPA + j] !== bits[v * KAPPA + j] ? 1 : 0;
      return d;
    };
    QUERIES.forEach((q, qi) => {
      for (let r = 0; r < k; r++) expect(hamming(q, a[qi * k + r]!), `query ${q}, rank ${r}`).toBe(hamming(q, b[qi * k + r]!));
    });
  });
});

/** Per-trial utility loss at k of each asked (mechanism, options, ξ) on the sets, through a real trial cell. */
function lossesOf(trial: number, asked: { base: string; options: Record<string, unknown>; xi: number }[], k: number): number[] {
  const truth = jaccardFamily.exactKnn(SETS, QUERIES, k);
  const results = asked.map((a, i) => ({ id: String(i), base: a.base, options: a.options, xi: a.xi, ks: [k], asks: { utility: true } }));
  const out = runTrialCell(SETS, QUERIES, truth, { dataset: 'sets', n: N, kappa: KAPPA, trial, results, privacy: PRIVACY, runSeed: 9, metric: 'jaccard' });
  return out.map((r) => (r.values.utility as Record<string, [number, number]>)[String(k)]![0]);
}

describe('utility', () => {
  it('b = 2 equals LSHRR on 1-bit MinHash within noise: a paired comparison over 80 trials, 4.9 SE', () => {
    const diffs: number[] = [];
    for (let t = 0; t < 80; t++) {
      const [rr, two] = lossesOf(
        t,
        [
          { base: 'lshrr', options: { accountant: 'paper' }, xi: 6 },
          { base: 'minhash-bucket', options: { buckets: 2, accountant: 'paper' }, xi: 6 },
        ],
        10,
      );
      diffs.push(two! - rr!);
    }
    const m = diffs.length;
    const mean = diffs.reduce((x, y) => x + y, 0) / m;
    const se = Math.sqrt(diffs.reduce((x, y) => x + (y - mean) ** 2, 0) / (m - 1) / m);
    expect(se).toBeGreaterThan(0);
    expect(Math.abs(mean)).toBeLessThanOrEqual(Z * se);
  });

  it('at ξ = 0 both sit at the random level: the expected loss of uniformly random neighbours (SE from the trials)', () => {
    const k = 10;
    const truth = jaccardFamily.exactKnn(SETS, QUERIES, k);
    // the random level: per query, the mean distance to the other users minus the true k-NN's mean
    let level = 0;
    QUERIES.forEach((q, qi) => {
      let sum = 0;
      for (let u = 0; u < USERS; u++) if (u !== q) sum += jaccardFamily.distance(SETS, q, u);
      let top = 0;
      for (let r = 0; r < k; r++) top += truth.distances[qi * truth.k + r]!;
      level += sum / (USERS - 1) - top / k;
    });
    level /= QUERIES.length;
    const asked = [
      { base: 'minhash-bucket', options: { buckets: 16 }, xi: 0 },
      { base: 'minhash-noisy', options: {}, xi: 0 },
      { base: 'lshrr', options: {}, xi: 6 },
    ];
    const per = Array.from({ length: 12 }, (_, t) => lossesOf(t, asked, k));
    for (const i of [0, 1]) {
      const xs = per.map((p) => p[i]!);
      const mean = xs.reduce((x, y) => x + y, 0) / xs.length;
      const se = Math.sqrt(xs.reduce((x, y) => x + (y - mean) ** 2, 0) / (xs.length - 1) / xs.length);
      expect(Math.abs(mean - level), asked[i]!.base).toBeLessThanOrEqual(Z * se);
    }
    // and the level is one a private release beats (the test could tell)
    const rr = per.map((p) => p[2]!).reduce((x, y) => x + y, 0) / per.length;
    expect(rr).toBeLessThan(level - 0.02);
  });
});
