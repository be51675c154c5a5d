import { describe, it, expect } from 'vitest';
import { parseConfig } from '../../src/experiment/config.js';
import { expandCells, assignShards, cellHash, parseShard, trialSpec } from '../../src/experiment/grid.js';
import { makeRng } from '../../src/random/rng.js';
import { fakeEngine, FAKE_CONFIG } from './fakeEngine.js';

const info = (n: string) => fakeEngine().mechanism(n);

describe('grid', () => {
  it('expands an exact cell per (dataset, n) and a trial cell per (dataset, n, kappa, trial)', () => {
    const cfg = parseConfig(FAKE_CONFIG, 'f.yaml');
    const cells = expandCells(cfg);
    expect(cells.filter((c) => c.kind === 'exact')).toHaveLength(2 * 2);
    expect(cells.filter((c) => c.kind === 'trial')).toHaveLength(2 * 2 * 2 * 3);
    expect(new Set(cells.map((c) => c.key)).size).toBe(cells.length);
    expect(cells[0].key).toBe('exact_a_n5');
    expect(cells[1].key).toBe('trial_a_n5_kappa4_t0');
  });

  it('hashes change with every value that determines a cell, and only those', () => {
    const cfg = parseConfig(FAKE_CONFIG, 'f.yaml');
    const cell = expandCells(cfg)[1];
    const exact = expandCells(cfg)[0];
    const h = cellHash(cfg, cell, { x: 1 }, info);
    expect(cellHash(cfg, cell, { x: 1 }, info)).toBe(h);
    expect(cellHash(cfg, cell, { x: 2 }, info)).not.toBe(h); // input changed
    const xi = parseConfig(FAKE_CONFIG.replace('xi: [0, 1, 2]', 'xi: [0, 1, 3]'), 'f.yaml');
    expect(cellHash(xi, cell, { x: 1 }, info)).not.toBe(h);
    expect(cellHash(xi, exact, { x: 1 }, info)).toBe(cellHash(cfg, exact, { x: 1 }, info)); // exact cells do not use xi
    const seed = parseConfig(FAKE_CONFIG.replace('seed: 3', 'seed: 4'), 'f.yaml');
    expect(cellHash(seed, cell, { x: 1 }, info)).not.toBe(h);
    const mech = parseConfig(FAKE_CONFIG.replace('laplsh]', '{name: laplsh, sampler: direct}]'), 'f.yaml');
    expect(cellHash(mech, cell, { x: 1 }, info)).not.toBe(h);
    expect(trialSpec(mech, cell as never, info).mechanisms.find((m) => m.name === 'laplsh')!.options).toEqual({ sampler: 'direct' });
  });

  it('assigns every cell to exactly one shard, deterministically and balanced (LPT bound)', () => {
    const rng = makeRng('shards');
    const costs = Array.from({ length: 57 }, () => 1 + Math.floor(rng() * 100));
    for (const count of [1, 2, 3, 5]) {
      const a = assignShards(costs, count);
      expect(Array.from(assignShards(costs, count))).toEqual(Array.from(a));
      const load = new Array(count).fill(0);
      a.forEach((s, i) => {
        expect(s).toBeGreaterThanOrEqual(0);
        expect(s).toBeLessThan(count);
        load[s] += costs[i];
      });
      // greedy longest-first: the heaviest shard exceeds the mean by at most one cell's cost
      const total = costs.reduce((x, y) => x + y, 0);
      expect(Math.max(...load)).toBeLessThanOrEqual(total / count + Math.max(...costs));
    }
  });

  it('parses --shard i/N', () => {
    expect(parseShard('2/3')).toEqual({ index: 2, count: 3 });
    expect(() => parseShard('0/3')).toThrow('--shard: need 1 <= i <= N');
    expect(() => parseShard('4/3')).toThrow('--shard');
    expect(() => parseShard('a')).toThrow('--shard: expected i/N');
  });
});
