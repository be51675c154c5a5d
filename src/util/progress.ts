import cliProgress from 'cli-progress';

/** A progress sink the long stages report to; the CLI gives a cli-progress bar or a silent one. */
export interface Progress {
  start(label: string, total: number): void;
  increment(by?: number): void;
  update(value: number): void;
  stop(): void;
}

export const silentProgress: Progress = {
  start() {},
  increment() {},
  update() {},
  stop() {},
};

/** A bar on stderr; silent when `quiet` or when stderr is not a terminal (CI logs stay clean). */
export function createProgress(opts: { quiet?: boolean } = {}): Progress {
  if (opts.quiet || !process.stderr.isTTY) return silentProgress;
  let bar: cliProgress.SingleBar | null = null;
  return {
    start(label, total) {
      bar?.stop();
      bar = new cliProgress.SingleBar(
        { format: `${label.padEnd(28).slice(0, 28)} [{bar}] {percentage}% {value}/{total} eta {eta_formatted}`, stream: process.stderr, hideCursor: true },
        cliProgress.Presets.shades_classic,
      );
      bar.start(Math.max(1, total), 0);
    },
    increment(by = 1) {
      bar?.increment(by);
    },
    update(value) {
      bar?.update(value);
    },
    stop() {
      bar?.stop();
      bar = null;
    },
  };
}
