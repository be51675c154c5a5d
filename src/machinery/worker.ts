/**
 * Worker thread entry (compiled to dist/machinery/worker.js): keeps the shared vectors of the
 * current (dataset, n) groups and computes the cells the pool sends, one at a time.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { GroupExtras, UserVectors } from '../data/types.js';
import type { ExactKnn } from '../knn/angular.js';
import { loadComputeEngine, type ComputeEngine } from './engine.js';
import { computeTask, groupKeyOfTask, type GroupData, type Task } from './executor.js';

type Group = GroupData;

type Message =
  | { type: 'data'; key: string; vectors: UserVectors; queries: Int32Array; extras: GroupExtras }
  | { type: 'truth'; key: string; truth: ExactKnn }
  | { type: 'drop'; key: string }
  | { type: 'task'; id: number; task: Task }
  | { type: 'close' };

const port = parentPort!;
/** How long an idle worker waits before it ends (see 'close'). */
const CLOSE_GRACE_MS = 50;
const groups = new Map<string, Group>();
const engineModule = (workerData as { engineModule: string | null } | null)?.engineModule ?? null;
const enginePromise: Promise<ComputeEngine> = engineModule ? import(engineModule).then((m: { createEngine: () => ComputeEngine | Promise<ComputeEngine> }) => m.createEngine()) : loadComputeEngine();
// booted (engine loaded or failed: a task then reports the failure): the pool ends a worker only
// after this, since ending one in the middle of its start-up can abort the whole process
const booted = () => port.postMessage({ type: 'ready' });
enginePromise.then(booted, booted);

// messages are handled strictly in arrival order (data before the tasks that read it)
let chain: Promise<void> = Promise.resolve();
port.on('message', (msg: Message) => {
  chain = chain.then(() => handle(msg));
});

async function handle(msg: Message): Promise<void> {
  switch (msg.type) {
    case 'data':
      groups.set(msg.key, { vectors: msg.vectors, queries: msg.queries, extras: msg.extras });
      return;
    case 'truth': {
      const g = groups.get(msg.key);
      if (g) g.truth = msg.truth;
      return;
    }
    case 'drop':
      groups.delete(msg.key);
      return;
    case 'close':
      // End by letting the event loop run dry, a moment after the last task: V8 may still be
      // optimizing that task's code in the background, and a thread torn down under such a job
      // (terminate(), or an exit right away) can abort the whole process (Node 20:
      // "Assertion failed: (data.first) != nullptr" in NodePlatform::ForIsolate).
      setTimeout(() => port.close(), CLOSE_GRACE_MS);
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
            [result.truth.indices.buffer, result.truth.distances.buffer, result.truth.all?.buffer].filter((b): b is ArrayBuffer => b instanceof ArrayBuffer),
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
