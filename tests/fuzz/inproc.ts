import { expect } from 'vitest';
import { main } from '../../src/cli/main.js';
import { STACK_RE } from '../helpers/cli.js';
import { withCapturedOutput } from '../helpers/inproc.js';

export interface CliResult {
  code: number;
  out: string;
  err: string;
}

/**
 * Run the CLI's entry function in-process with captured writers (no child process per case). Code
 * that still writes to process.stdout / process.stderr directly (the runner's lines) is captured too.
 */
export async function cli(args: string[]): Promise<CliResult> {
  const r = await withCapturedOutput((io) => main(['node', 'lshdp', ...args], io));
  return { code: r.value, out: r.out, err: r.err };
}

/** Lines a successful command may print on stderr besides its output: informational `lshdp: …` lines. */
const INFO_LINE = /^lshdp: (?!error|internal error)/;

/**
 * The CLI's contract on any input: never a stack trace, never a partial output; either success
 * (exit 0, a whole output: `json` parses, informational stderr lines only) or a user error (exit 2,
 * nothing on stdout, one `lshdp: error: …` line; `continuation` allows the config's indented
 * per-problem lines after it).
 */
export function expectCleanOutcome(r: CliResult, opts: { json?: boolean; continuation?: boolean } = {}): 'ok' | 'error' {
  const context = `exit ${r.code}\nstdout: ${r.out.slice(0, 300)}\nstderr: ${r.err.slice(0, 600)}`;
  expect(r.err, context).not.toMatch(STACK_RE);
  expect(r.err, context).not.toContain('internal error');
  if (r.code === 0) {
    expect(r.out === '' || r.out.endsWith('\n'), context).toBe(true);
    if (opts.json) expect(() => JSON.parse(r.out), context).not.toThrow();
    for (const line of r.err.split('\n').filter((l) => l !== '')) expect(line, context).toMatch(INFO_LINE);
    return 'ok';
  }
  expect(r.code, context).toBe(2);
  expect(r.out, context).toBe('');
  expect(r.err.endsWith('\n'), context).toBe(true);
  const lines = r.err.slice(0, -1).split('\n');
  expect(lines[0], context).toMatch(/^lshdp: error: \S/);
  if (opts.continuation) for (const l of lines.slice(1)) expect(l, context).toMatch(/^ {2}./);
  else expect(lines, context).toHaveLength(1);
  return 'error';
}

/**
 * Runs of a property: `base` scaled by FUZZ_SCALE. The default is the tier's: 1 in the full tier
 * (`npm run test:full`: the 10,000+ cases of the fuzz hunt), 0.1 in the fast tier (`npm test`: the
 * same properties and generators on a tenth of the cases); FUZZ_SCALE=10 for a long hunt.
 */
export function runs(base: number): number {
  const scale = Number(process.env.FUZZ_SCALE ?? (process.env.LSHDP_TEST_TIER === 'full' ? '1' : '0.1'));
  return Math.max(1, Math.round(base * (Number.isFinite(scale) && scale > 0 ? scale : 1)));
}
