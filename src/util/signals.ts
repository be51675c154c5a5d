/**
 * SIGINT and SIGTERM during a long command: each phase says what a signal means for it (abort the
 * workers and keep the finished cells, or exit at once while nothing is written yet), and the
 * handlers are removed when the command ends.
 */
export class SignalGuard {
  signal: NodeJS.Signals | null = null;
  private onAbort: ((sig: NodeJS.Signals) => void) | null = null;
  private readonly handlers: [NodeJS.Signals, () => void][] = [];
  constructor() {
    for (const sig of ['SIGINT', 'SIGTERM'] as const) {
      const h = () => {
        if (this.signal) return;
        this.signal = sig;
        this.onAbort?.(sig);
      };
      process.on(sig, h);
      this.handlers.push([sig, h]);
    }
  }
  whenSignalled(fn: (sig: NodeJS.Signals) => void): void {
    this.onAbort = fn;
  }
  dispose(): void {
    for (const [sig, h] of this.handlers) process.off(sig, h);
  }
}

/** The exit status of a command stopped by a signal (130 for SIGINT, 143 for SIGTERM). */
export function signalExitCode(sig: NodeJS.Signals): number {
  return sig === 'SIGINT' ? 130 : 143;
}
