import { describe, expect, it } from 'vitest';
import { rowSignatures } from '../../src/knn/rowSignatures.js';
import { densifyRow, distanceFromDot, dotDenseRow } from '../../src/knn/angular.js';
import { makeRng } from '../../src/random/rng.js';
import { vectorsFromDense } from '../lsh/synthetic.js';

/** Rows of 1-4 columns among n (some above 128: columns c and c + 128 share a bit), signs mixed. */
function sparseRows(users: number, n: number, seed: string) {
  const rng = makeRng(seed);
  return Array.from({ length: users }, () => {
    const row = new Array<number>(n).fill(0);
    for (let i = 0, m = 1 + Math.floor(rng() * 4); i < m; i++) row[Math.floor(rng() * n)] = rng() < 0.2 ? -1 - rng() : 1 + rng();
    return row;
  });
}

describe('rowSignatures', () => {
  it('sets bit c mod 128 of each row: rows without a common bit share no column, and their dot is +0 (distance exactly 0.5)', () => {
    expect(distanceFromDot(0)).toBe(0.5);
    expect(distanceFromDot(-0)).toBe(0.5);
    for (const n of [40, 128, 300]) {
      const vectors = vectorsFromDense(sparseRows(120, n, `sig-${n}`));
      const sig = rowSignatures(vectors);
      expect(rowSignatures(vectors)).toBe(sig); // one table per vectors object
      const dense = new Float64Array(n);
      let disjoint = 0;
      let collided = 0;
      for (let q = 0; q < 120; q++) {
        densifyRow(vectors, q, dense);
        for (let u = 0; u < 120; u++) {
          const common = [0, 1, 2, 3].some((w) => (sig[q * 4 + w]! & sig[u * 4 + w]!) !== 0);
          const shared = [...vectors.colIdx.subarray(vectors.rowPtr[u]!, vectors.rowPtr[u + 1]!)].some((c) => dense[c] !== 0);
          if (shared) expect(common, `n ${n}, rows ${q} and ${u} share a column`).toBe(true);
          if (!common) {
            disjoint++;
            const dot = dotDenseRow(dense, vectors, u);
            expect(Object.is(dot, 0), `n ${n}, rows ${q} and ${u}`).toBe(true);
            expect(distanceFromDot(dot)).toBe(0.5);
          } else if (!shared) collided++;
        }
      }
      expect(disjoint, `n ${n}`).toBeGreaterThan(1000);
      // below 129 columns the signature is exact; above, some disjoint rows share a bit
      if (n <= 128) expect(collided, `n ${n}`).toBe(0);
      else expect(collided, `n ${n}`).toBeGreaterThan(0);
    }
  });
});
