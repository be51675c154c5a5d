/**
 * Where cells are computed: in this thread (tests, `--threads 1` without built workers) or in a
 * pool of worker threads. Both take the same messages, so the runner does not care which. The
 * vectors of a (dataset, n) are copied once into SharedArrayBuffers and posted once to every
 * worker; cells then only send their small spec and receive their rows.
 */
import { Worker } from 'node:worker_threads';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { GroupExtras, UserVectors } from '../data/types.js';
import type { ExactKnn } from '../knn/angular.js';
import { InterruptedError, UserError } from '../util/errors.js';
import type { CellRow, TrialCellSpec, TrialResult } from '../experiment/trial.js';
import type { ComputeEngine } from './engine.js';
import { fileSetupStore } from './setupCache.js';

export type Task =
  /** exact k-NN of the group's queries [from, to) (all when absent); rows only for the whole
   *  range; `all`: with every query's distance to every user (ExactKnn.all) */
  | { kind: 'exact'; key: string; k: number; ks: number[]; from?: number; to?: number; metric?: 'angular' | 'jaccard'; all?: boolean; means?: boolean }
  | { kind: 'trial'; key: string; spec: TrialCellSpec /** the cell's setup cache file (setupCache.ts), when kept */; setup?: string };

export interface ExactResult {
  truth: ExactKnn;
  rows: CellRow[];
}

/** A task's result and its compute time in the thread that ran it (queueing excluded). */
export interface TaskOutput {
  result: ExactResult | TrialResult[];
  ms: number;
}

export interface Executor {
  readonly threads: number;
  /** `extras`: what the group carries beside its vectors (a recommendation split's items, item sets), for the evaluations that read it */
  setData(key: string, vectors: UserVectors, queries: Int32Array, extras?: GroupExtras): void;
  setTruth(key: string, truth: ExactKnn): void;
  drop(key: string): void;
  run(task: Task): Promise<TaskOutput>;
  /** Stop everything now: pending and future tasks reject with `reason`. */
  abort(reason: Error): void;
  close(): Promise<void>;
}

/** A copy of a typed array in shared memory (sent to workers without copying). */
export function shareArray<T extends Int32Array | Float64Array>(a: T): T {
  if (a.buffer instanceof SharedArrayBuffer) return a;
  const Ctor = a.constructor as { new (buf: SharedArrayBuffer): T; BYTES_PER_ELEMENT: number };
  const out = new Ctor(new SharedArrayBuffer(a.length * Ctor.BYTES_PER_ELEMENT));
  out.set(a);
  return out;
}

export function shareVectors(v: UserVectors): UserVectors {
  return { ...v, rowPtr: shareArray(v.rowPtr), colIdx: shareArray(v.colIdx), values: shareArray(v.values) };
}

export interface GroupData {
  vectors: UserVectors;
  queries: Int32Array;
  truth?: ExactKnn;
  extras: GroupExtras;
}

/** A group's extras with every typed array in shared memory (posted once to every worker, as the vectors). */
export function shareExtras(extras: GroupExtras): GroupExtras {
  const share = (part: object) => Object.fromEntries(Object.entries(part).map(([k, v]) => [k, v instanceof Int32Array || v instanceof Float64Array ? shareArray(v) : v]));
  return Object.fromEntries(Object.entries(extras).map(([k, part]) => [k, share(part as object)])) as GroupExtras;
}

/** Compute one task against the data of its group (shared by both executors and the worker). */
export function computeTask(engine: ComputeEngine, data: GroupData | undefined, task: Task): ExactResult | TrialResult[] {
  if (!data) throw new Error(`executor: no data for ${task.key}`);
  if (task.kind === 'exact') {
    if (task.from !== undefined || task.to !== undefined) {
      // one slice of the queries: each query's neighbours do not depend on the others
      const slice = data.queries.subarray(task.from ?? 0, task.to ?? data.queries.length);
      return { truth: engine.exactKnn(data.vectors, slice, task.k, task.metric, task.all, task.means), rows: [] };
    }
    const truth = engine.exactKnn(data.vectors, data.queries, task.k, task.metric, task.all, task.means);
    return { truth, rows: engine.exactRows(data.vectors, data.queries, truth, task.ks, task.metric) };
  }
  if (!data.truth) throw new Error(`executor: no exact neighbours for ${task.key}`);
  const setup = task.setup ? fileSetupStore(task.setup) : undefined;
  // (called with five arguments without extras: engines written before them keep working)
  return Object.keys(data.extras).length > 0
    ? engine.runTrialCell(data.vectors, data.queries, data.truth, task.spec, setup, data.extras)
    : engine.runTrialCell(data.vectors, data.queries, data.truth, task.spec, setup);
}

