import { describe, it, expect } from 'vitest';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
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
    const j = JSON.parse((await lshdpIn(['compare', FIXTURE, dir, '--format', 'json'])).stdout) as Json;
    expect(j.counts.only_a).toBe(2 * 2); // fsq-nyc laplsh ξ 20 at κ 10 and 20, two metrics each
    const exact = j.rows.find((r) => r.mechanism === 'exact')!;
    expect(exact).toMatchObject({ metric: 'recall', status: 'flagged', z: null });
    expect(exact.note).toMatch(/standard errors are 0: any difference counts/);
    const setting = j.rows.filter((r) => r.mechanism === 'lshrr');
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
