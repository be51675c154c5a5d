/**
 * The frontier's second row of panels (attribute inference, infer.csv): tests/fixtures/results/small
 * with the attack fixture's attack.csv and an infer.csv written here from a formula, so every
 * number the figure should show is computed from the formula, not read back through the code under
 * test. Without infer.csv the frontier's spec is byte for byte the one stored before the second row
 * existed (tests/fixtures/results/attack/frontier-ml-small.vl.json), the reference lines added since
 * taken out.
 */
import { describe, it, expect } from 'vitest';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import AjvModule from 'ajv';
import { ROOT } from '../helpers/cli.js';
import { lshdpIn } from '../helpers/inproc.js';
import { readResultsFolder } from '../../src/report/read.js';
import { figureEntries } from '../../src/report/index.js';
import { renderSvg } from '../../src/report/render.js';
import { columnsOf } from '../../src/evaluations/types.js';
import { INFER_FACTS } from '../../src/evaluations/infer/facts.js';
import type { InferFrontierRow } from '../../src/report/inferFrontier.js';

const SMALL = join(ROOT, 'tests/fixtures/results/small');
const ATTACK = join(ROOT, 'tests/fixtures/results/attack');

/** The formula of the written infer.csv: a mechanism's auc and the baselines', per (n, κ, ξ, aux). */
const nullAuc = (n: number, kappa: number, aux: number) => 0.6 + n / 10_000 + kappa / 100_000 + aux / 100;
const priorAuc = (n: number, aux: number) => 0.7 + n / 10_000 + aux / 100;
const mechAuc = (n: number, kappa: number, xi: number | null, aux: number) => nullAuc(n, kappa, aux) + (xi === null ? 0.05 : 0.002 * xi);
const SE = 0.003;

/** infer.csv for the attack fixture's points (its known = 0.5 rows) at the given aux shares. */
function inferCsv(auxes: number[]): string {
  const attack = readFileSync(join(ATTACK, 'attack.csv'), 'utf8')
    .trim()
    .split('\n')
    .slice(1)
    .map((l) => l.split(','));
  const lines = [columnsOf(INFER_FACTS).join(',')];
  const row = (c: (string | number)[]) => lines.push(c.join(','));
  const points = attack.filter((c) => c[7] === '0.5');
  const groups = [...new Set(points.map((c) => `${c[0]},${c[1]}`))];
  for (const g of groups) {
    const [ds, n] = [g.split(',')[0]!, Number(g.split(',')[1])];
    const kappas = [...new Set(points.filter((c) => c[0] === ds && Number(c[1]) === n).map((c) => Number(c[2])))];
    for (const aux of auxes) row([ds, n, '', 'prior', '', '', '', aux, 10, priorAuc(n, aux), SE, 0.5, 0.01, 5, 40]);
    for (const kappa of kappas) for (const aux of auxes) row([ds, n, kappa, 'null', '', '', '', aux, 10, nullAuc(n, kappa, aux), SE, 0.5, 0.01, 5, 40]);
    for (const c of points.filter((p) => p[0] === ds && Number(p[1]) === n)) {
      const xi = c[6] === '' ? null : Number(c[6]);
      for (const aux of auxes) row([ds, n, c[2]!, c[3]!, c[4]!, c[5]!, c[6]!, aux, 10, mechAuc(n, Number(c[2]), xi, aux), SE, 0.5, 0.01, 5, 40]);
    }
  }
  return lines.join('\n') + '\n';
}

function folder(opts: { infer?: number[] | false; recommend?: boolean } = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'lshdp-infer-frontier-'));
  cpSync(SMALL, dir, { recursive: true });
  cpSync(join(ATTACK, 'attack.csv'), join(dir, 'attack.csv'));
  if (opts.recommend) cpSync(join(ATTACK, 'recommend.csv'), join(dir, 'recommend.csv'));
  if (opts.infer !== false) writeFileSync(join(dir, 'infer.csv'), inferCsv(opts.infer ?? [0.25, 0.5]));
  return dir;
}

