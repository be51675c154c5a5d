import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './cli.js';

/** What a CLI call gives back: the fields of spawnSync's answer that the tests read. */
export interface CliRun {
  status: number;
  stdout: string;
  stderr: string;
}

type Main = (argv: string[], io?: { out: (s: string) => void; err: (s: string) => void }) => Promise<number>;
let loaded: Promise<Main> | undefined;
/** The built CLI's entry (dist/, as `bin/lshdp` runs it: worker threads included). */
const builtMain = (): Promise<Main> => (loaded ??= import(/* @vite-ignore */ pathToFileURL(join(ROOT, 'dist', 'cli', 'main.js')).href).then((m: { main: Main }) => m.main));

let queue: Promise<unknown> = Promise.resolve();

/**
 * Run the built CLI in this process, as `lshdp(args, { cwd, env })` runs it in a child, without
 * paying Node's start-up per call: the working folder and environment are set for the call and put
 * back after, and everything written to stdout/stderr is captured. Calls are serialized. Not for
 * commands that read stdin, load plugins (their registry is process-wide) or are sent signals:
 * those keep a child process (tests/helpers/cli.ts).
 */
export function lshdpIn(args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<CliRun> {
  const call = queue.then(() => runOnce(args, opts));
  queue = call.catch(() => undefined);
  return call;
}

/**
 * Run `body` with everything written to stdout and stderr captured (the CLI's writers and code
 * that writes to process.stdout / process.stderr directly); the writers are put back after.
 */
export async function withCapturedOutput<T>(body: (io: { out: (s: string) => void; err: (s: string) => void }) => Promise<T>): Promise<{ value: T; out: string; err: string }> {
  let out = '';
  let err = '';
  const writes = { out: process.stdout.write, err: process.stderr.write };
  const capture = (append: (s: string) => void) =>
    ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      append(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      const done = rest.find((r) => typeof r === 'function') as (() => void) | undefined;
      done?.();
      return true;
    }) as typeof process.stdout.write;
  const io = {
    out: (s: string): void => {
      out += s;
    },
    err: (s: string): void => {
      err += s;
    },
  };
  process.stdout.write = capture(io.out);
  process.stderr.write = capture(io.err);
  try {
    const value = await body(io);
    return { value, out, err };
  } finally {
    process.stdout.write = writes.out;
    process.stderr.write = writes.err;
  }
}

async function runOnce(args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv }): Promise<CliRun> {
  const main = await builtMain();
  const cwd = process.cwd();
  const saved = new Map<string, string | undefined>();
  for (const [k, v] of Object.entries(opts.env ?? {})) {
    saved.set(k, process.env[k]);
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  try {
    process.chdir(opts.cwd ?? ROOT);
    const r = await withCapturedOutput((io) => main(['node', 'lshdp', ...args], io));
    return { status: r.value, stdout: r.out, stderr: r.err };
  } finally {
    process.chdir(cwd);
    for (const [k, v] of saved) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  }
}
