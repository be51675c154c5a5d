/** Helpers of the tests of releases that are not bits (src/lsh/releases.ts and its kernels). */
import { queryKeyBase, tieKey } from '../../src/lsh/tieKey.js';

/** Every other row sorted by (distance, tie key): the k-NN contract, by definition. */
export function bruteForceKnn(users: number, dist: (a: number, b: number) => number, queries: Int32Array, k: number, seed: number): Int32Array {
  const out = new Int32Array(queries.length * k);
  queries.forEach((q, qi) => {
    const base = queryKeyBase(seed, q);
    const others: { u: number; d: number; key: number }[] = [];
    for (let u = 0; u < users; u++) if (u !== q) others.push({ u, d: dist(q, u), key: tieKey(base, u) });
    others.sort((a, b) => a.d - b.d || a.key - b.key);
    out.set(
      others.slice(0, k).map((o) => o.u),
      qi * k,
    );
  });
  return out;
}
