import { afterEach, describe, it, expect } from 'vitest';
import type { Command } from 'commander';
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

  it('no option states two defaults (run --cache-dir: data/cache; the setup cache’s 2048 MB is no default of the flag)', async () => {
    const commands = (c: Command): Command[] => [c, ...c.commands.flatMap(commands)];
    let options = 0;
    for (const cmd of commands(await buildProgram())) {
      const help = cmd.createHelp();
      for (const o of cmd.options) {
        options++;
        expect(help.optionDescription(o).match(/\bdefault\b/gi)?.length ?? 0, `${cmd.name()} ${o.flags}: ${help.optionDescription(o)}`).toBeLessThanOrEqual(1);
      }
    }
    expect(options).toBeGreaterThan(100);
  });
});

describe('run --help, its paragraphs after the options', () => {
  const stdout = process.stdout as { isTTY?: boolean; columns?: number };
  const saved = { isTTY: Object.getOwnPropertyDescriptor(process.stdout, 'isTTY'), columns: Object.getOwnPropertyDescriptor(process.stdout, 'columns') };
  afterEach(() => {
    for (const key of ['isTTY', 'columns'] as const) {
      const d = saved[key];
      if (d) Object.defineProperty(process.stdout, key, d);
      else delete stdout[key];
    }
  });
  /** The lines of run --help from the Recommendations paragraph on. */
  const paragraphs = async (): Promise<string[]> => {
    const text = (await lshdpIn(['run', '--help'])).stdout;
    return text
      .slice(text.indexOf('\nRecommendations:') + 1)
      .trimEnd()
      .split('\n');
  };
  const terminal = (columns: number) => {
    Object.defineProperty(process.stdout, 'isTTY', { value: true, configurable: true, writable: true });
    Object.defineProperty(process.stdout, 'columns', { value: columns, configurable: true, writable: true });
  };

  it('wrap at 80 columns when stdout is no terminal, as commander wraps the options', async () => {
    Object.defineProperty(process.stdout, 'isTTY', { value: undefined, configurable: true, writable: true });
    const lines = await paragraphs();
    expect(lines[0]).toMatch(/^Recommendations: /);
    expect(lines.some((l) => l.startsWith('Linkage attack'))).toBe(true);
    expect(Math.max(...lines.map((l) => l.length))).toBeLessThanOrEqual(80);
    // filled, not broken early: most lines reach past 70 columns
    expect(lines.filter((l) => l.length > 70).length).toBeGreaterThan(lines.length / 2);
  });

  it('wrap at the terminal’s width', async () => {
    for (const columns of [60, 100, 160]) {
      terminal(columns);
      const lines = await paragraphs();
      expect(Math.max(...lines.map((l) => l.length)), `${columns} columns`).toBeLessThanOrEqual(columns);
      expect(Math.max(...lines.map((l) => l.length)), `${columns} columns`).toBeGreaterThan(columns - 15);
    }
  });
});
