/**
 * `--dry-run`'s estimate from the earlier runs of a config on this machine (src/machinery/
 * runTimes.ts): the arithmetic against hand-computed values, where the history lives (the cache
 * folder, never the results), and the words with and without one.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { earlierRun, estimateFromHistory, recordRunTime, RUN_TIMES_FILE, type RunTime } from '../../src/machinery/runTimes.js';
import { runExperiment } from '../../src/pipeline/run.js';
import { fakeEngine, FAKE_CONFIG } from '../helpers/fakeEngine.js';

const earlier: RunTime = { host: 'h', configHash: 'c', at: '2026-12-07T18:00:00.000Z', threads: 2, cells: 10, cost: 1e9, computeMs: 20_000, outputsMs: 3_000, totalMs: 24_000 };

describe('the estimate from an earlier run', () => {
  it('scales the compute stage by the work and the threads, adds the outputs and the load just measured', () => {
    // the same work on the same threads: the earlier stages again, with this load
    expect(estimateFromHistory(earlier, { cost: 1e9, cells: 10, threads: 2, loadMs: 1_000 })).toBeCloseTo(24, 10);
    // half the work: half the compute (10 s), the outputs as they were (3 s)
    expect(estimateFromHistory(earlier, { cost: 5e8, cells: 5, threads: 2, loadMs: 0 })).toBeCloseTo(13, 10);
    // one thread: 20 s × 2 threads of work on one
    expect(estimateFromHistory(earlier, { cost: 1e9, cells: 10, threads: 1, loadMs: 0 })).toBeCloseTo(43, 10);
    // one cell to do: one thread in use, whatever the threads
    expect(estimateFromHistory(earlier, { cost: 1e8, cells: 1, threads: 4, loadMs: 0 })).toBeCloseTo(4 + 3, 10);
    // nothing to compute: no outputs rewritten either
    expect(estimateFromHistory(earlier, { cost: 0, cells: 0, threads: 2, loadMs: 500 })).toBeCloseTo(0.5, 10);
  });

  it('records a run that computed, keyed by this host and the config, and reads the latest back', () => {
    const cache = mkdtempSync(join(tmpdir(), 'lshdp-times-'));
    expect(earlierRun(cache, 'c')).toBeNull();
    recordRunTime(cache, { configHash: 'c', threads: 2, cells: 0, cost: 0, computeMs: 0, outputsMs: 10, totalMs: 20 });
    expect(existsSync(join(cache, RUN_TIMES_FILE))).toBe(false);
    recordRunTime(cache, { configHash: 'c', threads: 2, cells: 3, cost: 100, computeMs: 1000, outputsMs: 10, totalMs: 1100 });
    recordRunTime(cache, { configHash: 'other', threads: 2, cells: 3, cost: 100, computeMs: 5, outputsMs: 10, totalMs: 20 });
    recordRunTime(cache, { configHash: 'c', threads: 1, cells: 3, cost: 100, computeMs: 2000, outputsMs: 10, totalMs: 2100 });
    expect(earlierRun(cache, 'c')).toMatchObject({ host: hostname(), threads: 1, computeMs: 2000 });
    expect(earlierRun(null, 'c')).toBeNull();
    // another host's record is not this machine's
    const file = join(cache, RUN_TIMES_FILE);
    const { runs } = JSON.parse(readFileSync(file, 'utf8')) as { runs: RunTime[] };
    writeFileSync(file, JSON.stringify({ runs: runs.map((r) => ({ ...r, host: 'elsewhere' })) }));
    expect(earlierRun(cache, 'c')).toBeNull();
  });
});

describe('lshdp run --dry-run', () => {
  it('says rough without history; after a run of the config, estimates from it; the history is in the cache folder only', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lshdp-times-run-'));
    const config = join(dir, 'fake.yaml');
    writeFileSync(config, FAKE_CONFIG);
    const cacheDir = join(dir, 'cache');
    const dry = async (out: string) => {
      const lines: string[] = [];
      await runExperiment({ config, out, report: false, quiet: true, cacheDir, workerUrl: null, engine: fakeEngine(), dryRun: true, log: (l) => lines.push(l) });
      return lines.find((l) => l.startsWith('estimated time:'))!;
    };
    expect(await dry(join(dir, 'a'))).toMatch(/^estimated time: about .* s on \d+ threads?: rough \(no earlier run here\) \(dry run: nothing computed or written\)$/);
    await runExperiment({ config, out: join(dir, 'a'), report: false, quiet: true, cacheDir, workerUrl: null, engine: fakeEngine(), log: () => undefined });
    expect(existsSync(join(cacheDir, RUN_TIMES_FILE))).toBe(true);
    expect(readdirSync(join(dir, 'a')).some((f) => /time/i.test(f))).toBe(false);
    expect(await dry(join(dir, 'b'))).toMatch(
      /^estimated time: about .* s on \d+ threads?, from the earlier run of this config here \(\d{4}-\d\d-\d\d \d\d:\d\d UTC: \d+ s on \d+ threads?\) \(dry run/,
    );
  });
});
