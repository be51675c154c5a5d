import { describe, expect, it } from 'vitest';
import { runAudit, scoreSample, type AuditEntry } from '../../src/audit/run.js';
import { euclideanFromAngular } from '../../src/privacy/distance.js';
import { findRealPairs, itemSetPairs, restrictToSupport, spreadPair, syntheticJaccardPair, syntheticPair } from '../../src/audit/pairs.js';
import { getMechanism } from '../../src/mechanisms/registry.js';
import { drawHyperplanes, projectAll } from '../../src/lsh/hyperplanes.js';
import { hammingDistance, packSigns } from '../../src/lsh/codes.js';
import { makeRng } from '../../src/random/rng.js';
import type { UserVectors } from '../../src/data/types.js';
import { audit, entry, scaledEntry } from '../helpers/auditor.js';
import { bitsOf } from '../../src/lsh/releases.js';

const lshrr = (accountant: string, label = `lshrr-${accountant}`): AuditEntry => ({ label, name: 'lshrr', options: { accountant } });

describe('the rows', () => {
  it('is deterministic; LSH is not-applicable; every tested row carries ε_lb, its confidence, the ceiling and the level', () => {
    const plan = {
      seed: 'det',
      d: 0.1,
      delta: 0.01,
      kappa: [10],
      xi: [2, 5],
      n: 8,
      samples: 300,
      realPairs: [],
      entries: [lshrr('exact'), entry('laplsh'), entry('rappor'), entry('lsh')],
    };
    const a = runAudit(plan);
    expect(JSON.stringify(runAudit(plan))).toBe(JSON.stringify(a));
    const lsh = a.results.filter((r) => r.base === 'lsh');
    expect(lsh.map((r) => [r.verdict, r.epsilon_lb, r.tests])).toEqual([['not-applicable', null, []]]);
    const tested = a.results.filter((r) => r.base !== 'lsh');
    expect(tested).toHaveLength(6);
    for (const r of tested) {
      expect(r.level, r.mechanism).toBeCloseTo(0.05 / 6 / (r.base === 'lshrr' ? 2 : 1), 15);
      expect(r.confidence).toBeCloseTo(1 - r.level!, 15);
      expect(r.epsilon_lb!).toBeGreaterThanOrEqual(0);
      expect(r.epsilon_lb!).toBeLessThanOrEqual(r.epsilon_ceiling! + 0.5);
      expect(r.tests).toContain('black-box');
    }
    for (const r of a.results.filter((x) => x.base === 'laplsh' || x.base === 'rappor')) expect([r.delta, r.tail, r.tail_ci, r.tests]).toEqual([0, null, null, ['black-box']]);
  });

  it('RAPPOR is audited on item-set pairs; the search keeps one of its three candidates', () => {
    const [row] = audit([entry('rappor')], 'rappor-pair', { xi: [5] });
    expect(row.pairs_tried).toBe(3);
    expect(itemSetPairs().map((p) => p.source)).toContain(row.pair);
  });
});

describe('LSHRR: the exact check and the score law', () => {
  it('the exact tail decides without sampling: naive is violated with a tail far above δ, exact is not', () => {
    const rows = audit([lshrr('naive'), lshrr('exact')], 'exact-check', { samples: 30, xi: [5] });
    const [naive, exact] = rows;
    expect(naive.verdict).toBe('violated');
    expect(naive.exact_tail!).toBeGreaterThan(0.2);
    expect(exact.exact_tail!).toBeLessThanOrEqual(0.01);
    expect(exact.verdict).toBe('no-violation-found');
  });

  it('a sampler that flips less often than its accountant says is violated by its flip rate on the differing bits (the exact check of the declaration passes)', () => {
    const [row] = audit([{ ...scaledEntry('lshrr', 1.5, 'lshrr-fewer-flips'), options: { accountant: 'exact' } }], 'score-law', { xi: [5] });
    expect(row.exact_tail!).toBeLessThanOrEqual(0.01);
    expect(row.verdict).toBe('violated');
    expect(row.reason).toMatch(/^flip rate /);
    expect(row.p_release!).toBeLessThan(row.level!);
    expect(row.realized_lb!).toBeGreaterThan(row.allowed!);
    expect(row.parameter).toBe('epsilon_bit');
  });

  it('the flip rate is counted on the differing bits: a sampler that leaves exactly those bits alone (and flips the others) is violated', () => {
    const m = getMechanism('lshrr');
    const sneaky: AuditEntry = {
      label: 'lshrr-sneaky',
      name: 'lshrr',
      options: { accountant: 'exact' },
      mechanism: {
        ...m,
        encode: (ctx, eps) => {
          const out = bitsOf(m.encode!(ctx, eps));
          // undo every flip on the bits where the two users' clean codes differ
          const clean = ctx.hashing.codes!;
          for (let w = 0; w < out.words; w++) {
            const differ = clean.codes[w] ^ clean.codes[out.words + w];
            for (const u of [0, 1]) out.codes[u * out.words + w] = (out.codes[u * out.words + w] & ~differ) | (clean.codes[u * out.words + w] & differ);
          }
          return out;
        },
      },
    };
    const [row] = audit([sneaky], 'sneaky', { xi: [5] });
    expect(row.flip_rate).toBe(0);
    expect(row.verdict).toBe('violated');
    expect(row.reason).toMatch(/flip rate 0 on \d+ differing bits/);
  });
});

