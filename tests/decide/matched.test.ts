/**
 * A matched cell on constructed per-trial values: the observed crossing and u*, the bootstrap
 * shared by every entry (pairing: a constant shift far below the spread between trials is found),
 * the ranking's words (best, tied, an `all` entry never worse, none unranked), and m < 2.
 */
import { describe, expect, it } from 'vitest';
import { matchCell, type CellInput, type EntrySeries } from '../../src/decide/matched.js';
import { crossingOf } from '../../src/decide/crossing.js';
import { makeRng } from '../../src/random/rng.js';
import { normalSource } from '../../src/random/samplers.js';

const XIS = [0, 1, 2, 5, 10];
const M = 10;

/** An entry whose mean success at ξ_j is p[j] and mean loss u[j], with per-trial effects `trial` shared by every entry. */
function entry(label: string, p: number[], u: number[], trial: number[], noise: () => number, extra: Partial<EntrySeries> = {}): EntrySeries {
  return {
    label,
    xis: XIS,
    success: [p.map((x) => trial.map((s) => x + 0.1 * s + noise()))],
    loss: u.map((x) => trial.map((s) => x + s + noise())),
    releasable: true,
    ...extra,
  };
}

describe('matchCell', () => {
  const z = normalSource(makeRng('matched-test'));
  const shared = Array.from({ length: M }, () => 0.01 * z());
  const quiet = () => 0.00001 * z();
  const P = [0.002, 0.004, 0.008, 0.02, 0.05];
  const U = [0.2, 0.18, 0.16, 0.12, 0.1];

  it('the observed crossing is the means', () => {
    const e = entry('a', P, U, shared, quiet);
    const cell = matchCell({ trials: M, entries: [e], targets: [0.01], uRand: null }, { alpha: 0.05, seed: 's', b: 200 });
    const means = e.success[0].map((xs) => xs.reduce((a, b) => a + b, 0) / M);
    const c = crossingOf(XIS, means, 0.01);
    const r = cell.entries[0];
    expect(r.flag).toBe('interior');
    expect(r.xi).toBeCloseTo(c.xi, 12);
    const u = e.loss.map((xs) => xs.reduce((a, b) => a + b, 0) / M);
    expect(r.loss).toBeCloseTo(u[c.i] + c.f * (u[c.i + 1] - u[c.i]), 12);
    // one release: the per-trial successes at f, whose mean is T at an interior crossing
    expect(r.success[0]).toBeCloseTo(0.01, 10);
    expect(r.xiLow).toBeLessThanOrEqual(r.xi);
    expect(r.xiHigh).toBeGreaterThanOrEqual(r.xi);
    expect(r.lossSe).toBeGreaterThan(0);
    expect(r.retained.why).toBe('n/a (no random baseline in this folder)');
  });

  it('pairs the trials: a shift of 0.001 in loss under a spread of 0.01 between trials is found worse; an identical twin is tied', () => {
    const a = entry('a', P, U, shared, quiet);
    const shifted = { ...a, label: 'b', loss: a.loss.map((xs) => xs.map((x) => x + 0.001)) };
    const twin = { ...a, label: 'c' };
    const cell = matchCell({ trials: M, entries: [a, shifted, twin], targets: [0.01], uRand: null }, { alpha: 0.05, seed: 's', b: 500 });
    expect(cell.entries.map((e) => e.rank.kind)).toEqual(['tied', 'worse', 'tied']);
    expect(cell.entries[1].rank.position).toBe(3);
    expect(cell.entries[0].rank.tiedWith).toEqual([2]);
  });

  it('best alone when every other is worse; an all entry is never worse; none is not ranked', () => {
    const a = entry('a', P, U, shared, quiet);
    const worse = { ...a, label: 'b', loss: a.loss.map((xs) => xs.map((x) => x + 0.01)) };
    const all = entry(
      'all',
      [0.001, 0.001, 0.002, 0.003, 0.004],
      U.map((x) => x + 0.1),
      shared,
      quiet,
    );
    const none = entry('none', [0.05, 0.06, 0.07, 0.08, 0.09], U, shared, quiet);
    const cell = matchCell({ trials: M, entries: [a, worse, none], targets: [0.01], uRand: null }, { alpha: 0.05, seed: 's', b: 500 });
    expect(cell.entries.map((e) => e.rank.kind)).toEqual(['best', 'worse', 'unranked']);
    expect(cell.entries[2].flag).toBe('none');
    expect(Number.isNaN(cell.entries[2].loss)).toBe(true);
    const withAll = matchCell({ trials: M, entries: [a, all], targets: [0.01], uRand: null }, { alpha: 0.05, seed: 's', b: 500 });
    // the all entry's u* (0.2) is far above a's (about 0.153), yet it may only be an upper bound: open (unranked), not worse, and a is not shown better than it
    expect(withAll.entries[1].flag).toBe('all');
    expect(withAll.entries.map((e) => e.rank.kind)).toEqual(['tied', 'open']);
    expect(withAll.entries[0].rank.tiedWith).toEqual([1]);
    expect(Number.isNaN(withAll.entries[1].rank.p)).toBe(true);
    expect(withAll.entries[1].xi).toBe(10);
  });

  it('retained: (u_rand − u*)/(u_rand − u_lsh), shown when clean LSH is told from random', () => {
    const a = entry('a', P, U, shared, quiet);
    const lsh = { loss: shared.map((s) => 0.08 + s), success: [shared.map(() => 0.3)] };
    const cell = matchCell({ trials: M, entries: [a], targets: [0.01], lsh, uRand: 0.25 }, { alpha: 0.05, seed: 's', b: 300 });
    const uLsh = lsh.loss.reduce((x, y) => x + y, 0) / M;
    expect(cell.entries[0].retained.value).toBeCloseTo((0.25 - cell.entries[0].loss) / (0.25 - uLsh), 12);
    expect(cell.entries[0].retained.se).toBeGreaterThan(0);
    expect(cell.cleanMeets).toBe(false);
    const near = matchCell({ trials: M, entries: [a], targets: [0.01], lsh, uRand: uLsh + 0.0001 }, { alpha: 0.05, seed: 's', b: 300 });
    expect(near.entries[0].retained.why).toBe('n/a (clean LSH ≈ random)');
    const meets = matchCell({ trials: M, entries: [a], targets: [0.5], lsh, uRand: 0.25 }, { alpha: 0.05, seed: 's', b: 300 });
    expect(meets.cleanMeets).toBe(true);
  });

  it('one trial: no SE, no interval, no bound, no test', () => {
    const one: CellInput = { trials: 1, entries: [{ label: 'a', xis: [0, 1], success: [[[0.001], [0.02]]], loss: [[0.2], [0.1]], releasable: true }], targets: [0.01], uRand: null };
    const r = matchCell(one, { alpha: 0.05, seed: 's' }).entries[0];
    expect(r.xi).toBeCloseTo((0.009 / 0.019) * 1, 12);
    expect([Number.isNaN(r.lossSe), Number.isNaN(r.xiLow), r.release[0], r.rank.kind]).toEqual([true, true, null, 'untested']);
    // retained: not shown for want of an SE, which is not "clean LSH ≈ random"
    const withLsh = matchCell({ ...one, lsh: { loss: [0.05], success: [[0.3]] }, uRand: 0.3 }, { alpha: 0.05, seed: 's' }).entries[0];
    expect(withLsh.retained.why).toBe('n/a (m < 2)');
  });

  it('the same seed gives the same numbers', () => {
    const input: CellInput = { trials: M, entries: [entry('a', P, U, shared, quiet)], targets: [0.01], uRand: null };
    expect(matchCell(input, { alpha: 0.05, seed: 'x', b: 100 })).toEqual(matchCell(input, { alpha: 0.05, seed: 'x', b: 100 }));
  });
});