const schemaPath = join(dirname(fileURLToPath(import.meta.resolve('vega-lite'))), 'vega-lite-schema.json');
const Ajv = AjvModule.default ?? AjvModule;
const ajv = new Ajv({ strict: false, allowUnionTypes: true, formats: { 'color-hex': /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, uri: true, 'uri-reference': true } });
const validate = ajv.compile(JSON.parse(readFileSync(schemaPath, 'utf8')));

type Block = { title: { text: string }; data: { values: InferFrontierRow[] }; spec: { layer: { mark: unknown; encoding: Record<string, { field?: string; scale?: Record<string, unknown> }> }[] } };
type TwoRowSpec = { vconcat: Block[]; title: { subtitle: string[] } };
const frontierOf = (dir: string, slice = {}) => figureEntries(readResultsFolder(dir), { slice }).find((f) => f.id === 'frontier-ml-small')!;

describe('the frontier without infer.csv', () => {
  it('is byte for byte the one-row spec stored before the second row existed, once the reference lines (frontierRules.ts, added since) are taken out', () => {
    const f = frontierOf(folder({ infer: false }));
    const stored = JSON.parse(readFileSync(join(ATTACK, 'frontier-ml-small.vl.json'), 'utf8'));
    const spec = f.spec as { data: { values: { kind: string }[] }; spec: { layer: { transform?: { filter?: string }[] }[] }; title: { subtitle: string[] } };
    expect(spec.data.values.some((r) => r.kind === 'rule')).toBe(true);
    const without = {
      ...spec,
      title: { ...spec.title, subtitle: spec.title.subtitle.filter((l) => !l.startsWith('grey dotted horizontal lines')).map((l) => l.replace(' and the reference lines', '')) },
      data: { values: spec.data.values.filter((r) => r.kind !== 'rule') },
      spec: { ...spec.spec, layer: spec.spec.layer.filter((l) => l.transform?.[0]?.filter !== "datum.kind === 'rule'") },
    };
    expect(JSON.stringify(without)).toBe(JSON.stringify(stored));
    expect(f.caption).not.toContain('Second row');
  });
});

