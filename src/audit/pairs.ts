/**
 * Input pairs of the audit, each as a two-user UserVectors (row 0 = x, row 1 = x').
 *
 * - Synthetic: x = e_1, x' = cos(πd) e_1 + sin(πd) e_2, at angular distance exactly d.
 * - Real: user pairs of a data set whose true angular distance is within ±band of d.
 *
 * Random-hyperplane bits depend on a vector only through r·x, and r·x involves only the
 * coordinates where x is non-zero; so hashing a pair restricted to the union of its supports
 * (columns renumbered) has exactly the distribution of hashing it in R^n, at a fraction of the
 * cost. `restrictToSupport` does that for LSH and LSHRR; LapLSH adds noise in every coordinate
 * and is audited on the full-dimensional synthetic pair.
 */
import type { UserVectors } from '../data/types.js';
import type { Rng } from '../random/rng.js';
import { sampleWithoutReplacement } from '../random/samplers.js';

export interface AuditPair {
  /** `synthetic` or the data set's name */
  source: string;
  /** true angular distance of the pair */
  distance: number;
  /** user ids of the pair (real pairs) */
  users: [string, string] | null;
  /** the pair in the full dimension n */
  vectors: UserVectors;
}

/** The synthetic pair at angular distance exactly d in R^n (n >= 2). */
export function syntheticPair(d: number, n: number): AuditPair {
  const c = Math.cos(Math.PI * d);
  const s = Math.sin(Math.PI * d);
  return {
    source: 'synthetic',
    distance: d,
    users: null,
    vectors: {
      dataset: 'synthetic-pair',
      n,
      userIds: ['x', 'x_prime'],
      itemIds: Array.from({ length: n }, (_, i) => String(i)),
      rowPtr: Int32Array.from([0, 1, 3]),
      colIdx: Int32Array.from([0, 0, 1]),
      values: Float64Array.from([1, c, s]),
      dropped: 0,
    },
  };
}

/** A two-user UserVectors from two dense rows (zeros dropped). */
function denseRows(x: readonly number[], y: readonly number[], n: number, dataset: string): UserVectors {
  const cols: number[] = [];
  const vals: number[] = [];
  const rowPtr = [0];
  for (const row of [x, y]) {
    row.forEach((v, c) => {
      if (v !== 0) {
        cols.push(c);
        vals.push(v);
      }
    });
    rowPtr.push(cols.length);
  }
  return {
    dataset,
    n,
    userIds: ['x', 'x_prime'],
    itemIds: Array.from({ length: n }, (_, i) => String(i)),
    rowPtr: Int32Array.from(rowPtr),
    colIdx: Int32Array.from(cols),
    values: Float64Array.from(vals),
    dropped: 0,
  };
}

/**
 * The synthetic pair at angular distance exactly d spread over every coordinate of R^n: x has equal
 * entries 1/√n, x' = cos(πd)·x + sin(πd)·u with u ⟂ x of the same spread (n >= 2). For the
 * rotation-invariant mechanisms it has the law of `syntheticPair`; the audit's pair search keeps it
 * as a candidate so that an implementation that is not invariant shows it.
 */
export function spreadPair(d: number, n: number): AuditPair {
  const x = Array.from({ length: n }, () => 1 / Math.sqrt(n));
  // u: +1/−1 alternating (an odd n leaves the last coordinate 0), orthogonal to x, unit length
  const half = Math.floor(n / 2);
  const u = Array.from({ length: n }, (_, i) => (i < 2 * half ? (i % 2 === 0 ? 1 : -1) / Math.sqrt(2 * half) : 0));
  const c = Math.cos(Math.PI * d);
  const s = Math.sin(Math.PI * d);
  return {
    source: 'synthetic',
    distance: d,
    users: null,
    vectors: denseRows(
      x,
      x.map((v, i) => c * v + s * u[i]),
      n,
      'synthetic-spread-pair',
    ),
  };
}

