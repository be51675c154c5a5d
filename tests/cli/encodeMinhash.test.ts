/**
 * `lshdp encode` with the private MinHash mechanisms: bucket symbols (hex digits) and noisy reals
 * on a Jaccard file, their options and accountants from the flags (ldp, a did-you-mean), the
 * noiseless MinHash at a huge budget, and the one-line refusal on the angular family.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lshdpIn } from '../helpers/inproc.js';
import { makeRng, deriveSeed } from '../../src/random/rng.js';
import { jaccardFamily, loadFamilyData } from '../../src/lsh/families/index.js';
import { bucketSymbols, minHashBits } from '../../src/lsh/minHash.js';

let dir = '';
const run = (args: string[]) => lshdpIn(args, { cwd: dir });

/** A MovieLens-style ratings file of 200 users, 6 to 25 items each of 60 (popular items rated more). */
function writeRatings(file: string): void {
  const rng = makeRng('encode-minhash');
  const lines = ['userId,movieId,rating,timestamp'];
  for (let u = 1; u <= 200; u++) {
    const seen = new Set<number>();
    const count = 6 + Math.floor(rng() * 20);
    while (seen.size < count) seen.add(1 + Math.floor(60 * rng() ** 2));
    for (const item of seen) lines.push(`${u},${item},${1 + Math.floor(rng() * 5)},${u}`);
  }
  writeFileSync(file, lines.join('\n') + '\n');
}

function readCodes(file: string): Map<string, string> {
  const lines = readFileSync(file, 'utf8').trim().split('\n');
  expect(lines[0]).toBe('user,code');
  return new Map(lines.slice(1).map((l) => l.split(',') as [string, string]));
}

const BASE = ['encode', '--format', 'movielens-csv', 'ratings.csv', '--dims', '40', '--kappa', '12', '--metric', 'jaccard', '--seed', '7', '--quiet'];

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'lshdp-encode-minhash-'));
  writeRatings(join(dir, 'ratings.csv'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The item sets and the family's MinHash of trial 0, as `lshdp encode` hashes them. */
async function minHash() {
  const { vectors } = await loadFamilyData(jaccardFamily, { name: 'ratings.csv', format: 'movielens-csv', path: join(dir, 'ratings.csv') }, [40], { cacheDir: null });
  const v = vectors.get(40)!;
  return { ids: v.userIds, ...jaccardFamily.hash(v, 12, deriveSeed(7, 'planes', 'ratings.csv', 40, 12, 0)).minHash! };
}

describe('lshdp encode --mechanism minhash-bucket / minhash-noisy', () => {
  it('releases b-ary symbols, one hex digit each; at a huge budget the MinHash buckets themselves', async () => {
    const r = await run([...BASE, '--mechanism', 'minhash-bucket', '--option', 'buckets=16', '--xi', '100000', '--noise-seed', '2', '--out', 'mb']);
    expect(r.status).toBe(0);
    const h = JSON.parse(readFileSync(join(dir, 'mb', 'hashing.json'), 'utf8'));
    expect(h.release).toEqual({ kind: 'symbols', length: 12, alphabet: 16 });
    expect(h.mechanism.options).toEqual({ buckets: 16, accountant: 'paper' });
    // the privacy statement at the disagreement the accountant took, d(1 − 1/b), and the bucket map's rule
    expect(h.privacy.disagreement).toBe((0.1 * 15) / 16);
    expect(h.privacy.statement).toContain(`per-position disagreement probability ${(0.1 * 15) / 16}`);
    expect(h.hash_rule).toContain('w_j(c) bytes 12–15');
    const { ids, tables, minima } = await minHash();
    const clean = bucketSymbols(minima, tables, 16);
    const codes = readCodes(join(dir, 'mb', 'codes.csv'));
    expect([...codes.keys()]).toEqual(ids);
    ids.forEach((id, i) => {
      expect(codes.get(id)).toBe(Array.from(clean.subarray(i * 12, (i + 1) * 12), (s) => s.toString(16)).join(''));
    });
  });

  it('releases reals near the 1-bit MinHash values at a huge budget; takes the ldp accountant', async () => {
    const r = await run([...BASE, '--mechanism', 'minhash-noisy', '--accountant', 'ldp', '--xi', '100000', '--noise-seed', '2', '--out', 'mn']);
    expect(r.status).toBe(0);
    const h = JSON.parse(readFileSync(join(dir, 'mn', 'hashing.json'), 'utf8'));
    expect(h.release).toEqual({ kind: 'reals', length: 12 });
    expect(h.mechanism.options).toEqual({ accountant: 'ldp' });
    expect(h.privacy.disagreement).toBe(0.05);
    expect(h.privacy.epsilon_ldp).toBe(100000);
    const { ids, tables, minima } = await minHash();
    const bits = minHashBits(minima, tables);
    const codes = readCodes(join(dir, 'mn', 'codes.csv'));
    // ε′ = ξ/κ ≈ 8333: noise of scale 1.2e-4, far below the 1/2 that would round a value to the other bit
    ids.forEach((id, i) => {
      const values = codes.get(id)!.split(' ').map(Number);
      expect(values.map((x) => (x > 0.5 ? 1 : 0))).toEqual(Array.from(bits.subarray(i * 12, (i + 1) * 12)));
    });
  });

  it('refuses the angular family, a bad accountant and a bad option in one line, writing nothing', async () => {
    const cases: [string[], RegExp][] = [
      [
        [...BASE.filter((a) => a !== '--metric' && a !== 'jaccard'), '--mechanism', 'minhash-bucket', '--xi', '1', '--out', 'bad1'],
        /--mechanism: minhash-bucket runs with --metric jaccard only, not angular/,
      ],
      [
        [...BASE.filter((a) => a !== '--metric' && a !== 'jaccard'), '--mechanism', 'minhash-noisy', '--xi', '1', '--out', 'bad2'],
        /--mechanism: minhash-noisy runs with --metric jaccard only, not angular/,
      ],
      [
        [...BASE, '--mechanism', 'minhash-bucket', '--accountant', 'exakt', '--xi', '1', '--out', 'bad3'],
        /--accountant: unknown accountant "exakt" \(did you mean "exact"\?\); known: paper, exact, ldp/,
      ],
      [[...BASE, '--mechanism', 'minhash-noisy', '--accountant', 'exact', '--xi', '1', '--out', 'bad6'], /--accountant: unknown accountant "exact"; known: paper, ldp/],
      [[...BASE, '--mechanism', 'minhash-bucket', '--option', 'buckets=1', '--xi', '1', '--out', 'bad4'], /minhash-bucket: option buckets must be an integer in \[2, 256\], got 1/],
      [[...BASE, '--mechanism', 'minhash-noisy', '--option', 'buckets=4', '--xi', '1', '--out', 'bad5'], /--option: mechanism minhash-noisy has no option "buckets"/],
    ];
    for (const [args, message] of cases) {
      const r = await run(args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(message);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(existsSync(join(dir, args[args.indexOf('--out') + 1]!, 'codes.csv'))).toBe(false);
    }
  });
});
