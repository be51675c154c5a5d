import { describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, STACK_RE } from '../helpers/cli.js';
import { lshdpIn } from '../helpers/inproc.js';
import type { AuditFile } from '../helpers/audit.js';
import { AUDIT_CSV_COLUMNS } from '../../src/audit/output.js';

const FIXTURE = join(ROOT, 'tests/fixtures/data/ratings.csv');

function config(dir: string, mechanisms: string, extra = ''): string {
  const file = join(dir, 'audit-test.yaml');
  writeFileSync(
    file,
    `name: audit-test
seed: 3
datasets:
  - { name: tiny, format: movielens-csv, path: ${JSON.stringify(FIXTURE)} }
dims: [4]
queries: 0
k: [1]
kappa: [10]
trials: 1
privacy: { d: 0.1, delta: 0.01, xi: [2, 5] }
mechanisms: ${mechanisms}
${extra}`,
  );
  return file;
}

describe('lshdp audit', () => {
  it('writes audit.json (the issue schema), audit.csv, the figure and the HTML; says when no real pair is near d; deterministic', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lshdp-audit-'));
    const file = config(dir, '[lsh, lshrr, { name: lshrr, accountant: exact, label: lshrr-exact }, laplsh, rappor]');
    const out = join(dir, 'out');
    const r = await lshdpIn(['audit', file, '--out', out, '--samples', '300']);
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^tiny \(n = 4\): no user pair within ±0\.005 of d = 0\.1 among the first \d+ users; the audit uses the synthetic pairs \(widen the band with --band\)$/m);
    for (const f of ['audit.json', 'audit.csv', 'audit-cdf.svg', 'audit.html']) expect(existsSync(join(out, f)), f).toBe(true);
    const json = JSON.parse(readFileSync(join(out, 'audit.json'), 'utf8')) as AuditFile;
    // 1 (lsh) + 2 xi × (lshrr, lshrr-exact, laplsh, rappor)
    expect(json.results).toHaveLength(9);
    for (const row of json.results) {
      for (const key of ['mechanism', 'accountant', 'kappa', 'xi', 'd', 'delta', 'verdict', 'tail', 'tail_ci', 'epsilon_lb', 'samples']) expect(row, key).toHaveProperty(key);
    }
    // every claim here holds and is testable at ξ 2 (the exact check passes, the clean code would be seen): no row may be violated or not-testable
    const verdicts = json.results.map((x) => `${x.mechanism} ${x.xi} ${x.verdict}`);
    expect(verdicts.filter((v) => v.startsWith('lsh '))).toEqual(['lsh 0 not-applicable']);
    for (const row of json.results.filter((x) => x.mechanism !== 'lsh' && x.xi === 2)) {
      expect(row.verdict, row.mechanism).toBe('no-violation-found');
      expect(row.epsilon_lb!, row.mechanism).toBeLessThanOrEqual(2);
      expect(row.confidence!, row.mechanism).toBeCloseTo(1 - 0.05 / 8 / (row.mechanism.startsWith('lshrr') ? 2 : 1), 12);
      expect(row.epsilon_ceiling!, row.mechanism).toBeGreaterThan(2);
      expect(row.detectable_inflation!, row.mechanism).toBeGreaterThanOrEqual(1);
    }
    expect(r.stdout).toMatch(/^9 rows: violated 0, law-mismatch 0, no-violation-found \d, not-testable \d, not-applicable 1 \(every row with its verdict and reason: .*audit\.csv\)$/m);
    const exact = json.results.filter((x) => x.mechanism === 'lshrr-exact');
    expect(exact.map((x) => [x.accountant, x.tail_ci!.length, x.samples, x.detectable_by])).toEqual([
      ['exact', 2, 300, 'flip-rate'],
      ['exact', 2, 300, 'flip-rate'],
    ]);
    expect(json.results.filter((x) => x.mechanism === 'laplsh').every((x) => x.tail === null && x.delta === 0)).toBe(true);
    expect(readFileSync(join(out, 'audit.csv'), 'utf8').split('\n')[0]).toBe(AUDIT_CSV_COLUMNS.join(','));
    expect(readFileSync(join(out, 'audit.html'), 'utf8')).toContain('<section id="audit">');
    // same config and seed: byte-identical files
    const out2 = join(dir, 'out2');
    expect((await lshdpIn(['audit', file, '--out', out2, '--samples', '300'])).status).toBe(0);
    for (const f of ['audit.json', 'audit.csv', 'audit.html']) expect(readFileSync(join(out2, f), 'utf8'), f).toBe(readFileSync(join(out, f), 'utf8'));
    // --json prints the same object
    const j = await lshdpIn(['audit', file, '--out', join(dir, 'out3'), '--samples', '300', '--json']);
    expect(j.status).toBe(0);
    expect(j.stdout).toBe(readFileSync(join(out, 'audit.json'), 'utf8'));
  });

  it('exits 3 when a row is violated (the naive accountant), after writing its files and naming the rows', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lshdp-audit-naive-'));
    const file = config(dir, '[{ name: lshrr, accountant: naive, label: naive }]');
    const out = join(dir, 'out');
    const r = await lshdpIn(['audit', file, '--out', out, '--samples', '100']);
    expect(r.status, r.stderr).toBe(3);
    expect(r.stdout).toMatch(/^2 rows: violated 2, law-mismatch 0, no-violation-found 0, not-testable 0, not-applicable 0 \(every row with its verdict and reason: .*audit\.csv\)$/m);
    expect(r.stdout).toMatch(
      /^ {2}violated: naive κ=10 ξ=2: exact tail [\d.]+ > δ = 0\.01 at the declared per-bit ε; flip rate [\d.]+ on \d+ differing bits: realized per-bit ε >= [\d.]+ > [\d.]+ the claim allows \(p [\d.e-]+\)$/m,
    );
    expect(r.stderr).toMatch(/^lshdp: audit: 2 of 2 tested row\(s\) violated \(exit 3\)$/m);
    expect(r.stderr).not.toMatch(STACK_RE);
    expect(existsSync(join(out, 'audit.json'))).toBe(true);
  });

  it('exits 4 when no row is violated but a plugin departs from its declared law in the safe direction (law-mismatch), naming the rows', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lshdp-audit-mismatch-'));
    // per-bit flips declared at the exact accountant's ε, drawn at half of it: more flips than declared
    writeFileSync(
      join(dir, 'overflip.mjs'),
      `import { accountEpsilon } from ${JSON.stringify(join(ROOT, 'dist/privacy/accountants.js'))};
export default {
  name: 'overflip',
  usesXi: true,
  flipsBits: true,
  cleanIsLshCode: true,
  epsilon: ({ xi, kappa, d, delta, disagreement }) => {
    const a = accountEpsilon('exact', { xi, kappa, p: disagreement(d), delta });
    return { epsilon_bit: a.epsilonBit, epsilon_ldp: a.epsilonLdp, fallback: a.fallback };
  },
  encode: ({ codes, users, eps, rng }) => {
    const out = codes.codes.slice();
    const q = 1 / (1 + Math.exp(eps.epsilon_bit / 2));
    for (let i = 0; i < users; i++) for (let j = 0; j < codes.bits; j++) if (rng() < q) out[i * codes.words + (j >>> 5)] ^= 1 << (j & 31);
    return { codes: out, bits: codes.bits, words: codes.words };
  },
};
`,
    );
    const file = config(dir, '[{ module: ./overflip.mjs }]');
    const r = await lshdpIn(['audit', file, '--out', join(dir, 'out'), '--samples', '1000']);
    expect(r.status, r.stderr).toBe(4);
    expect(r.stdout).toMatch(/^2 rows: violated 0, law-mismatch 2, no-violation-found 0, not-testable 0, not-applicable 0 \(every row with its verdict and reason: .*audit\.csv\)$/m);
    expect(r.stdout).toMatch(/^ {2}law-mismatch \(safer\): overflip κ=10 ξ=2: the release departs from its declared law \(safer\): flip rate [\d.]+ on the differing bits, declared [\d.]+/m);
    expect(r.stderr).toMatch(/^lshdp: audit: 2 of 2 tested row\(s\) depart from their declared law \(law-mismatch, exit 4\); none is violated$/m);
    const json = JSON.parse(readFileSync(join(dir, 'out', 'audit.json'), 'utf8')) as AuditFile;
    expect(json.results.map((x) => [x.verdict, x.law_direction])).toEqual([
      ['law-mismatch', 'safer'],
      ['law-mismatch', 'safer'],
    ]);
  });

  it('--help says what each verdict means, the one-sided rule, what the default M sees per mechanism, and the exit statuses', async () => {
    const r = await lshdpIn(['audit', '--help']);
    expect(r.status).toBe(0);
    for (const v of ['violated', 'law-mismatch', 'no-violation-found', 'not-testable', 'not-applicable']) expect(r.stdout).toMatch(new RegExp(`^ {2}${v} +\\S`, 'm'));
    expect(r.stdout).toMatch(/violated +one-sided: a test found more privacy loss than claimed/);
    expect(r.stdout).toMatch(/What M = 5000 samples \(--samples\) see/);
    expect(r.stdout.replace(/\s+/g, ' ')).toContain(
      'Exit status: 0 when no row is violated or law-mismatch, 3 when some row is violated, 4 when none is but some row is law-mismatch, 2 on bad input.',
    );
    expect(r.stdout).not.toMatch(/\bsound\b|inconclusive|factor-two|@[A-Z_]+@/);
  });

  it('bad input: one line, exit 2, no stack', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lshdp-audit-bad-'));
    const good = config(dir, '[lshrr]');
    const cases: [string[], RegExp][] = [
      [['--samples', '0'], /--samples: expected a positive integer, got "0"/],
      [['--samples', 'many'], /--samples: expected a positive integer/],
      [['--band', '0'], /--band: must be a number in \(0, 0\.5\)/],
      [['--pairs', '-1'], /--pairs: expected a non-negative integer/],
    ];
    for (const [args, re] of cases) {
      const r = await lshdpIn(['audit', good, ...args]);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.stderr, args.join(' ')).toMatch(re);
      expect(r.stderr.trim().split('\n'), args.join(' ')).toHaveLength(1);
      expect(r.stderr).not.toMatch(STACK_RE);
    }
    const configs: [string, RegExp][] = [
      ['[{ name: lshrr, accountant: exakt }]', /unknown accountant "exakt" \(did you mean "exact"\?\)/],
      ['[{ name: laplsh, accountant: exact }]', /accountant/],
      ['[{ name: lshrr, label: a }, { name: lshrr, accountant: exact, label: a }]', /label/],
    ];
    for (const [mechs, re] of configs) {
      const d = mkdtempSync(join(tmpdir(), 'lshdp-audit-cfg-'));
      const r = await lshdpIn(['audit', config(d, mechs)]);
      expect(r.status, mechs).toBe(2);
      expect(r.stderr, mechs).toMatch(re);
      expect(r.stderr.trim().split('\n'), mechs).toHaveLength(1);
      expect(r.stderr).not.toMatch(STACK_RE);
    }
  });
});
