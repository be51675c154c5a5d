import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sha256File, sha256FilesInThread, sha256Hex, stableStringify } from '../../src/util/hash.js';

describe('hashes', () => {
  it('sha256Hex gives the FIPS 180-2 vectors and a Hash object’s digest, for text (UTF-8) and bytes', () => {
    expect(sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    expect(sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    for (const text of ['ξ = 0.5, κ = 20 — "quoted"\u0000', 'x'.repeat(100_000)]) {
      expect(sha256Hex(text)).toBe(createHash('sha256').update(text, 'utf8').digest('hex'));
      expect(sha256Hex(Buffer.from(text, 'utf8'))).toBe(sha256Hex(text));
    }
  });

  it('sha256File streams a file to the same digest as its bytes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lshdp-hash-'));
    try {
      const bytes = Buffer.alloc(5 << 20, 7);
      writeFileSync(join(dir, 'f'), bytes);
      expect(await sha256File(join(dir, 'f'))).toBe(sha256Hex(bytes));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('sha256FilesInThread gives sha256File’s digests, in order; a missing file rejects with its code', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lshdp-hash-'));
    try {
      const a = Buffer.alloc(9 << 20, 3);
      a[5 << 20] = 1;
      writeFileSync(join(dir, 'a'), a);
      writeFileSync(join(dir, 'b'), '');
      const got = await sha256FilesInThread([join(dir, 'a'), join(dir, 'b')]).hashes;
      expect(got).toEqual([await sha256File(join(dir, 'a')), sha256Hex('')]);
      await expect(sha256FilesInThread([join(dir, 'none')]).hashes).rejects.toMatchObject({ code: 'ENOENT' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('stableStringify sorts keys at every depth and leaves out undefined ones', () => {
    expect(stableStringify({ b: 1, a: { d: [3, { z: 1, y: undefined, x: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[3,{"x":2,"z":1}]},"b":1}');
    expect(stableStringify({ b: 1, a: 2 })).toBe(stableStringify({ a: 2, b: 1 }));
  });
});
