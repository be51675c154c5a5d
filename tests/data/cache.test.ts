import { describe, expect, it } from 'vitest';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { loadDataset } from '../../src/data/load.js';
import { CACHE_VERSION, writeVectorCache } from '../../src/data/cache.js';
import type { Progress } from '../../src/util/progress.js';
import type { UserVectors } from '../../src/data/types.js';
import { FIX } from './fixtures.js';

/** A progress sink that records the stages started (a read stage means the file was parsed). */
function recorder(): Progress & { labels: string[] } {
  const labels: string[] = [];
  return { labels, start: (l) => void labels.push(l), increment() {}, update() {}, stop() {} };
}

function same(a: UserVectors, b: UserVectors): void {
  expect(b.userIds).toEqual(a.userIds);
  expect(b.itemIds).toEqual(a.itemIds);
  expect(b.dropped).toBe(a.dropped);
  expect(Array.from(b.rowPtr)).toEqual(Array.from(a.rowPtr));
  expect(Array.from(b.colIdx)).toEqual(Array.from(a.colIdx));
  expect(Buffer.from(b.values.buffer, b.values.byteOffset, b.values.byteLength).equals(Buffer.from(a.values.buffer, a.values.byteOffset, a.values.byteLength))).toBe(true);
}

describe('vector cache', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lshdp-cache-'));
  const data = join(dir, 'ratings.csv');
  copyFileSync(join(FIX, 'ratings.csv'), data);
  const cacheDir = join(dir, 'cache');
  const spec = { name: 'ml', format: 'movielens-csv' as const, path: data };

  it('a second load skips parsing and returns byte-identical vectors and the same summary', async () => {
    const p1 = recorder();
    const first = await loadDataset(spec, [2, 3], { cacheDir, progress: p1 });
    expect(p1.labels.some((l) => l.startsWith('read'))).toBe(true);
    expect(readdirSync(cacheDir).filter((f) => f.endsWith('.vec')).length).toBe(2);
    const p2 = recorder();
    const second = await loadDataset(spec, [2, 3], { cacheDir, progress: p2 });
    expect(p2.labels).toEqual([]);
    for (const n of [2, 3]) same(first.vectors.get(n)!, second.vectors.get(n)!);
    expect(second.summary).toEqual(first.summary);
    const nocache = await loadDataset(spec, [2, 3], { cacheDir: null });
    same(nocache.vectors.get(3)!, second.vectors.get(3)!);
  });

  it('a new n reads the file again; a center change is a different key', async () => {
    const p = recorder();
    await loadDataset(spec, [2, 4], { cacheDir, progress: p });
    expect(p.labels.length).toBeGreaterThan(0);
    const g = recorder();
    const glob = await loadDataset({ ...spec, center: 'global' }, [2], { cacheDir, progress: g });
    expect(g.labels.length).toBeGreaterThan(0);
    expect(glob.vectors.get(2)!.userIds.length).toBe(5);
  });

  it('a corrupt cache file is ignored and rewritten', async () => {
    const good = await loadDataset(spec, [3], { cacheDir: null });
    for (const f of readdirSync(cacheDir).filter((x) => x.endsWith('.vec'))) {
      const b = readFileSync(join(cacheDir, f));
      writeFileSync(join(cacheDir, f), b.subarray(0, b.length - 5)); // truncated
    }
    const p = recorder();
    const again = await loadDataset(spec, [3], { cacheDir, progress: p });
    expect(p.labels.length).toBeGreaterThan(0);
    same(good.vectors.get(3)!, again.vectors.get(3)!);
    const p2 = recorder();
    await loadDataset(spec, [3], { cacheDir, progress: p2 });
    expect(p2.labels).toEqual([]); // rewritten, so a hit now
    // garbage of the right length: a column index out of range
    // (every cache file: which one holds n = 3 depends on the hashed file names)
    for (const f of readdirSync(cacheDir)
      .filter((x) => x.endsWith('.vec'))
      .map((x) => join(cacheDir, x))) {
      const b = readFileSync(f);
      if (b.length < 40) continue;
      b.fill(0xff, b.length - 40, b.length - 24);
      writeFileSync(f, b);
    }
    const p3 = recorder();
    const fixed = await loadDataset(spec, [3], { cacheDir, progress: p3 });
    expect(p3.labels.length).toBeGreaterThan(0);
    same(good.vectors.get(3)!, fixed.vectors.get(3)!);
  });

  it('an input touched but unchanged is hashed first and met in the cache (not read); hashes.json holds the hash of each load', async () => {
    const first = await loadDataset(spec, [2, 3], { cacheDir });
    utimesSync(data, new Date(), new Date(Date.now() + 9000));
    const p = recorder();
    const again = await loadDataset(spec, [2, 3], { cacheDir, progress: p });
    expect(p.labels).toEqual([]);
    expect(again.summary).toEqual(first.summary);
    const index = JSON.parse(readFileSync(join(cacheDir, 'hashes.json'), 'utf8'));
    expect(Object.values(index).map((e) => (e as { sha256: string }).sha256)).toEqual([first.summary.inputs[0]!.sha256]);
    // a fresh cache folder: read while hashed, the same summary, and the hash remembered
    const fresh = join(dir, 'fresh-cache');
    const q = recorder();
    const cold = await loadDataset(spec, [2, 3], { cacheDir: fresh, progress: q });
    expect(q.labels.some((l) => l.startsWith('read'))).toBe(true);
    expect(cold.summary).toEqual(first.summary);
    expect(Object.values(JSON.parse(readFileSync(join(fresh, 'hashes.json'), 'utf8'))).map((e) => (e as { sha256: string }).sha256)).toEqual([first.summary.inputs[0]!.sha256]);
    for (const n of [2, 3]) same(first.vectors.get(n)!, cold.vectors.get(n)!);
  });

  it('a changed input file (same size, new mtime) is re-hashed and re-read', async () => {
    await loadDataset(spec, [2], { cacheDir });
    const text = readFileSync(data, 'utf8').replace('1,10,4.0,100', '1,10,5.0,100'); // same length
    writeFileSync(data, text);
    utimesSync(data, new Date(), new Date(Date.now() + 5000));
    const p = recorder();
    const changed = await loadDataset(spec, [2], { cacheDir, progress: p });
    expect(p.labels.some((l) => l.startsWith('read'))).toBe(true);
    // u1 now 5,2,3 (mean 10/3): item 10 → 5/3, item 3 → -1/3
    const r = changed.vectors.get(2)!;
    const norm = Math.hypot(5 / 3, 1 / 3);
    expect(r.values[0]).toBeCloseTo(5 / 3 / norm, 14);
  });
});

