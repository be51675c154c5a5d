import { describe, it, expect } from 'vitest';
import { mkdtempSync, writeFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { STACK_RE } from '../helpers/cli.js';
import { lshdpIn } from '../helpers/inproc.js';
import { makeRng } from '../../src/random/rng.js';

/** A valid tiny config on the synthetic preset; cases mutate one thing. */
const SYNTH = `name: bad
seed: 1
datasets:
  - { name: synth, format: synthetic, preset: small }
dims: [20]
queries: 20
k: [1]
kappa: [4]
trials: 1
privacy: { d: 0.1, delta: 0.01, xi: [1] }
mechanisms: [exact, lsh, lshrr]
`;
const withData = (line: string) => SYNTH.replace('- { name: synth, format: synthetic, preset: small }', line);
const ml = (file: string) => withData(`- { name: ml, format: movielens-csv, path: ${file} }`);

/** A small valid MovieLens ratings.csv: 12 users, 10 movies. */
function goodRatings(): string[] {
  const rng = makeRng('bad-input-fixture');
  const lines = ['userId,movieId,rating,timestamp'];
  for (let u = 1; u <= 12; u++) for (let m = 1; m <= 10; m++) if (rng() < 0.6) lines.push(`${u},${m},${1 + Math.floor(rng() * 9) / 2},${1000 + u * 10 + m}`);
  return lines;
}
const GOOD = goodRatings();
const garbage = Buffer.from(Array.from({ length: 4000 }, (_, i) => (i * 7919 + 13) % 256));

interface Case {
  name: string;
  files?: Record<string, string | Buffer>;
  config?: string;
  args?: string[];
  /** what the one line must say (it always starts with "lshdp: error: ") */
  says: RegExp;
}

const CASES: Case[] = [
  // configs
  { name: 'unknown top-level key (typo)', config: SYNTH.replace('trials: 1', 'tirals: 1'), says: /^c\.yaml: tirals: unknown key \(did you mean "trials"\?\)$/ },
  {
    name: 'unknown data set key (typo)',
    config: SYNTH.replace('format: synthetic', 'formt: synthetic, format: synthetic'),
    says: /^c\.yaml: datasets\[0\]\.formt: unknown key \(did you mean "format"\?\)$/,
  },
  { name: 'unknown privacy key', config: SYNTH.replace('delta: 0.01', 'delt: 0.01'), says: /^c\.yaml: privacy\.delt: unknown key \(did you mean "delta"\?\)$/ },
  { name: 'wrong type (string for a number)', config: SYNTH.replace('queries: 20', 'queries: many'), says: /^c\.yaml: queries: must be a number, got string "many"$/ },
  { name: 'wrong type (scalar for a list)', config: SYNTH.replace('dims: [20]', 'dims: 20'), says: /^c\.yaml: dims: must be a list, got number 20$/ },
  { name: 'negative xi', config: SYNTH.replace('xi: [1]', 'xi: [0, 1, -2]'), says: /^c\.yaml: privacy\.xi\[2\]: must be >= 0, got number -2$/ },
  { name: 'infinite xi', config: SYNTH.replace('xi: [1]', 'xi: [.inf]'), says: /^c\.yaml: privacy\.xi\[0\]: must be a finite number/ },
  { name: 'kappa over 64', config: SYNTH.replace('kappa: [4]', 'kappa: [4, 65]'), says: /^c\.yaml: kappa\[1\]: must be <= 64, got number 65$/ },
  { name: 'kappa 0', config: SYNTH.replace('kappa: [4]', 'kappa: [0]'), says: /^c\.yaml: kappa\[0\]: must be >= 1, got number 0$/ },
  { name: 'k 0', config: SYNTH.replace('k: [1]', 'k: [0]'), says: /^c\.yaml: k\[0\]: must be >= 1, got number 0$/ },
  { name: 'd out of (0, 1)', config: SYNTH.replace('d: 0.1', 'd: 1.5'), says: /^c\.yaml: privacy\.d: must be < 1, got number 1\.5$/ },
  { name: 'delta 0', config: SYNTH.replace('delta: 0.01', 'delta: 0'), says: /^c\.yaml: privacy\.delta: must be > 0, got number 0$/ },
  { name: 'trials 0', config: SYNTH.replace('trials: 1', 'trials: 0'), says: /^c\.yaml: trials: must be >= 1, got number 0$/ },
  { name: 'negative queries', config: SYNTH.replace('queries: 20', 'queries: -1'), says: /^c\.yaml: queries: must be >= 0, got number -1$/ },
  { name: 'empty grid', config: SYNTH.replace('dims: [20]', 'dims: []'), says: /^c\.yaml: dims: must list at least one value$/ },
  { name: 'empty mechanisms', config: SYNTH.replace('mechanisms: [exact, lsh, lshrr]', 'mechanisms: []'), says: /^c\.yaml: mechanisms: must list at least one mechanism$/ },
  {
    name: 'unknown mechanism',
    config: SYNTH.replace('lshrr]', 'lshr]'),
    says: /^c\.yaml: mechanisms\[2\]: unknown mechanism "lshr" \(did you mean "lshrr" or "lsh"\?\); known: exact, lsh, lshrr, laplsh, rappor, rappor-vector, vmf, purkayastha, jl-gaussian, minhash-bucket, minhash-noisy$/,
  },
  {
    name: 'option for the wrong mechanism',
    config: SYNTH.replace('lshrr]', '{name: lshrr, sampler: direct}]'),
    says: /^c\.yaml: mechanisms\[2\]\.sampler: only laplsh, vmf, purkayastha take a sampler$/,
  },
  { name: 'bad option value', config: SYNTH.replace('lshrr]', '{name: laplsh, sampler: fast}]'), says: /^c\.yaml: mechanisms\[2\]\.sampler: must be one of "projected", "direct", got string "fast"$/ },
  {
    name: 'duplicate data set name',
    config: SYNTH.replace('preset: small }', 'preset: small }\n  - { name: synth, format: synthetic, preset: small }'),
    says: /^c\.yaml: datasets: duplicate data set name "synth"$/,
  },
  { name: 'duplicate grid value', config: SYNTH.replace('xi: [1]', 'xi: [1, 1]'), says: /^c\.yaml: privacy\.xi: duplicate value 1$/ },
  {
    name: 'unknown format',
    config: withData('- { name: x, format: movielens-2m, path: r.csv }'),
    says: /^c\.yaml: datasets\[0\]\.format: must be one of "movielens-csv", .*got string "movielens-2m" \(did you mean "movielens-1m"\?\)$/,
  },
  { name: 'unsafe name', config: SYNTH.replace('name: bad', 'name: ../escape'), says: /^c\.yaml: name: must be letters, digits/ },
  { name: 'missing data file', config: ml('data/ratings.csv'), says: /^c\.yaml: datasets\[0\]\.path: file not found: data\/ratings\.csv \(download it first: README, "Getting the paper's data"\)$/ },
  {
    name: 'interactions without a user column',
    config: withData('- { name: t, format: interactions, path: t.tsv, item: poi_id }'),
    files: { 't.tsv': 'user_id\tpoi_id\n1\t2\n' },
    says: /^c\.yaml: datasets\[0\]\.user: missing/,
  },
  { name: 'duplicate YAML key', config: SYNTH.replace('seed: 1', 'seed: 1\nseed: 2'), says: /^c\.yaml:3: Map keys must be unique$/ },
  {
    name: 'YAML custom tag (code execution attempt)',
    config: SYNTH.replace('seed: 1', 'seed: !!js/function "function () { return 1 }"'),
    says: /^c\.yaml:2: Unresolved tag: tag:yaml\.org,2002:js\/function$/,
  },
  { name: 'YAML syntax error', config: SYNTH.replace('dims: [20]', 'dims: [20'), says: /^c\.yaml:\d+: / },
  { name: 'config is a list', config: '- name: x\n', says: /^c\.yaml: must be a mapping of keys/ },
  { name: 'empty config', config: '', says: /^c\.yaml: empty config$/ },
  { name: 'binary config', config: undefined, files: { 'c.yaml': garbage }, says: /^c\.yaml: not a text file \(binary content\)$/ },
  { name: 'config file missing', args: ['run', 'nope.yaml', '--out', 'out'], says: /^nope\.yaml: cannot read config \(ENOENT\)$/ },
  { name: 'k not below the users', config: SYNTH.replace('k: [1]', 'k: [5000]'), says: /^c\.yaml: k: 5000 must be below the number of users of data set "synth" at n=20 \(\d+\)$/ },
  // data files
  { name: 'empty data file', config: ml('r.csv'), files: { 'r.csv': '' }, says: /^r\.csv: empty file/ },
  { name: 'wrong format (tab separated as movielens-csv)', config: ml('r.csv'), files: { 'r.csv': '1\t2\t3\t4\n' }, says: /^r\.csv:1: expected header userId,movieId,rating,timestamp/ },
  { name: 'non-numeric value', config: ml('r.csv'), files: { 'r.csv': [...GOOD.slice(0, 5), '3,4,abc,1000', ...GOOD.slice(5)].join('\n') + '\n' }, says: /^r\.csv:6: rating "abc" is not a number/ },
  {
    name: 'missing columns in a row',
    config: ml('r.csv'),
    files: { 'r.csv': [...GOOD.slice(0, 3), '2,5', ...GOOD.slice(3)].join('\n') + '\n' },
    says: /^r\.csv:4: expected 4 comma-separated fields, found 2 \(to skip malformed rows: --skip-bad-rows, or skip_bad_rows: true on the data set\)$/,
  },
  {
    name: 'truncated last line',
    config: ml('r.csv'),
    files: { 'r.csv': GOOD.join('\n') + '\n12,7' },
    says: new RegExp(`^r\\.csv:${GOOD.length + 1}: expected 4 comma-separated fields, found 2 \\(to skip malformed rows: --skip-bad-rows, or skip_bad_rows: true on the data set\\)$`),
  },
  { name: 'binary garbage data', config: ml('r.csv'), files: { 'r.csv': garbage }, says: /^r\.csv:1: / },
  { name: 'huge single line', config: ml('r.csv'), files: { 'r.csv': 'userId,movieId,rating,timestamp\n' + '1'.repeat(2 << 20) }, says: /^r\.csv:2: line longer than \d+ bytes/ },
  {
    name: 'interactions column not in header',
    config: withData('- { name: t, format: interactions, path: t.tsv, delimiter: "\\t", user: userid, item: poi_id, combine: count }'),
    files: { 't.tsv': 'user_id\tpoi_id\ttime\n1\t2\t3\n' },
    says: /^t\.tsv:1: column "userid" \(user\) not found in header/,
  },
  {
    name: 'hex number as a rating',
    config: ml('r.csv'),
    files: { 'r.csv': [...GOOD.slice(0, 5), '3,4,0x10,1000', ...GOOD.slice(5)].join('\n') + '\n' },
    says: /^r\.csv:6: rating "0x10" is not a number \(column rating\)( \(to skip malformed rows: --skip-bad-rows.*\))?$/,
  },
  { name: 'a folder as the data file', config: ml('sub'), files: { 'sub/x': 'x' }, says: /^c\.yaml: datasets\[0\]\.path: not a file: sub$/ },
  {
    name: 'key of another format',
    config: ml('r.csv').replace('path: r.csv', 'path: r.csv, preset: small'),
    files: { 'r.csv': GOOD.join('\n') + '\n' },
    says: /^c\.yaml: datasets\[0\]\.preset: only applies to format synthetic \(this data set is movielens-csv\)$/,
  },
  { name: 'unknown synthetic preset', config: SYNTH.replace('preset: small', 'preset: huge'), says: /^c\.yaml: datasets\[0\]\.preset: unknown synthetic preset "huge" \(known: small, / },
  { name: 'name too long for a folder', config: SYNTH.replace('name: bad', `name: ${'a'.repeat(300)}`), says: /^c\.yaml: name: must be <= 100$/ },
  { name: 'cache folder is a file', files: { cachefile: 'x' }, args: ['run', 'c.yaml', '--out', 'out', '--cache-dir', 'cachefile'], says: /^--cache-dir cachefile: it is a file, not a folder$/ },
  // command line and folders
  { name: 'unwritable results folder (a file in the way)', files: { blocker: 'x' }, args: ['run', 'c.yaml', '--out', 'blocker/sub'], says: /^--out blocker\/sub: blocker is a file, not a folder$/ },
  { name: 'bad --threads', args: ['run', 'c.yaml', '--threads', '0'], says: /^--threads: expected a positive integer, got "0"$/ },
  { name: 'bad --shard', args: ['run', 'c.yaml', '--shard', '4/3'], says: /^--shard: need 1 <= i <= N, got "4\/3"$/ },
];

describe('bad input: one clear line, exit 2, no stack trace, nothing written', () => {
  it.each(CASES)('$name', async (c) => {
    const dir = mkdtempSync(join(tmpdir(), 'lshdp-bad-'));
    writeFileSync(join(dir, 'c.yaml'), c.config ?? SYNTH);
    for (const [f, content] of Object.entries(c.files ?? {})) {
      mkdirSync(join(dir, f, '..'), { recursive: true });
      writeFileSync(join(dir, f), content);
    }
    const r = await lshdpIn(c.args ?? ['run', 'c.yaml', '--out', 'out', '--no-report', '--threads', '1'], { cwd: dir });
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).not.toMatch(STACK_RE);
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines, r.stderr).toHaveLength(1);
    expect(lines[0].startsWith('lshdp: error: ')).toBe(true);
    // input files are named by their resolved absolute path; the cases name them relative to the scratch folder
    expect(lines[0].slice('lshdp: error: '.length).split(`${dir}/`).join('')).toMatch(c.says);
    expect(existsSync(join(dir, 'out'))).toBe(false);
    expect(existsSync(join(dir, 'results'))).toBe(false);
  });

  it('lists every problem of a config, one per line after a line naming the file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lshdp-bad-'));
    writeFileSync(join(dir, 'c.yaml'), SYNTH.replace('xi: [1]', 'xi: [-1]').replace('kappa: [4]', 'kappa: [99]').replace('trials: 1', 'tirals: 1'));
    const r = await lshdpIn(['run', 'c.yaml', '--out', 'out'], { cwd: dir });
    expect(r.status).toBe(2);
    expect(r.stderr).toBe(
      'lshdp: error: c.yaml: 3 problems:\n  kappa[0]: must be <= 64, got number 99\n  privacy.xi[0]: must be >= 0, got number -1\n  tirals: unknown key (did you mean "trials"?)\n',
    );
    expect(existsSync(join(dir, 'out'))).toBe(false);
  });

  it('--debug shows the stack', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lshdp-bad-'));
    writeFileSync(join(dir, 'c.yaml'), SYNTH.replace('trials: 1', 'trials: 0'));
    const r = await lshdpIn(['--debug', 'run', 'c.yaml'], { cwd: dir });
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(STACK_RE);
  });

  it('--skip-bad-rows skips malformed rows and reports how many and where', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lshdp-bad-'));
    const rows = [...GOOD.slice(0, 5), '3,4,abc,1000', ...GOOD.slice(5, 9), '2,5', ...GOOD.slice(9)];
    writeFileSync(join(dir, 'r.csv'), rows.join('\n') + '\n');
    writeFileSync(join(dir, 'c.yaml'), ml('r.csv').replace('dims: [20]', 'dims: [5]').replace('queries: 20', 'queries: 0'));
    const r = await lshdpIn(['run', 'c.yaml', '--out', 'out', '--no-report', '--threads', '1', '--skip-bad-rows'], { cwd: dir });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr).toContain('ml: skipped 2 malformed rows (first at lines 6, 11)');
    expect(readFileSync(join(dir, 'out', 'utility.csv'), 'utf8').split('\n')[0]).toMatch(/^dataset,n,kappa/);
  });

  it('covers at least 30 distinct bad inputs', () => {
    expect(new Set(CASES.map((c) => c.name)).size).toBe(CASES.length);
    expect(CASES.length).toBeGreaterThanOrEqual(30);
  });
});
