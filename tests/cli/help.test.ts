import { describe, it, expect } from 'vitest';
import { lshdpIn } from '../helpers/inproc.js';
import { buildProgram } from '../../src/cli/main.js';
import { commandTree } from '../../src/cli/completion.js';

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

  it('every command’s help states defaults one way: (default: VALUE), the value as typed, never quoted', async () => {
    const paths = commandTree(await buildProgram()).map((c) => c.path);
    expect(paths.length).toBeGreaterThan(20);
    let defaults = 0;
    for (const path of paths) {
      const r = await lshdpIn([...path, '--help']);
      expect(r.status, path.join(' ')).toBe(0);
      // help wraps its lines: read it as one line
      const text = r.stdout.replace(/\s+/g, ' ');
      for (const m of text.matchAll(/\bdefault\b.{0,30}/gi)) {
        defaults++;
        expect(m[0], `lshdp ${path.join(' ')} --help`).toMatch(/^default: [^"'\s]/);
      }
    }
    // commander's declared defaults (--pairs 3, --cache-dir data/cache, --format md) are among them
    expect(defaults).toBeGreaterThan(40);
    const audit = (await lshdpIn(['audit', '--help'])).stdout.replace(/\s+/g, ' ');
    expect(audit).toContain('(default: 3)');
    const inspect = (await lshdpIn(['data', 'inspect', '--help'])).stdout.replace(/\s+/g, ' ');
    expect(inspect).toContain('(default: data/cache)');
  });
});
