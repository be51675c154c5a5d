import { describe, it, expect } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeKnn, decodeKnn, knnCachePath, readKnnCache, writeKnnCache } from '../../src/machinery/knnCache.js';

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

  it('version 3 keeps the mean distances (u_rand), with and without the distances to every user; version 2 reads without them', () => {
    const meanDistance = Float64Array.from([0.41, 0.5, 1 / 7]);
    const users = 5;
    const all = Float64Array.from({ length: 3 * users }, (_, i) => i / 16);
    for (const extra of [{}, { all }]) {
      const buf = Buffer.from(encodeKnn(queries, { ...truth, meanDistance, ...extra }));
      expect(buf.readUInt32LE(8)).toBe(3);
      // the answers (108 bytes), the means (24), then 8-aligned the distances to every user
      expect(buf.length).toBe('all' in extra ? 136 + 8 * 3 * users : 132);
      const back = decodeKnn(buf, queries, 2)!;
      expect(Array.from(back.meanDistance!)).toEqual(Array.from(meanDistance));
      expect(Array.from(back.distances)).toEqual(Array.from(truth.distances));
      if ('all' in extra) expect(Array.from(back.all!)).toEqual(Array.from(all));
      expect(decodeKnn(buf.subarray(0, buf.length - 8), queries, 2)).toBeNull();
    }
    const v2 = Buffer.from(encodeKnn(queries, truth));
    expect(v2.readUInt32LE(8)).toBe(2);
    expect(decodeKnn(v2, queries, 2)!.meanDistance).toBeUndefined();
  });

  it('keeps the distances to every user (in shared memory), and still reads a version 1 file without them', () => {
    const users = 13;
    const all = Float64Array.from({ length: 3 * users }, (_, i) => (i === 4 ? -0 : Math.sin(i) / 3 + 0.5));
    const buf = Buffer.from(encodeKnn(queries, { ...truth, all }));
    // the answers end at byte 108: 4 bytes of padding put the doubles at 112
    expect(buf.length).toBe(112 + 8 * 3 * users);
    expect(buf.readUInt32LE(8)).toBe(2);
    expect(buf.readUInt32LE(20)).toBe(users);
    const back = decodeKnn(buf, queries, 2)!;
    expect(back.all!.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(Buffer.from(back.all!.buffer).equals(Buffer.from(all.buffer))).toBe(true);
    expect(Array.from(back.distances)).toEqual(Array.from(truth.distances));
    expect(decodeKnn(buf.subarray(0, buf.length - 8), queries, 2)).toBeNull();
    // read from a file: in place, in shared memory
    const dir = mkdtempSync(join(tmpdir(), 'lshdp-knn-'));
    const path = join(dir, 'all.bin');
    expect(writeKnnCache(path, queries, { ...truth, all })).toBe(true);
    const read = readKnnCache(path, queries, 2)!;
    expect(read.all!.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(read.all!.byteOffset).toBe(112);
    expect(Buffer.from(read.all!.buffer, 112).equals(Buffer.from(all.buffer))).toBe(true);
    // version 1: no users field (0) and no last section
    const v1 = Buffer.from(encodeKnn(queries, truth));
    v1.writeUInt32LE(1, 8);
    const old = decodeKnn(v1, queries, 2)!;
    expect(old.all).toBeUndefined();
    expect(Array.from(old.indices)).toEqual(Array.from(truth.indices));
    v1.writeUInt32LE(3, 8);
    expect(decodeKnn(v1, queries, 2)).toBeNull();
  });
});
