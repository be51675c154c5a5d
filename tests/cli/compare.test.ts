import { describe, it, expect } from 'vitest';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, STACK_RE } from '../helpers/cli.js';
import { lshdpIn } from '../helpers/inproc.js';

const FIXTURE = join(ROOT, 'tests/fixtures/results/small');

/** A copy of the fixture whose utility.csv is changed by `edit` (rows as arrays of cells by column name). */
function variant(edit: (rows: Record<string, string>[]) => Record<string, string>[]): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'lshdp-compare-')), 'b');
  cpSync(FIXTURE, dir, { recursive: true });
  const [head, ...lines] = readFileSync(join(dir, 'utility.csv'), 'utf8').trim().split('\n');
  const cols = head.split(',');
  const rows = lines.map((l) => Object.fromEntries(l.split(',').map((c, i) => [cols[i], c])));
  const out = edit(rows).map((r) => cols.map((c) => r[c]).join(','));
  writeFileSync(join(dir, 'utility.csv'), [head, ...out].join('\n') + '\n');
  return dir;
}

/** The fixture's row: ml-small, n 50, κ 10, k 10, lshrr, ξ 5. */
const isTarget = (r: Record<string, string>) => r.dataset === 'ml-small' && r.n === '50' && r.kappa === '10' && r.mechanism === 'lshrr' && r.xi === '5';
/** Shift the target's utility loss mean by `z` combined standard errors (both runs have the same se). */
function shifted(z: number): { dir: string; diff: number } {
  let diff = 0;
  const dir = variant((rows) =>
    rows.map((r) => {
      if (!isTarget(r)) return r;
      const se = Number(r.utility_loss_se);
      diff = z * Math.sqrt(2) * se;
      return { ...r, utility_loss_mean: String(Number(r.utility_loss_mean) + diff) };
    }),
  );
  return { dir, diff };
}

type Json = { threshold: number; agree: boolean; counts: Record<string, number>; rows: { mechanism: string; metric: string; diff: number | null; z: number | null; status: string; note: string }[] };

