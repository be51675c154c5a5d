import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Where a command's output goes. The CLI writes to the process's stdout/stderr; tests run `main()`
 * in-process with writers that capture the text (no child process per case).
 */
export interface CliIo {
  out(text: string): void;
  err(text: string): void;
}

export const processIo: CliIo = {
  out: (text) => void process.stdout.write(text),
  err: (text) => void process.stderr.write(text),
};

const current = new AsyncLocalStorage<CliIo>();

/** The writers of the command being run (the process's own outside `main`). */
export function cliIo(): CliIo {
  return current.getStore() ?? processIo;
}

/** Run `fn` with `io` as the writers every command of this call chain uses. */
export function withCliIo<T>(io: CliIo, fn: () => Promise<T>): Promise<T> {
  // the process's own writers are cliIo's default: no store, so no async context is tracked (a
  // store switches on Node's promise hooks, a cost on every promise, start-up's imports included)
  if (io === processIo && current.getStore() === undefined) return fn();
  return current.run(io, fn);
}
