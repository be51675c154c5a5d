import { describe, it, expect } from 'vitest';
import { meanSe, utilityCsv, nnDistancesCsv, csvField, UTILITY_HEADER } from '../../src/experiment/aggregate.js';
import { parseConfig } from '../../src/experiment/config.js';
import { expandCells } from '../../src/experiment/grid.js';
import type { CellRecord } from '../../src/experiment/machinery/store.js';
import { fakeEngine, FAKE_CONFIG } from './fakeEngine.js';

describe('meanSe', () => {
  it('matches the closed form: sample sd / sqrt(m)', () => {
    const xs = [1, 2, 3, 4];
    // mean 2.5; sum of squares 5; sd = sqrt(5/3); se = sd / 2
    const r = meanSe(xs);
    expect(r.mean).toBe(2.5);
    expect(r.se).toBeCloseTo(Math.sqrt(5 / 3) / 2, 15);
    expect(meanSe([0.3])).toEqual({ mean: 0.3, se: 0 });
    expect(meanSe([2, 2, 2]).se).toBe(0);
  });
});

describe('csvField', () => {
  it('quotes only what must be quoted', () => {
    expect(csvField('u1')).toBe('u1');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
  });
});

function fakeRecords() {
  const cfg = parseConfig(FAKE_CONFIG, 'fake.yaml');
  const eng = fakeEngine();
  const info = (n: string) => eng.mechanism(n);
  const records = new Map<string, CellRecord>();
  for (const c of expandCells(cfg)) {
    if (c.kind === 'exact') {
      records.set(c.key, { format: 1, key: c.key, kind: 'exact', hash: 'h', queries: 10, rows: eng.exactRows(null as never, new Int32Array(10), null as never, cfg.k), nn: { users: ['u0', 'u1'], distances: [0.25, 0.5] }, ms: 1 });
    } else {
      const spec = { dataset: c.dataset, n: c.n, kappa: c.kappa, trial: c.trial, mechanisms: cfg.mechanisms.filter((m) => m.name !== 'exact').map((m) => ({ name: m.name, xi: cfg.privacy.xi })), k: cfg.k, privacy: cfg.privacy, runSeed: cfg.seed };
      records.set(c.key, { format: 1, key: c.key, kind: 'trial', hash: 'h', queries: 10, rows: eng.runTrialCell(null as never, new Int32Array(10), null as never, spec), ms: 1 });
    }
  }
  return { cfg, records, info };
}

describe('utilityCsv', () => {
  it('has the contract header, one row per (dataset, n, kappa, k, mechanism, xi), canonical order', () => {
    const { cfg, records, info } = fakeRecords();
    const lines = utilityCsv(cfg, records, info).trimEnd().split('\n');
    expect(lines[0]).toBe(UTILITY_HEADER);
    // per (dataset, n): |k| exact rows + |kappa| * |k| * (lsh 1 + lshrr 3 + laplsh 3)
    const perGroup = 2 + 2 * 2 * 7;
    expect(lines.length - 1).toBe(2 * 2 * perGroup);
    const rows = lines.slice(1).map((l) => l.split(','));
    for (const r of rows) expect(r).toHaveLength(15);
    expect(rows[0]).toEqual(['a', '5', '', '1', 'exact', '', '', '1', '10', '0', '0', '1', '0', '', '']);
    const lsh = rows.find((r) => r[4] === 'lsh')!;
    expect(lsh[2]).toBe('4');
    expect(lsh[5]).toBe('');
    expect(lsh[6]).toBe('');
    expect(lsh[7]).toBe('3');
    // order: mechanisms in config order, then xi in config order, within (dataset, n, kappa, k)
    expect(rows.slice(2, 9).map((r) => `${r[4]}:${r[5]}`)).toEqual(['lsh:', 'lshrr:0', 'lshrr:1', 'lshrr:2', 'laplsh:0', 'laplsh:1', 'laplsh:2']);
    expect(rows.map((r) => r[0]).indexOf('b')).toBe(2 * perGroup);
  });

  it('aggregates each row as mean and standard error over the trial cells', () => {
    const { cfg, records, info } = fakeRecords();
    const rows = utilityCsv(cfg, records, info).trimEnd().split('\n').slice(1).map((l) => l.split(','));
    const row = rows.find((r) => r[0] === 'b' && r[1] === '8' && r[2] === '6' && r[3] === '3' && r[4] === 'laplsh' && r[5] === '1')!;
    const losses = [0, 1, 2].map((t) => records.get(`trial_b_n8_kappa6_t${t}`)!.rows.find((x) => x.mechanism === 'laplsh' && x.xi === 1 && x.k === 3)!.loss);
    const mean = (losses[0] + losses[1] + losses[2]) / 3;
    const sd = Math.sqrt(losses.reduce((s, x) => s + (x - mean) ** 2, 0) / 2);
    expect(Number(row[9])).toBeCloseTo(mean, 15);
    expect(Number(row[10])).toBeCloseTo(sd / Math.sqrt(3), 15);
  });

  it('fails clearly when a cell is missing', () => {
    const { cfg, records, info } = fakeRecords();
    records.delete('trial_a_n5_kappa6_t1');
    expect(() => utilityCsv(cfg, records, info)).toThrow('results store: cell trial_a_n5_kappa6_t1 is missing');
  });

  it('nn_distances lists every query user per (dataset, n)', () => {
    const { cfg, records } = fakeRecords();
    const lines = nnDistancesCsv(cfg, records).trimEnd().split('\n');
    expect(lines[0]).toBe('dataset,n,user,nn1_distance');
    expect(lines.slice(1, 3)).toEqual(['a,5,u0,0.25', 'a,5,u1,0.5']);
    expect(lines).toHaveLength(1 + 2 * 2 * 2);
  });
});
