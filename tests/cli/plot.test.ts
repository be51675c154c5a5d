import { describe, it, expect, beforeAll } from 'vitest';
import { mkdtempSync, mkdirSync, cpSync, readFileSync, readdirSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { createHash } from 'node:crypto';
import { ROOT, STACK_RE } from '../helpers/cli.js';
import { type CliRun, lshdpIn } from '../helpers/inproc.js';

const FIXTURE = join(ROOT, 'tests/fixtures/results/small');
const sha = (f: string) => createHash('sha256').update(readFileSync(f)).digest('hex');

/** A fresh copy of the fixture results folder in a temp dir. */
function copyFixture(): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'lshdp-plot-')), 'small');
  cpSync(FIXTURE, dir, { recursive: true });
  return dir;
}

type Fig2Value = { n: number; kappa: string; k: number; mechanism: string; xi: number | null; value: number };
const fig2Values = (file: string) => JSON.parse(readFileSync(file, 'utf8')).data.values as Fig2Value[];

describe('lshdp plot (figures from the CSVs alone)', () => {
  // a finished results folder copied alone into an empty temp dir: no data files, no config around
  const dir = copyFixture();
  let before: Record<string, string>;
  let r: CliRun;

  beforeAll(async () => {
    before = Object.fromEntries(readdirSync(dir).map((f) => [f, sha(join(dir, f))]));
    r = await lshdpIn(['plot', dir], { cwd: dirname(dir) });
  });

  it('writes every figure as spec, SVG and PNG', async () => {
    expect(r.stderr).not.toMatch(/error/);
    expect(r.status).toBe(0);
    const figs = readdirSync(join(dir, 'figures')).sort();
    const stems = ['fig1-fsq-nyc', 'fig1-ml-small', 'fig2-fsq-nyc', 'fig2-ml-small', 'privacy-epsilon', 'privacy-flip'];
    expect(figs).toEqual(stems.flatMap((s) => [`${s}.png`, `${s}.svg`, `${s}.vl.json`]).sort());
    for (const s of stems) {
      const png = readFileSync(join(dir, 'figures', `${s}.png`));
      expect(png.subarray(1, 4).toString()).toBe('PNG');
      // PNG width (IHDR) is twice the SVG's width: print resolution
      const svg = readFileSync(join(dir, 'figures', `${s}.svg`), 'utf8');
      const svgWidth = Number(/width="(\d+)"/.exec(svg)![1]);
      expect(png.readUInt32BE(16)).toBe(2 * svgWidth);
    }
  });

  it('does not touch the input files and writes nothing but figures/', async () => {
    for (const [f, h] of Object.entries(before)) expect(sha(join(dir, f)), f).toBe(h);
    expect(readdirSync(dir).sort()).toEqual([...Object.keys(before), 'figures'].sort());
  });

  it('specs carry the CSV numbers inline, one series per mechanism label (lshrr and lshrr-exact both)', async () => {
    const values = fig2Values(join(dir, 'figures', 'fig2-ml-small.vl.json'));
    const csv = readFileSync(join(dir, 'utility.csv'), 'utf8').trim().split('\n');
    const cols = csv[0].split(',');
    const at = (c: string[], name: string) => c[cols.indexOf(name)];
    for (const label of ['lshrr', 'lshrr-exact', 'laplsh']) {
      const rows = csv
        .slice(1)
        .map((l) => l.split(','))
        .filter((c) => c[0] === 'ml-small' && at(c, 'mechanism') === label);
      expect(rows.length, label).toBeGreaterThan(0);
      for (const c of rows) {
        const v = values.find((x) => x.n === Number(at(c, 'n')) && x.kappa === `κ = ${at(c, 'kappa')}` && x.mechanism === label && x.xi === Number(at(c, 'xi')));
        expect(v?.value).toBe(Number(at(c, 'utility_loss_mean')));
      }
    }
    const fig1 = JSON.parse(readFileSync(join(dir, 'figures', 'fig1-ml-small.vl.json'), 'utf8'));
    const nn = readFileSync(join(dir, 'nn_distances.csv'), 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => l.split(','));
    const total = (fig1.data.values as { n: number; count: number }[]).filter((x) => x.n === 50).reduce((a, x) => a + x.count, 0);
    expect(total).toBe(nn.filter((c) => c[0] === 'ml-small' && c[1] === '50').length);
  });

  it('a malformed CSV is one line naming file, line and column; a non-results folder too', async () => {
    const bad = copyFixture();
    const lines = readFileSync(join(bad, 'utility.csv'), 'utf8').split('\n');
    lines[3] = lines[3].replace(/,0\.\d+,/, ',zero,');
    writeFileSync(join(bad, 'utility.csv'), lines.join('\n'));
    const e = await lshdpIn(['plot', bad]);
    expect(e.status).toBe(2);
    expect(e.stderr).toMatch(/^lshdp: error: .*utility\.csv:4: column \w+: "zero" is not a number\n$/);
    expect(e.stderr).not.toMatch(STACK_RE);
    const none = await lshdpIn(['plot', join(ROOT, 'docs')]);
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(/not a results folder/);
    expect(existsSync(join(ROOT, 'docs', 'figures'))).toBe(false);
  });
});

