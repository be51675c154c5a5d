import { describe, it, expect } from 'vitest';
import { parseConfig } from '../../src/experiment/config.js';
import { expandCells, exactHash, resultHash, trialResultHashes, trialResults, type ExactCell, type TrialCell } from '../../src/experiment/grid.js';
import { assignShards, parseShard } from '../../src/machinery/shards.js';
import { makeRng } from '../../src/random/rng.js';
import { fakeEngine, FAKE_CONFIG } from '../helpers/fakeEngine.js';

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

  it('result hashes change with every value that determines a result, and only those', () => {
    const cfg = parseConfig(FAKE_CONFIG, 'f.yaml');
    const cell = expandCells(cfg)[1] as TrialCell;
    const exact = expandCells(cfg)[0] as ExactCell;
    const results = trialResults(cfg, info);
    const lsh = results.find((r) => r.base === 'lsh')!;
    const rr = results.find((r) => r.base === 'lshrr' && r.xi === 1)!;
    const h = (c: typeof cfg, r = rr, input: unknown = { x: 1 }) => resultHash(c, cell, r, input, info);
    expect(h(cfg)).toBe(h(cfg));
    expect(h(cfg, rr, { x: 2 })).not.toBe(h(cfg)); // input changed
    // growing xi, k or trials never changes an existing result
    const grown = parseConfig(FAKE_CONFIG.replace('xi: [0, 1, 2]', 'xi: [0, 1, 2, 3]').replace('k: [1, 3]', 'k: [1, 3, 5]').replace('trials: 3', 'trials: 4'), 'f.yaml');
    expect(h(grown)).toBe(h(cfg));
    expect(exactHash(grown, exact, { x: 1 })).toBe(exactHash(cfg, exact, { x: 1 }));
    const seed = parseConfig(FAKE_CONFIG.replace('seed: 3', 'seed: 4'), 'f.yaml');
    expect(h(seed)).not.toBe(h(cfg));
    expect(exactHash(seed, exact, { x: 1 })).not.toBe(exactHash(cfg, exact, { x: 1 }));
    // delta changes what xi means for lshrr, never lsh (no budget)
    const delta = parseConfig(FAKE_CONFIG.replace('delta: 0.01', 'delta: 0.02'), 'f.yaml');
    expect(h(delta)).not.toBe(h(cfg));
    expect(h(delta, lsh)).toBe(h(cfg, lsh));
    // options are part of the identity; the label is not
    const mech = parseConfig(FAKE_CONFIG.replace('laplsh]', '{name: laplsh, sampler: direct, label: lap-direct}]'), 'f.yaml');
    const direct = trialResults(mech, info).find((r) => r.base === 'laplsh' && r.xi === 1)!;
    const plain = results.find((r) => r.base === 'laplsh' && r.xi === 1)!;
    expect(direct.id).not.toBe(plain.id);
    expect(direct.options).toEqual({ sampler: 'direct' });
    const relabelled = parseConfig(FAKE_CONFIG.replace('laplsh]', '{name: laplsh, label: lap}]'), 'f.yaml');
    expect(trialResults(relabelled, info).map((r) => r.id)).toEqual(results.map((r) => r.id));
  });

  it('a result hash is the SHA-256 of stableStringify of its body (the assembled text is that text)', async () => {
    const { sha256Hex, stableStringify } = await import('../../src/util/hash.js');
    const { ALGORITHM_VERSION } = await import('../../src/experiment/version.js');
    const cfg = parseConfig(FAKE_CONFIG.replace('laplsh]', '{name: laplsh, sampler: direct, label: lap-direct}, laplsh]'), 'f.yaml');
    const versioned = (n: string) => (n === 'laplsh' ? { ...info(n), algorithm: '7' } : info(n));
    const inputs: unknown[] = [{ spec: { name: 'a', nested: { z: 1, a: [1, { y: 2, b: 3 }] } }, inputs: [{ sha256: 'f', bytes: 3 }] }, null, 'text', 42];
    for (const lookup of [info, versioned]) {
      for (const input of inputs) {
        for (const cell of expandCells(cfg)
          .filter((c): c is TrialCell => c.kind === 'trial')
          .slice(0, 3)) {
          for (const r of trialResults(cfg, lookup)) {
            const mi = lookup(r.base);
            const body = {
              algorithm: ALGORITHM_VERSION,
              input,
              seed: cfg.seed,
              queries: cfg.queries,
              cell: { dataset: cell.dataset, n: cell.n, kappa: cell.kappa, trial: cell.trial },
              result: { base: r.base, options: r.options, xi: r.xi },
              privacy: mi.usesXi ? { d: cfg.privacy.d, delta: cfg.privacy.delta } : null,
              ...(mi.algorithm ? { mechanism_algorithm: mi.algorithm } : {}),
            };
            expect(resultHash(cfg, cell, r, input, lookup), `${cell.key} ${r.id}`).toBe(sha256Hex(stableStringify(body)));
          }
        }
        // the plan's batch: every hash as resultHash's, for every trial cell
        const cells = expandCells(cfg).filter((c): c is TrialCell => c.kind === 'trial');
        const results = trialResults(cfg, lookup);
        const batch = trialResultHashes(cfg, cells, results, () => input, lookup);
        expect([...batch.keys()]).toEqual(cells.map((c) => c.key));
        for (const cell of cells) {
          expect([...batch.get(cell.key)!.keys()]).toEqual(results.map((r) => r.id));
          for (const r of results) expect(batch.get(cell.key)!.get(r.id), `${cell.key} ${r.id}`).toBe(resultHash(cfg, cell, r, input, lookup));
        }
      }
    }
    // a data set whose name holds the result's mark (resultHash's second replace meets it first): the fallback gives resultHash's hash
    const odd = { ...(expandCells(cfg).find((c) => c.kind === 'trial') as TrialCell), dataset: '\u0000result\u0000', key: 'odd' };
    const r0 = trialResults(cfg, info)[0]!;
    expect(
      trialResultHashes(cfg, [odd], [r0], () => null, info)
        .get('odd')!
        .get(r0.id),
    ).toBe(resultHash(cfg, odd, r0, null, info));
  });

  it("a mechanism's own algorithm version changes its results' hashes and no other's", () => {
    const cfg = parseConfig(FAKE_CONFIG, 'f.yaml');
    const cell = expandCells(cfg)[1] as TrialCell;
    const results = trialResults(cfg, info);
    const bumped = (n: string) => (n === 'laplsh' ? { ...info(n), algorithm: 'draws2' } : info(n));
    const bumpedTwice = (n: string) => (n === 'laplsh' ? { ...info(n), algorithm: 'draws3' } : info(n));
    for (const r of results) {
      const before = resultHash(cfg, cell, r, { x: 1 }, info);
      const after = resultHash(cfg, cell, r, { x: 1 }, bumped);
      if (r.base === 'laplsh') {
        expect(after, r.id).not.toBe(before);
        expect(resultHash(cfg, cell, r, { x: 1 }, bumpedTwice), r.id).not.toBe(after);
      } else expect(after, r.id).toBe(before);
    }
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
