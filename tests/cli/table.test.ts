import { describe, it, expect } from 'vitest';
import { join } from 'node:path';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { ROOT, STACK_RE } from '../helpers/cli.js';
import { lshdpIn } from '../helpers/inproc.js';

/** The appendix table of the paper (rounded LDP budgets, κ = 10/20/50, ξ = 1, 5, 10, 20). */
const PAPER = {
  '0.05': ['3/4/6', '14/20/30', '28/40/60', '55/79/120'],
  '0.1': ['2/3/4', '10/14/20', '21/28/40', '42/57/80'],
};

describe('lshdp table budgets', () => {
  it("reproduces the paper's appendix table digit for digit (both d) with the default grid", async () => {
    const r = await lshdpIn(['table', 'budgets']);
    expect(r.status).toBe(0);
    const cellLines = r.stdout.split('\n').filter((l) => l.startsWith('| κε (κ=10/20/50)'));
    expect(cellLines).toHaveLength(2);
    expect(cellLines[0]).toBe(`| κε (κ=10/20/50) | ${PAPER['0.05'].join(' | ')} |`);
    expect(cellLines[1]).toBe(`| κε (κ=10/20/50) | ${PAPER['0.1'].join(' | ')} |`);
    expect(r.stdout).toContain('**d_θ = 0.05, δ = 0.01**');
  });

  it('csv and json: exact values whose rounding is the paper table', async () => {
    const j = await lshdpIn(['table', 'budgets', '--format', 'json']);
    expect(j.status).toBe(0);
    const rows = JSON.parse(j.stdout) as { accountant: string; d: number; kappa: number; xi: number; epsilon_ldp: number; epsilon_bit: number; fallback: boolean }[];
    expect(rows).toHaveLength(24);
    expect(new Set(rows.map((r) => r.accountant))).toEqual(new Set(['paper']));
    for (const [d, cells] of Object.entries(PAPER)) {
      [1, 5, 10, 20].forEach((xi, i) => {
        const got = [10, 20, 50].map((k) => Math.round(rows.find((r) => r.d === Number(d) && r.xi === xi && r.kappa === k)!.epsilon_ldp));
        expect(got.join('/')).toBe(cells[i]);
      });
    }
    for (const r of rows) expect(r.epsilon_ldp).toBeCloseTo(r.kappa * r.epsilon_bit, 10);
    const c = await lshdpIn(['table', 'budgets', '--format', 'csv', '--d', '0.05', '--kappa', '128', '--xi', '20.0410774234']);
    expect(c.status).toBe(0);
    const [header, row] = c.stdout.trim().split('\n');
    expect(header).toBe('accountant,d,delta,kappa,xi,alpha,epsilon_bit,flip,epsilon_ldp,fallback,unbounded,delta_hockey');
    // protocol golden value: kappa 128, d 0.05, delta 0.01 → alpha 0.0681733821601, eps = ln(0.79/0.21)
    const cells = row.split(',');
    expect(Number(cells[5])).toBeCloseTo(0.0681733821601, 10);
    expect(Number(cells[6])).toBeCloseTo(Math.log(0.79 / 0.21), 9);
    expect(Number(cells[7])).toBeCloseTo(0.21, 9);
  });

  it("--accountant lists accountants: one row per (accountant, d, kappa, xi), the issue's exact values", async () => {
    const j = await lshdpIn(['table', 'budgets', '--accountant', 'paper', 'exact', '--d', '0.1', '--xi', '5', '--format', 'json']);
    expect(j.status).toBe(0);
    const rows = JSON.parse(j.stdout) as { accountant: string; kappa: number; epsilon_bit: number; delta_hockey: number | null }[];
    expect(rows.map((r) => `${r.accountant}:${r.kappa}:${r.epsilon_bit.toFixed(3)}`)).toEqual([
      'paper:10:1.049',
      'paper:20:0.710',
      'paper:50:0.400',
      'exact:10:1.667',
      'exact:20:1.083',
      'exact:50:0.714',
    ]);
    expect(rows.map((r) => r.delta_hockey === null)).toEqual([true, true, true, false, false, false]);
    const md = await lshdpIn(['table', 'budgets', '--accountant', 'exact,theorem', '--d', '0.1']);
    expect(md.status).toBe(0);
    expect(md.stdout).toContain('**exact accountant, d_θ = 0.1, δ = 0.01**');
    expect(md.stdout).toContain('**theorem accountant, d_θ = 0.1, δ = 0.01**');
    const naive = await lshdpIn(['table', 'budgets', '--accountant', 'naive', '--d', '0.1', '--format', 'csv']);
    expect(naive.status).toBe(0);
    expect(naive.stderr).toMatch(/^lshdp: warning: --accountant uses the naive accountant[^\n]*\n$/);
  });

  it('accepts space- or comma-separated lists and prints latex', async () => {
    const r = await lshdpIn(['table', 'budgets', '--d', '0.1', '--kappa', '10', '20', '50', '--xi', '1,5,10,20', '--format', 'latex']);
    expect(r.status).toBe(0);
    expect(r.stdout).toContain(`${PAPER['0.1'].join(' & ')} \\\\`);
    expect(r.stdout).toContain('\\begin{tabular}');
  });

  it('an unknown accountant is one line with a did-you-mean', async () => {
    const r = await lshdpIn(['table', 'budgets', '--accountant', 'exakt']);
    expect(r.status).toBe(2);
    expect(r.stderr).toBe('lshdp: error: --accountant: unknown accountant "exakt" (did you mean "exact"?); known: paper, exact, theorem, naive\n');
  });

  it('--mechanism vmf,purkayastha: c and the LDP equivalent by closed form, δ = 0, the same for every κ', async () => {
    const j = await lshdpIn(['table', 'budgets', '--mechanism', 'lshrr', 'vmf,purkayastha', '--d', '0.05,0.1', '--kappa', '10,50', '--xi', '0,1,20', '--format', 'json']);
    expect(j.status, j.stderr).toBe(0);
    const rows = JSON.parse(j.stdout) as Record<string, number | string | null>[];
    // LSHRR's rows first, as without --mechanism, then 2 mechanisms × 2 d × 3 ξ × 2 κ
    expect(rows.filter((r) => r.mechanism === 'lshrr')).toHaveLength(12);
    const dir = rows.filter((r) => r.mechanism !== 'lshrr');
    expect(dir).toHaveLength(24);
    for (const r of dir) {
      const [d, xi, c] = [r.d as number, r.xi as number, r.concentration as number];
      expect(r.delta).toBe(0);
      expect(r.accountant).toBeNull();
      expect(r.flip).toBeNull();
      if (r.mechanism === 'vmf') {
        // (c·d₂)-private: the loss at the chord of angle πd, sqrt(2 − 2cos πd), is ξ; LDP over diameter 2
        expect(r.concentration_metric).toBe('euclidean');
        expect(c * Math.sqrt(2 - 2 * Math.cos(Math.PI * d))).toBeCloseTo(xi, 10);
        expect(r.epsilon_ldp).toBeCloseTo(2 * c, 12);
      } else {
        expect(r.concentration_metric).toBe('angle');
        expect(c * Math.PI * d).toBeCloseTo(xi, 10);
        expect(r.epsilon_ldp).toBeCloseTo(Math.PI * c, 12);
      }
      const other = dir.find((o) => o.mechanism === r.mechanism && o.d === d && o.xi === xi && o.kappa !== r.kappa)!;
      expect(other.concentration).toBe(c);
    }
    // the paper's d = 0.1, ξ = 1: Purkayastha's LDP equivalent is ξ/d = 10 exactly
    const md = await lshdpIn(['table', 'budgets', '--mechanism', 'vmf,purkayastha', '--d', '0.1', '--xi', '1,5']);
    expect(md.status, md.stderr).toBe(0);
    expect(md.stdout).toContain('| purkayastha: ε_LDP = πc | 10 | 50 |');
    expect(md.stdout).toContain('| vmf: ε_LDP = 2c | 6.392 | 31.96 |');
    expect(md.stdout).not.toContain('accountant');
    const csv = await lshdpIn(['table', 'budgets', '--mechanism', 'purkayastha', '--d', '0.1', '--kappa', '10', '--xi', '1', '--format', 'csv']);
    expect(csv.stdout.trim().split('\n')[1].split(',').slice(-3)).toEqual(['purkayastha', String(1 / (Math.PI * 0.1)), 'angle']);
  });

  it('rejects bad values in one line with exit 2', async () => {
    for (const args of [
      ['--d', 'abc'],
      ['--format', 'xml'],
      ['--kappa', '2.5'],
      ['--d', '1.5'],
      ['--xi', '-1'],
      ['--accountant', 'exakt'],
      ['--mechanism', 'purkayasta'],
      ['--mechanism', 'vmf', '--accountant', 'exact'],
    ]) {
      const r = await lshdpIn(['table', 'budgets', ...args]);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr).toMatch(/^lshdp: error: .+\n$/);
      expect(r.stderr).not.toMatch(STACK_RE);
    }
  });

  it('the mechanisms with a parameter of their own: their accountant and options through --option, each applied where it is taken', async () => {
    const { minhashBucketEpsilon } = await import('../../src/privacy/minhash.js');
    const r = await lshdpIn([
      'table',
      'budgets',
      '--mechanism',
      'minhash-bucket,jl-gaussian',
      '--option',
      'accountant=exact',
      'buckets=16',
      'guarantee=every-w',
      '--kappa',
      '10',
      '--xi',
      '5',
      '--d',
      '0.1',
      '--format',
      'csv',
    ]);
    expect(r.status, r.stderr).toBe(0);
    const rows = r.stdout
      .trim()
      .split('\n')
      .map((l) => l.split(','));
    const col = (name: string) => rows[0]!.indexOf(name);
    const bucket = rows.find((x) => x[col('mechanism')] === 'minhash-bucket (buckets 16)')!;
    expect(bucket[col('accountant')]).toBe('exact');
    expect(bucket[col('parameter')]).toBe('epsilon_position');
    expect(Number(bucket[col('value')])).toBe(minhashBucketEpsilon(5, 10, { jaccardDistance: 0.1, delta: 0.01 }, 16, 'exact').epsilon);
    const jl = rows.find((x) => x[col('mechanism')] === 'jl-gaussian (guarantee every-w)')!;
    expect(jl[col('parameter')]).toBe('sigma_per_sigma_max');
    const bad = await lshdpIn(['table', 'budgets', '--mechanism', 'minhash-noisy', '--option', 'buckets=4']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--option: buckets: none of minhash-noisy takes it/);
  });
});

