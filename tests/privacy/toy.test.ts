import { describe, it, expect } from 'vitest';
import { analyzeToy, parsePoints, simpleFraction, PAPER_POINTS, type Point2 } from '../../src/privacy/toy.js';
import { makeRng } from '../../src/random/rng.js';

/** Monte Carlo frequencies of each deterministic function, r ~ N(0, I_2) (isotropic => uniform angle). */
function monteCarlo(points: Point2[], draws: number, seed: string): Map<string, number> {
  const rng = makeRng(seed);
  const counts = new Map<string, number>();
  for (let t = 0; t < draws; t++) {
    // Box-Muller: two independent normals give an isotropic direction
    const u1 = 1 - rng();
    const u2 = rng();
    const rad = Math.sqrt(-2 * Math.log(u1));
    const r0 = rad * Math.cos(2 * Math.PI * u2);
    const r1 = rad * Math.sin(2 * Math.PI * u2);
    const key = points.map((p) => (r0 * p[0] + r1 * p[1] >= 0 ? 1 : 0)).join('');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

function expectMatchesMonteCarlo(points: Point2[], seed: string): void {
  const draws = 200_000;
  const res = analyzeToy(points);
  const mc = monteCarlo(points, draws, seed);
  // every sampled function is one of the exact ones (ties r·x = 0 have probability 0)
  const exactKeys = new Set(res.functions.map((f) => f.outputs.join('')));
  for (const k of mc.keys()) expect(exactKeys.has(k)).toBe(true);
  for (const f of res.functions) {
    const freq = (mc.get(f.outputs.join('')) ?? 0) / draws;
    const se = Math.sqrt((f.probability * (1 - f.probability)) / draws);
    expect(Math.abs(freq - f.probability)).toBeLessThan(5 * se);
  }
}

describe('toy example of Sect. 4 (exact arrangement of hyperplanes)', () => {
  const res = analyzeToy(PAPER_POINTS);

  it("finds the paper's six functions h1..h6 with probabilities 1/8 x4, 1/4 x2", () => {
    // the table of Sect. 4, inputs (0,1), (1,0), (1,1)
    const paper: Record<string, [number[], number]> = {
      h1: [[1, 0, 0], 1 / 8],
      h2: [[0, 1, 1], 1 / 8],
      h3: [[1, 0, 1], 1 / 8],
      h4: [[0, 1, 0], 1 / 8],
      h5: [[1, 1, 1], 1 / 4],
      h6: [[0, 0, 0], 1 / 4],
    };
    expect(res.functions.map((f) => f.name)).toEqual(Object.keys(paper));
    for (const f of res.functions) {
      expect(f.outputs).toEqual(paper[f.name][0]);
      expect(f.probability).toBeCloseTo(paper[f.name][1], 12);
    }
    expect(res.functions.map((f) => f.fraction)).toEqual(['1/8', '1/8', '1/8', '1/8', '1/4', '1/4']);
    expect(res.functions.reduce((a, f) => a + f.probability, 0)).toBeCloseTo(1, 12);
  });

  it('the mixed channel leaks nothing; releasing the hyperplane leaks 1 bit half the time', () => {
    for (const row of res.channel) expect(row[1]).toBeCloseTo(0.5, 12);
    expect(res.channelMinEntropyLeakage).toBeCloseTo(0, 12);
    expect(res.channelShannonLeakage).toBeCloseTo(0, 12);
    expect(res.functions.map((f) => f.minEntropyLeakage)).toEqual([1, 1, 1, 1, 0, 0]);
    expect(res.expectedMinEntropyLeakage).toBeCloseTo(0.5, 12);
    // joint channel X -> (h, h(X)): log2(4·1/8·2 + 2·1/4·1) = log2(1.5)
    expect(res.jointMinEntropyLeakage).toBeCloseTo(Math.log2(1.5), 12);
    // Shannon: h1..h4 split 1 vs 2 inputs, H = log2 3 - 2/3
    expect(res.expectedShannonLeakage).toBeCloseTo(0.5 * (Math.log2(3) - 2 / 3), 12);
  });

  it('h1, h2 single out (0,1) and h3, h4 single out (1,0), as the paper says', () => {
    expect(res.functions.map((f) => f.singledOut)).toEqual([[0], [0], [1], [1], [], []]);
    expect(res.singledOutProbability[0]).toBeCloseTo(0.25, 12);
    expect(res.singledOutProbability[1]).toBeCloseTo(0.25, 12);
    expect(res.singledOutProbability[2]).toBe(0);
  });

  it('agrees with Monte Carlo over random hyperplanes (fixed seed, 5 standard errors)', () => {
    expectMatchesMonteCarlo(PAPER_POINTS, 'toy-paper');
    expectMatchesMonteCarlo(
      [
        [1, 0],
        [0, 1],
        [-1, 1],
        [2, -1],
        [0.3, 2],
      ],
      'toy-five',
    );
  });

  it('merges arcs giving the same function and handles collinear/antipodal points', () => {
    // x and 2x hash identically; x and -x always differ: two functions, 1/2 each
    const r = analyzeToy([
      [1, 1],
      [2, 2],
      [-1, -1],
    ]);
    expect(r.functions.map((f) => f.outputs)).toEqual([
      [1, 1, 0],
      [0, 0, 1],
    ]);
    for (const f of r.functions) expect(f.probability).toBeCloseTo(0.5, 12);
    // a single point: h is a fair coin; no information
    const one = analyzeToy([[3, -4]]);
    expect(one.functions.map((f) => f.probability)).toEqual([0.5, 0.5].map((p) => expect.closeTo(p, 12)));
    expect(one.expectedMinEntropyLeakage).toBe(0);
  });

  it('parses points and rejects bad ones', () => {
    expect(parsePoints('0,1; 1,0 ;1.5,-2')).toEqual([
      [0, 1],
      [1, 0],
      [1.5, -2],
    ]);
    expect(() => parsePoints('1,x')).toThrow(/point 1/);
    expect(() => parsePoints('1,2,3')).toThrow(/point 1/);
    expect(() => parsePoints('')).toThrow(/no points/);
    expect(() => analyzeToy([[0, 0]])).toThrow(/origin/);
    expect(simpleFraction(0.125)).toBe('1/8');
    expect(simpleFraction(0)).toBe('0');
    expect(simpleFraction(Math.PI / 10)).toBeNull();
  });
});
