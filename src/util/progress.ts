import { createRequire } from 'node:module';
import type cliProgressTypes from 'cli-progress';

// cli-progress is loaded when a bar is first drawn, so commands that draw none start faster.
const require = createRequire(import.meta.url);

/** What a stage may say about itself when it starts. */
export interface ProgressStartOptions {
  /**
   * The estimated cost of all `total` units together, in any unit (e.g. the grid's cost model).
   * With it, the percentage and the ETA follow the cost done rather than the count, so the ETA
   * does not jump between units of very different cost. Without it every unit costs 1.
   */
  totalCost?: number;
  /**
   * A line to print when the stage starts, e.g. `computing 1,260 results in 62 cells on 2 threads`.
   * Without it, log mode stays silent for a stage's first `intervalMs` (quick stages such as
   * reading a small file leave no trace in a log).
   */
  startLine?: string;
}

/**
 * A progress sink the long stages report to; the CLI gives a bar (terminal), log lines (no
 * terminal) or nothing (quiet).
 *
 * Usage: `start(label, total, { totalCost })`, then `increment(by, cost)` as units finish (`cost`
 * = their estimated cost; omitted, `by` × the mean unit cost), then `stop()`; the caller prints
 * its own summary after `stop()`.
 */
export interface Progress {
  start(label: string, total: number, opts?: ProgressStartOptions): void;
  /** `by` more units (default 1) are done, together costing `cost`. */
  increment(by?: number, cost?: number): void;
  /** `value` units are done in all, costing `cost` in all. */
  update(value: number, cost?: number): void;
  stop(): void;
}

export const silentProgress: Progress = {
  start() {},
  increment() {},
  update() {},
  stop() {},
};

export interface ProgressOptions {
  /** nothing at all */
  quiet?: boolean;
  /** a bar (true) or log lines (false); default: whether stderr is a terminal */
  isTTY?: boolean;
  /** where lines go; default stderr */
  write?: (text: string) => void;
  /** the clock, in ms; default Date.now */
  now?: () => number;
  /** log mode: a line at least this often while work goes on (default 5,000 ms) ... */
  intervalMs?: number;
  /** ... and one whenever another 10% of the work is done, but not closer than this (default 1,000 ms) */
  minGapMs?: number;
  /**
   * log mode: runs `tick` every `ms` while a stage is running, so a line appears even while no
   * unit finishes (one long cell); returns a cancel function. Default: an unref'd setInterval.
   */
  schedule?: (tick: () => void, ms: number) => () => void;
}

import { formatCount } from './format.js';

export { formatCount };

