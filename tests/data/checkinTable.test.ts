import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { generateCheckinTable } from '../../src/data/checkinTable.js';
import { resolveSynthOptions } from '../../src/data/synth.js';
import { inspectDataset } from '../../src/knn/inspect.js';
import { distinctCodes } from '../../src/lsh/distinctCodes.js';
import { makeRng } from '../../src/random/rng.js';
import type { UserVectors } from '../../src/data/types.js';

const tmp = () => mkdtempSync(join(tmpdir(), 'lshdp-checkins-'));

/**
 * The real New York Foursquare table's statistics as `lshdp data inspect` prints them (issue 55;
 * the table itself cannot be shared): the preset must come within 10% of each.
 */
const REAL = {
  users: 3785,
  items: 3628,
  pairs: 48840,
  n100: { kept: 3177, nnz: 3.64, median: 0.129, within01: 0.445 },
  n1000: { kept: 3660, nnz: 8.78, median: 0.25 },
};
const near = (got: number, want: number) => expect(Math.abs(got / want - 1), `${got} against ${want}`).toBeLessThanOrEqual(0.1);

describe('synthetic preset checkins-nyc', () => {
  const opts = resolveSynthOptions({ preset: 'checkins-nyc' });

  it('is deterministic given the seed, and the seed matters; rows are TSMC 2014 lines', () => {
    const small = { ...opts, users: 600, items: 600, ratings: 7000 };
    const a = generateCheckinTable(small, tmp());
    const b = generateCheckinTable(small, tmp());
    const c = generateCheckinTable({ ...small, seed: 2 }, tmp());
    const bytes = readFileSync(a[0]!.path);
    expect(readFileSync(b[0]!.path).equals(bytes)).toBe(true);
    expect(readFileSync(c[0]!.path).equals(bytes)).toBe(false);
    const lines = bytes.toString('latin1').split('\n');
    expect(lines.at(-1)).toBe('');
    expect(lines.length - 1).toBe(a[0]!.lines);
    expect(a[0]!.bytes).toBe(bytes.length);
    // userId venueId categoryId category lat lon offset time, as the foursquare-tsmc reader expects
    for (const l of [lines[0]!, lines[a[0]!.lines - 1]!])
      expect(l).toMatch(/^\d+\t[0-9a-f]{24}\t[0-9a-f]{24}\t[^\t]+\t40\.\d{6}\t-7[34]\.\d{6}\t-240\t\w{3} \w{3} \d\d \d\d:\d\d:\d\d \+0000 201[23]$/);
  });

  it("comes within 10% of the real table's statistics (users, items, pairs, kept, non-zeros, 1-NN distances)", async () => {
    const r = await inspectDataset({ name: 'checkins-nyc', format: 'synthetic', preset: 'checkins-nyc' }, [100, 1000], {
      cacheDir: null,
      synthDir: tmp(),
      codes: { kappas: [10], count: (v: UserVectors, kappa, rng) => distinctCodes(v, kappa, rng) },
    });
    const s = r.summary;
    expect(s.users).toBe(REAL.users); // exact by construction: every user checks in
    expect(s.interactions).toBe(REAL.pairs); // exact: the preset's `ratings` are the pairs
    near(s.items, REAL.items);
    const [d100, d1000] = s.perDim;
    const [nn100, nn1000] = r.nn;
    near(d100!.usersKept, REAL.n100.kept);
    near(d100!.meanNnz, REAL.n100.nnz);
    near(nn100!.median, REAL.n100.median);
    near(nn100!.within.find(([t]) => t === 0.1)![1], REAL.n100.within01);
    near(d1000!.usersKept, REAL.n1000.kept);
    near(d1000!.meanNnz, REAL.n1000.nnz);
    near(nn1000!.median, REAL.n1000.median);
    // codes collide massively at κ 10: far fewer distinct codes than users, never more than 2^10
    for (const nn of r.nn) {
      const [[kappa, distinct]] = nn.codes!;
      expect(kappa).toBe(10);
      expect(distinct).toBeLessThanOrEqual(1024);
    }
    expect(r.nn[0]!.codes![0]![1]).toBeLessThan(d100!.usersKept / 3);
  });

  it('counts distinct codes: equal vectors share a code, and κ bounds them', () => {
    // three users: two the same direction (scaled), one its opposite
    const v: UserVectors = {
      dataset: 't',
      n: 3,
      userIds: ['a', 'b', 'c'],
      itemIds: ['x', 'y', 'z'],
      rowPtr: Int32Array.from([0, 2, 4, 6]),
      colIdx: Int32Array.from([0, 1, 0, 1, 0, 1]),
      values: Float64Array.from([1, 2, 2, 4, -1, -2]),
      dropped: 0,
    };
    expect(distinctCodes(v, 8, makeRng('t'))).toBe(2);
    expect(distinctCodes(v, 40, makeRng('t'))).toBe(2);
  });
});
