/**
 * The SVGs of a run's report rendered on worker threads. Vega renders a figure on one thread for
 * 0.2-0.6 s, and a grid grown by one ξ re-renders most of its figures while the cores are idle
 * (the cells are done): threads render them side by side, and start, loading vega, while the
 * main thread tests the claims. A worker renders with render.ts, as the main thread does.
 *
 * Vega numbers clip paths and gradients per process (`clip1`, `gradient_0`), so a figure that had
 * them would get numbers that depend on which figures its thread drew before; no lshdp figure has
 * them, and an SVG with such a number is refused here rather than written with a number that
 * depends on the threads. Where there is no built worker script (the sources run by a test
 * runner) or one core, the figures render in this thread.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { renderSvg } from './render.js';
import type { VlSpec } from './specs.js';

export interface SvgRenderer {
  /** whether renders run on other threads (so they are best started all at once) */
  threaded: boolean;
  render(spec: VlSpec): Promise<string>;
  close(): Promise<void>;
}

export const inThisThread: SvgRenderer = { threaded: false, render: renderSvg, close: () => Promise.resolve() };

const DEF_ID = /\sid="(?:clip\d|gradient_\d)/;

/**
 * The rendering threads a run starts: LSHDP_RENDER_THREADS (at most the cores), else none. Off by
 * default: on 2 cores the threads cost +0.6 CPU-s a run (each loads vega) for no wall gain beyond
 * the noise at load 20 (docs/SPEED.md, 2026-12-07). Measured again on the grown shared MovieLens
 * folder's report (five figures re-rendered): 2.06-2.17 CPU-s on two threads against 1.59-1.83 in
 * this one, whose thread alone spends 0.9-1.06 of them (V8's helper threads the rest); on 2 cores
 * the threads' 2.1 CPU-s take at least as long as this thread's share, so they cannot shorten the
 * run's wall time (docs/SPEED.md, "2026-12-07 (night)").
 */
export function renderThreadsWanted(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.LSHDP_RENDER_THREADS ?? '1');
  return Number.isInteger(n) && n > 1 ? Math.min(n, availableParallelism()) : 1;
}

/** Up to `threads` rendering threads (default: renderThreadsWanted()), or this thread. */
export function startRenderThreads(threads = renderThreadsWanted()): SvgRenderer {
  // '../report/': this folder, also from the CLI's bundle (dist/bundle/, scripts/bundle.mjs)
  const url = new URL('../report/renderWorker.js', import.meta.url);
  if (threads < 2 || !existsSync(fileURLToPath(url))) return inThisThread;
  const workers = Array.from({ length: threads }, () => new Worker(url));
  const waiting = new Map<number, { ok: (svg: string) => void; fail: (e: Error) => void }>();
  let failure: Error | null = null;
  for (const w of workers) {
    w.on('message', (m: { id: number; svg?: string; error?: string }) => {
      const job = waiting.get(m.id);
      waiting.delete(m.id);
      if (m.svg !== undefined && DEF_ID.test(m.svg)) job?.fail(new Error('a figure with clip paths or gradients: vega numbers them per process, so it must be rendered in one thread'));
      else if (m.svg !== undefined) job?.ok(m.svg);
      else job?.fail(new Error(m.error));
    });
    w.on('error', (e) => {
      failure = e;
      for (const job of waiting.values()) job.fail(e);
      waiting.clear();
    });
  }
  let next = 0;
  return {
    threaded: true,
    // figure i on thread i mod threads: each thread's figures, in order, fixed by the list alone
    render(spec) {
      if (failure) return Promise.reject(failure);
      const id = next++;
      return new Promise((ok, fail) => {
        waiting.set(id, { ok, fail });
        workers[id % workers.length]!.postMessage({ id, spec });
      });
    },
    close: async () => {
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}