describe('the frontier with infer.csv: a second row of panels', () => {
  const dir = folder();
  const f = frontierOf(dir);
  const spec = f.spec as unknown as TwoRowSpec;
  const [top, bottom] = spec.vconcat;

  it('two rows of panels, valid Vega-Lite; the first row is the one-row figure’s panels', () => {
    expect(validate(f.spec)).toBe(true);
    expect(spec.vconcat).toHaveLength(2);
    const one = frontierOf(folder({ infer: false })).spec as Record<string, unknown>;
    const { title: _t, ...first } = top as unknown as Record<string, unknown>;
    expect(JSON.stringify(first)).toBe(JSON.stringify({ data: one.data, facet: one.facet, columns: one.columns, spec: one.spec, resolve: one.resolve }));
    expect(bottom.title.text).toContain('auc advantage over null');
  });

  it("x = the mechanism's auc minus null's at the same n, κ and aux 0.5; y = the loss at k = 10 as in the first row", () => {
    const res = readResultsFolder(dir);
    const points = bottom.data.values.filter((r) => r.kind === 'point');
    // every attacked point of ml-small at known 0.5 has a utility value: 2 n × 2 κ × 16 (mechanism, ξ)
    expect(points).toHaveLength(64);
    for (const [n, kappa, mechanism, xi] of [
      [100, 20, 'laplsh', 5],
      [50, 10, 'lsh', null],
      [100, 10, 'lshrr-exact', 20],
    ] as const) {
      const p = points.find((r) => r.n === n && r.kappa === kappa && r.mechanism === mechanism && r.xi === xi)!;
      expect(p.x).toBeCloseTo(mechAuc(n, kappa, xi, 0.5) - nullAuc(n, kappa, 0.5), 12);
      expect(p.xse).toBeCloseTo(Math.sqrt(2) * SE, 12);
      const u = res.utility!.find((r) => r.dataset === 'ml-small' && r.n === n && r.kappa === kappa && r.mechanism === mechanism && r.xi === xi && r.k === 10)!;
      expect(p.y).toBe(u.utility_loss_mean);
      const q = top.data.values.find((r) => r.kind === 'point' && r.n === n && r.kappa === kappa && r.mechanism === mechanism && r.xi === xi)!;
      expect(q.y).toBe(p.y);
    }
    // per panel: null at 0, prior at prior's auc minus null's
    for (const panel of ['κ = 10, n = 50', 'κ = 20, n = 100']) {
      const [kappa, n] = panel.match(/\d+/g)!.map(Number);
      const rules = bottom.data.values.filter((r) => r.panel === panel && (r.kind === 'null' || r.kind === 'prior'));
      expect(rules.map((r) => [r.kind, r.x])).toEqual([
        ['null', 0],
        ['prior', priorAuc(n!, 0.5) - nullAuc(n!, kappa!, 0.5)],
      ]);
    }
  });

  it('x on a symmetric-log scale (linear within null’s smallest se), y fitted to the points, every point labelled with its ξ', () => {
    const layer = (type: string) => bottom.spec.layer.find((l) => (l.mark as { type?: string }).type === type)!;
    expect(layer('point').encoding.x!.scale).toEqual({ type: 'symlog', constant: SE, zero: false, nice: false });
    expect(layer('point').encoding.y!.scale).toEqual({ zero: false });
    // the points' ξ labels (the other text layer labels the reference lines)
    const labels = bottom.spec.layer.find((l) => (l.mark as { type?: string }).type === 'text' && JSON.stringify(l).includes("'ξ ' + datum.xi"))!;
    expect(labels.encoding.text!.field).toBe('label');
    expect(spec.title.subtitle.join(' ')).toContain('aux = 0.5');
    expect(f.caption).toContain('Second row: x = attribute inference');
  });

  it('one legend: each mechanism keeps its colour and marker in both rows, as in the one-row figure', () => {
    const scale = (b: Block, ch: string) => JSON.stringify(b.spec.layer.find((l) => (l.mark as { type?: string }).type === 'point')!.encoding[ch]!.scale);
    expect(scale(bottom, 'color')).toBe(scale(top, 'color'));
    expect(scale(bottom, 'shape')).toBe(scale(top, 'shape'));
    const one = frontierOf(folder({ infer: false })).spec as unknown as Block;
    expect(scale(top, 'color')).toBe(scale(one, 'color'));
  });

  it('renders to SVG', async () => {
    const svg = await renderSvg(f.spec);
    expect(svg).toContain('auc advantage over null');
  });
});

describe('the aux slice', () => {
  it('aux chosen by the caller, else 0.5, else the grid’s nearest (said in the caption)', () => {
    const xAt = (fig: ReturnType<typeof frontierOf>) =>
      (fig.spec as unknown as TwoRowSpec).vconcat[1]!.data.values.find((r) => r.kind === 'point' && r.n === 50 && r.kappa === 10 && r.mechanism === 'lsh')!.x;
    const both = folder();
    expect(xAt(frontierOf(both, { aux: 0.25 }))).toBeCloseTo(mechAuc(50, 10, null, 0.25) - nullAuc(50, 10, 0.25), 12);
    const near = frontierOf(both, { aux: 0.4 });
    expect(near.caption).toContain("aux = 0.5 is the grid's nearest to 0.4");
    const quarter = frontierOf(folder({ infer: [0.25] }));
    expect(quarter.caption).toContain("aux = 0.25 is the grid's nearest to 0.5");
  });

  it('lshdp plot --aux writes the chosen slice; a share outside (0, 1) is a one-line error', async () => {
    const dir = folder();
    const r = await lshdpIn(['plot', dir, '--aux', '0.25', '--format', 'vl', '-q']);
    expect(r.status).toBe(0);
    const spec = JSON.parse(readFileSync(join(dir, 'figures', 'frontier-ml-small.vl.json'), 'utf8')) as TwoRowSpec;
    expect(spec.title.subtitle.join(' ')).toContain('aux = 0.25');
    const bad = await lshdpIn(['plot', dir, '--aux', '1', '--format', 'vl', '-q']);
    expect(bad.status).not.toBe(0);
    expect(bad.stderr).toContain('--aux: expected a share in (0, 1), got "1"');
  });
});