export class InProcessExecutor implements Executor {
  readonly threads = 1;
  private readonly data = new Map<string, GroupData>();
  private aborted: Error | null = null;
  constructor(private readonly engine: ComputeEngine) {}
  setData(key: string, vectors: UserVectors, queries: Int32Array, extras: GroupExtras = {}): void {
    this.data.set(key, { vectors, queries, extras });
  }
  setTruth(key: string, truth: ExactKnn): void {
    const d = this.data.get(key);
    if (d) d.truth = truth;
  }
  drop(key: string): void {
    this.data.delete(key);
  }
  async run(task: Task): Promise<TaskOutput> {
    // yield to the event loop between cells, so a signal handler can run
    await new Promise((r) => setImmediate(r));
    if (this.aborted) throw this.aborted;
    const t0 = performance.now();
    const result = computeTask(this.engine, this.data.get(groupKeyOfTask(task)), task);
    return { result, ms: Math.round(performance.now() - t0) };
  }
  abort(reason: Error): void {
    this.aborted = reason;
  }
  async close(): Promise<void> {
    this.data.clear();
  }
}

/** Group (dataset, n) key of a task: the data it reads. */
export function groupKeyOfTask(task: Task): string {
  return task.kind === 'exact' ? task.key.replace(/^exact_/, '') : `${task.spec.dataset}_n${task.spec.n}`;
}

export function groupKey(dataset: string, n: number): string {
  return `${dataset}_n${n}`;
}

/**
 * The compiled worker next to this module: its one-file bundle where the build made it
 * (dist/machinery/worker.bundle.cjs, scripts/bundle.mjs: a worker loads one file instead of about a
 * hundred), else dist/machinery/worker.js; null when running from sources.
 */
export function defaultWorkerUrl(): URL | null {
  // '../machinery/': the same folder, written so that it holds from the CLI's bundle too (dist/bundle/, scripts/bundle.mjs)
  for (const file of ['../machinery/worker.bundle.cjs', '../machinery/worker.js']) {
    const url = new URL(file, import.meta.url);
    if (existsSync(fileURLToPath(url))) return url;
  }
  return null;
}

interface Pending {
  id: number;
  task: Task;
  resolve: (v: TaskOutput) => void;
  reject: (e: Error) => void;
}

/** Error from a worker, rebuilt with its class so user errors stay user errors. */
function rebuildError(e: { name: string; message: string; stack?: string }): Error {
  const err = e.name === 'UserError' ? new UserError(e.message) : new Error(e.message);
  if (e.stack) err.stack = e.stack;
  return err;
}

/** Tasks posted to a worker at a time: the one it runs and the next. */
const TASKS_PER_WORKER = 2;

export class WorkerPool implements Executor {
  private readonly workers: Worker[] = [];
  /** per worker, the tasks posted to it and not answered yet, oldest first */
  private readonly busy: Pending[][] = [];
  private readonly queue: Pending[] = [];
  private nextId = 0;
  private sentData = false;
  private aborted: Error | null = null;
  /** per worker, settled once it has booted (or exited), and once it has exited */
  private readonly booted = new Map<Worker, Promise<void>>();
  private readonly exited = new Map<Worker, Promise<void>>();
  /** per worker, its ending once asked for (trimmed, aborted or closed: asked once) */
  private readonly ending = new Map<Worker, Promise<void>>();

  constructor(size: number, opts: { workerUrl: URL; engineModule?: string }) {
    for (let i = 0; i < size; i++) {
      const w = new Worker(opts.workerUrl, { workerData: { engineModule: opts.engineModule ?? null } });
      const exited = new Promise<void>((resolve) => w.once('exit', () => resolve()));
      this.exited.set(w, exited);
      this.booted.set(w, Promise.race([exited, new Promise<void>((resolve) => w.on('message', (msg: { type: string }) => msg.type === 'ready' && resolve()))]));
      w.on('message', (msg: { type: string; id: number; result?: unknown; ms?: number; error?: { name: string; message: string; stack?: string } }) => this.onMessage(i, msg));
      w.on('error', (e) => this.abort(e instanceof Error ? e : new Error(String(e))));
      w.on('exit', (code) => {
        if (!this.aborted && code !== 0) this.abort(new Error(`worker ${i} exited with code ${code}`));
      });
      this.workers.push(w);
      this.busy.push([]);
    }
  }

  get threads(): number {
    return this.workers.length;
  }

  /** False once aborted or closed: such a pool runs no more tasks (a caller that keeps one makes a new one). */
  get usable(): boolean {
    return this.aborted === null;
  }

  /** Ends the workers beyond the first `size` (before any data or task was sent: they hold none). */
  trim(size: number): void {
    if (size >= this.workers.length) return;
    if (this.nextId > 0 || this.sentData) throw new Error('WorkerPool.trim: only before the first data or task');
    for (const w of this.workers.splice(size)) void this.end(w);
    this.busy.length = size;
  }

  private broadcast(msg: unknown): void {
    this.sentData = true;
    if (this.aborted) return;
    for (const w of this.workers) w.postMessage(msg);
  }

