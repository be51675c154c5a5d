import { describe, it, expect } from 'vitest';
import { lshdp } from '../helpers/cli.js';

describe('lshdp --help', () => {
  it('lists every command with a one-line purpose', () => {
    const r = lshdp(['--help']);
    expect(r.status).toBe(0);
    for (const cmd of ['run', 'merge', 'plot', 'report', 'table', 'toy', 'synth', 'data']) {
      expect(r.stdout).toMatch(new RegExp(`^\\s+${cmd}\\b.*\\S`, 'm'));
    }
  });

  it('rejects an unknown command with exit code 2 and no stack trace', () => {
    const r = lshdp(['bogus']);
    expect(r.status).toBe(2);
    expect(r.stderr).toContain("unknown command 'bogus'");
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
