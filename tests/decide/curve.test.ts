/**
 * The curve of retained against T (the figure "utility retained at matched attack success"): at a
 * target it is choose's u* and retained (matchCell, the same cell and seed); its band is the 5% and
 * 95% quantile of retained over the very resamples, recomputed here the slow way (every resample's
 * means pooled and crossed from scratch, sorted); it contains the point estimate; the sweep's
 * spacing; the selection's quantiles are the sorted array's.
 */
import { describe, expect, it } from 'vitest';
import { cellResamples, curveOfCell, targetSweep } from '../../src/decide/curve.js';
import { matchCell, type CellInput, type EntrySeries } from '../../src/decide/matched.js';
import { crossingOf } from '../../src/decide/crossing.js';
import { bootstrapWeights, quantileOf, weightedMean } from '../../src/decide/resample.js';
import { selectQuantiles } from '../../src/decide/select.js';
import { retained } from '../../src/stats/retained.js';
import { makeRng } from '../../src/random/rng.js';
import { normalSource } from '../../src/random/samplers.js';

const XIS = [0, 1, 2, 5, 10];
const M = 10;
const z = normalSource(makeRng('curve-test'));

function entry(label: string, p: number[], u: number[]): EntrySeries {
  const shared = Array.from({ length: M }, () => 0.01 * z());
  return {
    label,
    xis: XIS,
    success: [p.map((x) => shared.map((s) => x + 0.2 * s + 0.002 * z()))],
    loss: u.map((x) => shared.map((s) => x + s + 0.002 * z())),
    releasable: true,
  };
}

const U_RAND = 0.2;
const cell: CellInput = {
  trials: M,
  targets: [0.01],
  entries: [
    entry('a', [0.002, 0.004, 0.008, 0.02, 0.05], [0.2, 0.18, 0.16, 0.12, 0.1]),
    entry('b', [0.002, 0.003, 0.012, 0.016, 0.03], [0.2, 0.19, 0.15, 0.14, 0.11]),
    // a violator pooled by PAVA, and an entry that meets every T of the test (all)
    entry('c', [0.003, 0.009, 0.006, 0.03, 0.06], [0.2, 0.17, 0.16, 0.11, 0.1]),
    entry('d', [0.001, 0.001, 0.002, 0.002, 0.003], [0.2, 0.2, 0.19, 0.18, 0.17]),
  ],
  lsh: { loss: Array.from({ length: M }, () => 0.08 + 0.003 * z()), success: [Array.from({ length: M }, () => 0.3 + 0.01 * z())] },
  uRand: U_RAND,
};

