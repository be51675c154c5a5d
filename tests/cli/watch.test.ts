import { describe, it, expect } from 'vitest';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, STACK_RE } from '../helpers/cli.js';
import { CLI_CONFIG, runIn, scratch } from '../helpers/experiment.js';

describe('lshdp run --watch', () => {
  it('keeps its worker threads between runs: a grown grid equal to the grid at once; a broken edit is one error line; Ctrl-C ends it', async () => {
    const { dir, config } = scratch();
    const child = spawn(process.execPath, [BIN, 'run', config, '--out', 'r', '--threads', '2', '--no-report', '--watch'], { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    const waiting: { count: number; ok: () => void }[] = [];
    const watchingLines = () => stderr.split('\n').filter((l) => l.startsWith('watching ')).length;
    child.stderr!.on('data', (d) => {
      stderr += String(d);
      for (const w of [...waiting]) if (watchingLines() >= w.count) waiting.splice(waiting.indexOf(w), 1) && w.ok();
    });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((ok) => child.on('exit', (code, signal) => ok({ code, signal })));
    const watching = (count: number) => Promise.race([new Promise<void>((ok) => waiting.push({ count, ok })), exited.then(() => Promise.reject(new Error(`the watch ended: ${stderr}`)))]);
    try {
      await watching(1);
      expect(stderr).toMatch(/computing \d+ results in 14 cells on 2 threads/);
      const grown = CLI_CONFIG.replace('xi: [0, 2, 10]', 'xi: [0, 2, 10, 20]');
      writeFileSync(join(dir, config), grown);
      await watching(2);
      expect(stderr).toMatch(/config changed since the last run: xi \+\[20\]/);
      writeFileSync(join(dir, config), grown.replace('trials: 3', 'trials: [3'));
      await watching(3);
      const errors = stderr.split('\n').filter((l) => l.startsWith('lshdp: error:'));
      expect(errors).toHaveLength(1);
      expect(errors[0]).toMatch(/tiny\.yaml/);
      expect(stderr).not.toMatch(STACK_RE);
      // the grid at once, in a process of its own, without the caches
      writeFileSync(join(dir, 'once.yaml'), grown);
      expect(runIn(dir, ['run', 'once.yaml', '--out', 'once', '--threads', '2', '--no-report', '--no-cache', '--force']).status).toBe(0);
      for (const file of ['utility.csv', 'claims.json']) expect(readFileSync(join(dir, 'r', file), 'utf8'), file).toBe(readFileSync(join(dir, 'once', file), 'utf8'));
    } finally {
      child.kill('SIGINT');
    }
    const end = await exited;
    // Ctrl-C while it waits: the process ends by the signal, as other watching tools do
    expect(end.signal === 'SIGINT' || end.code === 130, JSON.stringify(end)).toBe(true);
  }, 90_000);

  it('refuses --watch with --dry-run or --shard, in one line', () => {
    const { dir, config } = scratch();
    for (const [flag, value] of [['--dry-run'], ['--shard', '1/2']] as string[][]) {
      const r = runIn(dir, ['run', config, '--watch', flag!, ...(value ? [value] : [])]);
      expect(r.status, r.stderr).toBe(2);
      expect(r.stderr.trim()).toBe(`lshdp: error: --watch: not with ${flag}`);
    }
  });
});