describe('vector cache file', () => {
  it('is the documented layout, written from the arrays: magic, header length, JSON, padding, rowPtr, colIdx, padding, values', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lshdp-cache-bytes-'));
    const v = (await loadDataset({ name: 'ml', format: 'movielens-csv', path: join(FIX, 'ratings.csv') }, [3], { cacheDir: null })).vectors.get(3)!;
    const base = { rowsRead: 12, rowsSkipped: 0, skippedLines: [], users: 5, items: 4, interactions: 11 };
    const file = join(dir, 'x.vec');
    writeVectorCache(file, 'k', v, base);
    const json = Buffer.from(
      JSON.stringify({ version: CACHE_VERSION, key: 'k', dataset: v.dataset, n: v.n, users: v.userIds.length, nnz: v.colIdx.length, dropped: v.dropped, userIds: v.userIds, itemIds: v.itemIds, base }),
    );
    const pad = (b: Buffer) => Buffer.concat([b, Buffer.alloc(((b.length + 7) & ~7) - b.length)]);
    const len = Buffer.alloc(4);
    len.writeUInt32LE(json.length);
    const bytes = (a: Int32Array | Float64Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
    const expected = Buffer.concat([pad(Buffer.concat([Buffer.from('LSHDPV01'), len, json])), pad(Buffer.concat([bytes(v.rowPtr), bytes(v.colIdx)])), bytes(v.values)]);
    expect(readFileSync(file).equals(expected)).toBe(true);
  });
});
