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
  return current.run(io, fn);
}
