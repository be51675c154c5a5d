import { describe, it, expect } from 'vitest';
import { existsSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { loadDataset, readInteractions } from '../../src/data/load.js';
import { UserError } from '../../src/util/errors.js';
import type { DatasetSpec } from '../../src/data/spec.js';

const scratch = () => mkdtempSync(join(tmpdir(), 'lshdp-synthloc-'));
const spec: DatasetSpec = { name: 's', format: 'synthetic', preset: 'small', users: 100, items: 200, ratings: 2000, seed: 5 };

/** Run `fn` with os.tmpdir() pointing at a fresh folder, and return that folder. */
async function withTmpdir(fn: () => Promise<unknown>): Promise<string> {
  const dir = scratch();
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = dir;
  try {
    await fn();
  } finally {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  }
  return dir;
}

describe('where generated synthetic data goes', () => {
  it('under <cacheDir>/synth, generated once and reused', async () => {
    const cacheDir = join(scratch(), 'cache');
    const a = await loadDataset(spec, [50], { cacheDir });
    const folders = readdirSync(join(cacheDir, 'synth'));
    expect(folders).toHaveLength(1);
    const ratings = join(cacheDir, 'synth', folders[0]!, 'ratings.csv');
    const mtime = statSync(ratings).mtimeMs;
    const b = await loadDataset(spec, [50, 60], { cacheDir });
    expect(statSync(ratings).mtimeMs).toBe(mtime);
    expect(b.summary.inputs).toEqual(a.summary.inputs);
    // the summary names generated input by its options, not by where the cache is
    expect(a.summary.inputs.map((i) => i.path)).toEqual([`synthetic:${folders[0]}/ratings.csv`]);
  });

  it('with the cache disabled, in a temporary folder that is gone afterwards; same input and summary', async () => {
    const cacheDir = join(scratch(), 'cache');
    const cached = await loadDataset(spec, [50], { cacheDir });
    let uncached: Awaited<ReturnType<typeof loadDataset>> | undefined;
    // while generating, the files are in a temporary folder under os.tmpdir()
    const during: string[] = [];
    const progress = { start: () => void during.push(...readdirSync(process.env.TMPDIR!)), increment() {}, update() {}, stop() {} };
    const tmp = await withTmpdir(async () => {
      uncached = await loadDataset(spec, [50], { cacheDir: null, progress });
    });
    expect(during[0]).toMatch(/^lshdp-synth-/);
    expect(readdirSync(tmp)).toEqual([]);
    expect(uncached!.summary).toEqual(cached.summary);
    expect(Array.from(uncached!.vectors.get(50)!.colIdx)).toEqual(Array.from(cached.vectors.get(50)!.colIdx));
    // readInteractions too
    const tmp2 = await withTmpdir(async () => {
      const inter = await readInteractions(spec, { cacheDir: null });
      expect(inter.userIds).toHaveLength(100);
    });
    expect(readdirSync(tmp2)).toEqual([]);
  });

  it('an explicit synthDir still wins', async () => {
    const dir = scratch();
    await loadDataset(spec, [50], { cacheDir: null, synthDir: join(dir, 'gen') });
    expect(readdirSync(join(dir, 'gen'))).toHaveLength(1);
    expect(existsSync(join(dir, 'cache'))).toBe(false);
  });
});

describe('a missing input names its absolute path', () => {
  it('in loadDataset and in the readers', async () => {
    const rel = join('no-such-folder-lshdp', 'ratings.csv');
    await expect(loadDataset({ name: 'm', format: 'movielens-csv', path: rel }, [5], { cacheDir: null })).rejects.toThrow(new UserError(`${resolve(rel)}: no such file`));
    await expect(readInteractions({ name: 'm', format: 'movielens-csv', path: rel }, { cacheDir: null })).rejects.toThrow(new UserError(`${resolve(rel)}: no such file`));
  });
});

describe.skipIf(!existsSync('/proc/self/stat'))('an unusable cache folder', () => {
  it('fails at once with one line instead of spinning in a recursive mkdir', async () => {
    await expect(loadDataset(spec, [50], { cacheDir: '/proc/lshdp-test' })).rejects.toThrow(
      new UserError('--cache-dir /proc/lshdp-test: cannot create the folder: /proc does not accept new files or folders'),
    );
    await expect(loadDataset(spec, [50], { cacheDir: null, synthDir: '/proc/lshdp-test' })).rejects.toThrow(
      /^synthetic data folder \/proc\/lshdp-test\/small-[0-9a-f]{16}: cannot create the folder: \/proc does not accept new files or folders$/,
    );
  });
});
