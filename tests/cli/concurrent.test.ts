import { describe, it, expect } from 'vitest';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, STACK_RE } from '../helpers/cli.js';
import { scratch, runIn } from '../helpers/experiment.js';

const LOCK = '.lshdp.lock';

/**
 * Start `lshdp run` in the background, held by the internal hook once it takes its lock (so the
 * test does not depend on the machine's speed: the run cannot finish before it is killed);
 * `locked` resolves once the lock file exists.
 */
function startHeldRun(dir: string, args: string[]) {
  const child = spawn(process.execPath, [BIN, ...args], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, LSHDP_HOLD_AFTER_LOCK: '1' } });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr += String(d)));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((ok) => child.on('exit', (code, signal) => ok({ code, signal })));
  const locked = new Promise<void>((ok, fail) => {
    const timer = setInterval(() => {
      if (existsSync(join(dir, 'r', LOCK))) {
        clearInterval(timer);
        ok();
      }
    }, 5);
    void exited.then(() => {
      clearInterval(timer);
      fail(new Error(`the first run ended before taking the lock: ${stderr}`));
    });
  });
  return { child, locked, exited, stderr: () => stderr };
}

describe('one results folder, one run at a time', () => {
  it('refuses a second run on the same folder with one line naming the first; takes over after SIGKILL', async () => {
    const { dir, config } = scratch();
    const args = ['run', config, '--out', 'r', '--threads', '1', '--no-report', '--no-cache'];
    const first = startHeldRun(dir, args);
    await first.locked;
    const second = runIn(dir, args);
    const alive = first.child.exitCode === null;
    first.child.kill('SIGKILL');
    const end = await first.exited;
    expect(alive, 'the held run ended by itself').toBe(true);
    expect(end.signal).toBe('SIGKILL');
    expect(second.status).toBe(2);
    expect(second.stderr).toMatch(
      new RegExp(
        `^lshdp: error: r is in use by another lshdp process \\(pid ${first.child.pid}: lshdp run ${config.replace('.', '\\.')}, started [^)]+\\); wait for it to finish or use another --out\\n$`,
      ),
    );
    expect(second.stderr).not.toMatch(STACK_RE);
    // the killed run's lock is left behind, stale: the next run takes it over without a word about it
    expect(JSON.parse(readFileSync(join(dir, 'r', LOCK), 'utf8')).pid).toBe(first.child.pid);
    const third = runIn(dir, args);
    expect(third.status, third.stderr).toBe(0);
    expect(third.stderr).not.toMatch(/lock|in use/);
    // released at the end
    expect(existsSync(join(dir, 'r', LOCK))).toBe(false);
  });
});
