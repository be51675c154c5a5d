import { describe, it, expect } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compareFolders, compareRuns, oneSidedFiles, runsAgree, type RunFiles } from '../../src/report/compare.js';
import { compareMetrics, fileOfMetric } from '../../src/report/compareMetrics.js';
import { ATTACK_COLUMNS, readAttackCsv, readAttackOf, readComparedFilesOf, type AttackRow, type RecommendRow, type UtilityRow } from '../../src/report/read.js';

const utility = (o: Partial<UtilityRow> = {}): UtilityRow => ({
  dataset: 'toy',
  n: 50,
  kappa: 10,
  k: 10,
  mechanism: 'lshrr',
  base: 'lshrr',
  accountant: 'paper',
  xi: 5,
  epsilon_bit: 1,
  epsilon_lap: null,
  epsilon_ldp: 10,
  fallback: false,
  trials: 5,
  queries: 40,
  utility_loss_mean: 0.1,
  utility_loss_se: 0.005,
  recall_mean: 0.3,
  recall_se: 0.005,
  ...o,
});
const recommend = (o: Partial<RecommendRow> = {}): RecommendRow => ({
  dataset: 'toy',
  n: 50,
  kappa: 10,
  k: 10,
  mechanism: 'lshrr',
  base: 'lshrr',
  accountant: 'paper',
  xi: 5,
  top: 10,
  hr_mean: 0.4,
  hr_se: 0.005,
  ndcg_mean: 0.2,
  ndcg_se: 0.003,
  item_recall_mean: 0.3,
  item_recall_se: 0.004,
  trials: 5,
  queries: 40,
  ...o,
});
const attack = (o: Partial<AttackRow> = {}): AttackRow => ({
  dataset: 'toy',
  n: 50,
  kappa: 10,
  mechanism: 'lshrr',
  base: 'lshrr',
  accountant: 'paper',
  xi: 5,
  known: 0.5,
  reid1_mean: 0.01,
  reid1_se: 0.002,
  reid10_mean: 0.06,
  reid10_se: 0.005,
  trials: 5,
  users: 610,
  targets: 610,
  ...o,
});
const run = (o: Partial<RunFiles> = {}): RunFiles => ({ utility: [utility()], recommend: [recommend()], attack: [attack()], ...o });

describe('compare: the metrics and their files', () => {
  it('every metric names one file; utility.csv first, matched.csv last, as the output lists them', () => {
    expect(compareMetrics()).toEqual(['utility', 'recall', 'hr', 'ndcg', 'item_recall', 'reid1', 'reid10', 'auc', 'prec10', 'matched']);
    expect(compareMetrics().map(fileOfMetric)).toEqual([
      'utility.csv',
      'utility.csv',
      'recommend.csv',
      'recommend.csv',
      'recommend.csv',
      'attack.csv',
      'attack.csv',
      'infer.csv',
      'infer.csv',
      'matched.csv',
    ]);
  });
});

describe('compareFolders', () => {
  it('recommend.csv and attack.csv rows get the z of utility rows: (b − a) / √(se_a² + se_b²)', () => {
    const b = run({ recommend: [recommend({ item_recall_mean: 0.31, item_recall_se: 0.003 })], attack: [attack({ reid1_mean: 0.0175, reid1_se: 0.0015 })] });
    const res = compareFolders(run(), b, { threshold: 3 });
    const ir = res.rows.find((r) => r.metric === 'item_recall')!;
    // 0.01 / √(0.004² + 0.003²) = 0.01 / 0.005
    expect(ir.z).toBeCloseTo(2, 9);
    expect(ir.status).toBe('within');
    const reid = res.rows.find((r) => r.metric === 'reid1')!;
    // 0.0075 / √(0.002² + 0.0015²) = 0.0075 / 0.0025
    expect(reid.z).toBeCloseTo(3, 9);
    // every metric of the files the runs have (no infer.csv or matched.csv here)
    expect(res.rows.map((r) => r.metric)).toEqual(compareMetrics().filter((m) => !['infer.csv', 'matched.csv'].includes(fileOfMetric(m))));
    expect(res.files).toEqual({ 'utility.csv': 'both', 'recommend.csv': 'both', 'attack.csv': 'both' });
    // the same rows through compareRuns' rule: a utility row with the same numbers gets the same z
    const u = compareRuns([utility({ recall_mean: 0.3, recall_se: 0.004 })], [utility({ recall_mean: 0.31, recall_se: 0.003 })]);
    expect(u.rows.find((r) => r.metric === 'recall')!.z).toBeCloseTo(ir.z!, 12);
  });

  it('rows are matched on their own coordinates: N and the known share tell rows apart, k does not exist in attack.csv', () => {
    const a = run({ recommend: [recommend({ top: 10 }), recommend({ top: 20, ndcg_mean: 0.25 })], attack: [attack({ known: 0.5 }), attack({ known: 1, reid1_mean: 0.02 })] });
    const b = run({ recommend: [recommend({ top: 20, ndcg_mean: 0.25 }), recommend({ top: 10 })], attack: [attack({ known: 1, reid1_mean: 0.02 }), attack({ known: 0.5 })] });
    const res = compareFolders(a, b);
    expect(runsAgree(res)).toBe(true);
    expect(res.counts.same).toBe(2 + 2 * 3 + 2 * 2);
    expect(res.rows.filter((r) => r.metric === 'reid1').map((r) => [r.k, r.known, r.top])).toEqual([
      [null, 0.5, undefined],
      [null, 1, undefined],
    ]);
  });

  it('a file in one run only is listed, not compared, and does not make the runs differ', () => {
    const res = compareFolders(run({ attack: null }), run());
    expect(res.files).toEqual({ 'utility.csv': 'both', 'recommend.csv': 'both', 'attack.csv': 'only_b' });
    expect(res.rows.some((r) => r.metric.startsWith('reid'))).toBe(false);
    expect(runsAgree(res)).toBe(true);
    expect(oneSidedFiles(res)).toEqual(['attack.csv: in run B only; not compared']);
    // neither file anywhere: the result has no files field, as compareRuns' has none
    const bare = compareFolders(run({ attack: null, recommend: null }), run({ attack: null, recommend: null }));
    expect(bare.files).toBeUndefined();
    expect(bare).toEqual(compareRuns([utility()], [utility()]));
  });

  it("recommend.csv's settings (base, accountant, queries) and attack.csv's (also users, targets) flag a row", () => {
    const res = compareFolders(run(), run({ recommend: [recommend({ queries: 39 })], attack: [attack({ users: 600 })] }), { metrics: ['ndcg', 'reid10'] });
    expect(res.rows.map((r) => [r.metric, r.status, r.note])).toEqual([
      ['ndcg', 'flagged', 'setting changed: queries 40 → 39'],
      ['reid10', 'flagged', 'setting changed: users 610 → 600'],
    ]);
    expect(res.files).toEqual({ 'recommend.csv': 'both', 'attack.csv': 'both' });
  });
});