/**
 * The item-set pairs of a Bloom-filter mechanism (RAPPOR): a substitution {a} vs {b} (its whole
 * claim: the two filters differ in up to 2h bits, the loss reaches ξ), an addition {a} vs {a, b}
 * and a substitution inside a larger set {a, c} vs {b, c}. Items are the columns, weights 1.
 */
export function itemSetPairs(): AuditPair[] {
  const pair = (name: string, x: number[], y: number[]): AuditPair => ({ source: `synthetic ${name}`, distance: NaN, users: null, vectors: denseRows(x, y, 3, 'synthetic-item-sets') });
  return [pair('{a} vs {b}', [1, 0, 0], [0, 1, 0]), pair('{a} vs {a, b}', [1, 0, 0], [1, 1, 0]), pair('{a, c} vs {b, c}', [1, 0, 1], [0, 1, 1])];
}

/**
 * A synthetic item-set pair at Jaccard distance d (or the nearest fraction with a union of at
 * most 200 items): shared items I, union U, distance 1 − I/U; values as the jaccard family
 * prepares them (1/sqrt(set size)). `distance` is the pair's own distance.
 */
export function syntheticJaccardPair(d: number, n: number): AuditPair {
  let union = 200;
  for (let u = 2; u <= 200; u++) {
    if (Math.abs(Math.round((1 - d) * u) / u - (1 - d)) < 1e-12) {
      union = u;
      break;
    }
  }
  const shared = Math.round((1 - d) * union);
  const onlyX = Math.floor((union - shared) / 2);
  const x = Array.from({ length: shared + onlyX }, (_, i) => i);
  const y = [...Array.from({ length: shared }, (_, i) => i), ...Array.from({ length: union - shared - onlyX }, (_, i) => shared + onlyX + i)];
  const width = Math.max(n, union);
  return {
    source: 'synthetic',
    distance: 1 - shared / union,
    users: null,
    vectors: {
      dataset: 'synthetic-pair',
      n: width,
      userIds: ['x', 'x_prime'],
      itemIds: Array.from({ length: width }, (_, i) => String(i)),
      rowPtr: Int32Array.from([0, x.length, x.length + y.length]),
      colIdx: Int32Array.from([...x, ...y]),
      values: Float64Array.from([...x.map(() => 1 / Math.sqrt(x.length)), ...y.map(() => 1 / Math.sqrt(y.length))]),
      dropped: 0,
    },
  };
}

/** The pair restricted to the union of its two supports (same hash-bit distribution, see above). */
export function restrictToSupport(v: UserVectors): UserVectors {
  const cols = [...new Set(Array.from(v.colIdx))].sort((a, b) => a - b);
  const index = new Map(cols.map((c, i) => [c, i]));
  return {
    ...v,
    n: Math.max(1, cols.length),
    itemIds: cols.map((c) => v.itemIds[c] ?? String(c)),
    colIdx: Int32Array.from(v.colIdx, (c) => index.get(c)!),
  };
}

/** Angular distance arccos(clamp(cos)) / π (protocol §3), vectors of unit length. */
function angular(cos: number): number {
  return Math.acos(Math.min(1, Math.max(-1, cos))) / Math.PI;
}

export interface RealPairSearch {
  /** users scanned (the first `maxUsers` rows of the data set) */
  usersScanned: number;
  /** pairs within ±band of d among them, distinct by the content of their two vectors */
  found: number;
  /** user pairs within the band whose two vectors repeat a pair already counted */
  duplicates: number;
  /** the pairs kept (at most `count`, drawn uniformly from those found) */
  pairs: AuditPair[];
}

/**
 * Pairs of users whose angular distance is within ±band of d: every pair of the first `maxUsers`
 * users (O(maxUsers² n) with dense rows), then `count` of them drawn uniformly with `rng`,
 * kept in (i, j) order. Deterministic for a given rng.
 */