describe('lshdp compare', () => {
  it('the same run twice: no differences, exit 0', async () => {
    const r = await lshdpIn(['compare', FIXTURE, FIXTURE]);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toContain('No differences: every compared row is identical.');
    expect(r.stdout).toMatch(/198 \(row, metric\) pairs: 198 identical, 0 within \|z\| ≤ 3, 0 flagged, 0 only in A, 0 only in B\n$/);
  });

  it('a shift of 5 standard errors is flagged (exit 3, one line on stderr) with its difference and z; --threshold 6 lets it pass', async () => {
    const { dir, diff } = shifted(5);
    const r = await lshdpIn(['compare', FIXTURE, dir, '--format', 'json']);
    expect(r.status).toBe(3);
    expect(r.stderr).toMatch(/^lshdp: the runs differ: 198 \(row, metric\) pairs: 197 identical, 0 within \|z\| ≤ 3, 1 flagged, 0 only in A, 0 only in B\n$/);
    const j = JSON.parse(r.stdout) as Json;
    expect(j.agree).toBe(false);
    expect(j.rows).toHaveLength(1);
    expect(j.rows[0]).toMatchObject({ mechanism: 'lshrr', metric: 'utility', status: 'flagged' });
    expect(j.rows[0].diff).toBeCloseTo(diff, 12);
    expect(j.rows[0].z).toBeCloseTo(5, 9);
    const md = await lshdpIn(['compare', FIXTURE, dir]);
    expect(md.stdout).toMatch(/\| ml-small \| 50 \| 10 \| 10 \| lshrr \| 5 \| utility \| 0\.1070 ± 0\.0054 \| 0\.145\d ± 0\.0054 \| 0\.0385 \| 5\.00 \| \*\*flagged\*\* \|/);
    const loose = await lshdpIn(['compare', FIXTURE, dir, '--threshold', '6']);
    expect(loose.status).toBe(0);
    expect(loose.stdout).toContain('| within |');
  });

  it('a shift within the threshold is listed as within and exits 0', async () => {
    const { dir } = shifted(1);
    const r = await lshdpIn(['compare', FIXTURE, dir, '--format', 'csv']);
    expect(r.status).toBe(0);
    const [head, row] = r.stdout.trim().split('\n');
    expect(head).toBe('dataset,n,kappa,k,mechanism,xi,metric,a_mean,a_se,b_mean,b_se,diff,z,status,note');
    expect(row).toMatch(/^ml-small,50,10,10,lshrr,5,utility,.*,within,$/);
    expect(Number(row.split(',')[12])).toBeCloseTo(1, 9);
  });

  it('rows in one run only, a difference without a standard error and a changed setting are flagged', async () => {
    const dir = variant((rows) =>
      rows
        .filter((r) => !(r.mechanism === 'laplsh' && r.xi === '20' && r.dataset === 'fsq-nyc'))
        .map((r) => {
          if (r.mechanism === 'exact' && r.dataset === 'fsq-nyc') return { ...r, recall_mean: '0.99' }; // exact: se 0
          if (isTarget(r)) return { ...r, epsilon_ldp: '12' };
          return r;
        }),
    );
    const j = JSON.parse((await lshdpIn(['compare', FIXTURE, dir, '--format', 'json'])).stdout) as Json & { settings_changed: unknown };
    expect(j.counts.only_a).toBe(2 * 2); // fsq-nyc laplsh ξ 20 at κ 10 and 20, two metrics each
    const exact = j.rows.find((r) => r.mechanism === 'exact')!;
    expect(exact).toMatchObject({ metric: 'recall', status: 'flagged', z: null });
    expect(exact.note).toMatch(/standard errors are 0: any difference counts/);
    // the changed setting is said once and its rows are counted as flagged, listed with --all
    expect(j.settings_changed).toEqual([{ file: 'utility.csv', setting: 'epsilon_ldp', from: 10.4909, to: 12, rows: 2 }]);
    expect(j.rows.filter((r) => r.mechanism === 'lshrr')).toEqual([]);
    const all = JSON.parse((await lshdpIn(['compare', FIXTURE, dir, '--format', 'json', '--all'])).stdout) as Json;
    const setting = all.rows.filter((r) => r.mechanism === 'lshrr' && r.status !== 'same');
    expect(setting.map((r) => r.status)).toEqual(['flagged', 'flagged']);
    expect(setting[0].note).toMatch(/setting changed: epsilon_ldp 10\.4909 → 12/);
    // the other way round the missing rows are only in B
    const back = JSON.parse((await lshdpIn(['compare', dir, FIXTURE, '--format', 'json', '--metric', 'utility'])).stdout) as Json;
    expect(back.counts.only_b).toBe(2);
  });

  it('filters restrict the comparison to the asked rows', async () => {
    const { dir } = shifted(5);
    const r = await lshdpIn(['compare', FIXTURE, dir, '--mechanisms', 'laplsh', 'lsh']);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/pairs: \d+ identical, 0 within/);
    const bad = await lshdpIn(['compare', FIXTURE, dir, '--mechanisms', 'lapslh']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/^lshdp: error: --mechanisms: lapslh not in .*; did you mean laplsh\?\n$/);
  });

  it('bad input is one line with exit 2', async () => {
    // a shard folder (its manifest says so) points to lshdp merge
    const shard = join(mkdtempSync(join(tmpdir(), 'lshdp-compare-shard-')), 's1');
    cpSync(FIXTURE, shard, { recursive: true });
    writeFileSync(join(shard, 'manifest.json'), JSON.stringify({ config: { name: 'small' }, shard: { index: 1, count: 2 } }));
    const cases: [string[], RegExp][] = [
      [['compare', FIXTURE, shard], /a shard folder \(shard 1\/2\); run lshdp merge/],
      [['compare', FIXTURE, join(ROOT, 'docs')], /docs\/utility\.csv: not found/],
      [['compare', FIXTURE, FIXTURE, '--threshold', 'abc'], /--threshold: expected a number > 0, got "abc"/],
      [['compare', FIXTURE, FIXTURE, '--threshold', '0'], /--threshold: expected a number > 0/],
      [['compare', FIXTURE, FIXTURE, '--format', 'xml'], /--format: "xml" is not one of md, csv, json/],
      [['compare', FIXTURE, FIXTURE, '--metric', 'loss'], /--metric: unknown value "loss"/],
      [['compare', FIXTURE], /missing required argument/],
    ];
    for (const [args, re] of cases) {
      const r = await lshdpIn(args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(new RegExp(`^lshdp: error: .*${re.source}.*\\n$`));
      expect(r.stderr).not.toMatch(STACK_RE);
    }
  });
});

