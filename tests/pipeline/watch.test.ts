import { describe, it, expect } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runExperiment } from '../../src/pipeline/run.js';
import { smallGrid } from '../helpers/experiment.js';
import { watchExperiment } from '../../src/pipeline/watch.js';
import { UserError } from '../../src/util/errors.js';
import { WorkerPool } from '../../src/machinery/executor.js';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../helpers/cli.js';
import { withCapturedOutput } from '../helpers/inproc.js';

const WORKER = join(ROOT, 'dist', 'machinery', 'worker.js');

const CONFIG = smallGrid('watched', 3, ['exact', 'lsh', 'lshrr', 'laplsh']);

/** Lines of a log, and a promise of the next line that matches. */
function lineLog() {
  const lines: string[] = [];
  const waiting: { re: RegExp; from: number; ok: () => void }[] = [];
  const log = (line: string) => {
    lines.push(line);
    for (const w of [...waiting]) {
      if (w.re.test(line)) {
        waiting.splice(waiting.indexOf(w), 1);
        w.ok();
      }
    }
  };
  const next = (re: RegExp) => new Promise<void>((ok) => waiting.push({ re, from: lines.length, ok }));
  return { lines, log, next };
}

describe('run --watch (in this thread)', () => {
  it('runs again on every change of the config: a grown grid equal to the grid at once, a broken edit reported and the watch going on', async () => {
    // the progress lines go to the process's stderr (log takes the informational ones): captured
    const { err } = await withCapturedOutput(() => watchThrough());
    expect(err.split('\n').filter((l) => l.startsWith('computing'))).toEqual([
      'computing 11 results in 3 cells on 1 thread',
      'computing 4 results in 2 cells on 1 thread',
      'computing 15 results in 3 cells on 1 thread',
    ]);
  }, 60_000);

  /** The watch of the test above: a grid grown, broken, fixed and saved unchanged. */
  async function watchThrough(): Promise<void> {
    const dir = mkdtempSync(join(tmpdir(), 'lshdp-watch-'));
    const config = join(dir, 'watched.yaml');
    writeFileSync(config, CONFIG([1, 4]));
    const { lines, log, next } = lineLog();
    const failures: unknown[] = [];
    const stop = new AbortController();
    const options = { config, out: join(dir, 'out'), report: false, cacheDir: join(dir, 'cache'), workerUrl: null, log };
    let watching = next(/^watching /);
    const watch = watchExperiment(options, { onFailure: (e) => failures.push(e), signal: stop.signal, pollMs: 100 });
    await watching;
    expect(
      lines.some((l) => /wrote .* \(11 results computed, 0 reused\)/.test(l)),
      lines.join('\n'),
    ).toBe(true);

    // grown by one xi: only the new results are computed
    watching = next(/^watching /);
    writeFileSync(config, CONFIG([1, 4, 9]));
    await watching;
    expect(lines.some((l) => /changed: running again/.test(l))).toBe(true);
    expect(lines.some((l) => /wrote .* \(4 results computed, 11 reused\)/.test(l))).toBe(true);
    await runExperiment({ ...options, config, out: join(dir, 'once'), cacheDir: null, log: () => undefined });
    for (const file of ['utility.csv', 'claims.json']) {
      expect(readFileSync(join(dir, 'out', file), 'utf8'), file).toBe(readFileSync(join(dir, 'once', file), 'utf8'));
    }

    // a config edited into an error: reported, and the watch goes on
    watching = next(/^watching /);
    writeFileSync(config, CONFIG([1, 4, 9]).replace('trials: 2', 'trials: two'));
    await watching;
    expect(failures).toHaveLength(1);
    expect(failures[0]).toBeInstanceOf(UserError);
    expect(String((failures[0] as Error).message)).toMatch(/trials/);

    // fixed again: the folder is current, nothing is computed
    watching = next(/^watching /);
    writeFileSync(config, CONFIG([1, 4, 9]));
    await watching;
    expect(lines.at(-2)).toMatch(/is up to date/);

    // the same text again (saved unchanged) runs nothing; stopping ends the watch
    const count = lines.length;
    writeFileSync(config, CONFIG([1, 4, 9]));
    await new Promise((ok) => setTimeout(ok, 400));
    expect(lines.length).toBe(count);
    stop.abort();
    await watch;
  }

  it.skipIf(!existsSync(WORKER))(
    'a run on a pool its caller keeps leaves it open and whole (not trimmed, not closed) for the next run',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'lshdp-watch-pool-'));
      const config = join(dir, 'watched.yaml');
      const pool = new WorkerPool(3, { workerUrl: pathToFileURL(WORKER) });
      try {
        const run = (xi: number[], out: string, p?: WorkerPool) => {
          writeFileSync(config, CONFIG(xi));
          return runExperiment({ config, out: join(dir, out), report: false, quiet: true, cacheDir: null, ...(p ? { pool: p } : { workerUrl: null }) });
        };
        // two trial cells for three workers: a pool of the run's own would be trimmed to two
        expect((await run([1, 4], 'kept', pool)).computed).toBe(11);
        expect(pool.usable).toBe(true);
        expect(pool.threads).toBe(3);
        expect((await run([1, 4, 9], 'kept', pool)).computed).toBe(4);
        expect(pool.usable).toBe(true);
        await run([1, 4, 9], 'once');
        for (const file of ['utility.csv', 'claims.json']) expect(readFileSync(join(dir, 'kept', file), 'utf8'), file).toBe(readFileSync(join(dir, 'once', file), 'utf8'));
      } finally {
        await pool.close();
      }
      expect(pool.usable).toBe(false);
    },
    60_000,
  );
});
