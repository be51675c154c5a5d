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

  it('one-line errors: a folder without recommend.csv, a value it lacks', async () => {
    const none = await lshdpIn(['table', 'recommend', SMALL]);
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(/^lshdp: error: .*recommend\.csv: not found \(a run writes it when its config has a recommend block; docs\/RECOMMEND\.md\)\n$/);
    expect(none.stderr).not.toMatch(STACK_RE);
    const top = await lshdpIn(['table', 'recommend', FIXTURE, '--top', '5']);
    expect(top.status).toBe(2);
    expect(top.stderr).toMatch(/--top: 5 not in .*recommend\.csv \(it has 10, 20\)\n$/);
    const k = await lshdpIn(['table', 'recommend', FIXTURE, '--k', '3']);
    expect(k.stderr).toMatch(/--k: 3 not in .*recommend\.csv \(it has 5, 10\)/);
  });
});
