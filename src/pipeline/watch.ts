/**
 * `lshdp run CONFIG --watch`: the run, then the run again each time the config file changes, in
 * one process that stays warm. Every run is an ordinary `lshdp run` (the same plan, store and
 * files, so its CSVs and claims are byte for byte what a fresh process writes; the manifest
 * records each run's own timings), but the modules, the compiled code and the worker threads
 * outlive it: a run that adds a ξ to a grid then costs little more than its new results
 * (docs/SPEED.md). A run that fails (a config edited into an error, say) is reported and the
 * watch goes on; an interrupted run ends the watch.
 */
import { readFileSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { InterruptedError } from '../util/errors.js';
import type { WorkerPool } from '../machinery/executor.js';
import { runExperiment, startWorkerPool, type RunOptions } from './run.js';
import { prefetchReportModules } from './report.js';

export interface WatchOptions {
  /** a run that failed (its error), reported by the caller; the watch goes on */
  onFailure: (e: unknown) => void;
  /** stops the watch (tests); the process's own signals stop the CLI */
  signal?: AbortSignal;
  /** how often the file is also checked, where change events are not delivered (default 1 s) */
  pollMs?: number;
}

/** Runs `opts` now and again on every change of its config file, until `signal` aborts or a run is interrupted. */
export async function watchExperiment(opts: RunOptions, w: WatchOptions): Promise<void> {
  const log = opts.log ?? ((line: string) => (opts.quiet ? undefined : process.stderr.write(line + '\n')));
  let pool: WorkerPool | null = null;
  try {
    for (;;) {
      // workers of their own for the watch, started again after a run that aborted them
      if (!pool?.usable) {
        await pool?.close();
        pool = startWorkerPool(opts);
      }
      const text = readText(opts.config);
      try {
        await runExperiment({ ...opts, ...(pool ? { pool } : {}) });
      } catch (e) {
        if (e instanceof InterruptedError) throw e;
        w.onFailure(e);
      }
      if (w.signal?.aborted) return;
      // while it waits, what the next run will need and a run that found its folder current
      // never loaded: the engine and the claims' (and report's) modules
      if (!opts.engine) void import('../machinery/engine.js').then((m) => m.loadRealEngine()).catch(() => undefined);
      prefetchReportModules(opts.report !== false);
      log(`watching ${opts.config} for changes (Ctrl-C to stop)`);
      if (!(await changed(opts.config, text, w))) return;
      log(`${opts.config} changed: running again`);
    }
  } finally {
    await pool?.close();
  }
}

/** The config's text, or null while it cannot be read (an editor replacing it). */
function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

/**
 * Resolves true once the file's text differs from `last` (and can be read), false when the watch
 * is stopped. Change events of its folder (editors often write a new file and rename it over the
 * old one) are checked a moment later, when the writing is done; a slow poll backs them up.
 */
function changed(path: string, last: string | null, w: WatchOptions): Promise<boolean> {
  return new Promise((done) => {
    let watcher: FSWatcher | null = null;
    let settle: NodeJS.Timeout | undefined;
    const finish = (value: boolean) => {
      clearTimeout(settle);
      clearInterval(poll);
      watcher?.close();
      w.signal?.removeEventListener('abort', stop);
      done(value);
    };
    const check = () => {
      const text = readText(path);
      if (text !== null && text !== last) finish(true);
    };
    const stop = () => finish(false);
    const poll = setInterval(check, w.pollMs ?? 1000);
    try {
      const name = basename(path);
      watcher = watch(dirname(resolve(path)), (_event, file) => {
        if (file !== null && file !== name) return;
        clearTimeout(settle);
        settle = setTimeout(check, 50);
      });
      watcher.on('error', () => watcher?.close());
    } catch {
      // no change events here: the poll alone
    }
    w.signal?.addEventListener('abort', stop);
    if (w.signal?.aborted) stop();
  });
}
