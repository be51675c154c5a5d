/**
 * What a thread lends the trial cells it runs (src/machinery/trialThread.ts): its plugins, buffers
 * and distance memos save work but never change a number, and a plugin a cell names is registered
 * by the thread before the cell runs (the science, src/experiment/trial.ts, registers nothing).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { runTrialCellInThread } from '../../src/machinery/trialThread.js';
import { runTrialCell, type TrialCellSpec, type TrialResult } from '../../src/experiment/trial.js';
import { sampleQueries } from '../../src/experiment/queries.js';
import { exactKnn } from '../../src/knn/angular.js';
import { getFamily } from '../../src/lsh/families/index.js';
import { loadPluginSync } from '../../src/mechanisms/plugin.js';
import { getMechanism, unregisterMechanism } from '../../src/mechanisms/registry.js';
import { clusteredVectors } from '../lsh/synthetic.js';
import { ROOT } from '../helpers/cli.js';

const USERS = 240;
const N = 50;
const vectors = clusteredVectors({ users: USERS, n: N, clusters: 5, seed: 'trial-thread' });
const queries = sampleQueries(USERS, 40, 7, 'synthetic', N);
const result = (base: string, xi: number | null, options: Record<string, unknown> = {}) => ({
  id: `${base}|${xi}|${JSON.stringify(options)}`,
  base,
  options,
  xi,
  ks: [1, 5, 10],
  asks: { utility: true },
});
const cell = (trial: number, results: TrialCellSpec['results'], extra: Partial<TrialCellSpec> = {}): TrialCellSpec => ({
  dataset: 'synthetic',
  n: N,
  kappa: 16,
  trial,
  results,
  privacy: { d: 0.1, delta: 0.01 },
  runSeed: 11,
  ...extra,
});
const builtIns = [result('lsh', null), result('lshrr', 2), result('laplsh', 2), result('vmf', 5), result('rappor', 4)];

describe('trial cells run in a thread', () => {
  afterEach(() => unregisterMechanism('zeroed-bits'));

  it('give the numbers of the cell run alone, cold and warm, on both metrics (memo and pooled buffers change nothing)', () => {
    const angular = exactKnn(vectors, queries, 10); // no ExactKnn.all: the thread's memo serves the distances
    const sets = getFamily('jaccard').prepare(vectors);
    const jaccard = getFamily('jaccard').exactKnn(sets, queries, 10);
    for (let trial = 1; trial <= 3; trial++) {
      const a = cell(trial, builtIns);
      expect(runTrialCellInThread(vectors, queries, angular, a)).toEqual(runTrialCell(vectors, queries, angular, a));
      const j = cell(trial, [result('lsh', null), result('lshrr', 4)], { metric: 'jaccard' });
      expect(runTrialCellInThread(sets, queries, jaccard, j)).toEqual(runTrialCell(sets, queries, jaccard, j));
    }
    // the same group again (every distance now in the memo), and a cell with another k
    const again = cell(2, [result('lshrr', 2), { ...result('laplsh', 2), ks: [3] }]);
    expect(runTrialCellInThread(vectors, queries, angular, again)).toEqual(runTrialCell(vectors, queries, angular, again));
  });

  it('registers the plugins the cell names before it runs; the science alone does not', () => {
    const file = join(ROOT, 'examples', 'mechanisms', 'zeroed-bits.mjs');
    const { sha256 } = loadPluginSync(file);
    const truth = exactKnn(vectors, queries, 10);
    const spec = cell(1, [result('zeroed-bits', null, { share: 0.5 }), result('lsh', null)], { plugins: [{ name: 'zeroed-bits', file, sha256 }] });
    expect(() => getMechanism('zeroed-bits')).toThrow(/unknown mechanism "zeroed-bits"/);
    expect(() => runTrialCell(vectors, queries, truth, spec)).toThrow(/unknown mechanism "zeroed-bits"/);
    const out = runTrialCellInThread(vectors, queries, truth, spec);
    expect(getMechanism('zeroed-bits').name).toBe('zeroed-bits');
    expect(out.map((r) => r.id)).toEqual(spec.results.map((r) => r.id));
    // half the bits zeroed loses utility against vanilla LSH at every k
    const loss = (r: TrialResult) => Object.values(r.values.utility as Record<string, [number, number]>).map(([l]) => l);
    for (let i = 0; i < 3; i++) expect(loss(out[0]!)[i]).toBeGreaterThan(loss(out[1]!)[i]!);
    expect(runTrialCell(vectors, queries, truth, spec)).toEqual(out);
  });
});
