/**
 * The `exact` rows of recommend.csv on the real MovieLens latest-small file (../shared/data beside
 * the project), against a plain second implementation written here: dense dot products, the
 * exact neighbours and the candidates by sorting, the metrics as the formulas say. It takes the
 * training vectors and held-out items the loader gives (the split is tested against its own
 * plain implementation in tests/data/splitReal.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../helpers/cli.js';
import type { RecommendData, UserVectors } from '../../src/data/types.js';
import { runExperiment } from '../../src/pipeline/run.js';
import { loadRealEngine } from '../../src/machinery/engine.js';

const RATINGS = join(ROOT, '..', 'shared', 'data', 'movielens-latest-small', 'ratings.csv');
const present = existsSync(RATINGS);
if (!present) console.log(`recommendReal: skipped, ${RATINGS} is absent (the shared data folder beside the project)`);

const N_ITEMS = 100;
const KS = [1, 10];
const TOP = [10, 20];

/** Dense rows, the dot product summed over the columns in ascending order (as the exact k-NN sums). */
function dense(v: UserVectors): Float64Array[] {
  return Array.from({ length: v.rowPtr.length - 1 }, (_, u) => {
    const row = new Float64Array(v.n);
    for (let p = v.rowPtr[u]; p < v.rowPtr[u + 1]; p++) row[v.colIdx[p]] = v.values[p];
    return row;
  });
}

/** The plain exact baseline: per (k, N), the means over the queries of [HR, NDCG, item recall]. */
function plainExact(v: UserVectors, rec: RecommendData): { queries: number; values: Map<string, number[]> } {
  const rows = dense(v);
  const users = rows.length;
  const g = (r: number) => 1 / Math.log2(r + 1);
  const sums = new Map<string, number[]>();
  let queries = 0;
  for (let u = 0; u < users; u++) {
    const held = new Set(Array.from(rec.heldCol.subarray(rec.heldPtr[u], rec.heldPtr[u + 1])));
    if (held.size === 0) continue;
    queries++;
    const trained = new Set(Array.from(rec.trainCol.subarray(rec.trainPtr[u], rec.trainPtr[u + 1])));
    const others = [];
    for (let w = 0; w < users; w++) {
      if (w === u) continue;
      let dot = 0;
      for (let c = 0; c < v.n; c++) dot += rows[u][c] * rows[w][c];
      others.push({ w, d: Math.acos(Math.min(1, Math.max(-1, dot))) / Math.PI });
    }
    others.sort((a, b) => a.d - b.d || a.w - b.w);
    for (const k of KS) {
      const score = new Array<number>(v.n).fill(0);
      for (const { w } of others.slice(0, k)) for (let c = 0; c < v.n; c++) score[c] += rows[w][c];
      const list = score
        .map((s, c) => ({ s, c }))
        .filter((x) => !trained.has(x.c))
        .sort((a, b) => b.s - a.s || a.c - b.c);
      for (const N of TOP) {
        const ranks = list.slice(0, N).flatMap((x, i) => (held.has(x.c) ? [i + 1] : []));
        let ideal = 0;
        for (let r = 1; r <= Math.min(N, held.size); r++) ideal += g(r);
        const m = [ranks.length > 0 ? 1 : 0, ranks.reduce((s, r) => s + g(r), 0) / ideal, ranks.length / held.size];
        const key = `${k},${N}`;
        const acc = sums.get(key) ?? [0, 0, 0];
        sums.set(
          key,
          acc.map((a, i) => a + m[i]),
        );
      }
    }
  }
  return { queries, values: new Map([...sums].map(([key, s]) => [key, s.map((x) => x / queries)])) };
}

describe.skipIf(!present)('the exact baseline on the real MovieLens latest-small file', () => {
  it('equals a plain implementation (dense dot products, sorting) at every k and N', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lshdp-rec-real-'));
    const config = join(dir, 'real.yaml');
    writeFileSync(
      config,
      `name: real
seed: 1
datasets:
  - { name: ml, format: movielens-csv, path: ${JSON.stringify(RATINGS)}, center: user }
dims: [${N_ITEMS}]
queries: 0
k: [${KS.join(', ')}]
kappa: [10]
trials: 1
privacy: { d: 0.1, delta: 0.01, xi: [1] }
mechanisms: [exact, lsh]
recommend: { split: last, holdout: 1, top: [${TOP.join(', ')}] }
`,
    );
    const out = join(dir, 'out');
    await runExperiment({ config, out, report: false, quiet: true, cacheDir: null, workerUrl: null, log: () => undefined });
    const engine = await loadRealEngine();
    const ds = await engine.loadDataset({ name: 'ml', format: 'movielens-csv', path: RATINGS, center: 'user' } as never, [N_ITEMS], {
      cacheDir: null,
      recommend: { split: 'last', holdout: 1 },
      seed: 1,
    });
    const plain = plainExact(ds.vectors.get(N_ITEMS)!, ds.recommend!.get(N_ITEMS)!);
    const lines = readFileSync(join(out, 'recommend.csv'), 'utf8').trim().split('\n');
    const header = lines[0].split(',');
    const at = (name: string) => header.indexOf(name);
    const exact = lines
      .slice(1)
      .map((l) => l.split(','))
      .filter((r) => r[at('mechanism')] === 'exact');
    expect(exact).toHaveLength(KS.length * TOP.length);
    expect(plain.queries).toBeGreaterThan(50);
    for (const r of exact) {
      expect(Number(r[at('queries')])).toBe(plain.queries);
      const want = plain.values.get(`${r[at('k')]},${r[at('top')]}`)!;
      expect(Number(r[at('hr_mean')])).toBeCloseTo(want[0], 12);
      expect(Number(r[at('ndcg_mean')])).toBeCloseTo(want[1], 12);
      expect(Number(r[at('item_recall_mean')])).toBeCloseTo(want[2], 12);
    }
    // not vacuous: the lists hit held-out items
    expect(plain.values.get('10,20')![0]).toBeGreaterThan(0.1);
  }, 120_000);
});
