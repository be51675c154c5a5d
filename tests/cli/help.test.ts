import { describe, it, expect } from 'vitest';
import { lshdpIn } from '../helpers/inproc.js';

describe('lshdp --help', () => {
  it('lists every command with a one-line purpose', async () => {
    const r = await lshdpIn(['--help']);
    expect(r.status).toBe(0);
    for (const cmd of ['run', 'merge', 'plot', 'report', 'table', 'toy', 'synth', 'data']) {
      expect(r.stdout).toMatch(new RegExp(`^\\s+${cmd}\\b.*\\S`, 'm'));
    }
  });

  it('rejects an unknown command with exit code 2 and no stack trace', async () => {
    const r = await lshdpIn(['bogus']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("unknown command 'bogus'");
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
