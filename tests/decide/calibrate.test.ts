/**
 * calibrate's search on a known monotone curve: p(ξ) = 0.002 + 0.3 / (1 + (4/ξ)²) (a logistic in
 * log ξ), whose crossing with T = 0.05 is ξ_true = 4 / √5.25 in closed form. Without noise the
 * search must end inside its stopping rule (bracket within 5%, or a bracket end within 0.1 T of T);
 * with seeded normal noise (m trials of sd σ per ξ, drawn once per ξ as a run would) it must end
 * with a ξ* whose true success is within the stopping rule's tolerance plus the noise of the end it
 * stopped on (3 SE), for each of 200 seeds.
 */
import { describe, expect, it } from 'vitest';
import { CALIBRATE_ROUNDS, roundXi, searchStep, searchStepOne, type SearchState } from '../../src/decide/calibrate.js';
import { crossingOf, pava } from '../../src/decide/crossing.js';
import { deriveSeed, makeRng } from '../../src/random/rng.js';
import { normalSource } from '../../src/random/samplers.js';

const T = 0.05;
const curve = (xi: number) => 0.002 + 0.3 / (1 + (4 / xi) ** 2);
const XI_TRUE = 4 / Math.sqrt(0.3 / (T - 0.002) - 1);
const GRID = [0, 1, 10, 20];

/** The search from GRID, round by round, on m noisy trials per ξ (σ 0: the exact curve). */
function search(seed: number, sigma: number, m: number): { xis: number[]; state: SearchState; rounds: number; xiStar: number } {
  const trials = new Map<number, number[]>();
  const at = (xi: number) => {
    if (!trials.has(xi)) {
      const normal = normalSource(makeRng(deriveSeed(seed, 'calibrate-test', xi)));
      trials.set(
        xi,
        Array.from({ length: m }, () => (xi === 0 ? 0.002 : curve(xi)) + sigma * normal()),
      );
    }
    return trials.get(xi)!;
  };
  let xis = [...GRID];
  let state: SearchState = 'step';
  let rounds = 0;
  for (; rounds < CALIBRATE_ROUNDS; rounds++) {
    const s = searchStepOne(xis, xis.map(at), T);
    state = s.state;
    if (s.xi === null) break;
    expect(xis).not.toContain(s.xi);
    xis = [...xis, s.xi].sort((a, b) => a - b);
  }
  const means = xis.map((x) => at(x).reduce((a, b) => a + b, 0) / m);
  return { xis, state, rounds, xiStar: crossingOf(xis, pava(means), T, true).xi };
}

