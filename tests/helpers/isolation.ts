/**
 * Run before every test file (vitest.config.ts setupFiles). The files of a worker share one module
 * registry (isolate: false), so a plugin one file registers (a config with a `module:` entry
 * parsed in this process) would still be known to the next file: after each file, the mechanisms
 * it registered are forgotten, as a fresh process would have them.
 *
 * And a test may not let the CLI's messages reach the terminal of `npm test`: a line
 * `lshdp: error: …` (or any `lshdp: …` line) written to the process's stdout or stderr, or
 * printed with console, during a test fails that test. A test of a bad input captures the message
 * (tests/helpers/inproc.ts, lshdp() in a child) and asserts on it; printed, it buried the suite's
 * own output in ~50 error lines of passing tests.
 */
import { afterAll, afterEach } from 'vitest';
import { registeredKeys, unregisterMechanism } from '../../src/mechanisms/registry.js';

const before = new Set(registeredKeys());
afterAll(() => {
  for (const key of registeredKeys()) if (!before.has(key)) unregisterMechanism(key);
});

/** A CLI message: `lshdp: error: …` anywhere in a line, or a line that starts `lshdp: `. */
const CLI_MESSAGE = /lshdp: error:|^lshdp: /m;

interface Leaks {
  seen: string[];
}
const KEY = Symbol.for('lshdp.tests.uncapturedCliOutput');
const store = globalThis as { [KEY]?: Leaks };

/** Wrap the process's writers and console once per worker (setup files run once per test file). */
function watchOutput(): Leaks {
  const leaks: Leaks = { seen: [] };
  const note = (text: string): void => {
    if (CLI_MESSAGE.test(text)) leaks.seen.push(text.trimEnd());
  };
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write;
    stream.write = function (this: NodeJS.WriteStream, chunk: unknown, ...rest: unknown[]) {
      note(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
      return (write as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
    } as typeof stream.write;
  }
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    const print = console[method];
    console[method] = (...args: unknown[]) => {
      note(args.map(String).join(' '));
      print.apply(console, args);
    };
  }
  return leaks;
}

store[KEY] ??= watchOutput();
const leaks = store[KEY];
afterEach(() => {
  const seen = leaks.seen.splice(0);
  if (seen.length > 0) throw new Error(`the test let CLI output reach the terminal; capture it (and assert on it): ${seen.join('\n').slice(0, 2000)}`);
});