  setData(key: string, vectors: UserVectors, queries: Int32Array, extras: GroupExtras = {}): void {
    this.broadcast({ type: 'data', key, vectors: shareVectors(vectors), queries: shareArray(queries), extras: shareExtras(extras) });
  }
  setTruth(key: string, truth: ExactKnn): void {
    const shared: ExactKnn = { k: truth.k, indices: shareArray(truth.indices), distances: shareArray(truth.distances) };
    if (truth.all) shared.all = shareArray(truth.all);
    this.broadcast({ type: 'truth', key, truth: shared });
  }
  drop(key: string): void {
    this.broadcast({ type: 'drop', key });
  }

  run(task: Task): Promise<TaskOutput> {
    if (this.aborted) return Promise.reject(this.aborted);
    return new Promise((resolve, reject) => {
      this.queue.push({ id: this.nextId++, task, resolve, reject });
      this.dispatch();
    });
  }

  /**
   * Posts queued tasks: first one to each idle worker, then a second to each busy one, which it
   * starts the moment it finishes the first. A worker then never waits for this thread between
   * two tasks (this thread stores each finished cell and loads the claims' modules meanwhile: it
   * held workers idle 20–70 ms at a time). Tasks are queued most expensive first, so the one
   * that waits behind another is among the cheapest left.
   */
  private dispatch(): void {
    for (let depth = 1; depth <= TASKS_PER_WORKER; depth++) {
      for (let i = 0; i < this.workers.length && this.queue.length > 0; i++) {
        if (this.busy[i].length >= depth) continue;
        const p = this.queue.shift()!;
        this.busy[i].push(p);
        this.workers[i].postMessage({ type: 'task', id: p.id, task: p.task });
      }
    }
  }

  private onMessage(i: number, msg: { type: string; id: number; result?: unknown; ms?: number; error?: { name: string; message: string; stack?: string } }): void {
    // (a trimmed worker has no list: it only ever says it has booted)
    const posted = this.busy[i];
    const at = posted ? posted.findIndex((p) => p.id === msg.id) : -1;
    if (at < 0) return;
    const p = posted.splice(at, 1)[0]!;
    if (msg.type === 'done') p.resolve({ result: msg.result as ExactResult | TrialResult[], ms: msg.ms ?? 0 });
    else {
      const err = rebuildError(msg.error ?? { name: 'Error', message: 'worker failed' });
      p.reject(err);
      if (!(err instanceof UserError)) this.abort(err);
      return;
    }
    this.dispatch();
  }

  abort(reason: Error): void {
    if (this.aborted) return;
    this.aborted = reason;
    // a worker in the middle of a cell would read the request to close only after it: stop it now
    this.workers.forEach((w, i) => void (this.busy[i].length > 0 ? w.terminate() : this.end(w)));
    const pending = [...this.busy.flat(), ...this.queue];
    this.queue.length = 0;
    for (const b of this.busy) b.length = 0;
    for (const p of pending) p.reject(reason);
  }

  /**
   * Ends a worker once it has booted: asked to close, it ends by itself a moment later (see
   * worker.ts), and is terminated only if it has not within 10 s. A thread torn down while V8
   * still starts it up or optimizes its code in the background can abort the whole process.
   */
  private end(w: Worker): Promise<void> {
    let ending = this.ending.get(w);
    if (!ending) {
      ending = (async () => {
        await within(10_000, this.booted.get(w)!);
        w.postMessage({ type: 'close' });
        await within(10_000, this.exited.get(w)!);
        await w.terminate();
      })();
      this.ending.set(w, ending);
    }
    return ending;
  }

  async close(): Promise<void> {
    if (!this.aborted) this.aborted = new InterruptedError('SIGTERM', 'executor closed');
    // the trimmed workers too: every worker this pool started
    await Promise.all([...this.booted.keys()].map((w) => this.end(w)));
  }
}

/** `p`, or nothing after `ms` milliseconds, whichever comes first. */
async function within(ms: number, p: Promise<unknown>): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([p, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

/** The exact neighbours of consecutive query slices, joined in query order. */
export function concatExact(parts: ExactKnn[], k: number): ExactKnn {
  const rows = parts.reduce((sum, p) => sum + p.indices.length / k, 0);
  const indices = new Int32Array(rows * k);
  const distances = new Float64Array(rows * k);
  let at = 0;
  for (const p of parts) {
    indices.set(p.indices, at);
    distances.set(p.distances, at);
    at += p.indices.length;
  }
  const joined: ExactKnn = { k, indices, distances };
  if (parts.length > 0 && parts.every((p) => p.meanDistance)) {
    joined.meanDistance = new Float64Array(rows);
    at = 0;
    for (const p of parts) {
      joined.meanDistance.set(p.meanDistance!, at);
      at += p.meanDistance!.length;
    }
  }
  if (parts.length === 0 || !parts.every((p) => p.all)) return joined;
  // the rows of distances to every user, joined in shared memory (posted to every worker as is)
  const all = new Float64Array(new SharedArrayBuffer(parts.reduce((sum, p) => sum + p.all!.length, 0) * 8));
  at = 0;
  for (const p of parts) {
    all.set(p.all!, at);
    at += p.all!.length;
  }
  return { ...joined, all };
}
