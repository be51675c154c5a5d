import { describe, expect, it } from 'vitest';
import { DEFAULT_SAMPLES } from '../../src/audit/defaults.js';
import { lossSupremum, runAudit, scoreSample, type AuditEntry } from '../../src/audit/run.js';
import { euclideanFromAngular } from '../../src/privacy/distance.js';
import { findRealPairs, restrictToSupport, syntheticJaccardPair, syntheticPair } from '../../src/audit/pairs.js';
import { accountEpsilon } from '../../src/privacy/index.js';
import { getMechanism } from '../../src/mechanisms/registry.js';
import { drawHyperplanes, projectAll } from '../../src/lsh/hyperplanes.js';
import { hammingDistance, packSigns } from '../../src/lsh/codes.js';
import { makeRng } from '../../src/random/rng.js';
import type { UserVectors } from '../../src/data/types.js';

const lshrr = (accountant: string, label = `lshrr-${accountant}`): AuditEntry => ({ label, name: 'lshrr', options: { accountant } });

describe('verdicts at kappa 20, xi 5, d 0.1, delta 0.01 with the default samples', () => {
  it('an exact eps inflated by 20% and the naive accountant are violated; paper, exact, theorem are sound', () => {
    const inflated: AuditEntry = {
      label: 'exact-plus-20%',
      name: 'lshrr',
      options: { accountant: 'exact' },
      epsilonOf: (xi, kappa) => {
        const a = accountEpsilon('exact', { xi, kappa, p: 0.1, delta: 0.01 });
        return { epsilon: 1.2 * a.epsilonBit, ldpEpsilon: 1.2 * a.epsilonLdp, fallback: false };
      },
    };
    const out = runAudit({
      seed: 5,
      d: 0.1,
      delta: 0.01,
      kappa: [20],
      xi: [5],
      n: 20,
      samples: DEFAULT_SAMPLES,
      realPairs: [],
      entries: [lshrr('paper', 'lshrr'), lshrr('exact'), lshrr('theorem'), lshrr('naive'), inflated],
    });
    const verdict = Object.fromEntries(out.results.map((r) => [r.mechanism, r.verdict]));
    expect(verdict).toEqual({ lshrr: 'sound', 'lshrr-exact': 'sound', 'lshrr-theorem': 'sound', 'lshrr-naive': 'violated', 'exact-plus-20%': 'violated' });
    const inflatedRow = out.results.find((r) => r.mechanism === 'exact-plus-20%')!;
    expect(inflatedRow.exact_tail!).toBeGreaterThan(0.04); // the "tail ≈ 0.05"
    // every empirical tail is within its 95% interval's reach of the exact value (4 SE)
    for (const r of out.results) {
      const se = Math.sqrt((r.exact_tail! * (1 - r.exact_tail!)) / r.samples);
      expect(Math.abs(r.tail! - r.exact_tail!), r.mechanism).toBeLessThanOrEqual(4 * se + 1e-12);
      expect(r.epsilon_lb, r.mechanism).toBeGreaterThanOrEqual(0);
    }
  });

  it('is deterministic: the same plan gives the same results', () => {
    const plan = {
      seed: 'det',
      d: 0.1,
      delta: 0.01,
      kappa: [10],
      xi: [2, 5],
      n: 8,
      samples: 300,
      realPairs: [],
      entries: [lshrr('exact'), { label: 'laplsh', name: 'laplsh', options: {} }, { label: 'rappor', name: 'rappor', options: {} }, { label: 'lsh', name: 'lsh', options: {} }],
    };
    const a = runAudit(plan);
    const b = runAudit(plan);
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(a.results.filter((r) => r.base === 'lsh').map((r) => r.verdict)).toEqual(['n/a']);
    for (const r of a.results.filter((x) => x.base === 'laplsh' || x.base === 'rappor')) {
      expect([r.delta, r.tail, r.tail_ci]).toEqual([0, null, null]);
    }
  });
});

describe('the directional mechanisms in the audit', () => {
  it('the accounting: the loss supremum at distance d is ξ (c·d₂, c·θ); a doubled concentration is caught; sampled codes stay below ξ', () => {
    const doubled = {
      label: 'vmf-doubled',
      name: 'vmf',
      options: {},
      epsilonOf: (xi: number) => {
        const c = (2 * xi) / euclideanFromAngular(0.1);
        return { epsilon: c, ldpEpsilon: 2 * c, fallback: false };
      },
    };
    const out = runAudit({
      seed: 3,
      d: 0.1,
      delta: 0.01,
      kappa: [10],
      xi: [1, 5],
      n: 20,
      samples: 2000,
      realPairs: [],
      entries: [{ label: 'vmf', name: 'vmf', options: {} }, { label: 'purkayastha', name: 'purkayastha', options: {} }, doubled],
    });
    for (const r of out.results.filter((x) => x.mechanism !== 'vmf-doubled')) {
      expect(r.loss_sup, r.mechanism).toBeCloseTo(r.xi, 12);
      expect(r.delta).toBe(0);
      expect(r.verdict, r.mechanism).not.toBe('violated');
    }
    for (const r of out.results.filter((x) => x.mechanism === 'vmf-doubled')) {
      expect(r.loss_sup).toBeCloseTo(2 * r.xi, 12);
      expect(r.verdict).toBe('violated');
    }
    expect(lossSupremum('purkayastha', 10, 0.1)).toBeCloseTo(Math.PI, 12);
    expect(lossSupremum('lshrr', 10, 0.1)).toBeNull();
  });
});