describe('the directional mechanisms', () => {
  it('the accounting: c·distance is ξ; an accounting with twice the concentration fails the accounting-consistency check', () => {
    const doubled: AuditEntry = {
      label: 'vmf-doubled-accounting',
      name: 'vmf',
      options: {},
      epsilonOf: (xi: number) => {
        const c = (2 * xi) / euclideanFromAngular(0.1);
        return { epsilon: c, ldpEpsilon: 2 * c, fallback: false };
      },
    };
    const rows = audit([entry('vmf'), entry('purkayastha'), doubled], 'accounting', { kappa: [10], samples: 300 });
    for (const r of rows.filter((x) => x.mechanism !== doubled.label)) {
      expect(r.loss_sup, r.mechanism).toBeCloseTo(r.xi, 12);
      expect(r.tests).toEqual(['concentration', 'angle-law', 'black-box', 'accounting-consistency']);
    }
    for (const r of rows.filter((x) => x.mechanism === doubled.label)) {
      expect(r.loss_sup).toBeCloseTo(2 * r.xi, 12);
      expect(r.verdict).toBe('violated');
      expect(r.reason).toMatch(/accounting/);
    }
  });

  it('a sampler with twice the concentration passes the accounting check and is violated by the one-sided concentration test, at both ξ', () => {
    for (const name of ['vmf', 'purkayastha']) {
      const rows = audit([scaledEntry(name, 2)], `angle-${name}`);
      for (const r of rows) {
        expect(r.loss_sup, name).toBeCloseTo(r.xi, 12);
        expect(r.verdict, `${name} ξ ${r.xi}`).toBe('violated');
        expect(r.reason).toMatch(/^concentration: /);
        expect(r.realized_lb!).toBeGreaterThan(r.allowed!);
        expect(r.realized! / r.allowed!).toBeGreaterThan(1.6);
      }
    }
  });
});

describe('the distinguishing statistic', () => {
  it('with eps = ∞ the output is the clean code: scores (D, −D) and H = 0 for every code mechanism', () => {
    const pair = syntheticPair(0.3, 12);
    const rng = makeRng('score-inf');
    const inf = { epsilon: Infinity, ldpEpsilon: Infinity, fallback: false };
    for (const name of ['lsh', 'lshrr', 'laplsh', 'vmf']) {
      const m = getMechanism(name);
      const vectors = m.noisesVector ? pair.vectors : restrictToSupport(pair.vectors);
      for (let s = 0; s < 20; s++) {
        const planes = drawHyperplanes(rng, 16, vectors.n);
        const projections = projectAll(vectors, planes, 16);
        const codes = packSigns(projections, 2, 16);
        const hashing = { kappa: 16, n: vectors.n, planes, projections, codes };
        const [s0, s1, h0, h1, d] = scoreSample(m, vectors, hashing, rng, name === 'lshrr' ? { accountant: 'paper' } : {}, inf);
        expect([s0, s1, h0, h1, d], name).toEqual([hammingDistance(codes, 0, 1), -hammingDistance(codes, 0, 1), 0, 0, hammingDistance(codes, 0, 1)]);
      }
    }
  });

  it('RAPPOR at eps = ∞ on {a} vs {b}: S is the filters’ Hamming distance, whose mean matches the exact E|A Δ B| (4 SE)', () => {
    const m = getMechanism('rappor');
    const [pair] = itemSetPairs();
    const rng = makeRng('rappor-inf');
    const bits = 8;
    const inf = { epsilon: Infinity, ldpEpsilon: Infinity, fallback: false };
    const scores: number[] = [];
    for (let s = 0; s < 2000; s++) {
      const hashing = { kappa: bits, n: 3, planes: new Float64Array(0), projections: new Float64Array(0) };
      const [s0, s1, h0] = scoreSample(m, pair.vectors, hashing, rng, {}, inf);
      expect(s0 + s1).toBe(0);
      expect(h0).toBe(0);
      scores.push(s0);
    }
    // exact: positions a1, a2, b1, b2 uniform on `bits`; D = |{a1, a2} Δ {b1, b2}|
    let total = 0;
    let sq = 0;
    for (let a1 = 0; a1 < bits; a1++)
      for (let a2 = 0; a2 < bits; a2++)
        for (let b1 = 0; b1 < bits; b1++)
          for (let b2 = 0; b2 < bits; b2++) {
            const A = new Set([a1, a2]);
            const B = new Set([b1, b2]);
            const d = [...A].filter((x) => !B.has(x)).length + [...B].filter((x) => !A.has(x)).length;
            total += d;
            sq += d * d;
          }
    const n4 = bits ** 4;
    const mean = total / n4;
    const sd = Math.sqrt(sq / n4 - mean * mean);
    const got = scores.reduce((a, b) => a + b, 0) / scores.length;
    expect(Math.abs(got - mean)).toBeLessThanOrEqual((4 * sd) / Math.sqrt(scores.length));
  });
});