export function findRealPairs(v: UserVectors, d: number, band: number, count: number, maxUsers: number, rng: Rng, distance?: (i: number, j: number) => number): RealPairSearch {
  const users = Math.min(v.rowPtr.length - 1, maxUsers);
  if (distance) return choosePairs(v, d, band, count, rng, users, distance);
  const n = v.n;
  const dense = new Float64Array(users * n);
  for (let i = 0; i < users; i++) {
    for (let p = v.rowPtr[i]; p < v.rowPtr[i + 1]; p++) dense[i * n + v.colIdx[p]] = v.values[p];
  }
  const hits: [number, number, number][] = [];
  for (let i = 0; i < users; i++) {
    for (let j = i + 1; j < users; j++) {
      let dot = 0;
      // sparse row i against dense row j
      for (let p = v.rowPtr[i]; p < v.rowPtr[i + 1]; p++) dot += v.values[p] * dense[j * n + v.colIdx[p]];
      const dist = angular(dot);
      if (Math.abs(dist - d) <= band) hits.push([i, j, dist]);
    }
  }
  return keepPairs(v, hits, count, rng, users);
}

/** Pairs within the band by a given distance (other metrics than angular). */
function choosePairs(v: UserVectors, d: number, band: number, count: number, rng: Rng, users: number, distance: (i: number, j: number) => number): RealPairSearch {
  const hits: [number, number, number][] = [];
  for (let i = 0; i < users; i++) {
    for (let j = i + 1; j < users; j++) {
      const dist = distance(i, j);
      if (Math.abs(dist - d) <= band) hits.push([i, j, dist]);
    }
  }
  return keepPairs(v, hits, count, rng, users);
}

/** A user's row as text (columns and values): equal vectors, equal keys. */
function rowKey(v: UserVectors, i: number): string {
  const parts: string[] = [];
  for (let p = v.rowPtr[i]; p < v.rowPtr[i + 1]; p++) parts.push(`${v.colIdx[p]}:${v.values[p]}`);
  return parts.join(',');
}

/** The hits whose vector pair (unordered) was not seen before, in order. */
function distinctByContent(v: UserVectors, hits: [number, number, number][]): [number, number, number][] {
  const keys = new Map<number, string>();
  const key = (i: number): string => {
    let k = keys.get(i);
    if (k === undefined) {
      k = rowKey(v, i);
      keys.set(i, k);
    }
    return k;
  };
  const seen = new Set<string>();
  return hits.filter(([i, j]) => {
    const [a, b] = [key(i), key(j)].sort();
    const k = `${a}|${b}`;
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}

function keepPairs(v: UserVectors, allHits: [number, number, number][], count: number, rng: Rng, users: number): RealPairSearch {
  const hits = distinctByContent(v, allHits);
  const chosen = count > 0 ? sampleWithoutReplacement(rng, hits.length, Math.min(count, hits.length)) : new Int32Array(0);
  const pairs = Array.from(chosen, (h) => {
    const [i, j, dist] = hits[h];
    return { source: v.dataset, distance: dist, users: [v.userIds[i], v.userIds[j]] as [string, string], vectors: pairVectors(v, i, j) };
  });
  return { usersScanned: users, found: hits.length, duplicates: allHits.length - hits.length, pairs };
}

/** Users i and j of `v` as a two-user UserVectors. */
export function pairVectors(v: UserVectors, i: number, j: number): UserVectors {
  const a = [v.rowPtr[i], v.rowPtr[i + 1]];
  const b = [v.rowPtr[j], v.rowPtr[j + 1]];
  const colIdx = Int32Array.from([...v.colIdx.subarray(a[0], a[1]), ...v.colIdx.subarray(b[0], b[1])]);
  const values = Float64Array.from([...v.values.subarray(a[0], a[1]), ...v.values.subarray(b[0], b[1])]);
  return {
    dataset: v.dataset,
    n: v.n,
    userIds: [v.userIds[i], v.userIds[j]],
    itemIds: v.itemIds,
    rowPtr: Int32Array.from([0, a[1] - a[0], a[1] - a[0] + b[1] - b[0]]),
    colIdx,
    values,
    dropped: 0,
  };
}
