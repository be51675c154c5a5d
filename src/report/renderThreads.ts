/**
 * A run's figures on worker threads once its cells are done (both cores free). By default one
 * thread rasterizes the PNGs (resvg: a third of a report's time with PNGs, and native, so it runs
 * in any thread) while this thread renders the next figure's SVG with vega: the two take about as
 * long. With LSHDP_RENDER_THREADS=n ≥ 2, n threads render the SVGs too (each loads vega). A worker
 * renders with render.ts and png.ts, as this thread does, so the same bytes; the PNGs of a thread
 * that stops are made in this thread.
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
import { renderSvg, svgToPng } from './render.js';
import type { VlSpec } from './specs.js';

export interface SvgRenderer {
  /** whether SVG renders run on other threads (so they are best started all at once) */
  threaded: boolean;
  render(spec: VlSpec): Promise<string>;
  /** the PNG of an SVG (png.ts's svgToPng); in this thread it is made before this returns */
  png(svg: string): Promise<Uint8Array>;
  /** the caller has nothing else to do: PNGs no thread has started yet are made in this thread, one by one */
  drain(): Promise<void>;
  close(): Promise<void>;
}

export const inThisThread: SvgRenderer = {
  threaded: false,
  render: renderSvg,
  png: (svg) => {
    try {
      return Promise.resolve(svgToPng(svg));
    } catch (e) {
      return Promise.reject(e as Error);
    }
  },
  drain: () => Promise.resolve(),
  close: () => Promise.resolve(),
};

const DEF_ID = /\sid="(?:clip\d|gradient_\d)/;

/** PNGs handed to a thread at once: the one it makes and the next. */
const PNG_DEPTH = 2;

/**
 * The rendering threads a run starts (LSHDP_RENDER_THREADS, at most the cores): 0 none, everything
 * in this thread; 1 (the default) one that makes the PNGs; n ≥ 2 that many rendering SVGs and PNGs.
 * One core, or unset for a run of `--threads 1` (`runThreads`): none. Two SVG threads were measured on 2 cores (docs/SPEED.md, "2026-12-07 (night)"):
 * +0.5 CPU-s a run (each loads vega) and no wall time won, since they and the PNGs then share the
 * cores; the PNG thread loads resvg only and takes the PNGs' 0.45 s of the check-in grid's report
 * off this thread (docs/SPEED.md, "2026-12-08").
 */
export function renderThreadsWanted(env: NodeJS.ProcessEnv = process.env, cores = availableParallelism(), runThreads?: number): number {
  const raw = env.LSHDP_RENDER_THREADS;
  // a run told to compute in one thread (--threads 1) draws in one too
  const n = raw === undefined || raw.trim() === '' ? (runThreads === 1 ? 0 : 1) : Number(raw);
  if (cores < 2 || !Number.isInteger(n) || n < 0) return cores < 2 ? 0 : 1;
  return Math.min(n, cores);
}

interface Job {
  ok: (value: string | Uint8Array) => void;
  fail: (e: Error) => void;
}

/**
 * Up to `threads` rendering threads (default: renderThreadsWanted()), or this thread. One thread
 * makes the PNGs only, and only when `png` is not false (else there is none); more render the
 * SVGs too.
 */
export function startRenderThreads(threads = renderThreadsWanted(), opts: { png?: boolean } = {}): SvgRenderer {
  // '../report/': this folder, also from the CLI's bundle (dist/bundle/, scripts/bundle.mjs)
  const url = new URL('../report/renderWorker.js', import.meta.url);
  const svgThreads = threads >= 2;
  if (threads < 1 || (!svgThreads && opts.png === false) || !existsSync(fileURLToPath(url))) return inThisThread;
  const workers = Array.from({ length: threads }, () => new Worker(url, { workerData: { svg: svgThreads } }));
  const waiting = new Map<number, Job>();
  let failure: Error | null = null;
  for (const w of workers) {
    w.on('message', (m: { id: number; svg?: string; png?: Uint8Array; error?: string }) => {
      const job = waiting.get(m.id);
      waiting.delete(m.id);
      if (m.svg !== undefined && DEF_ID.test(m.svg)) job?.fail(new Error('a figure with clip paths or gradients: vega numbers them per process, so it must be rendered in one thread'));
      else if (m.svg !== undefined) job?.ok(m.svg);
      else if (m.png !== undefined) job?.ok(m.png);
      else job?.fail(new Error(m.error));
    });
    const stop = (e: Error) => {
      failure ??= e;
      for (const job of waiting.values()) job.fail(failure);
      waiting.clear();
    };
    w.on('error', stop);
    // a thread that ended with jobs asked (terminated by close() it has none left)
    w.on('exit', (code) => stop(new Error(`a rendering thread stopped (exit code ${code})`)));
  }
  let next = 0;
  let nextSvg = 0;
  const ask = <T extends string | Uint8Array>(worker: Worker, message: object, done?: () => void): Promise<T> => {
    if (failure) return Promise.reject(failure);
    const id = next++;
    return new Promise<T>((ok, fail) => {
      waiting.set(id, {
        ok: (v) => {
          done?.();
          ok(v as T);
        },
        fail: (e) => {
          done?.();
          fail(e);
        },
      });
      worker.postMessage({ id, ...message });
    });
  };
  // PNGs wait here and go to a thread with fewer than PNG_DEPTH of them (one it makes, one ready
  // for when it is done), so that drain() can make those no thread has started in this one
  const pngs: { svg: string; ok: (png: Uint8Array) => void; fail: (e: Error) => void }[] = [];
  const busy = workers.map(() => 0);
  const pump = () => {
    for (let w = 0; w < workers.length && pngs.length > 0; w++) {
      while (busy[w]! < PNG_DEPTH && pngs.length > 0) {
        const job = pngs.shift()!;
        busy[w]!++;
        ask<Uint8Array>(workers[w]!, { svg: job.svg }, () => {
          busy[w]!--;
          pump();
        }).then(job.ok, (e: Error) => {
          // a stopped thread's PNGs are made here (the same bytes); an SVG resvg refuses fails
          if (failure) inThisThread.png(job.svg).then(job.ok, job.fail);
          else job.fail(e);
        });
      }
    }
  };
  return {
    threaded: svgThreads,
    // SVG i on thread i mod threads: each thread's figures, in order, fixed by the list alone
    render: svgThreads ? (spec) => ask<string>(workers[nextSvg++ % workers.length]!, { spec }) : renderSvg,
    png: (svg) =>
      new Promise<Uint8Array>((ok, fail) => {
        pngs.push({ svg, ok, fail });
        pump();
      }),
    drain: async () => {
      for (let job = pngs.shift(); job; job = pngs.shift()) {
        inThisThread.png(job.svg).then(job.ok, job.fail);
        // the threads' answers are taken between two PNGs here
        await new Promise((r) => setImmediate(r));
      }
    },
    close: async () => {
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}
