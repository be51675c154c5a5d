import { describe, expect, it } from 'vitest';
import type { UserVectors } from '../../src/data/types.js';
import { makeRng } from '../../src/random/rng.js';
import { angularDistance, exactKnn } from '../../src/knn/angular.js';
import { jaccardDistance, jaccardKnn } from '../../src/knn/jaccard.js';
import { evaluateAnswers } from '../../src/experiment/utility.js';
import { holdsRandomLoss, randomLoss } from '../../src/experiment/randomLoss.js';
import { getFamily } from '../../src/lsh/families/index.js';

/** Sparse unit rows (a few items each over n columns). */
function vectors(seed: string, users: number, n: number, maxNnz: number, binary = false): UserVectors {
  const rng = makeRng(seed);
  const rowPtr = new Int32Array(users + 1);
  const cols: number[] = [];
  const vals: number[] = [];
  for (let u = 0; u < users; u++) {
    const row = new Map<number, number>();
    const nnz = 1 + Math.floor(rng() * maxNnz);
    while (row.size < nnz) row.set(Math.floor(rng() * n), binary ? 1 : rng() * 2 - 0.5);
    const entries = [...row.entries()].sort((a, b) => a[0] - b[0]);
    const norm = Math.sqrt(entries.reduce((s, [, x]) => s + x * x, 0));
    for (const [c, x] of entries) {
      cols.push(c);
      vals.push(binary ? 1 : x / norm);
    }
    rowPtr[u + 1] = cols.length;
  }
  const ids = (m: number) => Array.from({ length: m }, (_, i) => String(i));
  return { dataset: 'synthetic', n, userIds: ids(users), itemIds: ids(n), rowPtr, colIdx: Int32Array.from(cols), values: Float64Array.from(vals), dropped: 0 };
}

const metrics = [
  { name: 'angular' as const, v: vectors('urand-angular', 150, 30, 6), knn: (v: UserVectors, q: Int32Array, k: number) => exactKnn(v, q, k, { means: true }), d: angularDistance },
  { name: 'jaccard' as const, v: vectors('urand-jaccard', 150, 40, 5, true), knn: jaccardKnn, d: jaccardDistance },
];

describe('randomLoss (u_rand)', () => {
  for (const m of metrics) {
    it(`${m.name}: brute force over all pairs`, () => {
      const users = 150;
      const queries = Int32Array.from({ length: 60 }, (_, i) => (i * 7 + 3) % users);
      const ks = [1, 5, 10];
      const truth = m.knn(m.v, queries, 10);
      const got = randomLoss(truth, ks);
      for (const k of ks) {
        let sum = 0;
        for (const q of queries) {
          const ds: number[] = [];
          for (let u = 0; u < users; u++) if (u !== q) ds.push(m.d(m.v, q, u));
          const mean = ds.reduce((a, b) => a + b, 0) / ds.length;
          const nearest = [...ds].sort((a, b) => a - b).slice(0, k);
          sum += mean - nearest.reduce((a, b) => a + b, 0) / k;
        }
        expect(got[String(k)]).toBeCloseTo(sum / queries.length, 12);
        expect(got[String(k)]).toBeGreaterThan(0);
      }
    });

    it(`${m.name}: the mean utility loss of random answers (Monte Carlo through evaluateAnswers) within 4 SE`, () => {
      const users = 150;
      const queries = Int32Array.from({ length: users }, (_, i) => i);
      const k = 10;
      const truth = m.knn(m.v, queries, k);
      const uRand = randomLoss(truth, [k])[String(k)]!;
      const rng = makeRng(`urand-mc-${m.name}`);
      const rounds = 300;
      const losses: number[] = [];
      const answers = new Int32Array(users * k);
      const pool = Int32Array.from({ length: users - 1 }, (_, i) => i);
      for (let r = 0; r < rounds; r++) {
        queries.forEach((q, t) => {
          // k other users without replacement: a partial Fisher-Yates over the users but q
          for (let i = 0; i < users - 1; i++) pool[i] = i < q ? i : i + 1;
          for (let i = 0; i < k; i++) {
            const j = i + Math.floor(rng() * (users - 1 - i));
            const x = pool[j]!;
            pool[j] = pool[i]!;
            pool[i] = x;
            answers[t * k + i] = x;
          }
        });
        losses.push(evaluateAnswers(m.v, queries, truth, answers, k, [k], getFamily(m.name).distanceFrom(m.v)).loss[0]!);
      }
      const mean = losses.reduce((a, b) => a + b, 0) / rounds;
      const sd = Math.sqrt(losses.reduce((a, b) => a + (b - mean) ** 2, 0) / (rounds - 1));
      const se = sd / Math.sqrt(rounds);
      // a query counted among its own random neighbours would move u_rand by about mean/users
      expect(4 * se).toBeLessThan(uRand / users);
      expect(Math.abs(mean - uRand)).toBeLessThan(4 * se);
    });
  }

  it('needs the mean distances, and k within the neighbours held', () => {
    const truth = exactKnn(metrics[0]!.v, Int32Array.from([0, 1]), 3, { means: true });
    expect(() => randomLoss(truth, [4])).toThrow(/k = 4/);
    expect(() => randomLoss({ k: truth.k, indices: truth.indices, distances: truth.distances }, [1])).toThrow(/mean distances/);
  });

  it('holdsRandomLoss: every k asked, as numbers', () => {
    expect(holdsRandomLoss({ '1': 0.1, '10': 0.2 }, [1, 10])).toBe(true);
    expect(holdsRandomLoss({ '1': 0.1 }, [1, 10])).toBe(false);
    expect(holdsRandomLoss(undefined, [1])).toBe(false);
    expect(holdsRandomLoss({ '1': null }, [1])).toBe(false);
  });
});