describe('the distinguishing statistic', () => {
  it('with eps = ∞ the output is the clean code: scores (D, −D) for every code mechanism', () => {
    const pair = syntheticPair(0.3, 12);
    const rng = makeRng('score-inf');
    for (const name of ['lsh', 'lshrr', 'laplsh', 'rappor', 'rappor-vector']) {
      const m = getMechanism(name);
      const vectors = name === 'laplsh' ? pair.vectors : restrictToSupport(pair.vectors);
      for (let s = 0; s < 20; s++) {
        const planes = drawHyperplanes(rng, 16, vectors.n);
        const projections = projectAll(vectors, planes, 16);
        const codes = packSigns(projections, 2, 16);
        const hashing = { kappa: 16, n: vectors.n, planes, projections, codes };
        const inf = { epsilon: Infinity, ldpEpsilon: Infinity, fallback: false };
        const [s0, s1] = scoreSample(m, vectors, hashing, rng, name === 'lshrr' ? { accountant: 'paper' } : {}, inf);
        expect(s0 + s1, name).toBe(0);
        if (name !== 'rappor' && name !== 'rappor-vector') expect(s0, name).toBe(hammingDistance(codes, 0, 1));
        else expect(s0).toBeGreaterThanOrEqual(0);
      }
    }
  });
});

describe('pairs', () => {
  it('the synthetic pair is at angular distance exactly d, and its restriction keeps the hash bits', () => {
    const p = syntheticPair(0.1, 50);
    const v = p.vectors;
    const dot = v.values[0] * v.values[1];
    expect(Math.acos(dot) / Math.PI).toBeCloseTo(0.1, 14);
    const r = restrictToSupport(v);
    expect(r.n).toBe(2);
    expect(Array.from(r.colIdx)).toEqual([0, 0, 1]);
  });

  it('finds exactly the user pairs within the band', () => {
    // unit vectors at angles 0, 0.1π, 0.2π, 0.5π in the plane: distances 0.1, 0.2, 0.5, 0.1, 0.4, 0.3
    const angles = [0, 0.1, 0.2, 0.5].map((a) => a * Math.PI);
    const colIdx: number[] = [];
    const values: number[] = [];
    const rowPtr = [0];
    for (const a of angles) {
      colIdx.push(0, 1);
      values.push(Math.cos(a), Math.sin(a));
      rowPtr.push(colIdx.length);
    }
    const v: UserVectors = {
      dataset: 'plane',
      n: 2,
      userIds: ['a', 'b', 'c', 'd'],
      itemIds: ['0', '1'],
      rowPtr: Int32Array.from(rowPtr),
      colIdx: Int32Array.from(colIdx),
      values: Float64Array.from(values),
      dropped: 0,
    };
    const found = findRealPairs(v, 0.1, 0.005, 10, 100, makeRng('pairs'));
    expect(found.found).toBe(2);
    expect(found.pairs.map((p) => p.users)).toEqual([
      ['a', 'b'],
      ['b', 'c'],
    ]);
    for (const p of found.pairs) expect(p.distance).toBeCloseTo(0.1, 12);
    expect(findRealPairs(v, 0.35, 0.01, 10, 100, makeRng('pairs')).found).toBe(0);
    expect(findRealPairs(v, 0.1, 0.005, 10, 2, makeRng('pairs')).found).toBe(1); // only a, b scanned
  });
});

describe('other LSH families', () => {
  it('jaccard: the synthetic item-set pair is at distance d, and the tail of LSHRR on 1-bit MinHash matches the exact one at p = d/2', () => {
    const pair = syntheticJaccardPair(0.1, 5);
    expect(pair.distance).toBeCloseTo(0.1, 14);
    const x = new Set(Array.from(pair.vectors.colIdx.subarray(0, pair.vectors.rowPtr[1])));
    const y = new Set(Array.from(pair.vectors.colIdx.subarray(pair.vectors.rowPtr[1])));
    const inter = [...x].filter((i) => y.has(i)).length;
    expect(1 - inter / new Set([...x, ...y]).size).toBeCloseTo(0.1, 14);
    const out = runAudit({
      seed: 9,
      d: 0.1,
      delta: 0.01,
      kappa: [10],
      xi: [1],
      n: 5,
      samples: 3000,
      realPairs: [],
      metric: 'jaccard',
      entries: [lshrr('naive'), lshrr('exact')],
    });
    for (const r of out.results) {
      const se = Math.sqrt((r.exact_tail! * (1 - r.exact_tail!)) / r.samples);
      expect(Math.abs(r.tail! - r.exact_tail!), r.mechanism).toBeLessThanOrEqual(4 * se + 1e-12);
    }
    expect(out.results.map((r) => r.verdict)).toEqual(['violated', 'sound']);
  });
});