describe('curveOfCell', () => {
  it("at a target: choose's ξ*, u* and retained (same cell, same seed)", () => {
    for (const t of [0.0005, 0.005, 0.01, 0.015, 0.025]) {
      const seed = `seed-${t}`;
      const matched = matchCell({ ...cell, targets: [t] }, { alpha: 0.05, seed, b: 300 });
      const curve = curveOfCell(cell, 0, [t], seed, 300);
      expect(curve.why).toBe('');
      for (const [x, e] of matched.entries.entries()) {
        const p = curve.points[x];
        expect(p.mechanism).toBe(e.label);
        expect(p.flag).toBe(e.flag);
        if (e.flag === 'none') {
          expect(p.retained).toBeNull();
          continue;
        }
        expect(p.xi).toBe(e.xi);
        expect(p.loss).toBe(e.loss);
        expect(p.retained).toBe(e.retained.value);
      }
    }
    // the cases above pass through every flag
    const flags = [0.0005, 0.005, 0.01, 0.015, 0.025].flatMap((t) => curveOfCell(cell, 0, [t], 's', 10).points.map((p) => p.flag));
    expect(new Set(flags)).toEqual(new Set(['interior', 'all', 'none']));
  });

  it('the band: 5% and 95% of retained over the resamples, computed the slow way, around the point', () => {
    const ts = [0.004, 0.008, 0.012, 0.02];
    const b = 400;
    const curve = curveOfCell(cell, 0, ts, 'band', b);
    const weights = bootstrapWeights(M, b, 'band');
    let banded = 0;
    for (const p of curve.points) {
      const e = cell.entries.find((x) => x.label === p.mechanism)!;
      const values = weights.map((w) => {
        const c = crossingOf(
          e.xis,
          e.success[0].map((xs) => weightedMean(xs, w)),
          p.target,
        );
        if (c.flag === 'none') return Number.NEGATIVE_INFINITY;
        const u = e.loss.map((xs) => weightedMean(xs, w));
        const at = c.f > 0 ? u[c.i] + c.f * (u[c.i + 1] - u[c.i]) : u[c.i];
        return retained(at, U_RAND, weightedMean(cell.lsh!.loss, w));
      });
      const sorted = [...values].sort((x, y) => x - y);
      const lo = quantileOf(sorted, 0.05);
      const hi = quantileOf(sorted, 0.95);
      if (p.flag === 'none') {
        expect([p.retained, p.low, p.high]).toEqual([null, null, null]);
        continue;
      }
      expect(p.low).toBe(Number.isFinite(lo) ? lo : null);
      expect(p.high).toBe(Number.isFinite(hi) ? hi : null);
      if (p.low !== null && p.high !== null) {
        banded++;
        expect(p.low).toBeLessThanOrEqual(p.retained!);
        expect(p.high).toBeGreaterThanOrEqual(p.retained!);
        expect(p.high).toBeGreaterThan(p.low);
      }
    }
    expect(banded).toBeGreaterThan(8);
  });

  it("two target kinds share one draw of the resamples and losses: each kind's points are those of a draw of its own, and its band the slow way's", () => {
    // a second kind: another attack's per-trial success on the same trials
    const two: CellInput = {
      ...cell,
      entries: cell.entries.map((e) => ({ ...e, success: [e.success[0], e.success[0].map((xs) => xs.map((x) => 3 * x + 0.001))] })),
      lsh: { ...cell.lsh!, success: [cell.lsh!.success[0], cell.lsh!.success[0]] },
    };
    const b = 300;
    const shared = cellResamples(two, 'kinds', b);
    // the second kind with more T than the first: the shared scratch grows
    const sweeps = [
      [0.004, 0.012],
      [0.006, 0.012, 0.03, 0.05, 0.08],
    ];
    const weights = bootstrapWeights(M, b, 'kinds');
    let banded = 0;
    sweeps.forEach((ts, g) => {
      const own = curveOfCell(two, g, ts, 'kinds', b);
      const got = curveOfCell(two, g, ts, 'kinds', b, shared);
      expect(got).toEqual(own);
      for (const p of got.points) {
        if (p.low === null || p.high === null) continue;
        const e = two.entries.find((x) => x.label === p.mechanism)!;
        const values = weights.map((w) => {
          const c = crossingOf(
            e.xis,
            e.success[g].map((xs) => weightedMean(xs, w)),
            p.target,
          );
          if (c.flag === 'none') return Number.NEGATIVE_INFINITY;
          const u = e.loss.map((xs) => weightedMean(xs, w));
          return retained(c.f > 0 ? u[c.i] + c.f * (u[c.i + 1] - u[c.i]) : u[c.i], U_RAND, weightedMean(two.lsh!.loss, w));
        });
        const sorted = [...values].sort((x, y) => x - y);
        expect([p.low, p.high]).toEqual([quantileOf(sorted, 0.05), quantileOf(sorted, 0.95)]);
        banded++;
      }
    });
    expect(banded).toBeGreaterThan(10);
  });

  it('no curve where retained is not shown: clean LSH like random, or no u_rand', () => {
    const flat = { ...cell, lsh: { ...cell.lsh!, loss: cell.lsh!.loss.map((x) => x - 0.08 + U_RAND) } };
    const c = curveOfCell(flat, 0, [0.01], 's', 50);
    expect(c.why).toMatch(/clean LSH/);
    expect(c.points.every((p) => p.retained === null && p.low === null)).toBe(true);
    expect(c.points.some((p) => p.loss !== null)).toBe(true);
    expect(curveOfCell({ ...cell, uRand: null }, 0, [0.01], 's', 50).why).toMatch(/no random baseline/);
  });

  it('one trial: points without a band', () => {
    const one = { ...cell, trials: 1, entries: cell.entries.map((e) => ({ ...e, success: [e.success[0].map((xs) => xs.slice(0, 1))], loss: e.loss.map((xs) => xs.slice(0, 1)) })) };
    const c = curveOfCell({ ...one, lsh: { loss: [0.08], success: [[0.3]] } }, 0, [0.01], 's');
    // one trial: no SE of clean LSH, so retained's rule cannot show it
    expect(c.points.every((p) => p.low === null && p.high === null)).toBe(true);
  });
});

describe('targetSweep', () => {
  it('log-spaced from lo to hi, the targets added', () => {
    const s = targetSweep(0.001, 0.1, 30, true, [0.01, 0.5, 0]);
    expect(s.length).toBe(32);
    expect(s[0]).toBe(0.001);
    expect(s[30]).toBe(0.1);
    expect(s).toContain(0.01);
    expect(s[31]).toBe(0.5);
    const ratios = targetSweep(0.001, 0.1, 30, true)
      .map((x, i, a) => (i ? x / a[i - 1] : 0))
      .slice(1);
    for (const r of ratios) expect(r).toBeCloseTo(100 ** (1 / 29), 10);
  });
  it('linear from 0; nothing for an empty range', () => {
    const s = targetSweep(0, 0.3, 4, false);
    expect(s.map((x) => Number(x.toFixed(12)))).toEqual([0, 0.1, 0.2, 0.3]);
    expect(targetSweep(0.2, 0.1, 30, false)).toEqual([]);
    expect(targetSweep(0, 0.1, 30, true)).toEqual([]);
  });
});

describe('selectQuantiles', () => {
  it('is quantileOf of the sorted values, with ties and infinities', () => {
    const rng = makeRng('select');
    for (let trial = 0; trial < 200; trial++) {
      const n = 1 + Math.floor(rng() * 300);
      const xs = Array.from({ length: n }, () => {
        const u = rng();
        return u < 0.1 ? Number.NEGATIVE_INFINITY : u < 0.15 ? Number.POSITIVE_INFINITY : Math.round(rng() * 20) / 4;
      });
      const sorted = [...xs].sort((a, b) => a - b);
      const qs = [0.05, 0.5, 0.95, 0, 1];
      expect(selectQuantiles(Float64Array.from(xs), qs)).toEqual(qs.map((q) => quantileOf(sorted, q)));
    }
    expect(selectQuantiles(new Float64Array(0), [0.5])).toEqual([Number.NaN]);
  });
});
