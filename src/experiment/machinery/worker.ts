/**
 * Worker thread entry (compiled to dist/experiment/machinery/worker.js): keeps the shared vectors of the
 * current (dataset, n) groups and computes the cells the pool sends, one at a time.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { UserVectors } from '../../data/types.js';
import type { ExactKnn } from '../../knn/angular.js';
import { loadComputeEngine, type ComputeEngine } from './engine.js';
import { computeTask, groupKeyOfTask, type Task } from './executor.js';

interface Group {
  vectors: UserVectors;
  queries: Int32Array;
  truth?: ExactKnn;
}

type Message =
  | { type: 'data'; key: string; vectors: UserVectors; queries: Int32Array }
  | { type: 'truth'; key: string; truth: ExactKnn }
  | { type: 'drop'; key: string }
  | { type: 'task'; id: number; task: Task };

const port = parentPort!;
const groups = new Map<string, Group>();
const engineModule = (workerData as { engineModule: string | null } | null)?.engineModule ?? null;
const enginePromise: Promise<ComputeEngine> = engineModule ? import(engineModule).then((m: { createEngine: () => ComputeEngine | Promise<ComputeEngine> }) => m.createEngine()) : loadComputeEngine();

// messages are handled strictly in arrival order (data before the tasks that read it)
let chain: Promise<void> = Promise.resolve();
port.on('message', (msg: Message) => {
  chain = chain.then(() => handle(msg));
});

async function handle(msg: Message): Promise<void> {
  switch (msg.type) {
    case 'data':
      groups.set(msg.key, { vectors: msg.vectors, queries: msg.queries });
      return;
    case 'truth': {
      const g = groups.get(msg.key);
      if (g) g.truth = msg.truth;
      return;
    }
    case 'drop':
      groups.delete(msg.key);
      return;
    case 'task': {
      try {
        const engine = await enginePromise;
        const t0 = performance.now();
        const result = computeTask(engine, groups.get(groupKeyOfTask(msg.task)), msg.task);
        const ms = Math.round(performance.now() - t0);
        if ('truth' in result) {
          port.postMessage(
            { type: 'done', id: msg.id, result, ms },
            [result.truth.indices.buffer as ArrayBuffer, result.truth.distances.buffer as ArrayBuffer].filter((b) => !(b instanceof SharedArrayBuffer)),
          );
        } else {
          port.postMessage({ type: 'done', id: msg.id, result, ms });
        }
      } catch (e) {
        const err = e as Error;
        port.postMessage({ type: 'error', id: msg.id, error: { name: err?.name ?? 'Error', message: err?.message ?? String(e), stack: err?.stack } });
      }
    }
  }
}
