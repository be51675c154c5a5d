/**
 * How the CLI reports a failed command: one line for a user's error or a file-system problem the
 * user can fix, "internal error" for a bug, the stack only with --debug.
 */
import { ExitStatus, isUserError } from '../util/errors.js';
import { describeFsError } from '../util/fsProblems.js';

/**
 * What the CLI prints for a command that failed, and its exit code: one line for a user's error or
 * a file-system problem (2, or the error's own code), "internal error" for a bug (1); the stack
 * only with --debug. (`run --watch` reports a failed run the same way and goes on watching.)
 */
export function describeFailure(e: unknown, debug: boolean): { text: string; code: number } {
  if (e instanceof ExitStatus) return { text: `lshdp: ${e.message}\n`, code: e.exitCode };
  if (isUserError(e)) return { text: `lshdp: error: ${e.message}\n` + (debug ? `${e.stack}\n` : ''), code: e.exitCode };
  const fsMessage = describeFsError(e);
  if (fsMessage) return { text: `lshdp: error: ${fsMessage}\n` + (debug ? `${(e as Error).stack}\n` : ''), code: 2 };
  const err = e as Error;
  const text = `lshdp: internal error: ${err?.message ?? String(e)}\n` + (debug ? `${err?.stack}\n` : 'lshdp: (this is a bug; run again with --debug for the stack trace)\n');
  return { text, code: 1 };
}
