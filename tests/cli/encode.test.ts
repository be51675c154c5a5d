import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { STACK_RE } from '../helpers/cli.js';
import { lshdpIn } from '../helpers/inproc.js';
import { loadDataset } from '../../src/data/load.js';
import { drawHyperplanes, projectAll } from '../../src/lsh/hyperplanes.js';
import { packSigns } from '../../src/lsh/codes.js';
import { deriveSeed, makeRng } from '../../src/random/rng.js';
import { jaccardFamily, loadFamilyData } from '../../src/lsh/families/index.js';
import { codeToHex, hexToBits } from '../../src/encode/releaseFiles.js';
import { lshrrEpsilon, flipProbability, realizedFlipProbability } from '../../src/privacy/index.js';
import type { CodeSet } from '../../src/lsh/codes.js';

let dir = '';
const USERS = 400;
const ITEMS = 120;

/** A MovieLens-style ratings file: USERS users, ~20 ratings each over ITEMS items (popular items rated more). */
function writeRatings(file: string, users: number, seed: string, extraUser?: string): string[] {
  const rng = makeRng(seed);
  const lines = ['userId,movieId,rating,timestamp'];
  const byUser: string[][] = [];
  for (let u = 1; u <= users; u++) {
    const mine: string[] = [];
    const seen = new Set<number>();
    const count = 8 + Math.floor(rng() * 25);
    while (seen.size < count) seen.add(1 + Math.floor(ITEMS * rng() ** 2));
    for (const item of seen) {
      const line = `${extraUser && u === users ? extraUser : u},${item},${(1 + Math.floor(rng() * 9)) / 2},${u}`;
      lines.push(line);
      mine.push(line);
    }
    byUser.push(mine);
  }
  writeFileSync(file, lines.join('\n') + '\n');
  return byUser.flat();
}

function readCodes(file: string): Map<string, string> {
  const lines = readFileSync(file, 'utf8').trim().split('\n');
  expect(lines[0]).toBe('user,code');
  return new Map(lines.slice(1).map((l) => l.split(',') as [string, string]));
}

const run = (args: string[]) => lshdpIn(args, { cwd: dir });

