import { describe, it, expect } from 'vitest';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync, readdirSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runExperiment } from '../../src/pipeline/run.js';
import { smallGrid } from '../helpers/experiment.js';
import { UserError } from '../../src/util/errors.js';

const CONFIG = smallGrid('setups', 5, ['exact', 'lsh', 'lshrr', 'laplsh', 'vmf']);

describe('the trial setup cache in a run (real engine, in this thread)', () => {
  it('keeps one setup per trial cell; a grown grid from the kept setups equals the grown grid at once without them, byte for byte', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lshdp-setups-'));
    const cache = join(dir, 'cache');
    const config = join(dir, 'setups.yaml');
    const run = (out: string, cacheDir: string | null) => runExperiment({ config, out: join(dir, out), report: false, quiet: true, cacheDir, workerUrl: null, log: () => undefined });
    writeFileSync(config, CONFIG([1, 4]));
    await run('grown', cache);
    const setups = () =>
      readdirSync(cache)
        .filter((f) => f.startsWith('setup-'))
        .sort();
    // 2 trials
    expect(setups()).toHaveLength(2);
    const before = setups().map((f) => readFileSync(join(cache, f)));
    writeFileSync(config, CONFIG([1, 4, 9]));
    const grown = await run('grown', cache);
    expect(grown.computed).toBe(2 * 3);
    // nothing new to keep: the files are those of the first run
    expect(setups().map((f) => readFileSync(join(cache, f)))).toEqual(before);
    await run('once', null);
    for (const file of ['utility.csv', 'claims.json']) {
      expect(readFileSync(join(dir, 'grown', file), 'utf8'), file).toBe(readFileSync(join(dir, 'once', file), 'utf8'));
    }
  });

  it('on Jaccard, mechanisms that read the MinHash (not kept in a setup) added to a grid from kept setups give the bytes of the whole grid at once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lshdp-setups-'));
    const cache = join(dir, 'cache');
    const config = join(dir, 'setups.yaml');
    const run = (out: string, cacheDir: string | null) => runExperiment({ config, out: join(dir, out), report: false, quiet: true, cacheDir, workerUrl: null, log: () => undefined });
    const jaccard = (mechanisms: string[]) => (xi: number[]) => `${smallGrid('setups', 5, mechanisms)(xi)}metric: jaccard\n`;
    writeFileSync(config, jaccard(['exact', 'lsh', 'lshrr'])([1, 4]));
    await run('grown', cache);
    const kept = readdirSync(cache).filter((f) => f.startsWith('setup-'));
    expect(kept).toHaveLength(2);
    // the private MinHash results of the grown grid start from the kept codes, without the minima
    const grown = jaccard(['exact', 'lsh', 'lshrr', '{name: minhash-bucket, buckets: 16, label: mb16}', 'minhash-noisy'])([1, 4, 9]);
    writeFileSync(config, grown);
    expect((await run('grown', cache)).computed).toBe(2 * (3 + 3 + 1));
    await run('once', null);
    for (const file of ['utility.csv', 'claims.json']) {
      expect(readFileSync(join(dir, 'grown', file), 'utf8'), file).toBe(readFileSync(join(dir, 'once', file), 'utf8'));
    }
  });

  it('keeps the setups within LSHDP_SETUP_CACHE_MB: the least recently used of other runs go, its own stay; a bad value stops the run', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lshdp-setups-'));
    const cache = join(dir, 'cache');
    const config = join(dir, 'setups.yaml');
    writeFileSync(config, CONFIG([1, 4]));
    const lines: string[] = [];
    const run = () => runExperiment({ config, out: join(dir, 'out'), report: false, quiet: true, cacheDir: cache, workerUrl: null, log: (l) => lines.push(l) });
    const saved = process.env.LSHDP_SETUP_CACHE_MB;
    try {
      process.env.LSHDP_SETUP_CACHE_MB = 'many';
      await expect(run()).rejects.toThrow(UserError);
      await expect(run()).rejects.toThrow(/LSHDP_SETUP_CACHE_MB must be a number of megabytes >= 0, got "many"/);
      // two setups of earlier runs, used an hour and a day ago, 1 MB each, in a 1 MB budget
      process.env.LSHDP_SETUP_CACHE_MB = '1';
      mkdirSync(cache, { recursive: true });
      const old = ['d', 'e'].map((x) => join(cache, `setup-${x.repeat(40)}.bin`));
      old.forEach((p, i) => {
        writeFileSync(p, Buffer.alloc(1024 * 1024));
        const used = new Date(Date.now() - (i === 0 ? 3_600_000 : 86_400_000));
        utimesSync(p, used, used);
      });
      await run();
      const setups = readdirSync(cache).filter((f) => f.startsWith('setup-'));
      // both old ones went (the run's own two, a few KB, fit beside neither), the run's two stay
      expect(setups).toHaveLength(2);
      expect(setups.some((f) => old.some((p) => p.endsWith(f)))).toBe(false);
      expect(lines.some((l) => /removed 2 least recently used trial setups \(2 MB\) to keep them within 1 MB \(LSHDP_SETUP_CACHE_MB\)/.test(l))).toBe(true);
    } finally {
      if (saved === undefined) delete process.env.LSHDP_SETUP_CACHE_MB;
      else process.env.LSHDP_SETUP_CACHE_MB = saved;
    }
  });
});
