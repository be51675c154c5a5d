/**
 * Errors the user can fix (bad file, bad config, bad flag) are `UserError`s: the CLI prints their
 * one-line message and exits with code 2, without a stack trace (`--debug` shows it).
 * Anything else is a bug in lshdp and exits with code 1.
 */
export class UserError extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode = 2) {
    super(message);
    this.name = 'UserError';
    this.exitCode = exitCode;
  }
}

/** `file:line: problem` (line omitted when unknown), the shape every data error uses. */
export function fileError(file: string, line: number | undefined, problem: string): UserError {
  return new UserError(line === undefined ? `${file}: ${problem}` : `${file}:${line}: ${problem}`);
}

/** Thrown when the run is interrupted by a signal; the CLI exits 130 (SIGINT) or 143 (SIGTERM). */
export class InterruptedError extends Error {
  readonly signal: NodeJS.Signals;
  constructor(signal: NodeJS.Signals, message?: string) {
    super(message ?? `interrupted by ${signal}`);
    this.name = 'InterruptedError';
    this.signal = signal;
  }
}

/**
 * A command's answer that is not success and not a mistake, e.g. `lshdp compare` finding that two
 * runs differ: the CLI prints `lshdp: <message>` (no "error") and exits with `exitCode`.
 */
export class ExitStatus extends Error {
  readonly exitCode: number;
  constructor(message: string, exitCode: number) {
    super(message);
    this.name = 'ExitStatus';
    this.exitCode = exitCode;
  }
}

/**
 * `e` with the path it concerns: Node's write(2) errors (ENOSPC, EDQUOT, EIO…) carry no path, so a
 * caller that knows which file it was writing adds it (a path already there is kept). Returns `e`.
 */
export function withPath(e: unknown, path: string): unknown {
  const err = e as NodeJS.ErrnoException;
  if (err && typeof err === 'object' && typeof err.code === 'string' && !err.path) err.path = path;
  return e;
}

export function isUserError(e: unknown): e is UserError {
  return e instanceof UserError;
}