describe('lshdp table utility', () => {
  const dir = join(ROOT, 'tests/fixtures/results/small');
  const UTILITY_HEADER = 'dataset,n,kappa,k,mechanism,base,accountant,xi,epsilon_bit,epsilon_lap,epsilon_ldp,fallback,trials,queries,utility_loss_mean,utility_loss_se,recall_mean,recall_se';

  it('prints mean ± se in markdown, csv and latex', async () => {
    const md = await lshdpIn(['table', 'utility', dir]);
    expect(md.status).toBe(0);
    expect(md.stdout).toContain('| ml-small | 50 | 10 | 10 | lsh | – | – | – | – | 5 | 0.0750 ± 0.0035 |');
    const tex = await lshdpIn(['table', 'utility', dir, '--format', 'latex']);
    expect(tex.stdout).toContain('0.0750 $\\pm$ 0.0035');
  });

  it("csv keeps every utility.csv column (epsilon_ldp, fallback included) plus the rounded display columns; json rows use utility.csv's names", async () => {
    const csv = await lshdpIn(['table', 'utility', dir, '--format', 'csv']);
    expect(csv.status).toBe(0);
    const lines = csv.stdout.trim().split('\n');
    expect(lines[0]).toBe(`${UTILITY_HEADER},utility_loss,recall`);
    const file = readFileSync(join(dir, 'utility.csv'), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(file.length);
    // full precision: the first 18 columns are utility.csv's cells
    for (const [i, l] of lines.slice(1).entries()) expect(l.split(',').slice(0, 18).join(',')).toBe(file[i + 1]);
    const json = await lshdpIn(['table', 'utility', dir, '--format', 'json']);
    const rows = JSON.parse(json.stdout) as Record<string, unknown>[];
    expect(rows).toHaveLength(file.length - 1);
    expect(Object.keys(rows[0])).toEqual(UTILITY_HEADER.split(','));
    for (const old of ['lossMean', 'ldpEpsilon', 'ldp_epsilon', 'epsilon']) expect(rows[0]).not.toHaveProperty(old);
    const lap = rows.find((r) => r.mechanism === 'laplsh' && r.xi === 5)!;
    expect(lap.epsilon_lap).toBeGreaterThan(0);
    expect(lap.epsilon_bit).toBeNull();
    expect(lap.epsilon_ldp).toBeCloseTo(2 * (lap.epsilon_lap as number), 3);
  });

  it('the md table shows the comparable ε_LDP and names the per-bit and the Laplace ε apart', async () => {
    const md = (await lshdpIn(['table', 'utility', dir])).stdout;
    expect(md.split('\n')[0]).toBe('| dataset | n | κ | k | mechanism | ξ | ε_LDP | ε_bit | ε_Lap | trials | utility loss (mean ± se) | recall (mean ± se) |');
    expect(md).toMatch(/\| ml-small \| 50 \| 10 \| 10 \| lshrr \| 20 \| 41\.96 \| 4\.196 \| – \|/);
    expect(md).toMatch(/\| ml-small \| 50 \| 10 \| 10 \| laplsh \| 20 \| 127\.8 \| – \| 63\.92 \|/);
  });

  it('--mechanisms, --kappa, --k, --n filter the rows in every format', async () => {
    const r = await lshdpIn(['table', 'utility', dir, '--mechanisms', 'lshrr-exact', 'laplsh', '--kappa', '20', '--n', '100', '--k', '10', '--format', 'json']);
    expect(r.status).toBe(0);
    const rows = JSON.parse(r.stdout) as { mechanism: string; kappa: number; n: number }[];
    expect(rows).toHaveLength(2 * 2 * 5); // 2 data sets, 2 labels, 5 ξ
    expect(new Set(rows.map((x) => x.mechanism))).toEqual(new Set(['lshrr-exact', 'laplsh']));
    expect(rows.every((x) => x.kappa === 20 && x.n === 100)).toBe(true);
    const md = (await lshdpIn(['table', 'utility', dir, '--mechanisms', 'lsh', '--kappa', '10,20'])).stdout.split('\n\n')[0].trim().split('\n');
    expect(md).toHaveLength(2 + 6); // 3 (data set, n) × 2 κ
    const bad = await lshdpIn(['table', 'utility', dir, '--k', '5']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/^lshdp: error: --k: 5 not in .*utility\.csv \(it has 10\)\n$/);
  });

  it('a utility.csv of an older lshdp (epsilon, ldp_epsilon) is still read, in the new names', async () => {
    const old = join(mkdtempSync(join(tmpdir(), 'lshdp-old-')), 'old');
    mkdirSync(old);
    writeFileSync(
      join(old, 'utility.csv'),
      [
        'dataset,n,kappa,k,mechanism,xi,epsilon,trials,queries,utility_loss_mean,utility_loss_se,recall_mean,recall_se,ldp_epsilon,fallback',
        'ml,50,10,10,lshrr,5,1.04909,5,40,0.106977,0.00543947,0.293337,0.00545897,10.4909,false',
        'ml,50,10,10,laplsh,5,31.96,5,40,0.2,0.005,0.1,0.01,,',
      ].join('\n') + '\n',
    );
    const rows = JSON.parse((await lshdpIn(['table', 'utility', old, '--format', 'json'])).stdout);
    expect(rows[0]).toMatchObject({ mechanism: 'lshrr', base: 'lshrr', accountant: 'paper', epsilon_bit: 1.04909, epsilon_lap: null, epsilon_ldp: 10.4909 });
    expect(rows[1]).toMatchObject({ mechanism: 'laplsh', epsilon_bit: null, epsilon_lap: 31.96, epsilon_ldp: null });
  });

  it('a folder without utility.csv is a one-line error', async () => {
    const r = await lshdpIn(['table', 'utility', join(ROOT, 'tests')]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/utility\.csv: not found/);
    expect(r.stderr).not.toMatch(STACK_RE);
  });
});

describe('lshdp table attack', () => {
  const dir = join(ROOT, 'tests/fixtures/results/attack');
  const ATTACK_HEADER = 'dataset,n,kappa,mechanism,base,accountant,xi,known,reid1_mean,reid1_se,reid10_mean,reid10_se,trials,users,targets';

  it('prints reid@1 and reid@10 as mean ± se beside chance 1/N, in markdown and latex', async () => {
    const md = await lshdpIn(['table', 'attack', dir]);
    expect(md.status).toBe(0);
    expect(md.stdout.split('\n')[0]).toBe('| dataset | n | κ | mechanism | ξ | known | reid@1 (mean ± se) | reid@10 (mean ± se) | chance 1/N | trials | targets of N |');
    // the fixture's first row: lsh (no ξ), reid@1 0.400923 ± 0.0105243 of N = 40
    expect(md.stdout).toContain('| ml-small | 50 | 10 | lsh | – | 0.5 | 0.401 ± 0.011 | 0.800 ± 0.016 | 0.025 | 5 | 40 of 40 |');
    const tex = await lshdpIn(['table', 'attack', dir, '--format', 'latex']);
    expect(tex.stdout).toContain('ml-small & 50 & 10 & lsh & -- & 0.5 & 0.401 $\\pm$ 0.011');
  });

  it("csv keeps every attack.csv cell plus the rounded columns; json rows use attack.csv's names", async () => {
    const lines = (await lshdpIn(['table', 'attack', dir, '--format', 'csv'])).stdout.trim().split('\n');
    expect(lines[0]).toBe(`${ATTACK_HEADER},reid1,reid10`);
    const file = readFileSync(join(dir, 'attack.csv'), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(file.length);
    for (const [i, l] of lines.slice(1).entries()) expect(l.split(',').slice(0, 15).join(',')).toBe(file[i + 1]);
    const rows = JSON.parse((await lshdpIn(['table', 'attack', dir, '--format', 'json'])).stdout) as Record<string, unknown>[];
    expect(Object.keys(rows[0])).toEqual(ATTACK_HEADER.split(','));
    expect(rows[0]).toMatchObject({ mechanism: 'lsh', xi: null, accountant: null, known: 0.5 });
  });

  it('filters rows by mechanism, κ, n, ξ (keeping the no-noise rows) and known share; a value the file lacks is an error', async () => {
    const md = (await lshdpIn(['table', 'attack', dir, '--n', '100', '--kappa', '20', '--known', '0.5', '--xi', '1,5,20', '--mechanisms', 'lsh,laplsh'])).stdout;
    const rows = md.split('\n\n')[0].trim().split('\n').slice(2);
    // 2 data sets × (lsh + laplsh at 3 ξ)
    expect(rows).toHaveLength(8);
    expect(rows[0]).toMatch(/^\| ml-small \| 100 \| 20 \| lsh \| – \| 0\.5 \|/);
    expect(rows.filter((r) => /\| laplsh \| (1|5|20) \| 0\.5 \|/.test(r))).toHaveLength(6);
    const bad = await lshdpIn(['table', 'attack', dir, '--xi', '3']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/^lshdp: error: --xi: 3 not in .*attack\.csv \(it has 0, 1, 5, 10, 20\)\n$/);
  });

  it('--wide: reid@1, one row per (data set, n, κ) with its chance, one column per mechanism with its ξ side by side; needs one known share', async () => {
    const r = await lshdpIn(['table', 'attack', dir, '--wide', '--known', '1', '--n', '50', '--kappa', '10', '--xi', '1,5,20', '--mechanisms', 'lsh,lshrr,laplsh']);
    expect(r.status, r.stderr).toBe(0);
    // the fixture's rows at known 1: lsh 0.551299; lshrr 0.171972, 0.45042, 0.548223; laplsh at ξ 1 0.11933
    const lines = r.stdout.split('\n');
    expect(lines[0]).toBe('| data set | n | κ | chance 1/N | lsh | lshrr ξ=1 / 5 / 20 | laplsh ξ=1 / 5 / 20 |');
    expect(lines[2]).toMatch(/^\| ml-small \| 50 \| 10 \| 0\.025 \| 0\.551 \| 0\.172 \/ 0\.450 \/ 0\.548 \| 0\.119 \/ [0-9.]+ \/ [0-9.]+ \|$/);
    expect(lines[3]).toBe('');
    expect(lines[4]).toMatch(/^reid@1 \(mean over trials; known = 1; standard errors ≤ 0\.0\d+\)/);
    // in %, to one decimal, as the README prints it
    const pc = await lshdpIn(['table', 'attack', dir, '--wide', '--percent', '--known', '1', '--n', '50', '--kappa', '10', '--xi', '1,5,20', '--mechanisms', 'lsh,lshrr']);
    expect(pc.stdout.split('\n').slice(0, 3)).toEqual([
      '| data set | n | κ | chance 1/N % | lsh | lshrr ξ=1 / 5 / 20 |',
      '| --- | ---: | ---: | ---: | ---: | ---: |',
      '| ml-small | 50 | 10 | 2.5 | 55.1 | 17.2 / 45.0 / 54.8 |',
    ]);
    expect(pc.stdout).toContain('reid@1 in % (mean over trials; known = 1;');
    // two known shares, or another format than md: one line each
    const two = await lshdpIn(['table', 'attack', dir, '--wide']);
    expect(two.status).toBe(2);
    expect(two.stderr).toBe('lshdp: error: --wide: needs one known share (has known 0.5, 1); choose it with --known\n');
    const csv = await lshdpIn(['table', 'attack', dir, '--wide', '--known', '1', '--format', 'csv']);
    expect(csv.status).toBe(2);
    expect(csv.stderr).toMatch(/^lshdp: error: --wide: prints markdown only/);
  });

  it("--percent prints the shares in % (md and latex); csv and json keep attack.csv's shares", async () => {
    const md = await lshdpIn(['table', 'attack', dir, '--percent', '--mechanisms', 'lsh', '--n', '50', '--kappa', '10', '--known', '0.5']);
    expect(md.status).toBe(0);
    expect(md.stdout.split('\n')[0]).toBe('| dataset | n | κ | mechanism | ξ | known | reid@1 % (mean ± se) | reid@10 % (mean ± se) | chance 1/N % | trials | targets of N |');
    // 0.400923 ± 0.0105243 and 0.8 ± 0.0163276 of N = 40
    expect(md.stdout).toContain('| ml-small | 50 | 10 | lsh | – | 0.5 | 40.1 ± 1.1 | 80.0 ± 1.6 | 2.5 | 5 | 40 of 40 |');
    const tex = await lshdpIn(['table', 'attack', dir, '--percent', '--format', 'latex', '--mechanisms', 'lsh', '--n', '50', '--kappa', '10', '--known', '0.5']);
    expect(tex.stdout).toContain('reid@1 (\\%) & reid@10 (\\%) & chance $1/N$ (\\%)');
    expect(tex.stdout).toContain('ml-small & 50 & 10 & lsh & -- & 0.5 & 40.1 $\\pm$ 1.1 & 80.0 $\\pm$ 1.6 & 2.5');
    for (const format of ['csv', 'json']) {
      const r = await lshdpIn(['table', 'attack', dir, '--percent', '--format', format]);
      expect(r.status).toBe(2);
      expect(r.stderr).toBe(`lshdp: error: --percent: md and latex only (${format} keeps attack.csv's shares)\n`);
    }
  });

  it('a folder without attack.csv is a one-line error that says where it comes from', async () => {
    const r = await lshdpIn(['table', 'attack', join(ROOT, 'tests/fixtures/results/small')]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/^lshdp: error: .*attack\.csv: not found \(a run writes it when its config has an attack block; docs\/ATTACKS\.md\)\n$/);
  });
});

describe('lshdp table infer (the generic view of an evaluation, with its own axis aux)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'lshdp-table-infer-'));
  for (const f of ['utility.csv', 'nn_distances.csv', 'manifest.json']) writeFileSync(join(dir, f), readFileSync(join(ROOT, 'tests/fixtures/results/small', f)));
  const head = 'dataset,n,kappa,mechanism,base,accountant,xi,aux,k,auc_mean,auc_se,prec10_mean,prec10_se,trials,targets';
  const rows = [
    'ml,100,,prior,,,,0.25,10,0.7,0.001,0.5,0.01,10,500',
    'ml,100,,prior,,,,0.5,10,0.71,0.001,0.5,0.01,10,500',
    'ml,100,20,null,,,,0.25,10,0.66,0.001,0.5,0.01,10,500',
    'ml,100,20,null,,,,0.5,10,0.67,0.001,0.5,0.01,10,500',
    'ml,100,20,lsh,lsh,,,0.25,10,0.69,0.001,0.5,0.01,10,500',
    'ml,100,20,lsh,lsh,,,0.5,10,0.7,0.001,0.5,0.01,10,500',
  ];
  writeFileSync(join(dir, 'infer.csv'), [head, ...rows].join('\n') + '\n');

  it('--aux keeps the rows of those shares; without it every row; a share the file lacks is a one-line error', async () => {
    const all = await lshdpIn(['table', 'infer', dir]);
    expect(all.status).toBe(0);
    expect(all.stdout.trim().split('\n')).toHaveLength(2 + 6);
    const half = await lshdpIn(['table', 'infer', dir, '--aux', '0.5']);
    const body = half.stdout.trim().split('\n').slice(2);
    expect(body.map((l) => l.split(' | ')[5])).toEqual(['0.5', '0.5', '0.5']);
    expect(body[0]).toBe('| ml | 100 | – | prior | – | 0.5 | 0.7100 ± 0.0010 | 0.500 ± 0.010 | 10 |');
    const bad = await lshdpIn(['table', 'infer', dir, '--aux', '0.3']);
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/--aux: 0\.3 not in .*infer\.csv \(it has 0\.25, 0\.5\)/);
  });
});
