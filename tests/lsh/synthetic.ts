import type { UserVectors } from '../../src/data/types.js';
import { makeRng, type Rng } from '../../src/random/rng.js';

/** CSR user vectors from dense rows (zeros dropped, rows scaled to unit length). */
export function vectorsFromDense(rows: number[][], dataset = 'synthetic'): UserVectors {
  const n = rows[0].length;
  const rowPtr = new Int32Array(rows.length + 1);
  const cols: number[] = [];
  const vals: number[] = [];
  rows.forEach((row, i) => {
    const norm = Math.sqrt(row.reduce((s, v) => s + v * v, 0));
    if (norm === 0) throw new Error(`row ${i} is all zero`);
    row.forEach((v, c) => {
      if (v !== 0) {
        cols.push(c);
        vals.push(v / norm);
      }
    });
    rowPtr[i + 1] = cols.length;
  });
  return {
    dataset,
    n,
    userIds: rows.map((_, i) => String(i + 1)),
    itemIds: Array.from({ length: n }, (_, c) => String(c + 1)),
    rowPtr,
    colIdx: Int32Array.from(cols),
    values: Float64Array.from(vals),
    dropped: 0,
  };
}

function randInt(rng: Rng, m: number): number {
  return Math.floor(rng() * m);
}

/**
 * Clustered sparse rating-like vectors: each cluster has a profile of `profileSize` items with
 * centred ratings; a user keeps each profile item with probability 0.7 (value perturbed) and adds
 * a few random items, so users of one cluster are close in angle and clusters are far apart.
 */
export function clusteredVectors(opts: { users: number; n: number; clusters: number; profileSize?: number; seed?: string }): UserVectors {
  const rng = makeRng(opts.seed ?? 'clustered');
  const profileSize = opts.profileSize ?? Math.max(3, Math.floor(opts.n / 8));
  const profiles: { items: number[]; values: number[] }[] = [];
  for (let c = 0; c < opts.clusters; c++) {
    const items = new Set<number>();
    while (items.size < profileSize) items.add(randInt(rng, opts.n));
    const list = [...items];
    profiles.push({ items: list, values: list.map(() => rng() * 4 - 2) });
  }
  const rows: number[][] = [];
  for (let i = 0; i < opts.users; i++) {
    const p = profiles[i % opts.clusters];
    const row = new Array<number>(opts.n).fill(0);
    p.items.forEach((item, t) => {
      if (rng() < 0.7) row[item] = p.values[t] + (rng() - 0.5);
    });
    for (let extra = 0; extra < 2; extra++) row[randInt(rng, opts.n)] += rng() * 2 - 1;
    if (!row.some((v) => v !== 0)) row[randInt(rng, opts.n)] = 1;
    rows.push(row);
  }
  return vectorsFromDense(rows);
}
