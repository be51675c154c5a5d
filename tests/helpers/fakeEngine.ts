/**
 * A tiny fake engine for orchestration tests: every number is a pure function of the cell's
 * seeds, so any order, thread or resume must reproduce it, and calls are counted.
 */
import type { DatasetSummary, LoadedDataset, UserVectors } from '../../src/data/types.js';
import type { MechanismInfo } from '../../src/mechanisms/types.js';
import type { TrialResult } from '../../src/experiment/trial.js';
import type { Engine } from '../../src/machinery/engine.js';
import { deriveSeed, makeRng } from '../../src/random/rng.js';

export interface FakeEngine extends Engine {
  calls: { load: number; exact: number; trial: number; results: number };
}

const INFO: Record<string, MechanismInfo> = {
  exact: { kind: 'exact', usesKappa: false, usesXi: false, epsilonKind: null, hasFallback: false },
  lsh: { kind: 'code', usesKappa: true, usesXi: false, epsilonKind: null, hasFallback: false },
  lshrr: { kind: 'code', usesKappa: true, usesXi: true, epsilonKind: 'bit', hasFallback: true },
  laplsh: { kind: 'code', usesKappa: true, usesXi: true, epsilonKind: 'lap', hasFallback: false },
  rappor: { kind: 'code', usesKappa: true, usesXi: true, epsilonKind: null, hasFallback: false },
};

function vectors(dataset: string, n: number, users: number): UserVectors {
  const rowPtr = new Int32Array(users + 1);
  const colIdx = new Int32Array(users);
  const values = new Float64Array(users).fill(1);
  for (let i = 0; i < users; i++) {
    rowPtr[i + 1] = i + 1;
    colIdx[i] = i % n;
  }
  return { dataset, n, userIds: Array.from({ length: users }, (_, i) => `u${i}`), itemIds: Array.from({ length: n }, (_, j) => `i${j}`), rowPtr, colIdx, values, dropped: 0 };
}

export function fakeEngine(users = 30): FakeEngine {
  const calls = { load: 0, exact: 0, trial: 0, results: 0 };
  return {
    calls,
    async loadDataset(spec, dims) {
      calls.load++;
      const summary: DatasetSummary = {
        name: spec.name,
        format: spec.format,
        inputs: [],
        rowsRead: users,
        rowsSkipped: 0,
        skippedLines: [],
        users,
        items: Math.max(...dims),
        interactions: users,
        center: 'none',
        perDim: dims.map((n) => ({ n, usersKept: users, usersDropped: 0, meanNnz: 1, itemIds: [] })),
      } as DatasetSummary;
      const ds: LoadedDataset = { summary, vectors: new Map(dims.map((n) => [n, vectors(spec.name, n, users)])) };
      return ds;
    },
    sampleQueries(u, q) {
      const m = q === 0 || q >= u ? u : q;
      return Int32Array.from({ length: m }, (_, i) => i);
    },
    exactKnn(v, queries, k) {
      calls.exact++;
      const users = v.rowPtr.length - 1;
      const indices = new Int32Array(queries.length * k);
      const distances = new Float64Array(queries.length * k);
      queries.forEach((q, i) => {
        for (let j = 0; j < k; j++) {
          indices[i * k + j] = (q + j + 1) % users;
          distances[i * k + j] = (j + 1) / (k + 1) / (1 + (q % 7));
        }
      });
      // every other user's mean distance: above every neighbour's, as a real pass gives
      const meanDistance = Float64Array.from(queries, (q) => 0.5 + (q % 5) / 20);
      return { k, indices, distances, meanDistance };
    },
    exactRows(_v, _q, _t, ks) {
      return ks.map((k) => ({ mechanism: 'exact', kappa: null, xi: null, k, epsilon: null, ldpEpsilon: null, fallback: null, loss: 0, recall: 1 }));
    },
    runTrialCell(_v, queries, _t, spec) {
      calls.trial++;
      calls.results += spec.results.length;
      // a result is a pure function of its identity and the cell (never of the other results asked
      // with it), and its value at k does not depend on which other k are asked
      return spec.results.map((r): TrialResult => {
        const xi = INFO[r.base].usesXi ? r.xi : null;
        const opt = JSON.stringify(r.options);
        const per = (k: number) => makeRng(deriveSeed(spec.runSeed, 'noise', spec.dataset, spec.n, spec.kappa, spec.trial, r.base, xi ?? 'none', opt, k));
        const ks = [...r.ks].sort((a, b) => a - b);
        const utility: Record<string, [number, number]> = {};
        for (const k of ks) utility[String(k)] = [per(k)() / queries.length, per(k)()];
        return {
          id: r.id,
          eps: { epsilon: xi === null ? null : xi / 2, ldpEpsilon: xi === null ? null : (xi / 2) * spec.kappa, fallback: false },
          values: { utility },
        };
      });
    },
    mechanism(name) {
      const i = INFO[name];
      if (!i) throw new Error(`unknown mechanism ${name}`);
      return i;
    },
    budgetRows({ accountants, d, kappa, xi, delta }) {
      return accountants.flatMap((accountant) =>
        d.flatMap((dd) =>
          xi.flatMap((x) =>
            kappa.map((k) => ({ accountant, d: dd, delta, kappa: k, xi: x, alpha: 0.1, epsilon_bit: x / k, flip: 0.5, epsilon_ldp: x, fallback: false, unbounded: false, delta_hockey: null })),
          ),
        ),
      );
    },
  };
}

export const FAKE_CONFIG = `name: fake
seed: 3
datasets:
  - { name: a, format: synthetic, preset: small }
  - { name: b, format: synthetic, preset: small }
dims: [5, 8]
queries: 10
k: [1, 3]
kappa: [4, 6]
trials: 3
privacy: { d: 0.1, delta: 0.01, xi: [0, 1, 2] }
mechanisms: [exact, lsh, lshrr, laplsh]
`;
