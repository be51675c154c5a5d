import { describe, it, expect } from 'vitest';
import { readFileSync, existsSync, writeFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { STACK_RE } from '../helpers/cli.js';
import { scratch, runInProc, CLI_CELLS, CLI_CONFIG } from '../helpers/experiment.js';

const read = (p: string) => readFileSync(p, 'utf8');

describe('lshdp run', () => {
  it('gives byte-identical utility.csv and nn_distances.csv for --threads 1 and --threads 2, and resumes', async () => {
    const { dir, config } = scratch();
    const one = await runInProc(dir, ['run', config, '--out', 'r1', '--threads', '1', '--no-report', '--no-cache']);
    expect(one.stderr).not.toMatch(STACK_RE);
    expect(one.status).toBe(0);
    const two = await runInProc(dir, ['run', config, '--out', 'r2', '--threads', '2', '--no-report']);
    expect(two.status).toBe(0);
    for (const f of ['utility.csv', 'nn_distances.csv', 'budgets.csv']) expect(read(join(dir, 'r2', f)), f).toBe(read(join(dir, 'r1', f)));
    const utility = read(join(dir, 'r1', 'utility.csv'))
      .trimEnd()
      .split('\n');
    expect(utility[0]).toBe('dataset,n,kappa,k,mechanism,base,accountant,xi,epsilon_bit,epsilon_lap,epsilon_ldp,fallback,trials,queries,utility_loss_mean,utility_loss_se,recall_mean,recall_se');
    // per n: 2 exact rows + 2 kappa * 2 k * (1 lsh + 3 lshrr + 3 laplsh)
    expect(utility).toHaveLength(1 + 2 * (2 + 2 * 2 * 7));
    expect(
      read(join(dir, 'r1', 'nn_distances.csv'))
        .trimEnd()
        .split('\n'),
    ).toHaveLength(1 + 2 * 50);
    const manifest = JSON.parse(read(join(dir, 'r2', 'manifest.json')));
    expect(manifest).toMatchObject({ threads: 2, shard: null, node: process.version });
    expect(manifest.grid).toHaveLength(CLI_CELLS);
    expect(manifest.users.map((u: { n: number }) => u.n)).toEqual([40, 80]);
    // rerun: nothing recomputed, the same bytes; the exact k-NN cache was written under data/cache
    const again = await runInProc(dir, ['run', config, '--out', 'r2', '--threads', '2', '--no-report']);
    expect(again.status).toBe(0);
    expect(again.stderr).toContain('resuming: reusing 86 of 86 results, computing 0');
    expect(read(join(dir, 'r2', 'utility.csv'))).toBe(read(join(dir, 'r1', 'utility.csv')));
    // a fresh folder reads the exact neighbours from the k-NN cache: still the same bytes
    expect(readdirSync(join(dir, 'data', 'cache')).filter((f) => /^knn-[0-9a-f]+\.bin$/.test(f))).toHaveLength(2);
    const cached = await runInProc(dir, ['run', config, '--out', 'r3', '--threads', '2', '--no-report']);
    expect(cached.status).toBe(0);
    for (const f of ['utility.csv', 'nn_distances.csv']) expect(read(join(dir, 'r3', f)), f).toBe(read(join(dir, 'r1', f)));
  });

  it('refuses a results folder of a config with another name, with --force overriding', async () => {
    const { dir, config } = scratch();
    expect((await runInProc(dir, ['run', config, '--out', 'r', '--threads', '1', '--no-report', '--no-cache'])).status).toBe(0);
    writeFileSync(join(dir, 'other.yaml'), CLI_CONFIG.replace('name: tiny', 'name: other').replace('trials: 3', 'trials: 2'));
    const before = read(join(dir, 'r', 'utility.csv'));
    const r = await runInProc(dir, ['run', 'other.yaml', '--out', 'r', '--no-report', '--no-cache']);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe('lshdp: error: r belongs to the config named "tiny", not "other"; use --out DIR, or --force to replace its results\n');
    expect(read(join(dir, 'r', 'utility.csv'))).toBe(before);
    const f = await runInProc(dir, ['run', 'other.yaml', '--out', 'r', '--no-report', '--no-cache', '--force', '--threads', '1']);
    expect(f.status).toBe(0);
    expect(read(join(dir, 'r', 'utility.csv'))).not.toBe(before);
  });

  it('writes results/<name>/ with the report by default', async () => {
    const { dir, config } = scratch(CLI_CONFIG.replace('dims: [40, 80]', 'dims: [40]').replace('kappa: [8, 16]', 'kappa: [8]'));
    const r = await runInProc(dir, ['run', config, '--threads', '1', '--quiet']);
    expect(r.status).toBe(0);
    expect(r.stderr).not.toMatch(STACK_RE);
    for (const f of ['utility.csv', 'nn_distances.csv', 'budgets.csv', 'datasets.json', 'manifest.json', 'index.html']) expect(existsSync(join(dir, 'results', 'tiny', f)), f).toBe(true);
  });

  it('queries above the users available: one warning line on stderr (under -q too), every user queried', async () => {
    const { dir, config } = scratch(CLI_CONFIG.replace('queries: 50', 'queries: 100000').replace('dims: [40, 80]', 'dims: [40]').replace('trials: 3', 'trials: 1'));
    const r = await runInProc(dir, ['run', config, '--out', 'q', '--no-report', '--no-cache', '-q']);
    expect(r.status, r.stderr).toBe(0);
    const warnings = r.stderr.split('\n').filter((l) => l.includes('queries'));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^lshdp: warning: queries: 100,000 is more than the users available \(synth has [\d,]+ users\): every user is a query/);
    const users = Number(/synth has ([\d,]+) users/.exec(warnings[0]!)![1]!.replace(/,/g, ''));
    expect(
      read(join(dir, 'q', 'nn_distances.csv'))
        .trimEnd()
        .split('\n'),
    ).toHaveLength(1 + users);
    // within the users: no warning
    const within = await runInProc(dir, ['run', config, '--out', 'q2', '--no-report', '--no-cache', '-q', '--set', `queries=${users}`]);
    expect(within.stderr).toBe('');
  });

  it('a grid value only the data can refuse names the --set it came from', async () => {
    const { dir, config } = scratch(CLI_CONFIG.replace('dims: [40, 80]', 'dims: [40]'));
    const r = await runInProc(dir, ['run', config, '--out', 'k', '--no-report', '--no-cache', '-q', '--set', 'k=[5000]']);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^lshdp: error: --set k=\[5000\]: k: 5000 must be below the number of users of data set "synth" at n=40 \([\d,]+\)\n$/);
  });
});
