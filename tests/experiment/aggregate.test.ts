import { describe, it, expect } from 'vitest';
import { meanSe, nnDistancesCsv, UTILITY_HEADER } from '../../src/experiment/aggregate.js';
import { evaluationFile } from '../../src/experiment/walk.js';
import { UTILITY_ROWS } from '../../src/evaluations/utility/rows.js';
import type { ExperimentConfig } from '../../src/experiment/config/schema.js';
import type { MechanismInfo } from '../../src/mechanisms/types.js';
import { parseConfig } from '../../src/experiment/config.js';
import { expandCells, trialResults, trialSpec } from '../../src/experiment/grid.js';
import type { CellRecord, TrialRecord } from '../../src/experiment/records.js';
import { mergeTrialRecord } from '../../src/machinery/compute.js';
import { fakeEngine, FAKE_CONFIG } from '../helpers/fakeEngine.js';

/** utility.csv as a run writes it (the walk of src/experiment/walk.ts with the utility unit's rows). */
const utilityCsv = (cfg: ExperimentConfig, records: Map<string, CellRecord>, info: (name: string) => MechanismInfo): string => evaluationFile(UTILITY_ROWS, cfg, new Map([['cells', records]]), info);

describe('meanSe', () => {
  it('matches the closed form: sample sd / sqrt(m)', () => {
    const xs = [1, 2, 3, 4];
    // mean 2.5; sum of squares 5; sd = sqrt(5/3); se = sd / 2
    const r = meanSe(xs);
    expect(r.mean).toBe(2.5);
    expect(r.se).toBeCloseTo(Math.sqrt(5 / 3) / 2, 15);
    // one value: the standard error is unknown, not 0
    expect(meanSe([0.3])).toEqual({ mean: 0.3, se: null });
    expect(meanSe([2, 2, 2]).se).toBe(0);
  });
});

function fakeRecords() {
  const cfg = parseConfig(FAKE_CONFIG, 'fake.yaml');
  const eng = fakeEngine();
  const info = (n: string) => eng.mechanism(n);
  const records = new Map<string, CellRecord>();
  const results = trialResults(cfg, info);
  for (const c of expandCells(cfg)) {
    if (c.kind === 'exact') {
      records.set(c.key, {
        format: 2,
        key: c.key,
        kind: 'exact',
        hash: 'h',
        queries: 10,
        kmax: 3,
        rows: eng.exactRows(null as never, new Int32Array(10), null as never, cfg.k),
        nn: { users: ['u0', 'u1'], distances: [0.25, 0.5] },
        ms: 1,
      });
    } else {
      const todo = results.map((spec) => ({ spec, ks: cfg.k, asks: { utility: true } }));
      const out = eng.runTrialCell(null as never, new Int32Array(10), null as never, trialSpec(cfg, c, todo));
      records.set(c.key, mergeTrialRecord(cfg, undefined, c.key, 10, todo, out, new Map(results.map((r) => [r.id, 'h'])), 1));
    }
  }
  return { cfg, records, info };
}

/** The stored loss of (mechanism, xi, k) in one trial record. */
function storedLoss(rec: TrialRecord, mechanism: string, xi: number | null, k: number): number {
  const r = Object.values(rec.results).find((x) => x.base === mechanism && x.xi === xi)!;
  return r.values[String(k)][0];
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
    const col = Object.fromEntries(UTILITY_HEADER.split(',').map((h, i) => [h, i]));
    for (const r of rows) expect(r).toHaveLength(18);
    expect(rows[0]).toEqual(['a', '5', '', '1', 'exact', 'exact', '', '', '', '', '', '', '1', '10', '0', '', '1', '']);
    const lsh = rows.find((r) => r[col.mechanism] === 'lsh')!;
    expect(lsh[col.kappa]).toBe('4');
    expect(lsh[col.xi]).toBe('');
    expect(lsh[col.epsilon_bit]).toBe('');
    expect(lsh[col.trials]).toBe('3');
    const rr = rows.find((r) => r[col.mechanism] === 'lshrr' && r[col.xi] === '2')!;
    expect([rr[col.epsilon_bit], rr[col.epsilon_lap], rr[col.fallback]]).toEqual(['1', '', 'false']);
    const lap = rows.find((r) => r[col.mechanism] === 'laplsh' && r[col.xi] === '2')!;
    expect([lap[col.epsilon_bit], lap[col.epsilon_lap], lap[col.fallback]]).toEqual(['', '1', '']);
    // order: mechanisms in config order, then xi in config order, within (dataset, n, kappa, k)
    expect(rows.slice(2, 9).map((r) => `${r[col.mechanism]}:${r[col.xi]}`)).toEqual(['lsh:', 'lshrr:0', 'lshrr:1', 'lshrr:2', 'laplsh:0', 'laplsh:1', 'laplsh:2']);
    expect(rows.map((r) => r[0]).indexOf('b')).toBe(2 * perGroup);
  });

  it('aggregates each row as mean and standard error over the trial cells', () => {
    const { cfg, records, info } = fakeRecords();
    const rows = utilityCsv(cfg, records, info)
      .trimEnd()
      .split('\n')
      .slice(1)
      .map((l) => l.split(','));
    const row = rows.find((r) => r[0] === 'b' && r[1] === '8' && r[2] === '6' && r[3] === '3' && r[4] === 'laplsh' && r[7] === '1')!;
    const losses = [0, 1, 2].map((t) => storedLoss(records.get(`trial_b_n8_kappa6_t${t}`) as TrialRecord, 'laplsh', 1, 3));
    const mean = (losses[0] + losses[1] + losses[2]) / 3;
    const sd = Math.sqrt(losses.reduce((s, x) => s + (x - mean) ** 2, 0) / 2);
    expect(Number(row[14])).toBeCloseTo(mean, 15);
    expect(Number(row[15])).toBeCloseTo(sd / Math.sqrt(3), 15);
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