const BEFORE = join(ROOT, 'tests/fixtures/compare/before');
const CHANGED = 'tests/fixtures/compare/changed';
const SMALL = 'tests/fixtures/results/small';

describe('lshdp compare on folders without recommend.csv and attack.csv prints what it printed before those files existed', () => {
  // the kept outputs were printed by lshdp compare before it read recommend.csv and attack.csv; since,
  // the changed setting (epsilon_ldp of one row) is said once before the rows, its rows listed with --all only
  const cases: [string, string[], number][] = [
    ['changed.md', [SMALL, CHANGED], 3],
    ['changed-all.md', [SMALL, CHANGED, '--all'], 3],
    ['changed.csv', [SMALL, CHANGED, '--format', 'csv'], 3],
    ['changed-all.json', [SMALL, CHANGED, '--format', 'json', '--all'], 3],
    ['reversed-recall.json', [CHANGED, SMALL, '--format', 'json', '--metric', 'recall'], 3],
    ['same.md', [SMALL, SMALL], 0],
  ];
  for (const [file, args, status] of cases) {
    it(`${args.slice(2).join(' ') || 'md'} (${file})`, async () => {
      const r = await lshdpIn(['compare', ...args]);
      expect(r.status).toBe(status);
      expect(r.stdout).toBe(readFileSync(join(BEFORE, file), 'utf8'));
    });
  }
  it('a filter value neither run has: the same one-line error', async () => {
    const r = await lshdpIn(['compare', SMALL, CHANGED, '--mechanisms', 'lapslh']);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(readFileSync(join(BEFORE, 'filter-error.txt'), 'utf8'));
  });
});

const FULL = join(ROOT, 'tests/fixtures/compare/full');
type Rows = Record<string, string>[];
type Edits = { [file in 'utility.csv' | 'recommend.csv' | 'attack.csv']?: ((rows: Rows) => Rows) | 'drop' };

/** A copy of the hand-written folder (utility.csv, recommend.csv, attack.csv) with some files edited or removed. */
function fullVariant(edits: Edits): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'lshdp-compare-full-')), 'b');
  cpSync(FULL, dir, { recursive: true });
  for (const [file, edit] of Object.entries(edits)) {
    if (edit === 'drop') {
      rmSync(join(dir, file));
      continue;
    }
    const [head, ...lines] = readFileSync(join(dir, file), 'utf8').trim().split('\n');
    const cols = head.split(',');
    const rows = lines.map((l) => Object.fromEntries(l.split(',').map((c, i) => [cols[i], c])));
    writeFileSync(join(dir, file), [head, ...edit(rows).map((r) => cols.map((c) => r[c]).join(','))].join('\n') + '\n');
  }
  return dir;
}

type FullJson = {
  counts: Record<string, number>;
  settings_changed?: { file: string; setting: string; from: unknown; to: unknown; rows: number }[];
  agree: boolean;
  files?: Record<string, string>;
  rows: {
    dataset: string;
    k: number | null;
    mechanism: string;
    xi: number | null;
    metric: string;
    top: number | null;
    known: number | null;
    diff: number | null;
    z: number | null;
    status: string;
    note: string;
  }[];
};
const json = async (args: string[]) => {
  const r = await lshdpIn(['compare', ...args, '--format', 'json']);
  return { status: r.status, stderr: r.stderr, j: JSON.parse(r.stdout) as FullJson };
};
const lshrr5 = (r: Record<string, string>) => r.mechanism === 'lshrr' && r.xi === '5';

