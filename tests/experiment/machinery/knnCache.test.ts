import { describe, it, expect } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeKnn, decodeKnn, knnCachePath, readKnnCache, writeKnnCache } from '../../../src/experiment/machinery/knnCache.js';

describe('exact k-NN cache', () => {
  const queries = Int32Array.from([3, 7, 11]);
  const truth = { k: 2, indices: Int32Array.from([1, 2, 3, 4, 5, 6]), distances: Float64Array.from([0.1, 0.2, 1 / 3, 0.4, Math.PI / 10, 0.5]) };

  it('round-trips exactly and rejects truncated, foreign or other-query files', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lshdp-knn-'));
    const path = knnCachePath(dir, { n: 10 });
    expect(knnCachePath(dir, { n: 10 })).toBe(path);
    expect(knnCachePath(dir, { n: 11 })).not.toBe(path);
    expect(readKnnCache(path, queries, 2)).toBeNull();
    expect(writeKnnCache(path, queries, truth)).toBe(true);
    const back = readKnnCache(path, queries, 2)!;
    expect(Array.from(back.indices)).toEqual(Array.from(truth.indices));
    expect(Array.from(back.distances)).toEqual(Array.from(truth.distances));
    const buf = readFileSync(path);
    expect(buf.length).toBe(24 + 4 * 3 + 4 * 6 + 8 * 6);
    expect(decodeKnn(buf.subarray(0, buf.length - 1), queries, 2)).toBeNull();
    expect(decodeKnn(buf, Int32Array.from([3, 7, 12]), 2)).toBeNull();
    expect(decodeKnn(buf, queries, 3)).toBeNull();
    writeFileSync(path, 'garbage');
    expect(readKnnCache(path, queries, 2)).toBeNull();
    expect(Buffer.from(encodeKnn(queries, truth)).equals(buf)).toBe(true);
  });
});