function file(name: string, lines: string[]): string {
  const dir = mkdtempSync(join(tmpdir(), 'lshdp-read-attack-'));
  writeFileSync(join(dir, name), lines.join('\n') + '\n');
  return dir;
}

describe('reading attack.csv', () => {
  it('every column, empty cells as null, the concentration columns when present', () => {
    const dir = file('attack.csv', [
      `${ATTACK_COLUMNS.join(',')},concentration,concentration_metric`,
      'toy,50,10,lsh,lsh,,,0.5,0.31,0.012,0.52,0.011,5,610,610,,',
      'toy,50,10,vmf,vmf,,5,1,0.01,,0.06,,1,610,500,12.5,euclidean',
    ]);
    const rows = readAttackOf(dir).rows;
    expect(rows[0]).toEqual({
      dataset: 'toy',
      n: 50,
      kappa: 10,
      mechanism: 'lsh',
      base: 'lsh',
      accountant: null,
      xi: null,
      known: 0.5,
      reid1_mean: 0.31,
      reid1_se: 0.012,
      reid10_mean: 0.52,
      reid10_se: 0.011,
      trials: 5,
      users: 610,
      targets: 610,
      concentration: null,
      concentration_metric: null,
    });
    expect(rows[1]).toMatchObject({ xi: 5, known: 1, reid1_se: null, targets: 500, concentration: 12.5, concentration_metric: 'euclidean' });
  });

  it('a missing column or a bad number is one line naming the file (and line)', () => {
    const noKnown = file('attack.csv', [ATTACK_COLUMNS.filter((c) => c !== 'known').join(','), 'toy,50,10,lsh,lsh,,,0.31,0.012,0.52,0.011,5,610,610']);
    expect(() => readAttackCsv(join(noKnown, 'attack.csv'))).toThrow(/attack\.csv:1: missing column\(s\) known in the header/);
    const bad = file('attack.csv', [ATTACK_COLUMNS.join(','), 'toy,50,10,lsh,lsh,,,half,0.31,0.012,0.52,0.011,5,610,610']);
    expect(() => readAttackCsv(join(bad, 'attack.csv'))).toThrow(/attack\.csv:2: column known: "half" is not a number/);
    expect(() => readAttackOf(mkdtempSync(join(tmpdir(), 'lshdp-no-attack-')))).toThrow(/attack\.csv: not found \(a run writes it when its config has an attack block; docs\/ATTACKS\.md\)/);
  });

  it("compare's reading of a folder: utility.csv required, the two others where present", () => {
    const dir = file('utility.csv', [
      'dataset,n,kappa,k,mechanism,base,accountant,xi,epsilon_bit,epsilon_lap,epsilon_ldp,fallback,trials,queries,utility_loss_mean,utility_loss_se,recall_mean,recall_se',
      'toy,50,,10,exact,exact,,,,,,,1,40,0,0,1,0',
    ]);
    expect(readComparedFilesOf(dir)).toMatchObject({ utility: { rows: [{ mechanism: 'exact' }] }, recommend: null, attack: null });
    writeFileSync(join(dir, 'attack.csv'), `${ATTACK_COLUMNS.join(',')}\ntoy,50,10,lsh,lsh,,,0.5,0.31,0.012,0.52,0.011,5,610,610\n`);
    expect(readComparedFilesOf(dir)).toMatchObject({ recommend: null, attack: { file: join(dir, 'attack.csv'), rows: [{ known: 0.5 }] } });
  });
});