/** `65_000` → `1m 05s`; `3_725_000` → `1h 02m`; under a minute `42s`. */
export function formatDuration(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m}m ${String(s % 60).padStart(2, '0')}s`;
  const h = Math.floor(m / 60);
  return `${h}h ${String(m % 60).padStart(2, '0')}m`;
}

/**
 * The ETA from the cost model: the time so far scaled by the cost still to do over the cost done
 * (null before anything is done). Assumes the time per unit of cost stays what it was so far.
 */
export function estimateRemainingMs(elapsedMs: number, doneCost: number, totalCost: number): number | null {
  if (!(doneCost > 0)) return null;
  return elapsedMs * (Math.max(0, totalCost - doneCost) / doneCost);
}

/** Count and cost of one stage; shared by the bar and the log lines. */
class Stage {
  done = 0;
  doneCost = 0;
  readonly total: number;
  readonly totalCost: number;
  readonly costed: boolean;
  constructor(
    readonly label: string,
    total: number,
    totalCost: number | undefined,
    readonly startedAt: number,
  ) {
    this.total = Math.max(0, total);
    this.costed = totalCost !== undefined && totalCost > 0;
    this.totalCost = this.costed ? totalCost! : this.total;
  }
  /** the cost of `by` units when the caller gives none: the mean unit cost */
  meanCost(by: number): number {
    return this.total > 0 ? (by * this.totalCost) / this.total : by;
  }
  add(by: number, cost: number | undefined): void {
    this.done += by;
    this.doneCost += cost ?? this.meanCost(by);
  }
  set(value: number, cost: number | undefined): void {
    this.done = value;
    this.doneCost = cost ?? this.meanCost(value);
  }
  /** share of the work done, by cost, in [0, 1] */
  fraction(): number {
    return this.totalCost > 0 ? Math.min(1, this.doneCost / this.totalCost) : 0;
  }
  eta(now: number): string {
    const ms = estimateRemainingMs(now - this.startedAt, this.doneCost, this.totalCost);
    return ms === null ? 'unknown' : formatDuration(ms);
  }
}

/**
 * Log mode: the start line, then a line every `intervalMs` or each further 10%, no bar. A stage
 * started without a start line prints nothing during its first `intervalMs`.
 */
function logProgress(o: Required<Pick<ProgressOptions, 'write' | 'now' | 'intervalMs' | 'minGapMs' | 'schedule'>>): Progress {
  let stage: Stage | null = null;
  let lastLineAt = 0;
  let lastDecile = 0;
  let announced = false;
  let cancel: (() => void) | null = null;

  const line = (s: Stage, at: number): void => {
    const pct = Math.floor(s.fraction() * 100);
    const share = s.costed ? `, ${pct}% of the work` : ` (${pct}%)`;
    o.write(`${s.label}: ${formatCount(s.done)}/${formatCount(s.total)} done${share}, ${formatDuration(at - s.startedAt)} elapsed, eta ${s.eta(at)}\n`);
    lastLineAt = at;
  };
  const maybeLine = (): void => {
    const s = stage;
    if (!s) return;
    const at = o.now();
    const decile = Math.floor(s.fraction() * 10);
    if (s.doneCost >= s.totalCost && s.done >= s.total) return; // finished: the caller's summary follows
    if (!announced && at - s.startedAt < o.intervalMs) return;
    if (at - lastLineAt >= o.intervalMs || (decile > lastDecile && at - lastLineAt >= o.minGapMs)) {
      line(s, at);
      lastDecile = decile;
    }
  };
  const stop = (): void => {
    cancel?.();
    cancel = null;
    stage = null;
  };
  return {
    start(label, total, opts = {}) {
      stop();
      const at = o.now();
      stage = new Stage(label, total, opts.totalCost, at);
      lastLineAt = at;
      lastDecile = 0;
      announced = opts.startLine !== undefined;
      if (announced) o.write(opts.startLine + '\n');
      cancel = o.schedule(maybeLine, o.intervalMs);
    },
    increment(by = 1, cost) {
      stage?.add(by, cost);
      maybeLine();
    },
    update(value, cost) {
      stage?.set(value, cost);
      maybeLine();
    },
    stop,
  };
}

/** Terminal mode: a cli-progress bar whose percentage and ETA follow the cost. */
function barProgress(o: { write: (text: string) => void; now: () => number }): Progress {
  let bar: cliProgressTypes.SingleBar | null = null;
  let stage: Stage | null = null;
  const payload = (s: Stage) => ({ done: formatCount(s.done), count: formatCount(s.total), eta_cost: s.eta(o.now()) });
  const show = (): void => {
    if (bar && stage) bar.update(stage.doneCost, payload(stage));
  };
  const stop = (): void => {
    bar?.stop();
    bar = null;
    stage = null;
  };
  return {
    start(label, total, opts = {}) {
      stop();
      if (opts.startLine) o.write(opts.startLine + '\n');
      stage = new Stage(label, total, opts.totalCost, o.now());
      const cliProgress = require('cli-progress') as typeof cliProgressTypes;
      bar = new cliProgress.SingleBar(
        { format: `${label.padEnd(28).slice(0, 28)} [{bar}] {percentage}% {done}/{count} eta {eta_cost}`, stream: process.stderr, hideCursor: true },
        cliProgress.Presets.shades_classic,
      );
      bar.start(Math.max(Number.MIN_VALUE, stage.totalCost), 0, payload(stage));
    },
    increment(by = 1, cost) {
      stage?.add(by, cost);
      show();
    },
    update(value, cost) {
      stage?.set(value, cost);
      show();
    },
    stop,
  };
}

function everyMs(tick: () => void, ms: number): () => void {
  const t = setInterval(tick, ms);
  t.unref();
  return () => clearInterval(t);
}

/**
 * Progress on stderr: nothing when `quiet`; a bar on a terminal; otherwise (CI, nohup, `2>log`)
 * plain lines: the start line, then one every few seconds or each further 10% of the work with
 * done/total and an ETA from the cost model, and no final line (the caller prints the summary).
 */
export function createProgress(opts: ProgressOptions = {}): Progress {
  if (opts.quiet) return silentProgress;
  const write = opts.write ?? ((text: string) => void process.stderr.write(text));
  const now = opts.now ?? Date.now;
  if (opts.isTTY ?? process.stderr.isTTY === true) return barProgress({ write, now });
  return logProgress({ write, now, intervalMs: opts.intervalMs ?? 5000, minGapMs: opts.minGapMs ?? 1000, schedule: opts.schedule ?? everyMs });
}
