/**
 * `lshdp table recommend` on a results folder whose recommend.csv is written by hand
 * (tests/fixtures/results/recommend): the four formats, the filters and --top, and one-line
 * errors for a folder without recommendations and for values the file lacks.
 */
import { describe, it, expect } from 'vitest';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { ROOT, STACK_RE } from '../helpers/cli.js';
import { lshdpIn } from '../helpers/inproc.js';

const FIXTURE = join(ROOT, 'tests/fixtures/results/recommend');
const SMALL = join(ROOT, 'tests/fixtures/results/small');

describe('lshdp table recommend', () => {
  it('md by default: one row per recommend.csv row', async () => {
    const r = await lshdpIn(['table', 'recommend', FIXTURE]);
    expect(r.status).toBe(0);
    expect(r.stdout.split('\n').filter((l) => l.startsWith('| ml-small'))).toHaveLength(78);
    expect(r.stdout).toContain('NDCG@N (mean ± se)');
  });

  it('json holds recommend.csv as rows; csv starts with its columns', async () => {
    const j = await lshdpIn(['table', 'recommend', FIXTURE, '--format', 'json']);
    expect(j.status).toBe(0);
    const rows = JSON.parse(j.stdout) as { mechanism: string; k: number | null; ndcg_mean: number }[];
    expect(rows).toHaveLength(78);
    expect(rows.find((x) => x.mechanism === 'pop')!.k).toBeNull();
    const c = await lshdpIn(['table', 'recommend', FIXTURE, '--format', 'csv']);
    expect(c.stdout.split('\n')[0]).toBe(`${readFileSync(join(FIXTURE, 'recommend.csv'), 'utf8').split('\n')[0]},hr,ndcg,item_recall`);
    const t = await lshdpIn(['table', 'recommend', FIXTURE, '--format', 'latex']);
    expect(t.stdout).toContain('\\begin{tabular}');
  });

  it('filters like table utility, plus --top; baselines without κ or k stay', async () => {
    const r = await lshdpIn(['table', 'recommend', FIXTURE, '--format', 'json', '--mechanisms', 'lshrr,pop,exact', '--kappa', '20', '--k', '10', '--top', '10']);
    expect(r.status).toBe(0);
    const rows = JSON.parse(r.stdout) as { mechanism: string; kappa: number | null; k: number | null; top: number }[];
    // lshrr at 4 ξ, exact at k = 10, pop
    expect(rows.map((x) => x.mechanism)).toEqual(['exact', 'pop', 'lshrr', 'lshrr', 'lshrr', 'lshrr']);
    expect(rows.every((x) => x.top === 10 && (x.kappa === null || x.kappa === 20) && (x.k === null || x.k === 10))).toBe(true);
  });

  it('--xi keeps the rows without ξ; --wide prints one row per (data set, n, κ), the ξ side by side', async () => {
    const j = await lshdpIn(['table', 'recommend', FIXTURE, '--format', 'json', '--xi', '5', '--k', '10', '--top', '10', '--kappa', '20']);
    const rows = JSON.parse(j.stdout) as { mechanism: string; xi: number | null }[];
    expect(rows.map((x) => `${x.mechanism} ${x.xi}`)).toEqual(['exact null', 'pop null', 'lsh null', 'lshrr 5', 'laplsh 5']);
    const w = await lshdpIn(['table', 'recommend', FIXTURE, '--wide', '--k', '10', '--top', '10', '--xi', '1,5,20']);
    expect(w.status).toBe(0);
    const lines = w.stdout.split('\n');
    expect(lines[0]).toBe('| data set | n | κ | exact | pop | lsh | lshrr ξ=1 / 5 / 20 | laplsh ξ=1 / 5 / 20 |');
    // the fixture's NDCG at κ = 20, k = 10, N = 10 (stored to 4 decimals): lsh 0.25 + 0.04 + 0.005,
    // lshrr 0.05 + 0.245·(1 − e^(−ξ/5)), laplsh with 0.3 of that gain
    const cells = (gain: number) => [1, 5, 20].map((xi) => Number((0.05 + gain * 0.245 * (1 - Math.exp(-xi / 5))).toFixed(4)).toFixed(3)).join(' / ');
    expect(lines).toContain(`| ml-small | 100 | 20 | 0.310 | 0.120 | 0.295 | ${cells(1)} | ${cells(0.3)} |`);
    expect(w.stdout).toContain('NDCG@10 (mean over trials; k = 10; standard errors ≤ 0.003; exact and pop: one trial each).');
    const several = await lshdpIn(['table', 'recommend', FIXTURE, '--wide']);
    expect(several.status).toBe(2);
    expect(several.stderr).toContain('--wide: needs one k and one N (has k 5, 10 and N 10, 20); choose them with --k and --top');
    const csv = await lshdpIn(['table', 'recommend', FIXTURE, '--wide', '--format', 'csv']);
    expect(csv.stderr).toContain('--wide: prints markdown only');
  });

  it('one-line errors: a folder without recommend.csv, a value it lacks', async () => {
    const none = await lshdpIn(['table', 'recommend', SMALL]);
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(/^lshdp: error: .*recommend\.csv: not found \(a run writes it when its config has a recommend block; docs\/RECOMMEND\.md\)\n$/);
    expect(none.stderr).not.toMatch(STACK_RE);
    const top = await lshdpIn(['table', 'recommend', FIXTURE, '--top', '5']);
    expect(top.status).toBe(2);
    expect(top.stderr).toMatch(/--top: 5 not in .*recommend\.csv \(it has 10, 20\)\n$/);
    const xi = await lshdpIn(['table', 'recommend', FIXTURE, '--xi', '2']);
    expect(xi.stderr).toMatch(/--xi: 2 not in .*recommend\.csv \(it has 0, 1, 5, 20\)\n$/);
    const k = await lshdpIn(['table', 'recommend', FIXTURE, '--k', '3']);
    expect(k.stderr).toMatch(/--k: 3 not in .*recommend\.csv \(it has 5, 10\)/);
  });
});
