import { describe, it, expect } from 'vitest';
import { scratch, runInProc } from '../helpers/experiment.js';

/** A progress line of log mode (src/util/progress.ts): done/total, share of the work, elapsed, ETA. */
const PROGRESS_LINE = /^[\w ]+: [\d,]+\/[\d,]+ done(, \d+% of the work| \(\d+%\)), (\d+h \d\dm|\d+m \d\ds|\d+s) elapsed, eta (\d+h \d\dm|\d+m \d\ds|\d+s|unknown)$/;

describe('progress without a terminal (stderr to a pipe, as under CI, nohup or 2>log)', () => {
  it('prints the start line and plain progress lines, never a bar', async () => {
    const { dir, config } = scratch();
    const r = await runInProc(dir, ['run', config, '--out', 'r', '--threads', '2', '--no-report', '--no-cache']);
    expect(r.status, r.stderr).toBe(0);
    // no terminal control: no carriage returns, no escape sequences
    expect(r.stderr).not.toMatch(/[\r\u001b]/);
    const lines = r.stderr.trimEnd().split('\n');
    const start = lines.findIndex((l) => /^computing [\d,]+ results? in [\d,]+ cells? on \d+ threads?$/.test(l));
    expect(start, r.stderr).toBeGreaterThanOrEqual(0);
    // every line shaped like a count of work done is a complete progress line
    for (const l of lines.filter((x) => /^[\w ]+: [\d,]+\/[\d,]+ /.test(x))) expect(l).toMatch(PROGRESS_LINE);
    expect(
      lines.some((l) => /^wrote r /.test(l)),
      r.stderr,
    ).toBe(true);
  });

  it('prints nothing of it with --quiet', async () => {
    const { dir, config } = scratch();
    const r = await runInProc(dir, ['run', config, '--out', 'r', '--threads', '1', '--no-report', '--no-cache', '--quiet']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
  });
});