describe('calibrate: the search on a known curve', () => {
  it('without noise: ends inside its stopping rule, near the closed-form crossing', () => {
    const r = search(1, 0, 4);
    expect(['bracketed', 'near']).toContain(r.state);
    expect(r.rounds).toBeLessThan(CALIBRATE_ROUNDS);
    // the grid alone is far off: its crossing's true success is 0.032
    expect(
      Math.abs(
        curve(
          crossingOf(
            GRID,
            GRID.map((x) => (x === 0 ? 0.002 : curve(x))),
            T,
          ).xi,
        ) - T,
      ),
    ).toBeGreaterThan(0.015);
    expect(Math.abs(curve(r.xiStar) - T)).toBeLessThanOrEqual(0.1 * T);
    expect(Math.abs(r.xiStar / XI_TRUE - 1)).toBeLessThan(0.05);
  });

  it('with seeded noise: every one of 200 seeds ends within the rule plus 3 SE of the true crossing', () => {
    const sigma = 0.005;
    const m = 10;
    const se = sigma / Math.sqrt(m);
    let worst = 0;
    for (let seed = 0; seed < 200; seed++) {
      const r = search(seed, sigma, m);
      expect(r.state).not.toBe('none');
      const err = Math.abs(curve(r.xiStar) - T);
      worst = Math.max(worst, err);
      expect(err, `seed ${seed}: ξ* ${r.xiStar} over ${r.xis.join(' ')}`).toBeLessThanOrEqual(Math.max(2 * se, 0.1 * T) + 3 * se);
    }
    expect(worst).toBeGreaterThan(0);
  });

  it('all: doubles past the top until T is crossed; none: adds nothing', () => {
    const low = (xis: number[]) => xis.map((x) => [x / 1000 - 0.0001, x / 1000 + 0.0001]);
    expect(searchStepOne([0, 5, 10], low([0, 5, 10]), 0.1)).toMatchObject({ state: 'beyond', xi: 20 });
    expect(searchStepOne([0], [[0], [0]].slice(0, 1), 0.1)).toMatchObject({ state: 'beyond', xi: 1 });
    expect(searchStepOne([1, 2], [[0.5], [0.6]], 0.1)).toMatchObject({ state: 'none', xi: null });
    // the top two within 2 SE of their difference no longer stop it (the old rule): three points spanning 4× must
    expect(
      searchStepOne(
        [0, 20, 40],
        [
          [0, 0],
          [0.007, 0.009],
          [0.009, 0.011],
        ],
        0.05,
      ),
    ).toMatchObject({ state: 'beyond', xi: 80 });
    // 10, 20, 40 span 4×, the top within 2·√2·0.001 of each: flat, with its evidence
    expect(
      searchStepOne(
        [0, 10, 20, 40],
        [
          [0, 0],
          [0.007, 0.009],
          [0.008, 0.01],
          [0.009, 0.011],
        ],
        0.05,
      ),
    ).toMatchObject({ state: 'flat', xi: null, evidence: { xiFrom: 10, xiTo: 40, from: expect.closeTo(0.008, 12), to: expect.closeTo(0.01, 12) } });
    // the same with a rise over the span beyond 2 SE (0.002 > 2√2·0.0005): not flat
    expect(
      searchStepOne(
        [0, 10, 20, 40],
        [
          [0, 0],
          [0.0075, 0.0085],
          [0.0085, 0.0095],
          [0.0095, 0.0105],
        ],
        0.05,
      ).state,
    ).toBe('beyond');
    // a run of exact zeros measures no rise: not flat
    expect(
      searchStepOne(
        [0, 5, 10, 20],
        [
          [0, 0],
          [0, 0],
          [0, 0],
          [0, 0],
        ],
        0.05,
      ),
    ).toMatchObject({ state: 'beyond', xi: 40 });
    // the noise-free limit: clean LSH's success at or below T: no crossing (ceiling); above: no flat, it doubles
    const flatSeries = [
      [0, 0],
      [0.007, 0.009],
      [0.008, 0.01],
      [0.009, 0.011],
    ];
    expect(searchStepOne([0, 10, 20, 40], flatSeries, 0.05, [0.03, 0.04])).toMatchObject({ state: 'ceiling', xi: null, evidence: { from: expect.closeTo(0.035, 12) } });
    expect(searchStepOne([0, 10, 20, 40], flatSeries, 0.05, [0.3, 0.4])).toMatchObject({ state: 'beyond', xi: 80 });
    // the top within 0.1 T of T: stop
    expect(searchStepOne([0, 5, 10], [[0], [0.05], [0.095]], 0.1)).toMatchObject({ state: 'near', xi: null });
  });

  it('interior: a secant step in log ξ (linear from ξ_0 = 0), kept in the bracket’s middle 80%, rounded to 3 digits', () => {
    // pooled 0.01 at 1, 0.1 at 100: f = 0.5, log-midpoint 10
    expect(searchStepOne([1, 100], [[0.01], [0.1]], 0.055)).toMatchObject({ state: 'step', xi: 10 });
    // from 0: linear, f·ξ_1 = 0.5·3 = 1.5
    expect(searchStepOne([0, 3], [[0], [0.2]], 0.1)).toMatchObject({ state: 'step', xi: 1.5 });
    // f 10.8/11 (an auc advantage may be negative) is held at 0.9: 2·(4/2)^0.9 = 3.7321 → 3.73
    expect(searchStepOne([2, 4], [[-10], [1]], 0.8)).toMatchObject({ state: 'step', xi: roundXi(2 * 2 ** 0.9) });
    expect(roundXi(2 * 2 ** 0.9)).toBe(3.73);
    // a bracket within 5%: stop
    expect(searchStepOne([2, 2.09], [[0], [1]], 0.5)).toMatchObject({ state: 'bracketed', xi: null });
    expect(searchStepOne([1, 1.000001], [[0], [1]], 0.5).state).toBe('bracketed');
    // an end within max(2 SE, 0.1 T) of T: stop (SE of [0.04, 0.06] is 0.01: 2 SE = 0.02)
    expect(
      searchStepOne(
        [1, 10],
        [
          [0.04, 0.06],
          [0.5, 0.5],
        ],
        0.069,
      ),
    ).toMatchObject({ state: 'near' });
    expect(
      searchStepOne(
        [1, 10],
        [
          [0.04, 0.06],
          [0.5, 0.5],
        ],
        0.2,
      ).state,
    ).toBe('step');
  });

  it('two targets: none if either is, else the binding (smaller) crossing’s step', () => {
    const xis = [1, 100];
    const reid = [[0.01], [0.1]];
    const auc = [[0.0], [0.2]];
    // reid crosses 0.055 at 10; auc crosses 0.02 at 100^0.1 ≈ 1.58: auc binds
    const s = searchStep(xis, [reid, auc], [0.055, 0.02]);
    expect(s.binding).toBe(1);
    expect(s.xi).toBe(roundXi(100 ** 0.1));
    expect(searchStep(xis, [reid, auc], [0.005, 0.02]).state).toBe('none');
    expect(() => searchStep(xis, [reid], [0.1, 0.2])).toThrow(RangeError);
    // both above the grid: the target whose search goes on binds over one with no crossing (ceiling)
    const low = [[0.001], [0.002]];
    const both = searchStep(xis, [low, low], [0.055, 0.02], [[0.01], null]);
    expect(both).toMatchObject({ binding: 1, state: 'beyond', xi: 200 });
    expect(searchStep(xis, [low, low], [0.055, 0.02], [[0.01], [0.01]])).toMatchObject({ binding: 0, state: 'ceiling' });
  });
});
