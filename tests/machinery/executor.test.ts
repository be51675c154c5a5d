import { describe, it, expect } from 'vitest';
import { mkdtempSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { WorkerPool, InProcessExecutor, concatExact, shareArray, type ExactResult, type Task } from '../../src/machinery/executor.js';
import { InterruptedError, UserError } from '../../src/util/errors.js';
import { ROOT } from '../helpers/cli.js';
import type { TrialCellSpec } from '../../src/experiment/trial.js';

const WORKER = join(ROOT, 'dist', 'machinery', 'worker.js');

/** A fake engine as plain JS (workers load compiled code): rows are a pure function of the data and spec. */
const FAKE_ENGINE_JS = `
export function createEngine() {
  return {
    exactKnn(v, queries, k) {
      const users = v.rowPtr.length - 1;
      const indices = new Int32Array(queries.length * k), distances = new Float64Array(queries.length * k);
      for (let i = 0; i < queries.length; i++) for (let j = 0; j < k; j++) { indices[i * k + j] = (queries[i] + j + 1) % users; distances[i * k + j] = v.values[queries[i]] * (j + 1); }
      return { k, indices, distances };
    },
    exactRows(v, q, t, ks) { return ks.map((k) => ({ mechanism: 'exact', kappa: null, xi: null, k, epsilon: null, ldpEpsilon: null, fallback: null, loss: 0, recall: 1 })); },
    runTrialCell(v, queries, truth, spec) {
      if (spec.kappa === 13) { const e = new Error('bad kappa 13'); e.name = 'UserError'; throw e; }
      let s = 0; for (let i = 0; i < v.values.length; i++) s += v.values[i] * (i + spec.trial + 1);
      let t = 0; for (let i = 0; i < truth.distances.length; i++) t += truth.distances[i];
      return spec.k.map((k) => ({ mechanism: 'lsh', kappa: spec.kappa, xi: null, k, epsilon: null, ldpEpsilon: null, fallback: null, loss: s / (k + spec.kappa) + t, recall: queries.length }));
    },
  };
}`;

function data() {
  const users = 50;
  const rowPtr = Int32Array.from({ length: users + 1 }, (_, i) => i);
  const colIdx = Int32Array.from({ length: users }, (_, i) => i % 7);
  const values = Float64Array.from({ length: users }, (_, i) => 1 / (i + 1));
  return { vectors: { dataset: 'd', n: 7, userIds: [], itemIds: [], rowPtr, colIdx, values, dropped: 0 }, queries: Int32Array.from([1, 4, 9, 16]) };
}

const trial = (kappa: number, t: number): Task => ({
  kind: 'trial',
  key: `trial_d_n7_kappa${kappa}_t${t}`,
  spec: { dataset: 'd', n: 7, kappa, trial: t, results: [], k: [1, 3], privacy: { d: 0.1, delta: 0.01 }, runSeed: 1 } as TrialCellSpec & { k: number[] },
});

describe.skipIf(!existsSync(WORKER))('worker pool', () => {
  it('shares the data once and returns exactly what the in-process executor computes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lshdp-pool-'));
    const mod = join(dir, 'fake-engine.mjs');
    writeFileSync(mod, FAKE_ENGINE_JS);
    const engine = (await import(pathToFileURL(mod).href)).createEngine();
    const { vectors, queries } = data();
    const pool = new WorkerPool(2, { workerUrl: pathToFileURL(WORKER), engineModule: pathToFileURL(mod).href });
    const local = new InProcessExecutor(engine);
    try {
      for (const ex of [pool, local]) ex.setData('d_n7', vectors, queries);
      const exactTask: Task = { kind: 'exact', key: 'exact_d_n7', k: 3, ks: [1, 3] };
      const [pe, le] = (await Promise.all([pool.run(exactTask), local.run(exactTask)])).map((o) => o.result) as { truth: { indices: Int32Array; distances: Float64Array } }[];
      expect(Array.from(pe.truth.distances)).toEqual(Array.from(le.truth.distances));
      for (const ex of [pool, local]) ex.setTruth('d_n7', le.truth as never);
      const tasks = [4, 6, 8].flatMap((kappa) => [0, 1, 2].map((t) => trial(kappa, t)));
      const results = (ex: typeof pool | typeof local) =>
        Promise.all(
          tasks.map((t) =>
            ex.run(t).then((o) => {
              expect(o.ms).toBeGreaterThanOrEqual(0);
              return o.result;
            }),
          ),
        );
      const [fromPool, fromLocal] = await Promise.all([results(pool), results(local)]);
      expect(fromPool).toEqual(fromLocal);
      // a user error in a worker stays a user error, and the pool keeps working
      await expect(pool.run(trial(13, 0))).rejects.toThrow(new UserError('bad kappa 13'));
      expect((await pool.run(trial(4, 0))).result).toEqual(fromLocal[0]);
      // a worker is handed its next task before it finishes one: the task queued behind a user
      // error on the same worker still completes (worker 0: kappa 13, then kappa 6)
      const [bad, other, behind] = await Promise.allSettled([pool.run(trial(13, 0)), pool.run(trial(4, 1)), pool.run(trial(6, 2))]);
      expect(bad.status === 'rejected' && bad.reason).toEqual(new UserError('bad kappa 13'));
      expect(other.status === 'fulfilled' && other.value.result).toEqual(fromLocal[1]);
      expect(behind.status === 'fulfilled' && behind.value.result).toEqual(fromLocal[5]);
      // abort rejects what is pending and what comes after
      const pending = Promise.all(tasks.map((t) => pool.run(t)));
      pool.abort(new InterruptedError('SIGINT'));
      await expect(pending).rejects.toBeInstanceOf(InterruptedError);
      await expect(pool.run(trial(4, 1))).rejects.toBeInstanceOf(InterruptedError);
    } finally {
      await pool.close();
      await local.close();
    }
  });

  it('started before the plan, trims to the cells there are and ends its workers by themselves', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lshdp-pool-'));
    const mod = join(dir, 'fake-engine.mjs');
    writeFileSync(mod, FAKE_ENGINE_JS);
    const pool = new WorkerPool(3, { workerUrl: pathToFileURL(WORKER), engineModule: pathToFileURL(mod).href });
    const codes: number[] = [];
    for (const w of (pool as unknown as { workers: import('node:worker_threads').Worker[] }).workers) w.on('exit', (code) => codes.push(code));
    // trimmed while the workers may still be starting: the extra ones end once they have booted
    pool.trim(1);
    expect(pool.threads).toBe(1);
    const { vectors, queries } = data();
    pool.setData('d_n7', vectors, queries);
    expect(() => pool.trim(0)).toThrow(/before the first data/);
    const exact = (await pool.run({ kind: 'exact', key: 'exact_d_n7', k: 3, ks: [1, 3] })).result as ExactResult;
    pool.setTruth('d_n7', exact.truth);
    expect((await pool.run(trial(4, 0))).result).toHaveLength(2);
    await pool.close();
    // every worker ended by itself (exit code 0), none terminated (exit code 1)
    expect(codes).toEqual([0, 0, 0]);
  });

  it('shareArray puts a copy in shared memory', () => {
    const a = Float64Array.from([1.5, -2, 3]);
    const s = shareArray(a);
    expect(s.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(Array.from(s)).toEqual([1.5, -2, 3]);
    expect(shareArray(s)).toBe(s);
  });
});

describe('concatExact', () => {
  const part = (from: number, rows: number, users: number, all: boolean) => ({
    k: 2,
    indices: Int32Array.from({ length: rows * 2 }, (_, i) => from * 2 + i),
    distances: Float64Array.from({ length: rows * 2 }, (_, i) => (from * 2 + i) / 10),
    ...(all ? { all: Float64Array.from({ length: rows * users }, (_, i) => from * users + i) } : {}),
  });

  it('joins the query slices in order, the distances to every user in shared memory when every slice has them', () => {
    const joined = concatExact([part(0, 2, 5, true), part(2, 3, 5, true)], 2);
    expect(Array.from(joined.indices)).toEqual(Array.from({ length: 10 }, (_, i) => i));
    expect(Array.from(joined.distances)).toEqual(Array.from({ length: 10 }, (_, i) => i / 10));
    expect(Array.from(joined.all!)).toEqual(Array.from({ length: 25 }, (_, i) => i));
    expect(joined.all!.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(concatExact([part(0, 2, 5, true), part(2, 3, 5, false)], 2).all).toBeUndefined();
  });
});