describe('lshdp plot filters, metric, format and --out', () => {
  it('--mechanisms, --kappa, --n keep only those series and panels; the figure names stay', async () => {
    const dir = copyFixture();
    const r = await lshdpIn(['plot', dir, '--mechanisms', 'lshrr,lsh', '--kappa', '20', '--n', '100', '--format', 'vl', '-q']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(readdirSync(join(dir, 'figures')).sort()).toEqual(['fig1-fsq-nyc.vl.json', 'fig1-ml-small.vl.json', 'fig2-fsq-nyc.vl.json', 'fig2-ml-small.vl.json']);
    const values = fig2Values(join(dir, 'figures', 'fig2-ml-small.vl.json'));
    expect(new Set(values.map((v) => v.mechanism))).toEqual(new Set(['lshrr', 'lsh']));
    expect(new Set(values.map((v) => v.kappa))).toEqual(new Set(['κ = 20']));
    expect(new Set(values.map((v) => v.n))).toEqual(new Set([100]));
    // Fig. 1 keeps only the asked n
    const fig1 = JSON.parse(readFileSync(join(dir, 'figures', 'fig1-ml-small.vl.json'), 'utf8'));
    expect(new Set((fig1.data.values as { n: number }[]).map((v) => v.n))).toEqual(new Set([100]));
  });

  it('--metric recall writes recall-<dataset> with the recall column; --format svg,png and --out', async () => {
    const dir = copyFixture();
    const out = join(mkdtempSync(join(tmpdir(), 'lshdp-plot-out-')), 'figs');
    const r = await lshdpIn(['plot', dir, '--metric', 'recall', '--k', '10', '--format', 'svg', 'png', '-o', out, '-q']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(existsSync(join(dir, 'figures'))).toBe(false);
    const files = readdirSync(out).sort();
    expect(files).toContain('recall-ml-small.svg');
    expect(files).toContain('recall-ml-small.png');
    expect(files.some((f) => f.startsWith('fig2-') || f.endsWith('.vl.json'))).toBe(false);
    expect(readFileSync(join(out, 'recall-ml-small.svg'), 'utf8')).toContain('recall@10');
  });

  it('a value the folder lacks, a bad metric or format, and --no-png with --format are one-line errors', async () => {
    const dir = copyFixture();
    const cases: [string[], RegExp][] = [
      [['--mechanisms', 'lshrr-exakt'], /--mechanisms: lshrr-exakt not in .*utility\.csv \(it has exact, lsh, lshrr, lshrr-exact, laplsh\); did you mean lshrr-exact\?/],
      // equally close to lshrr and lsh: both, the one sharing the longer prefix first
      [['--mechanisms', 'lshr'], /--mechanisms: lshr not in .*utility\.csv \(it has exact, lsh, lshrr, lshrr-exact, laplsh\); did you mean lshrr or lsh\?/],
      [['--kappa', '30'], /--kappa: 30 not in .*\(it has 10, 20\)/],
      [['--n', 'abc'], /--n: "abc" is not/],
      [['--metric', 'loss'], /--metric: unknown value "loss"/],
      [['--format', 'jpg'], /--format: unknown value "jpg"/],
      [['--format', 'svg', '--no-png'], /--no-png and --format/],
    ];
    for (const [args, re] of cases) {
      const e = await lshdpIn(['plot', dir, ...args]);
      expect(e.status, args.join(' ')).toBe(2);
      expect(e.stderr, args.join(' ')).toMatch(new RegExp(`^lshdp: error: ${re.source}.*\\n$`));
    }
    expect(existsSync(join(dir, 'figures'))).toBe(false);
  });
});

describe('re-plotting a folder of an earlier lshdp', () => {
  it('removes the retired names (tables/utility.csv; one fig2 for several k) and writes the new ones', async () => {
    const dir = copyFixture();
    // a second k: every row again with k = 5
    const [head, ...lines] = readFileSync(join(dir, 'utility.csv'), 'utf8').trim().split('\n');
    const kAt = head.split(',').indexOf('k');
    const again = lines.map((l) =>
      l
        .split(',')
        .map((c, i) => (i === kAt ? '5' : c))
        .join(','),
    );
    writeFileSync(join(dir, 'utility.csv'), [head, ...lines, ...again].join('\n') + '\n');
    mkdirSync(join(dir, 'tables'));
    mkdirSync(join(dir, 'figures'));
    // and the parts an earlier lshdp split a Fig. 2 of more than 7 labels into (now one figure)
    const parts = ['figures/fig2-ml-small-k5-part1.svg', 'figures/fig2-ml-small-k5-part2.vl.json', 'figures/recall-ml-small-k10-part2.png', 'figures/fig2-other-k5-part1.svg'];
    for (const f of ['tables/utility.csv', 'figures/fig2-ml-small.svg', 'figures/fig2-ml-small.png', 'figures/other.svg', ...parts]) writeFileSync(join(dir, f), 'old');
    const r = await lshdpIn(['report', dir, '--no-png', '-q']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(existsSync(join(dir, 'tables', 'utility.csv'))).toBe(false);
    expect(existsSync(join(dir, 'tables', 'utility-table.csv'))).toBe(true);
    const figs = readdirSync(join(dir, 'figures'));
    expect(figs).not.toContain('fig2-ml-small.svg');
    expect(figs).not.toContain('fig2-ml-small.png');
    expect(figs).toContain('fig2-ml-small-k5.svg');
    expect(figs).toContain('fig2-ml-small-k10.svg');
    expect(figs).toContain('other.svg'); // files lshdp never wrote stay
    expect(figs.filter((f) => f.includes('-part'))).toEqual(['fig2-other-k5-part1.svg']); // no data set "other" in this folder
  });
});
