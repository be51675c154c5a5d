import { describe, it, expect, beforeAll } from 'vitest';
import { mkdtempSync, cpSync, readFileSync, readdirSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { createHash } from 'node:crypto';
import { lshdp, ROOT, STACK_RE } from '../helpers/cli.js';

const FIXTURE = join(ROOT, 'tests/fixtures/results/small');
const sha = (f: string) => createHash('sha256').update(readFileSync(f)).digest('hex');

describe('lshdp plot (figures from the CSVs alone)', () => {
  // a finished results folder copied alone into an empty temp dir: no data files, no config around
  const dir = join(mkdtempSync(join(tmpdir(), 'lshdp-plot-')), 'small');
  let before: Record<string, string>;
  let r: ReturnType<typeof lshdp>;

  beforeAll(() => {
    cpSync(FIXTURE, dir, { recursive: true });
    before = Object.fromEntries(readdirSync(dir).map((f) => [f, sha(join(dir, f))]));
    r = lshdp(['plot', dir], { cwd: dirname(dir) });
  });

  it('writes every figure as spec, SVG and PNG', () => {
    expect(r.stderr).not.toMatch(/error/);
    expect(r.status).toBe(0);
    const figs = readdirSync(join(dir, 'figures')).sort();
    const stems = ['fig1-fsq-nyc', 'fig1-ml-small', 'fig2-fsq-nyc', 'fig2-ml-small'];
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

  it('does not touch the input files and writes nothing but figures/', () => {
    for (const [f, h] of Object.entries(before)) expect(sha(join(dir, f)), f).toBe(h);
    expect(readdirSync(dir).sort()).toEqual([...Object.keys(before), 'figures'].sort());
  });

  it('specs carry the CSV numbers inline', () => {
    const spec = JSON.parse(readFileSync(join(dir, 'figures', 'fig2-ml-small.vl.json'), 'utf8'));
    const values = spec.data.values as { n: number; kappa: string; mechanism: string; xi: number | null; loss: number }[];
    const csv = readFileSync(join(dir, 'utility.csv'), 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
    const lshrr = csv.filter((c) => c[0] === 'ml-small' && c[4] === 'lshrr');
    expect(lshrr.length).toBeGreaterThan(0);
    for (const c of lshrr) {
      const v = values.find((x) => x.n === Number(c[1]) && x.kappa === c[2] && x.mechanism === 'LSHRR' && x.xi === Number(c[5]));
      expect(v?.loss).toBe(Number(c[9]));
    }
    const fig1 = JSON.parse(readFileSync(join(dir, 'figures', 'fig1-ml-small.vl.json'), 'utf8'));
    const nn = readFileSync(join(dir, 'nn_distances.csv'), 'utf8').trim().split('\n').slice(1).map((l) => l.split(','));
    const total = (fig1.data.values as { n: number; count: number }[]).filter((x) => x.n === 50).reduce((a, x) => a + x.count, 0);
    expect(total).toBe(nn.filter((c) => c[0] === 'ml-small' && c[1] === '50').length);
  });

  it('a malformed CSV is one line naming file, line and column; a non-results folder too', () => {
    const bad = join(mkdtempSync(join(tmpdir(), 'lshdp-plot-bad-')), 'r');
    cpSync(FIXTURE, bad, { recursive: true });
    const lines = readFileSync(join(bad, 'utility.csv'), 'utf8').split('\n');
    lines[3] = lines[3].replace(/,0\.\d+,/, ',zero,');
    writeFileSync(join(bad, 'utility.csv'), lines.join('\n'));
    const e = lshdp(['plot', bad]);
    expect(e.status).toBe(2);
    expect(e.stderr).toMatch(/^lshdp: error: .*utility\.csv:4: column \w+: "zero" is not a number\n$/);
    expect(e.stderr).not.toMatch(STACK_RE);
    const none = lshdp(['plot', join(ROOT, 'docs')]);
    expect(none.status).toBe(2);
    expect(none.stderr).toMatch(/not a results folder/);
    expect(existsSync(join(ROOT, 'docs', 'figures'))).toBe(false);
  });
});
