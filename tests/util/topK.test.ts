import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { TopK } from '../../src/util/topK.js';

/** The k best (key, id) pairs by brute force: sort lexicographically, keep the first k. */
function bruteForce(pairs: [number, number][], k: number): [number, number][] {
  return [...pairs].sort((a, b) => a[0] - b[0] || a[1] - b[1]).slice(0, k);
}

describe('TopK', () => {
  it('keeps the k smallest (key, id) pairs, ties to the smaller id, drained best first (against a full sort)', () => {
    fc.assert(
      fc.property(
        // few distinct keys, so ties are common; distinct ids, offered in any order
        fc.uniqueArray(fc.tuple(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 1000 })), { selector: (p) => p[1], maxLength: 60 }),
        fc.integer({ min: 1, max: 12 }),
        (pairs, k) => {
          const heap = new TopK(k);
          for (const [key, id] of pairs) {
            const accepted = heap.accepts(key, id);
            const before = heap.size;
            heap.offer(key, id);
            // accepts() says exactly whether offer() changes the heap
            if (!accepted) expect(heap.size).toBe(before);
          }
          const n = Math.min(k, pairs.length);
          const ids = new Int32Array(n);
          const keys = new Float64Array(n);
          heap.drain(ids, keys, 0);
          const want = bruteForce(pairs, k);
          expect([...keys]).toEqual(want.map((p) => p[0]));
          expect([...ids]).toEqual(want.map((p) => p[1]));
          expect(heap.size).toBe(0);
        },
      ),
      { seed: 7, numRuns: 400 },
    );
  });

  it('reports the worst kept key once full, and a reset heap starts empty', () => {
    const heap = new TopK(3);
    for (const [key, id] of [
      [5, 1],
      [2, 2],
      [9, 3],
      [1, 4],
    ] as const)
      heap.offer(key, id);
    expect(heap.full).toBe(true);
    expect(heap.worstKey).toBe(5);
    expect(heap.accepts(5, 0)).toBe(true); // equal key, smaller id
    expect(heap.accepts(5, 2)).toBe(false);
    heap.reset();
    expect(heap.size).toBe(0);
    expect(heap.accepts(100, 100)).toBe(true);
  });
});