describe('pairs', () => {
  it('the synthetic pairs are at angular distance exactly d; the restriction keeps the hash bits', () => {
    const v = syntheticPair(0.1, 50).vectors;
    expect(Math.acos(v.values[0] * v.values[1]) / Math.PI).toBeCloseTo(0.1, 14);
    const r = restrictToSupport(v);
    expect(r.n).toBe(2);
    expect(Array.from(r.colIdx)).toEqual([0, 0, 1]);
    for (const n of [2, 7, 50]) {
      const s = spreadPair(0.1, n).vectors;
      const dense = [new Float64Array(n), new Float64Array(n)];
      for (let u = 0; u < 2; u++) for (let p = s.rowPtr[u]; p < s.rowPtr[u + 1]; p++) dense[u][s.colIdx[p]] = s.values[p];
      const dot = dense[0].reduce((a, x, i) => a + x * dense[1][i], 0);
      const norm = (x: Float64Array) => Math.sqrt(x.reduce((a, y) => a + y * y, 0));
      expect(norm(dense[0])).toBeCloseTo(1, 14);
      expect(norm(dense[1])).toBeCloseTo(1, 14);
      expect(Math.acos(dot) / Math.PI, `n ${n}`).toBeCloseTo(0.1, 12);
      expect(s.colIdx.length, `n ${n}`).toBeGreaterThan(2); // spread, not the sparse pair
    }
  });

  it('finds exactly the user pairs within the band, distinct by vector content', () => {
    // unit vectors at angles 0, 0.1π, 0.2π, 0.5π, and a copy of the first: distances 0.1 (a-b, b-c, e-b) ...
    const angles = [0, 0.1, 0.2, 0.5, 0].map((a) => a * Math.PI);
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
      userIds: ['a', 'b', 'c', 'd', 'e'],
      itemIds: ['0', '1'],
      rowPtr: Int32Array.from(rowPtr),
      colIdx: Int32Array.from(colIdx),
      values: Float64Array.from(values),
      dropped: 0,
    };
    const found = findRealPairs(v, 0.1, 0.005, 10, 100, makeRng('pairs'));
    // a-b, b-c, b-e within the band; b-e repeats a-b's vectors
    expect([found.found, found.duplicates]).toEqual([2, 1]);
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
  it('jaccard: the item-set pair is at distance d; LSHRR on 1-bit MinHash: sampled tail within 4 SE of the exact one; naive violated, exact not', () => {
    const pair = syntheticJaccardPair(0.1, 5);
    expect(pair.distance).toBeCloseTo(0.1, 14);
    const out = runAudit({ seed: 9, d: 0.1, delta: 0.01, kappa: [10], xi: [1], n: 5, samples: 3000, realPairs: [], metric: 'jaccard', skipInflation: true, entries: [lshrr('naive'), lshrr('exact')] });
    for (const r of out.results) {
      const se = Math.sqrt((r.exact_tail! * (1 - r.exact_tail!)) / r.samples);
      expect(Math.abs(r.tail! - r.exact_tail!), r.mechanism).toBeLessThanOrEqual(4 * se + 1e-12);
    }
    expect(out.results.map((r) => r.verdict)).toEqual(['violated', 'no-violation-found']);
  });
});
