import { describe, it, expect } from 'vitest';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, STACK_RE } from '../helpers/cli.js';
import { scratch } from '../helpers/experiment.js';

/** The CLI in `dir`, killed with SIGKILL after 60 s: a run spinning in a recursive mkdir ignores SIGTERM. */
function runIn(dir: string, args: string[]) {
  return spawnSync(process.execPath, [BIN, ...args], { cwd: dir, encoding: 'utf8', timeout: 60_000, killSignal: 'SIGKILL' });
}

const hasProc = existsSync('/proc/self/stat');

/** One `lshdp: error:` line, exit 2, no stack trace. */
function oneLineError(r: ReturnType<typeof runIn>, text: string): void {
  expect(r.signal, 'the process had to be killed: it hung').toBeNull();
  expect(r.status).toBe(2);
  expect(r.stderr).toBe(`lshdp: error: ${text}\n`);
  expect(r.stderr).not.toMatch(STACK_RE);
}

describe('unwritable results and cache folders fail at once, before any work', () => {
  it.skipIf(!hasProc)('--out /proc/foo (it used to spin at 100% CPU and ignore SIGTERM)', () => {
    const { dir, config } = scratch();
    const r = runIn(dir, ['run', config, '--out', '/proc/foo', '--threads', '1', '--no-report']);
    oneLineError(r, '--out /proc/foo: cannot create the folder: /proc does not accept new files or folders');
    // nothing computed: no data generated, no cache written
    expect(readdirSync(dir)).toEqual([config]);
  });

  it('--out below a file', () => {
    const { dir, config } = scratch();
    writeFileSync(join(dir, 'file'), 'x');
    const r = runIn(dir, ['run', config, '--out', 'file/r', '--threads', '1', '--no-report']);
    oneLineError(r, `--out file/r: ${join(realpathSync(dir), 'file')} is a file, not a folder`);
    expect(readdirSync(dir).sort()).toEqual(['file', config].sort());
  });

  it.skipIf(!hasProc)('--cache-dir /proc/x', () => {
    const { dir, config } = scratch();
    const r = runIn(dir, ['run', config, '--out', 'r', '--cache-dir', '/proc/x', '--threads', '1', '--no-report']);
    oneLineError(r, '--cache-dir /proc/x: cannot create the folder: /proc does not accept new files or folders');
    expect(existsSync(join(dir, 'r', 'cells'))).toBe(false);
    expect(existsSync(join(dir, 'data'))).toBe(false);
  });
});