/** `lshdp encode` of ratings.csv (n 50, seed 7, test noise 1) with `mechanism` into `out`, plus `extra` flags. */
const encodeRatings = (mechanism: string, out: string, extra: string[]) =>
  run(['encode', '--format', 'movielens-csv', 'ratings.csv', '--dims', '50', '--mechanism', mechanism, '--seed', '7', '--noise-seed', '1', '--out', out, '--quiet', ...extra]);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'lshdp-encode-'));
  writeRatings(join(dir, 'ratings.csv'), USERS, 'encode-data');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('lshdp encode', () => {
  it('--mechanism lsh releases exactly the codes the experiment path hashes (trial 0 of run seed S)', async () => {
    const r = await run(['encode', '--format', 'movielens-csv', 'ratings.csv', '--dims', '50', '--kappa', '40', '--mechanism', 'lsh', '--seed', '7', '--out', 'lsh', '--quiet']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    const released = readCodes(join(dir, 'lsh', 'codes.csv'));
    const { vectors } = await loadDataset({ name: 'ratings.csv', format: 'movielens-csv', path: join(dir, 'ratings.csv') }, [50], { cacheDir: null });
    const v = vectors.get(50)!;
    const planes = drawHyperplanes(makeRng(deriveSeed(7, 'planes', 'ratings.csv', 50, 40, 0)), 40, 50);
    const codes = packSigns(projectAll(v, planes, 40), v.userIds.length, 40);
    expect([...released.keys()]).toEqual(v.userIds);
    v.userIds.forEach((id, i) => {
      expect(released.get(id)).toBe(codeToHex(codes, i));
    });
    const h = JSON.parse(readFileSync(join(dir, 'lsh', 'hashing.json'), 'utf8'));
    expect(h.items).toEqual(v.itemIds);
    expect(h.hash_seed).toBe(deriveSeed(7, 'planes', 'ratings.csv', 50, 40, 0));
    expect(h.items_source).toBe('data');
    expect(h.items_note).toMatch(/does NOT cover/);
    expect(h.privacy.xi).toBeNull();
  });

  it('--metric jaccard: 1-bit MinHash codes of the item sets before centring, as the family hashes them', async () => {
    const r = await run(['encode', '--format', 'movielens-csv', 'ratings.csv', '--dims', '50', '--kappa', '33', '--metric', 'jaccard', '--mechanism', 'lsh', '--seed', '7', '--out', 'jac', '--quiet']);
    expect(r.status).toBe(0);
    const released = readCodes(join(dir, 'jac', 'codes.csv'));
    const { vectors } = await loadFamilyData(jaccardFamily, { name: 'ratings.csv', format: 'movielens-csv', path: join(dir, 'ratings.csv') }, [50], { cacheDir: null });
    const v = vectors.get(50)!;
    const { codes } = jaccardFamily.hash(v, 33, deriveSeed(7, 'planes', 'ratings.csv', 50, 33, 0));
    expect([...released.keys()]).toEqual(v.userIds);
    v.userIds.forEach((id, i) => {
      expect(released.get(id)).toBe(codeToHex(codes, i));
    });
    const h = JSON.parse(readFileSync(join(dir, 'jac', 'hashing.json'), 'utf8'));
    expect(h.family).toBe('jaccard');
    expect(h.input.center).toBe('none');
  });

  it('LSHRR: flip rates 0→1 and 1→0 both match 1/(1+e^eps) (seeded noise, 4.5 SE; and the crypto noise, 5 SE)', async () => {
    const base = ['encode', '--format', 'movielens-csv', 'ratings.csv', '--dims', '50', '--kappa', '40', '--seed', '7', '--quiet'];
    const seeded = await run([...base, '--mechanism', 'lshrr', '--xi', '12', '--noise-seed', '3', '--out', 'rr']);
    expect(seeded.status).toBe(0);
    expect(seeded.stderr).toMatch(/^lshdp: warning: --noise-seed .*for tests only/);
    const crypto = await run([...base, '--mechanism', 'lshrr', '--xi', '12', '--out', 'rr-crypto']);
    expect(crypto.status).toBe(0);
    expect(crypto.stderr).toBe('');
    const eps = lshrrEpsilon(12, 40, { d: 0.1, delta: 0.01 }).epsilon!;
    // the release records the flip probability the bits realize: 1/(1+e^eps) rounded up to 2^-32
    const flip = realizedFlipProbability(eps);
    expect(flip).toBeGreaterThan(flipProbability(eps));
    expect(flip - flipProbability(eps)).toBeLessThan(2 ** -32 + 1e-12);
    const clean = readCodes(join(dir, 'lsh', 'codes.csv'));
    for (const [out, z] of [
      ['rr', 4.5],
      ['rr-crypto', 5],
    ] as const) {
      const h = JSON.parse(readFileSync(join(dir, out, 'hashing.json'), 'utf8'));
      expect(h.privacy.epsilon_bit).toBe(eps);
      expect(h.privacy.flip).toBe(flip);
      expect(h.noise).toMatch(out === 'rr' ? /TEST ONLY/ : /node:crypto/);
      const noisy = readCodes(join(dir, out, 'codes.csv'));
      const n = [0, 0];
      const flipped = [0, 0];
      for (const [id, hex] of clean) {
        const a = hexToBits(hex, 40);
        const b = hexToBits(noisy.get(id)!, 40);
        for (let j = 0; j < 40; j++) {
          const x = (a[j >>> 5]! >>> (j & 31)) & 1;
          const y = (b[j >>> 5]! >>> (j & 31)) & 1;
          n[x]!++;
          if (x !== y) flipped[x]!++;
        }
      }
      for (const bit of [0, 1]) {
        const se = Math.sqrt((flip * (1 - flip)) / n[bit]!);
        expect(Math.abs(flipped[bit]! / n[bit]! - flip)).toBeLessThan(z * se);
      }
    }
    // the crypto noise is not the seeded noise
    expect(readFileSync(join(dir, 'rr-crypto', 'codes.csv'), 'utf8')).not.toBe(readFileSync(join(dir, 'rr', 'codes.csv'), 'utf8'));
  });

  it('--query reads a headerless file as its release did (header: false is part of the release)', async () => {
    // the ratings as `user item value` lines: the first line is data
    const rows = readFileSync(join(dir, 'ratings.csv'), 'utf8').trim().split('\n').slice(1);
    writeFileSync(join(dir, 'plain.txt'), rows.map((l) => l.split(',').slice(0, 3).join(' ')).join('\n') + '\n');
    const flags = ['--format', 'interactions', '--no-header', '--delimiter', 'whitespace', '--user', '0', '--item', '1', '--value', '2'];
    const r = await run(['encode', 'plain.txt', ...flags, '--mechanism', 'lsh', '--kappa', '16', '--dims', '30', '--seed', '5', '--out', 'plain', '--quiet']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(JSON.parse(readFileSync(join(dir, 'plain', 'hashing.json'), 'utf8')).input.reader).toMatchObject({ header: false, delimiter: 'whitespace', user: 0, item: 1, value: 2 });
    const q = await run(['encode', '--query', 'plain', 'plain.txt', '--out', 'plain-q', '--quiet']);
    expect(q.status).toBe(0);
    // the first line's user too: read as a header, its first rating would be lost
    expect(readFileSync(join(dir, 'plain-q', 'codes.csv'), 'utf8')).toBe(readFileSync(join(dir, 'plain', 'codes.csv'), 'utf8'));
  });

  it('--query round-trips: users of the release encode to their released codes; new users as if in the data (--items)', async () => {
    // users 1..40 of the data as a query file
    const rows = readFileSync(join(dir, 'ratings.csv'), 'utf8').trim().split('\n');
    const some = rows.filter((l, i) => i === 0 || Number(l.split(',')[0]) <= 40);
    writeFileSync(join(dir, 'query.csv'), some.join('\n') + '\n');
    const q = await run(['encode', '--query', 'lsh', 'query.csv', '--out', 'q', '--quiet']);
    expect(q.stderr).toBe('');
    expect(q.status).toBe(0);
    const released = readCodes(join(dir, 'lsh', 'codes.csv'));
    const queried = readCodes(join(dir, 'q', 'codes.csv'));
    expect(queried.size).toBeGreaterThan(30);
    for (const [id, code] of queried) expect(code).toBe(released.get(id));
    // the same for the Jaccard release (item sets, MinHash)
    const qj = await run(['encode', '--query', 'jac', 'query.csv', '--out', 'qj', '--quiet']);
    expect(qj.status).toBe(0);
    const releasedJ = readCodes(join(dir, 'jac', 'codes.csv'));
    const queriedJ = readCodes(join(dir, 'qj', 'codes.csv'));
    expect(queriedJ.size).toBeGreaterThan(30);
    for (const [id, code] of queriedJ) expect(code).toBe(releasedJ.get(id));
    const hq = JSON.parse(readFileSync(join(dir, 'q', 'hashing.json'), 'utf8'));
    const hr = JSON.parse(readFileSync(join(dir, 'lsh', 'hashing.json'), 'utf8'));
    expect(hq.hash_seed).toBe(hr.hash_seed);
    expect(hq.items).toEqual(hr.items);

    // a public item list; the data plus one new user, and the new user alone through --query
    writeFileSync(join(dir, 'items.txt'), hr.items.join('\n') + '\n');
    writeRatings(join(dir, 'more.csv'), USERS, 'encode-data', '99999');
    const full = await run([
      'encode',
      '--format',
      'movielens-csv',
      'more.csv',
      '--items',
      'items.txt',
      '--kappa',
      '40',
      '--mechanism',
      'lsh',
      '--seed',
      '7',
      '--name',
      'ratings.csv',
      '--out',
      'listed',
      '--quiet',
    ]);
    expect(full.status).toBe(0);
    const hl = JSON.parse(readFileSync(join(dir, 'listed', 'hashing.json'), 'utf8'));
    expect(hl.items_source).toBe('list');
    expect(hl.hash_seed).toBe(hr.hash_seed); // same name, n, kappa and seed: the same hash functions
    const mine = readFileSync(join(dir, 'more.csv'), 'utf8')
      .trim()
      .split('\n')
      .filter((l, i) => i === 0 || l.startsWith('99999,'));
    writeFileSync(join(dir, 'newcomer.csv'), mine.join('\n') + '\n');
    const nq = await run(['encode', '--query', join('listed', 'hashing.json'), 'newcomer.csv', '--out', 'nq', '--quiet']);
    expect(nq.status).toBe(0);
    const got = readCodes(join(dir, 'nq', 'codes.csv'));
    expect([...got.keys()]).toEqual(['99999']);
    expect(got.get('99999')).toBe(readCodes(join(dir, 'listed', 'codes.csv')).get('99999'));
  });

  it('--accountant exact when no noise is needed: clean codes, epsilon "Infinity" in hashing.json', async () => {
    const r = await run([
      'encode',
      '--format',
      'movielens-csv',
      'ratings.csv',
      '--dims',
      '50',
      '--kappa',
      '40',
      '--mechanism',
      'lshrr',
      '--xi',
      '5',
      '--d',
      '0.0001',
      '--accountant',
      'exact',
      '--seed',
      '7',
      '--out',
      'exact',
      '--quiet',
    ]);
    expect(r.status).toBe(0);
    const h = JSON.parse(readFileSync(join(dir, 'exact', 'hashing.json'), 'utf8'));
    expect(h.privacy.accountant).toBe('exact');
    expect(h.privacy.epsilon_bit).toBe('Infinity');
    expect(h.privacy.flip).toBe(0);
    expect(h.privacy.statement).toMatch(/NO bound/);
    expect(readFileSync(join(dir, 'exact', 'codes.csv'), 'utf8')).toBe(readFileSync(join(dir, 'lsh', 'codes.csv'), 'utf8'));
  });

  it('a plugin module as --mechanism, its SHA-256 recorded', async () => {
    const r = await run([
      'encode',
      '--format',
      'movielens-csv',
      'ratings.csv',
      '--dims',
      '50',
      '--kappa',
      '20',
      '--mechanism',
      join(process.cwd(), 'examples', 'mechanisms', 'lsh-oue.mjs'),
      '--option',
      'block=4',
      '--xi',
      '10',
      '--seed',
      '7',
      '--noise-seed',
      '1',
      '--out',
      'oue',
      '--quiet',
    ]);
    expect(r.status).toBe(0);
    const h = JSON.parse(readFileSync(join(dir, 'oue', 'hashing.json'), 'utf8'));
    expect(h.mechanism.name).toBe('lsh-oue');
    expect(h.mechanism.options).toEqual({ block: 4 });
    expect(h.mechanism.module_sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(h.code_bits).toBe(80);
    const codes = readCodes(join(dir, 'oue', 'codes.csv'));
    for (const hex of codes.values()) expect(hex).toMatch(/^[0-9a-f]{20}$/);
  });
});

describe('lshdp encode: releases that are not bits', () => {
  const encodeWith = (plugin: string, out: string, xi: string) => encodeRatings(join(process.cwd(), 'tests', 'fixtures', 'plugins', plugin), out, ['--kappa', '9', '--xi', xi]);

  it('symbols: one hex digit each, position 0 first; at xi = infinity-like budgets the pairs of the clean bits', async () => {
    const r = await encodeWith('pairs-rr.mjs', 'pairs', '100000');
    expect(r.status).toBe(0);
    const h = JSON.parse(readFileSync(join(dir, 'pairs', 'hashing.json'), 'utf8'));
    expect(h.release).toEqual({ kind: 'symbols', length: 5, alphabet: 4 });
    expect(h.code_bits).toBeUndefined();
    expect(h.code_encoding).toMatch(/the 5 symbols \(0 to 3\), position 0 first, 1 hex digit each/);
    // the same users' clean bits (lsh with the same seed): letter j = bit 2j + 2·bit 2j+1
    expect((await run(['encode', '--format', 'movielens-csv', 'ratings.csv', '--dims', '50', '--kappa', '9', '--mechanism', 'lsh', '--seed', '7', '--out', 'lsh9', '--quiet'])).status).toBe(0);
    const bits = readCodes(join(dir, 'lsh9', 'codes.csv'));
    const letters = readCodes(join(dir, 'pairs', 'codes.csv'));
    expect(letters.size).toBe(bits.size);
    for (const [user, code] of letters) {
      const b = hexToBits(bits.get(user)!, 9)[0]!;
      const want = Array.from({ length: 5 }, (_, j) => ((b >>> (2 * j)) & 1) + 2 * ((b >>> (2 * j + 1)) & 1)).join('');
      expect(code).toBe(want);
    }
  });

  it('reals: the coordinates separated by spaces, read back as the same doubles', async () => {
    const r = await encodeWith('noisy-signs.mjs', 'signs', '2');
    expect(r.status).toBe(0);
    const h = JSON.parse(readFileSync(join(dir, 'signs', 'hashing.json'), 'utf8'));
    expect(h.release).toEqual({ kind: 'reals', length: 9 });
    expect(h.code_encoding).toMatch(/coordinates, coordinate 0 first, separated by spaces/);
    for (const code of readCodes(join(dir, 'signs', 'codes.csv')).values()) {
      const values = code.split(' ').map(Number);
      expect(values).toHaveLength(9);
      expect(values.every(Number.isFinite)).toBe(true);
      expect(values.map(String).join(' ')).toBe(code);
    }
  });
});

describe('lshdp encode: jl-gaussian', () => {
  it('states σ (not an ε per bit) and what δ is taken over, for each guarantee', async () => {
    const { jlGaussianSigma } = await import('../../src/privacy/gaussian.js');
    for (const [guarantee, over] of [
      ['expected', 'over the public hash functions and the noise'],
      ['every-w', 'over the noise, for every public hash function'],
    ] as const) {
      const out = `jl-${guarantee}`;
      const r = await encodeRatings('jl-gaussian', out, ['--kappa', '8', '--option', `guarantee=${guarantee}`, '--xi', '5']);
      expect(r.status, r.stderr).toBe(0);
      const h = JSON.parse(readFileSync(join(dir, out, 'hashing.json'), 'utf8'));
      expect(h.release).toEqual({ kind: 'reals', length: 8 });
      expect(h.privacy.epsilon_bit).toBeNull();
      expect(h.privacy.parameter).toBe(guarantee === 'expected' ? 'sigma' : 'sigma_per_sigma_max');
      if (guarantee === 'expected') expect(h.privacy.value).toBe(jlGaussianSigma(5, 8, { d: 0.1, delta: 0.01 }));
      expect(h.privacy.ldp_delta).toBe(0.01);
      expect(h.privacy.statement).toContain(`With probability at least 1 - 0.01 ${over}, the privacy loss`);
      expect(h.privacy.statement).not.toContain('per-bit');
      expect(h.privacy.statement).toContain('not pure LDP');
    }
  });
});

describe('lshdp encode: bad input is one line, exit 2, nothing written', () => {
  const base = ['encode', '--format', 'movielens-csv', 'ratings.csv', '--seed', '1', '--dims', '20'];
  const cases: [string, string[], RegExp][] = [
    ['no --out', ['encode', '--format', 'movielens-csv', 'ratings.csv', '--seed', '1'], /--out DIR is required/],
    ['no --seed', ['encode', '--format', 'movielens-csv', 'ratings.csv', '--mechanism', 'lsh', '--out', 'bad'], /--seed is required/],
    ['no --format', ['encode', 'ratings.csv', '--seed', '1', '--out', 'bad'], /--format is required/],
    ['lshrr without --xi', [...base, '--out', 'bad'], /--xi: mechanism lshrr needs a privacy budget/],
    ['lsh with --xi', [...base, '--mechanism', 'lsh', '--xi', '3', '--out', 'bad'], /--xi: mechanism lsh takes no privacy budget/],
    ['negative xi', [...base, '--xi', '-1', '--out', 'bad'], /--xi: expected a number >= 0/],
    ['kappa 0', [...base, '--mechanism', 'lsh', '--kappa', '0', '--out', 'bad'], /--kappa: expected a positive integer, got "0"/],
    ['d out of range', [...base, '--xi', '1', '--d', '1.5', '--out', 'bad'], /--d: expected a number in \(0, 1\)/],
    ['unknown metric', [...base, '--mechanism', 'lsh', '--metric', 'cosine', '--out', 'bad'], /--metric: unknown metric "cosine" \(known: angular, jaccard\)/],
    ['unknown mechanism', [...base, '--mechanism', 'lshr', '--out', 'bad'], /--mechanism: unknown mechanism "lshr"/],
    ['center on jaccard', [...base, '--mechanism', 'lsh', '--metric', 'jaccard', '--center', 'user', '--out', 'bad'], /--center: --metric jaccard reads the item sets before centring/],
    ['laplsh on jaccard', [...base, '--mechanism', 'laplsh', '--xi', '1', '--metric', 'jaccard', '--out', 'bad'], /laplsh .*cannot run with --metric jaccard/],
    // the directional mechanisms noise the vector too (their unit says so): a one-line error, not a crash in the sampler
    ['vmf on jaccard', [...base, '--mechanism', 'vmf', '--xi', '1', '--metric', 'jaccard', '--out', 'bad'], /--mechanism: vmf adds noise to vectors and cannot run with --metric jaccard/],
    [
      'purkayastha on jaccard',
      [...base, '--mechanism', 'purkayastha', '--xi', '1', '--metric', 'jaccard', '--out', 'bad'],
      /--mechanism: purkayastha adds noise to vectors and cannot run with --metric jaccard/,
    ],
    ['unknown accountant', [...base, '--xi', '1', '--accountant', 'paperr', '--out', 'bad'], /--accountant/],
    ['accountant on lsh', [...base, '--mechanism', 'lsh', '--accountant', 'exact', '--out', 'bad'], /--accountant: mechanism lsh has no accountants/],
    ['unknown option', [...base, '--xi', '1', '--option', 'block=4', '--out', 'bad'], /--option: mechanism lshrr has no option "block"/],
    ['malformed option', [...base, '--xi', '1', '--option', 'block', '--out', 'bad'], /--option: expected KEY=VALUE, got "block"/],
    ['missing plugin', [...base, '--mechanism', './nope.mjs', '--out', 'bad'], /^lshdp: error: mechanism module \.\/nope\.mjs: no such file$/m],
    ['missing items file', [...base, '--mechanism', 'lsh', '--items', 'nope.txt', '--out', 'bad'], /--items: nope\.txt: no such file/],
    [
      '--dims against --items',
      ['encode', '--format', 'movielens-csv', 'ratings.csv', '--seed', '1', '--mechanism', 'lsh', '--items', 'five.txt', '--dims', '6', '--out', 'bad'],
      /--dims: 6 differs from the 5 items of --items five\.txt/,
    ],
    [
      'duplicate item',
      ['encode', '--format', 'movielens-csv', 'ratings.csv', '--seed', '1', '--mechanism', 'lsh', '--items', 'dup.txt', '--out', 'bad'],
      /--items: dup\.txt:3: item "2" already listed on line 1/,
    ],
    ['--query with --kappa', ['encode', '--query', 'lsh', 'ratings.csv', '--kappa', '8', '--out', 'bad'], /--kappa: not allowed with --query/],
    ['--query of nothing', ['encode', '--query', 'nowhere', 'ratings.csv', '--out', 'bad'], /nowhere: no such file/],
    ['--noise-seed not a number', [...base, '--xi', '1', '--noise-seed', 'abc', '--out', 'bad'], /--noise-seed: expected a non-negative integer/],
    ['missing data file', ['encode', '--format', 'movielens-csv', 'nope.csv', '--seed', '1', '--mechanism', 'lsh', '--out', 'bad'], /nope\.csv: no such file/],
    [
      'n beyond the items',
      ['encode', '--format', 'movielens-csv', 'ratings.csv', '--seed', '1', '--mechanism', 'lsh', '--dims', '100000', '--out', 'bad'],
      /--dims: n = 100000 exceeds the number of items of ratings\.csv \(\d+\); choose a smaller n/,
    ],
  ];
  beforeAll(async () => {
    writeFileSync(join(dir, 'five.txt'), '1\n2\n3\n4\n5\n');
    writeFileSync(join(dir, 'dup.txt'), '2\n3\n2\n');
    if (!existsSync(join(dir, 'lsh', 'hashing.json')))
      await run(['encode', '--format', 'movielens-csv', 'ratings.csv', '--dims', '50', '--kappa', '40', '--mechanism', 'lsh', '--seed', '7', '--out', 'lsh', '--quiet']);
  });
  for (const [name, args, re] of cases) {
    it(name, async () => {
      const r = await run(args);
      expect(r.status).toBe(2);
      expect(r.stderr).toMatch(re);
      expect(r.stderr.trim().split('\n')).toHaveLength(1);
      expect(r.stderr).not.toMatch(STACK_RE);
      expect(existsSync(join(dir, 'bad'))).toBe(false);
    });
  }
  it('an existing release is not overwritten without --force', async () => {
    const before = readFileSync(join(dir, 'lsh', 'codes.csv'), 'utf8');
    const r = await run(['encode', '--format', 'movielens-csv', 'ratings.csv', '--dims', '50', '--kappa', '8', '--mechanism', 'lsh', '--seed', '9', '--out', 'lsh']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--out: .*codes\.csv already exists \(use --force to overwrite\)/);
    expect(readFileSync(join(dir, 'lsh', 'codes.csv'), 'utf8')).toBe(before);
  });
});

/** hexToBits inverts codeToHex (the codes.csv encoding), also for lengths not a multiple of 4. */
describe('code hex encoding', () => {
  it('round-trips and puts bit 0 in the lowest bit of the last digit', async () => {
    const set: CodeSet = { codes: Uint32Array.from([0x00000001, 0x1, 0xdeadbeef, 0x2]), bits: 34, words: 2 };
    expect(codeToHex(set, 0)).toBe('100000001');
    expect(codeToHex(set, 1)).toBe('2deadbeef');
    expect(Array.from(hexToBits('2deadbeef', 34))).toEqual([0xdeadbeef, 0x2]);
  });
});
