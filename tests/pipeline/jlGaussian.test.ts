/**
 * jl-gaussian in a run (in-process CLI): a real release through the utility, budgets.csv's own
 * rows beside LSHRR's and the directional mechanisms', read back by the report, and `lshdp table
 * budgets` printing them.
 */
import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lshdpIn } from '../helpers/inproc.js';
import { readBudgetsCsv, readDirectionalBudgetsCsv, readOwnBudgetsCsv, readResultsFolder, readUtilityCsv } from '../../src/report/read.js';
import { buildHtml } from '../../src/report/html.js';
import { jlGaussianSigma } from '../../src/privacy/gaussian.js';

describe('jl-gaussian in a run', () => {
  it('at ξ = 0 is at the random level, at a huge ξ below LSH (reals carry more than signs); budgets.csv states σ beside the other rows', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lshdp-jl-'));
    writeFileSync(
      join(dir, 'c.yaml'),
      'name: jl\nseed: 4\ndatasets:\n  - { name: s, format: synthetic, preset: small }\ndims: [50]\nqueries: 300\nk: [10]\nkappa: [20]\ntrials: 8\nprivacy: { d: 0.1, delta: 0.01, xi: [0, 5, 5000] }\nmechanisms: [exact, lsh, lshrr, vmf, jl-gaussian, { name: jl-gaussian, guarantee: every-w, label: jl-w }]\n',
    );
    const r = await lshdpIn(['run', 'c.yaml', '--out', 'out', '--no-png', '--no-cache', '-q', '--threads', '1'], { cwd: dir });
    expect(r.status, r.stderr).toBe(0);
    const rows = readUtilityCsv(join(dir, 'out', 'utility.csv'));
    const at = (m: string, xi: number | null) => rows.find((x) => x.mechanism === m && x.xi === xi)!;
    const random = at('lshrr', 0);
    for (const m of ['jl-gaussian', 'jl-w']) {
      const zero = at(m, 0);
      const se = Math.hypot(zero.utility_loss_se!, random.utility_loss_se!);
      expect(Math.abs(zero.utility_loss_mean - random.utility_loss_mean) + 1.645 * se, m).toBeLessThan(0.01);
      expect(at(m, 5000).utility_loss_mean, m).toBeLessThan(at('lsh', null).utility_loss_mean);
      expect(at(m, 5).utility_loss_mean, m).toBeLessThan(zero.utility_loss_mean);
    }
    expect(at('jl-w', 5).accountant).toBe('every-w');
    // budgets.csv: LSHRR's rows, the directional ones and the own ones, each read apart
    const budgets = join(dir, 'out', 'budgets.csv');
    expect(readFileSync(budgets, 'utf8').split('\n')[0]).toBe(
      'accountant,d,delta,kappa,xi,alpha,epsilon_bit,flip,epsilon_ldp,fallback,unbounded,delta_hockey,mechanism,concentration,concentration_metric,parameter,value,ldp_delta',
    );
    expect(readBudgetsCsv(budgets).map((b) => b.xi)).toEqual([0, 5, 5000]);
    expect(readDirectionalBudgetsCsv(budgets).map((b) => b.mechanism)).toEqual(['vmf', 'vmf', 'vmf']);
    const own = readOwnBudgetsCsv(budgets);
    expect(own.map((b) => `${b.mechanism}@${b.xi}:${b.parameter}`)).toEqual(
      ['jl-gaussian', 'jl-w'].flatMap((m) => [0, 5, 5000].map((xi) => `${m}@${xi}:${m === 'jl-w' ? 'sigma_per_sigma_max' : 'sigma'}`)),
    );
    expect(own[0]!.value).toBe(Infinity);
    expect(own[1]!.value).toBe(jlGaussianSigma(5, 20, { d: 0.1, delta: 0.01 }));
    expect(own[1]!.epsilon_ldp).toBe(at('jl-gaussian', 5).epsilon_ldp);
    expect(own[1]!.ldp_delta).toBe(0.01);
    const res = readResultsFolder(join(dir, 'out'));
    expect(buildHtml(res, [])).toContain('<h3>Mechanisms with a parameter of their own</h3>');
    expect(readFileSync(join(dir, 'out', 'tables', 'budgets.md'), 'utf8')).toContain('**jl-w (every-w), d = 0.1, δ = 0.01; ε_LDP with δ = 0.01**');
    const t = await lshdpIn(['table', 'budgets', '--mechanism', 'jl-gaussian,vmf', '--kappa', '20', '--xi', '5', '--d', '0.1'], { cwd: dir });
    expect(t.status, t.stderr).toBe(0);
    expect(t.stdout).toContain(`| κ=20: σ (Gaussian noise) | ${Number(jlGaussianSigma(5, 20, { d: 0.1, delta: 0.01 }).toPrecision(4))} |`);
    expect(t.stdout).toContain('directional mechanisms');
    const bad = await lshdpIn(['table', 'budgets', '--mechanism', 'jl-gaussian', '--option', 'buckets=4'], { cwd: dir });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--option: buckets: none of jl-gaussian takes it/);
  });
});