describe('lshdp compare with recommend.csv and attack.csv', () => {
  it('the same folder twice: every row of the three files identical, one table per file, exit 0', async () => {
    const r = await lshdpIn(['compare', FULL, FULL]);
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('');
    // 4 utility rows × 2 metrics, 6 recommend rows × 3, 5 attack rows × 2
    expect(r.stdout).toBe(
      [
        '### utility.csv',
        '',
        'No differences: every compared row is identical.',
        '',
        '### recommend.csv',
        '',
        'No differences: every compared row is identical.',
        '',
        '### attack.csv',
        '',
        'No differences: every compared row is identical.',
        '',
        '36 (row, metric) pairs: 36 identical, 0 within |z| ≤ 3, 0 flagged, 0 only in A, 0 only in B',
        '',
      ].join('\n'),
    );
    const { j } = await json([FULL, FULL, '--all']);
    expect(j.files).toEqual({ 'utility.csv': 'both', 'recommend.csv': 'both', 'attack.csv': 'both' });
    expect(j.rows.map((x) => x.metric)).toEqual([...Array(4).fill(['utility', 'recall']).flat(), ...Array(6).fill(['hr', 'ndcg', 'item_recall']).flat(), ...Array(5).fill(['reid1', 'reid10']).flat()]);
    const pop = j.rows.find((x) => x.mechanism === 'pop')!;
    expect(pop).toMatchObject({ k: null, xi: null, top: 10, known: null, status: 'same' });
    const attack = j.rows.find((x) => x.metric === 'reid1')!;
    expect(attack).toMatchObject({ mechanism: 'lsh', k: null, top: null, known: 0.5 });
  });

  it('a shifted NDCG mean is flagged with z = (0.22 − 0.2) / √(0.003² + 0.004²) = 4; a shift to z = 2√2 is within', async () => {
    const dir = fullVariant({
      'recommend.csv': (rows) =>
        rows.map((r) => (lshrr5(r) && r.top === '10' ? { ...r, ndcg_mean: '0.22', ndcg_se: '0.004' } : lshrr5(r) && r.top === '20' ? { ...r, hr_mean: '0.48', hr_se: '0.005' } : r)),
    });
    const { status, stderr, j } = await json([FULL, dir]);
    expect(status).toBe(3);
    expect(stderr).toBe('lshdp: the runs differ: 36 (row, metric) pairs: 34 identical, 1 within |z| ≤ 3, 1 flagged, 0 only in A, 0 only in B\n');
    expect(j.rows).toHaveLength(2);
    const [flagged, within] = j.rows;
    expect(flagged).toMatchObject({ mechanism: 'lshrr', xi: 5, k: 10, top: 10, metric: 'ndcg', status: 'flagged', note: '' });
    expect(flagged.diff).toBeCloseTo(0.02, 12);
    expect(flagged.z).toBeCloseTo(4, 9);
    // hr at N = 20: (0.48 − 0.46) / √(2 · 0.005²) = 4 / √2 = 2√2
    expect(within).toMatchObject({ top: 20, metric: 'hr', status: 'within' });
    expect(within.z).toBeCloseTo(2 * Math.SQRT2, 9);
    const md = await lshdpIn(['compare', FULL, dir]);
    expect(md.stdout).toContain('### utility.csv\n\nNo differences: every compared row is identical.\n\n### recommend.csv\n\n| dataset | n | κ | k | mechanism | ξ | N | metric |');
    expect(md.stdout).toContain('| toy | 50 | 10 | 10 | lshrr | 5 | 10 | ndcg | 0.2000 ± 0.0030 | 0.2200 ± 0.0040 | 0.02 | 4.00 | **flagged** |');
    expect(md.stdout).toContain('### attack.csv\n\nNo differences');
    // a looser threshold lets it pass
    expect((await lshdpIn(['compare', FULL, dir, '--threshold', '4.5'])).status).toBe(0);
  });

  it('attack.csv: a shifted reid@10 is flagged (z = 0.04 / √(0.006² + 0.008²) = 4), an equal mean with another se is within, a changed setting is flagged', async () => {
    const dir = fullVariant({
      'attack.csv': (rows) =>
        rows.map((r) => {
          if (lshrr5(r) && r.known === '1') return { ...r, reid10_mean: '0.12', reid10_se: '0.008' };
          if (r.mechanism === 'lsh' && r.known === '0.5') return { ...r, reid1_se: '0.005' };
          if (r.xi === '1') return { ...r, targets: '500' };
          return r;
        }),
    });
    const { status, j } = await json([FULL, dir, '--metric', 'reid1,reid10']);
    expect(status).toBe(3);
    expect(j.files).toEqual({ 'attack.csv': 'both' });
    const shifted = j.rows.find((r) => r.metric === 'reid10' && r.known === 1 && r.xi === 5)!;
    expect(shifted).toMatchObject({ status: 'flagged', k: null, top: null });
    expect(shifted.z).toBeCloseTo(4, 9);
    const sameMean = j.rows.find((r) => r.mechanism === 'lsh')!;
    expect(sameMean).toMatchObject({ metric: 'reid1', known: 0.5, diff: 0, z: 0, status: 'within' });
    const setting = j.rows.filter((r) => r.xi === 1);
    expect(setting).toEqual([]); // explained by the changed setting: said once, listed with --all
    expect(j.settings_changed).toEqual([{ file: 'attack.csv', setting: 'targets', from: 610, to: 500, rows: 2 }]);
    const all = await json([FULL, dir, '--metric', 'reid1,reid10', '--all']);
    expect(all.j.rows.filter((r) => r.xi === 1).map((r) => [r.metric, r.status, r.note])).toEqual([
      ['reid1', 'flagged', 'setting changed: targets 610 → 500'],
      ['reid10', 'flagged', 'setting changed: targets 610 → 500'],
    ]);
    const md = await lshdpIn(['compare', FULL, dir, '--metric', 'reid10']);
    expect(md.stdout).toMatch(/^Settings differ .*\n- targets: 610 → 500 \(1 pair in attack\.csv\)\n\n### attack\.csv\n\n\| dataset \| n \| κ \| mechanism \| ξ \| known \| metric \|/);
    expect(md.stdout).toContain('| toy | 50 | 10 | lshrr | 5 | 1 | reid10 | 0.0800 ± 0.0060 | 0.1200 ± 0.0080 | 0.04 | 4.00 | **flagged** |');
  });

  it('rows in one run only are flagged, and the baselines (one trial, no se) flag any difference', async () => {
    const dir = fullVariant({
      'recommend.csv': (rows) => rows.filter((r) => !(lshrr5(r) && r.top === '20')).map((r) => (r.mechanism === 'pop' ? { ...r, hr_mean: '0.25' } : r)),
      'attack.csv': (rows) => [...rows, { ...rows[0], known: '0.25', reid1_mean: '0.2', reid10_mean: '0.4' }],
    });
    const { status, j } = await json([FULL, dir]);
    expect(status).toBe(3);
    // 8 utility, 14 recommend (5 rows × 3 but pop's hr) and 10 attack pairs identical
    expect(j.counts).toEqual({ same: 32, within: 0, flagged: 1, only_a: 3, only_b: 2 });
    expect(j.rows.filter((r) => r.status === 'only_a').map((r) => [r.top, r.metric, r.note])).toEqual([
      [20, 'hr', 'not in run B'],
      [20, 'ndcg', 'not in run B'],
      [20, 'item_recall', 'not in run B'],
    ]);
    expect(j.rows.filter((r) => r.status === 'only_b').map((r) => [r.known, r.metric])).toEqual([
      [0.25, 'reid1'],
      [0.25, 'reid10'],
    ]);
    const pop = j.rows.find((r) => r.mechanism === 'pop')!;
    expect(pop).toMatchObject({ metric: 'hr', status: 'flagged', z: null, note: 'no standard error (one trial): any difference counts' });
    expect(pop.diff).toBeCloseTo(0.01, 12);
  });

  it('settings that differ between the runs (queries: training against full vectors) are said once, first, with the rows they explain; those rows are counted but listed with --all only', async () => {
    const dir = fullVariant({
      'utility.csv': (rows) => rows.map((r) => ({ ...r, queries: '35' })),
      'recommend.csv': (rows) => rows.map((r) => (lshrr5(r) && r.top === '10' ? { ...r, ndcg_mean: '0.22', ndcg_se: '0.004' } : r)),
      'attack.csv': 'drop',
    });
    const head = 'settings differ between the runs; they explain 8 of the 9 flagged (row, metric) pairs (left out of the listing; --all lists them):';
    const summary = '26 (row, metric) pairs: 17 identical, 0 within |z| ≤ 3, 9 flagged (8 by a changed setting), 0 only in A, 0 only in B';
    const md = await lshdpIn(['compare', FULL, dir]);
    expect(md.status).toBe(3);
    expect(md.stderr).toBe(`lshdp: the runs differ: ${summary}\n`);
    expect(md.stdout).toMatch(
      new RegExp(
        `^S${head.slice(1).replace(/[()|;]/g, '\\$&')}\n- queries: 40 → 35 \\(8 pairs in utility\\.csv\\)\n\n### utility\\.csv\n\nNo differences but the rows of the changed settings \\(above\\)\\.\n\n### recommend\\.csv\n`,
      ),
    );
    expect(md.stdout).toContain('| toy | 50 | 10 | 10 | lshrr | 5 | 10 | ndcg | 0.2000 ± 0.0030 | 0.2200 ± 0.0040 | 0.02 | 4.00 | **flagged** |');
    expect(md.stdout).not.toContain('setting changed');
    expect(md.stdout.endsWith(`${summary}\n`)).toBe(true);
    const all = await lshdpIn(['compare', FULL, dir, '--all']);
    expect(all.status).toBe(3);
    expect(all.stdout).toContain('(row, metric) pairs (listed with the others):\n- queries: 40 → 35');
    expect(all.stdout.match(/\*\*flagged\*\* \(setting changed: queries 40 → 35\)/g)).toHaveLength(8);
    const { status, j } = await json([FULL, dir]);
    expect(status).toBe(3);
    expect(j.agree).toBe(false);
    expect(j.settings_changed).toEqual([{ file: 'utility.csv', setting: 'queries', from: 40, to: 35, rows: 8 }]);
    expect(j.counts).toEqual({ same: 17, within: 0, flagged: 9, only_a: 0, only_b: 0 });
    expect(j.rows.map((r) => [r.metric, r.status])).toEqual([['ndcg', 'flagged']]);
    expect((await json([FULL, dir, '--all'])).j.rows.filter((r) => r.note.startsWith('setting changed'))).toHaveLength(8);
    const csv = await lshdpIn(['compare', FULL, dir, '--format', 'csv']);
    expect(csv.status).toBe(3);
    expect(csv.stdout.trim().split('\n')).toHaveLength(2); // the header and the ndcg row
    expect(csv.stderr).toBe([head, '  queries: 40 → 35 (8 pairs in utility.csv)', 'attack.csv: in run A only; not compared', `the runs differ: ${summary}`].map((l) => `lshdp: ${l}\n`).join(''));
  });

  it('a file in one run only is said in one line, not compared and not a difference', async () => {
    const noAttack = fullVariant({ 'attack.csv': 'drop' });
    const md = await lshdpIn(['compare', noAttack, FULL]);
    expect(md.status).toBe(0);
    expect(md.stdout).toMatch(/\n\nattack\.csv: in run B only; not compared\.\n\n26 \(row, metric\) pairs: 26 identical/);
    const { j } = await json([FULL, noAttack]);
    expect(j.files).toEqual({ 'utility.csv': 'both', 'recommend.csv': 'both', 'attack.csv': 'only_a' });
    expect(j.agree).toBe(true);
    const csv = await lshdpIn(['compare', FULL, noAttack, '--format', 'csv', '--all']);
    expect(csv.status).toBe(0);
    expect(csv.stdout.split('\n')[0]).toBe('dataset,n,kappa,k,mechanism,xi,metric,a_mean,a_se,b_mean,b_se,diff,z,status,note,top,known,aux');
    expect(csv.stdout).toContain('\ntoy,50,,,pop,,hr,0.24,,0.24,,0,,same,,10,,\n');
    expect(csv.stderr).toBe('lshdp: attack.csv: in run A only; not compared\n');
    // the utility rows' own output, when only they are asked for, is the old one
    const onlyUtility = await lshdpIn(['compare', FULL, noAttack, '--format', 'csv', '--metric', 'utility,recall']);
    expect(onlyUtility.stdout).toBe('dataset,n,kappa,k,mechanism,xi,metric,a_mean,a_se,b_mean,b_se,diff,z,status,note\n\n');
    expect(onlyUtility.stderr).toBe('');
    // both files missing from one run, against a folder without them at all
    const bare = fullVariant({ 'attack.csv': 'drop', 'recommend.csv': 'drop' });
    const both = await lshdpIn(['compare', bare, FULL]);
    expect(both.stdout).toContain('\nrecommend.csv: in run B only; not compared.\n\nattack.csv: in run B only; not compared.\n\n');
  });

  it('--metric picks the files; a metric whose file neither run has is an error; the filters reach every file', async () => {
    const dir = fullVariant({ 'recommend.csv': (rows) => rows.map((r) => (r.mechanism === 'lsh' ? { ...r, ndcg_mean: '0.3' } : r)) });
    const { j } = await json([FULL, dir, '--metric', 'ndcg']);
    expect(j.files).toEqual({ 'recommend.csv': 'both' });
    expect(j.rows.map((r) => [r.mechanism, r.metric, r.status])).toEqual([['lsh', 'ndcg', 'flagged']]);
    const bare = fullVariant({ 'attack.csv': 'drop', 'recommend.csv': 'drop' });
    const missing = await lshdpIn(['compare', bare, bare, '--metric', 'reid1']);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toBe('lshdp: error: --metric: reid1 is read from attack.csv, which neither run has\n');
    // --k 10 keeps pop (no k) and every attack row; --mechanisms pop is a value of recommend.csv only
    const k = await json([FULL, FULL, '--k', '10', '--all']);
    expect(k.j.counts.same).toBe(36);
    const pop = await json([FULL, FULL, '--mechanisms', 'pop', '--all']);
    expect(pop.j.rows.map((r) => r.metric)).toEqual(['hr', 'ndcg', 'item_recall']);
    const typo = await lshdpIn(['compare', FULL, FULL, '--mechanisms', 'popp']);
    expect(typo.status).toBe(2);
    expect(typo.stderr).toMatch(
      /^lshdp: error: --mechanisms: popp not in .*utility\.csv, .*recommend\.csv, .*attack\.csv, .*utility\.csv, .*recommend\.csv or .*attack\.csv \(it has exact, lsh, lshrr, pop\); did you mean pop\?\n$/,
    );
  });

  it('a malformed attack.csv is one line naming the file and line', async () => {
    const dir = fullVariant({ 'attack.csv': (rows) => rows.map((r, i) => (i === 2 ? { ...r, reid1_mean: 'abc' } : r)) });
    const r = await lshdpIn(['compare', FULL, dir]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^lshdp: error: .*attack\.csv:4: column reid1_mean: "abc" is not a number\n$/);
  });
});
