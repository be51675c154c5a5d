/**
 * `lshdp choose` end to end on a small real run (synthetic data, a fine ξ grid): the matched
 * tables in every format, the caveat under each, the JSON fields issue 51 lists, the same bytes
 * twice, one-line errors; and the accountants' check: `lshrr` and `lshrr-exact` release the same
 * law, so at matched attack success they are tied on u* at every target, while the exact
 * accountant certifies it at a smaller ξ* (the same release, a tighter certificate).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { STACK_RE } from '../helpers/cli.js';
import { runInProc, scratch } from '../helpers/experiment.js';
import { MATCHED_COLUMNS } from '../../src/report/matchedTable.js';
import { readRandomLoss, readTrialValues } from '../../src/machinery/readFolder.js';
import { getMechanism } from '../../src/mechanisms/registry.js';
import { MATCHED_CAVEAT, type MatchedRow } from '../../src/decide/choose.js';

const CONFIG = `name: choose-tie
seed: 5
datasets:
  - { name: a, format: synthetic, preset: small }
dims: [30]
queries: 0
k: [10]
kappa: [12]
trials: 6
privacy: { d: 0.1, delta: 0.01, xi: [0, 1, 1.5, 2, 2.5, 3, 3.5, 4, 5, 6, 7, 8, 9, 10, 12, 14, 16, 20] }
mechanisms: [exact, lsh, lshrr, {name: lshrr, accountant: exact, label: lshrr-exact}]
attack: { known: [0.5] }
decide: { reid1: [0.01, 0.02] }
`;

function expectOneLineError(r: { status: number | null; stderr: string }, pattern: RegExp): void {
  expect(r.status).toBe(2);
  expect(r.stderr).toMatch(/^lshdp: error: [^\n]+\n$/);
  expect(r.stderr).toMatch(pattern);
  expect(r.stderr).not.toMatch(STACK_RE);
}

describe('lshdp choose', () => {
  let dir: string;
  const choose = (...args: string[]) => runInProc(dir, ['choose', 'out', ...args]);

  beforeAll(async () => {
    let config: string;
    ({ dir, config } = scratch(CONFIG, 'tie.yaml'));
    const r = await runInProc(dir, ['run', config, '--out', 'out', '--threads', '1', '--no-report', '--quiet']);
    expect(r.status, r.stderr).toBe(0);
  }, 120_000);

  it('prints one table per (data set, n, κ) with the caveat under it, the same bytes twice', async () => {
    const md = await choose('--reid1', '0.01');
    expect(md.status, md.stderr).toBe(0);
    expect(md.stdout).toMatch(/^### a, n 30, κ 12 \(k 10, known 0\.5\): reid1 ≤ 0\.01, 6 trials\n/);
    expect(md.stdout).toContain('| entry | ξ* [90%] | success at ξ* | one release | u* ± SE | retained | ε_LDP at ξ* | flag | rank |');
    expect(md.stdout).toContain(MATCHED_CAVEAT);
    expect((await choose('--reid1', '0.01')).stdout).toBe(md.stdout);
    const csv = await choose('--reid1', '0.01', '--format', 'csv');
    expect(csv.stdout.split('\n')[0]).toBe(MATCHED_COLUMNS.join(','));
    expect(csv.stdout.trim().split('\n')).toHaveLength(3);
    const tex = await choose('--reid1', '0.01', '--format', 'latex');
    expect(tex.stdout).toContain('\\begin{tabular}');
  });

  it('--json: one object per row with the fields issue 51 lists; lshrr and lshrr-exact tied on u* at every target, exact at the smaller ξ*', async () => {
    for (const t of ['0.005', '0.01', '0.02']) {
      const r = await choose('--reid1', t, '--json');
      expect(r.status, r.stderr).toBe(0);
      const rows = JSON.parse(r.stdout) as MatchedRow[];
      for (const key of [
        'dataset',
        'n',
        'kappa',
        'k',
        'mechanism',
        'xi',
        'xi_low',
        'xi_high',
        'flag',
        'reid1_mean',
        'release_bound',
        'utility_loss_mean',
        'utility_loss_se',
        'retained',
        'rank',
        'tied_with',
      ]) {
        for (const row of rows) expect(row, key).toHaveProperty(key);
      }
      const [paper, exact] = ['lshrr', 'lshrr-exact'].map((m) => rows.find((x) => x.mechanism === m)!);
      expect([paper.flag, exact.flag]).toEqual(['interior', 'interior']);
      // the mean of the per-trial values at ξ*: T, unless pool-adjacent-violators pooled the bracket
      expect(Math.abs(paper.reid1_mean! - Number(t))).toBeLessThan(0.1 * Number(t));
      expect([paper.rank_kind, exact.rank_kind], `T ${t}`).toEqual(['tied', 'tied']);
      expect(exact.xi!).toBeLessThan(paper.xi!);
      expect(paper.tied_with).toEqual(['lshrr-exact']);
      // retained = (u_rand − u*)/(u_rand − u_lsh), u_rand from the folder's exact cell, u_lsh clean LSH's mean loss
      const uRand = readRandomLoss(join(dir, 'out')).get('a', 30, 10)!;
      const lsh = readTrialValues(join(dir, 'out')).values.filter((v) => v.mechanism === 'lsh' && v.k === 10);
      const uLsh = lsh.reduce((a, v) => a + v.loss, 0) / lsh.length;
      expect(paper.retained).toBeCloseTo((uRand - paper.utility_loss_mean!) / (uRand - uLsh), 12);
      expect(paper.retained_se).toBeGreaterThan(0);
      // ε_LDP is each accountant's at ξ* itself (not interpolated between grid points)
      expect(paper.epsilon_ldp).toBeCloseTo(getMechanism('lshrr').epsilon(paper.xi!, 12, { d: 0.1, delta: 0.01 }, { accountant: 'paper' }).ldpEpsilon!, 12);
      expect(exact.epsilon_ldp).toBeCloseTo(getMechanism('lshrr').epsilon(exact.xi!, 12, { d: 0.1, delta: 0.01 }, { accountant: 'exact' }).ldpEpsilon!, 12);
      expect(paper.release_bound!).toBeGreaterThan(paper.reid1_mean!);
    }
  });

  it('a run whose config has decide: writes matched.csv and tables/matched.md, what choose prints at those targets; choose without flags reads the block', async () => {
    const csv = readFileSync(join(dir, 'out', 'matched.csv'), 'utf8');
    expect(csv.split('\n')[0]).toBe(MATCHED_COLUMNS.join(','));
    // two targets × two entries
    expect(csv.trim().split('\n')).toHaveLength(5);
    const fromBlock = await choose('--format', 'csv');
    expect(fromBlock.stdout).toBe(csv);
    expect((await choose()).stdout).toBe(readFileSync(join(dir, 'out', 'tables', 'matched.md'), 'utf8'));
    const one = await choose('--reid1', '0.02', '--format', 'csv');
    expect(one.stdout.trim().split('\n').slice(1)).toEqual(csv.trim().split('\n').slice(3));
  });

  it('one-line errors: no target, a target the folder has no values for, a bad number', async () => {
    const bare = scratch(CONFIG.replace('decide: { reid1: [0.01, 0.02] }\n', ''), 'bare.yaml');
    expect((await runInProc(bare.dir, ['run', bare.config, '--out', 'out', '--threads', '1', '--no-report', '--quiet'])).status).toBe(0);
    expect(existsSync(join(bare.dir, 'out', 'matched.csv'))).toBe(false);
    expectOneLineError(await runInProc(bare.dir, ['choose', 'out']), /no target \(give --reid1 T or --auc-adv T/);
    expectOneLineError(await choose('--auc-adv', '0.01'), /--auc-adv: needs attribute inference \(an infer: block/);
    expectOneLineError(await choose('--reid1', '0.01', '--known', '0.25'), /--known: 0\.25 is not one of attack\.known \[0\.5\]/);
    expectOneLineError(await choose('--reid1', 'abc'), /--reid1: "abc" is not a number in \[0, 1\]/);
    expectOneLineError(await runInProc(dir, ['choose', 'nowhere', '--reid1', '0.01']), /nowhere: not an lshdp results folder/);
  });
});
