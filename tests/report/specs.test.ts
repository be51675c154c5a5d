import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dirname } from 'node:path';
import AjvModule from 'ajv';
import { ROOT } from '../helpers/cli.js';
import { readResultsFolder, type UtilityRow } from '../../src/report/read.js';
import { PALETTE, SHAPES, BASELINE_DASH, BASELINE_SYMBOL, patchDashLegends } from '../../src/report/specs.js';
import { fig1Spec, nnHistogram, shareBelow } from '../../src/report/nnFigure.js';
import { fig2Spec, fig2Rows, fig2Series } from '../../src/report/utilityFigure.js';
import { compile } from 'vega-lite';
import { figureEntries } from '../../src/report/index.js';
import { renderSvg, svgToPng } from '../../src/report/render.js';
import { bigGrid, BIG_LABELS } from './bigGrid.js';
import { readdirSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';

const FIXTURE = join(ROOT, 'tests/fixtures/results/small');
const res = readResultsFolder(FIXTURE);

// the schema vega-lite ships with the installed version (found through its own entry point)
const schemaPath = join(dirname(fileURLToPath(import.meta.resolve('vega-lite'))), 'vega-lite-schema.json');
// the schema uses union types and non-standard keywords (strict mode refuses it) and formats
// ajv does not know without ajv-formats (declared here: hex colours checked, URIs accepted)
// ajv is CommonJS: its class is the default export's default
const Ajv = AjvModule.default ?? AjvModule;
const ajv = new Ajv({
  strict: false,
  allowUnionTypes: true,
  formats: { 'color-hex': /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, uri: true, 'uri-reference': true },
});
const validate = ajv.compile(JSON.parse(readFileSync(schemaPath, 'utf8')));

function expectValid(spec: object): void {
  const ok = validate(spec);
  if (!ok) console.log(JSON.stringify(validate.errors, null, 2).slice(0, 2000));
  expect(ok).toBe(true);
}

type Spec = { data: { values: { panel: string; mechanism: string; kind: string }[] }; spec: { layer: { encoding: Record<string, { scale?: { domain: string[]; range: string[] } }> }[] } };
/** The colour and shape scales of a Fig. 2 spec (the point layer carries both). */
function scales(spec: object) {
  const layer = (spec as Spec).spec.layer.find((l) => l.encoding.shape)!;
  return { color: layer.encoding.color.scale!, shape: layer.encoding.shape.scale! };
}

describe('Vega-Lite specs', () => {
  it('Fig. 1 and Fig. 2 validate against the Vega-Lite JSON schema', () => {
    expectValid(fig1Spec('ml-small', res.nnDistances!));
    expectValid(fig2Spec('ml-small', res.utility!, 10));
    expectValid(fig2Spec('ml-small', res.utility!, 10, { metric: 'recall' }));
    // a mechanism without κ (drawn in every κ row) and a fallback row
    const extra: UtilityRow[] = res.utility!.filter((r) => r.dataset === 'ml-small');
    extra.push({ ...extra[3], mechanism: 'nokappa', base: 'nokappa', kappa: null }, { ...extra[4], fallback: true });
    expectValid(fig2Spec('ml-small', extra, 10));
    expectValid(fig2Spec('big', bigGrid(), 5));
  });

  it('the schema check is not vacuous: a broken spec fails', () => {
    const bad = fig1Spec('ml-small', res.nnDistances!) as Record<string, unknown>;
    expect(validate({ ...bad, mark: 'no-such-mark' })).toBe(false);
    expect(validate({ ...bad, layer: 'not-an-array' })).toBe(false);
  });

  it('Fig. 1 histogram: shares sum to 1 per n and the legend gives the share below 0.1', () => {
    const rows = res.nnDistances!.filter((r) => r.dataset === 'ml-small');
    const hist = nnHistogram(rows, 0.1);
    for (const n of [50, 100]) {
      const h = hist.filter((x) => x.n === n);
      expect(h.reduce((a, x) => a + x.share, 0)).toBeCloseTo(1, 12);
      expect(h.reduce((a, x) => a + x.count, 0)).toBe(rows.filter((r) => r.n === n).length);
      const vals = rows.filter((r) => r.n === n).map((r) => r.nn1);
      const below = vals.filter((v) => v < 0.1).length / vals.length;
      expect(h[0].series).toContain(`${(100 * below).toFixed(1)}%`);
      // bins of width 0.02 below the threshold hold exactly the share below it (0.1 is a bin edge)
      expect(h.filter((x) => x.bin_end <= 0.1 + 1e-12).reduce((a, x) => a + x.share, 0)).toBeCloseTo(below, 12);
    }
    expect(shareBelow([0.05, 0.1, 0.2, 0.01], 0.1)).toBe(0.5);
  });

  it('Fig. 2 data: mechanisms without ξ as baselines, the others as curves, ±1 se bounds, exact dropped', () => {
    const rows = fig2Rows('ml-small', res.utility!, 10);
    const src = res.utility!.filter((r) => r.dataset === 'ml-small' && r.base !== 'exact');
    expect(rows).toHaveLength(src.length);
    expect(rows.every((r) => (r.mechanism === 'lsh') === (r.kind === 'baseline'))).toBe(true);
    rows.forEach((r, i) => {
      expect(r.value).toBe(src[i].utility_loss_mean);
      expect(r.hi - r.lo).toBeCloseTo(2 * (src[i].utility_loss_se ?? 0), 12);
      expect(r.panel).toBe(`κ = ${src[i].kappa}, n = ${src[i].n}`);
    });
    expect(rows.some((r) => r.xi === 0 && r.mechanism === 'lshrr')).toBe(true);
    const recall = fig2Rows('ml-small', res.utility!, 10, 'recall');
    for (const [i, r] of recall.entries()) expect(r.value).toBe(src[i].recall_mean);
  });

  it('a mechanism without κ is drawn in every κ row', () => {
    const rows: UtilityRow[] = res.utility!.filter((r) => r.dataset === 'ml-small' && r.n === 50);
    rows.push({ ...rows[3], mechanism: 'nokappa', base: 'nokappa', kappa: null, xi: 5 });
    const panels = fig2Rows('ml-small', rows, 10)
      .filter((r) => r.mechanism === 'nokappa')
      .map((r) => r.panel);
    expect(panels).toEqual(['κ = 10, n = 50', 'κ = 20, n = 50']);
  });

  it('readable at the size of the shipped configs: one panel per (κ, n), at most one curve per label in it, each label its own colour and marker', () => {
    const rows = bigGrid();
    const spec = fig2Spec('big', rows, 10) as unknown as Spec;
    const values = spec.data.values;
    const panels = [...new Set(values.map((v) => v.panel))];
    expect(panels).toHaveLength(3 * 4);
    for (const p of panels) {
      const series = new Set(values.filter((v) => v.panel === p).map((v) => v.mechanism));
      expect(series.size).toBe(BIG_LABELS.length); // lshrr and lshrr-exact both, never one per (mechanism, κ)
    }
    const { color, shape } = scales(spec);
    expect(color.domain).toEqual(BIG_LABELS.map((l) => l[0]));
    expect(new Set(color.range).size).toBe(color.domain.length);
    expect(new Set(shape.range).size).toBe(shape.domain.length);
    // no dashed line styles to tell curves apart (only the no-privacy baselines are dashed)
    const dashes = spec.spec.layer.flatMap((l) => (l.encoding.strokeDash ? [l.encoding.strokeDash.scale as unknown as { domain: string[]; range: number[][] }] : []));
    expect(dashes.length).toBeGreaterThan(0);
    for (const d of dashes) expect(d.domain.filter((_, j) => d.range[j][0] !== 1 || d.range[j][1] !== 0)).toEqual(['lsh']);
  });

  it('every shipped config gives readable Fig. 2s: one per k, every label in every panel, each its own colour and marker, κ × n panels', () => {
    const configs = readdirSync(join(ROOT, 'configs')).filter((f) => f.endsWith('.yaml'));
    expect(configs.length).toBeGreaterThan(5);
    for (const file of configs) {
      const cfg = parseYaml(readFileSync(join(ROOT, 'configs', file), 'utf8')) as {
        dims: number[];
        kappa: number[];
        k: number[];
        mechanisms: (string | { name?: string; label?: string; module?: string })[];
      };
      const labels = cfg.mechanisms
        .map((m) => (typeof m === 'string' ? [m, m] : [m.label ?? m.name ?? 'plugin', m.name ?? 'plugin']))
        .filter(([, base]) => base !== 'exact')
        .map(([label, base]) => [label, base, null] as [string, string, null]);
      // the config's grid, with made-up numbers: mechanisms without privacy as baselines
      const rows = bigGrid(labels).filter((r) => cfg.dims.includes(r.n));
      const figs = figureEntries({ dir: '/nowhere', name: file, nnDistances: null, budgets: null, datasets: null, manifest: null, utility: rows });
      expect(figs.length, file).toBe(3); // one per k: never split into parts
      for (const f of figs) {
        const spec = f.spec as unknown as Spec;
        const panels = new Set(spec.data.values.map((v) => v.panel));
        expect(panels.size, f.id).toBeLessThanOrEqual(3 * 4);
        for (const p of panels) expect(new Set(spec.data.values.filter((v) => v.panel === p).map((v) => v.mechanism)).size, `${file} ${f.id} ${p}`).toBe(labels.length);
        const { color, shape } = scales(spec);
        const looks = color.domain.map((_, i) => `${color.range[i]}|${shape.range[i]}`);
        expect(new Set(looks).size, `${file} ${f.id}`).toBe(looks.length);
      }
    }
  });

  it('a label keeps its colour and marker when others are filtered out, and in a run without the others', () => {
    const all = bigGrid();
    const allSeries = fig2Series('big', all);
    const only = all.filter((r) => r.mechanism === 'laplsh' || r.mechanism === 'lsh');
    const filtered = scales(fig2Spec('big', only, 10, { allSeries }));
    const alone = scales(fig2Spec('big', only, 10, { allSeries: fig2Series('big', only) }));
    const full = scales(fig2Spec('big', all, 10, { allSeries }));
    for (const m of ['laplsh', 'lsh']) {
      const look = (s: typeof full) => `${s.color.range[s.color.domain.indexOf(m)]}|${s.shape.range[s.shape.domain.indexOf(m)]}`;
      expect(look(filtered), m).toBe(look(full));
      expect(look(alone), m).toBe(look(full));
    }
    // the built-ins' fixed slots: LapLSH is the fourth (after lsh, lshrr, lshrr-exact) whatever the run holds
    expect(alone.color.range[alone.color.domain.indexOf('laplsh')]).toBe(PALETTE[3]);
    expect(alone.shape.range[alone.shape.domain.indexOf('laplsh')]).toBe(SHAPES[3]);
  });

  it('one Fig. 2 per data set and k (-k<k> when several), however many labels: all on shared axes, no parts', () => {
    const base = { dir: '/nowhere', name: 'x', nnDistances: null, budgets: null, datasets: null, manifest: null };
    const ids = figureEntries({ ...base, utility: bigGrid() }).map((f) => f.id);
    expect(ids).toEqual(['fig2-big-k1', 'fig2-big-k5', 'fig2-big-k10']);
    const many = [...BIG_LABELS, ['lshrr-naive', 'lshrr', 'naive'], ['lshrr-2', 'lshrr', 'paper'], ['vmf', 'vmf', null], ['purkayastha', 'purkayastha', null]] as typeof BIG_LABELS;
    const figs = figureEntries({ ...base, utility: bigGrid(many) }, { filter: { k: [5] }, metrics: ['utility', 'recall'] });
    expect(figs.map((f) => f.id)).toEqual(['fig2-big-k5', 'recall-big-k5']);
    expect(figs.map((f) => f.title)).toEqual(['Fig. 2: big, k = 5', 'Fig. 2: big, k = 5']);
    for (const f of figs) {
      const spec = f.spec as unknown as Spec;
      for (const p of new Set(spec.data.values.map((v) => v.panel))) {
        expect(new Set(spec.data.values.filter((v) => v.panel === p).map((v) => v.mechanism)).size).toBe(many.length);
      }
      // 11 labels, 8 colours: a colour comes back only with another marker
      const { color, shape } = scales(spec);
      expect(color.domain).toEqual(many.map((l) => l[0]));
      expect(new Set(color.domain.map((_, i) => `${color.range[i]}|${shape.range[i]}`)).size).toBe(many.length);
    }
    // the fixture has one k: the plain name
    expect(figureEntries(res).map((f) => f.id)).toEqual(['fig1-ml-small', 'fig1-fsq-nyc', 'fig2-ml-small', 'fig2-fsq-nyc', 'privacy-epsilon', 'privacy-flip']);
  });

  it("the shared configs' 8 drawn mechanisms share one Fig. 2: LSHRR and Purkayastha on the same axes, 8 colours and 8 markers", () => {
    const cfg = parseYaml(readFileSync(join(ROOT, 'configs/shared-movielens-small.yaml'), 'utf8')) as { mechanisms: (string | { name: string; label?: string })[] };
    const labels = cfg.mechanisms
      .map((m) => (typeof m === 'string' ? [m, m] : [m.label ?? m.name, m.name]))
      .filter(([, b]) => b !== 'exact')
      .map(([label, b]) => [label, b, null] as [string, string, null]);
    expect(labels.map((l) => l[0])).toEqual(['lsh', 'lshrr', 'lshrr-exact', 'laplsh', 'rappor', 'rappor-vector', 'vmf', 'purkayastha']);
    const figs = figureEntries({ dir: '/nowhere', name: 'x', nnDistances: null, budgets: null, datasets: null, manifest: null, utility: bigGrid(labels) }, { filter: { k: [10] } });
    expect(figs.map((f) => f.id)).toEqual(['fig2-big-k10']);
    const spec = figs[0].spec as unknown as Spec;
    for (const p of new Set(spec.data.values.map((v) => v.panel))) {
      const here = new Set(spec.data.values.filter((v) => v.panel === p).map((v) => v.mechanism));
      expect(here.has('lshrr') && here.has('purkayastha'), p).toBe(true);
      expect(here.size).toBe(8);
    }
    const { color, shape } = scales(spec);
    expect(new Set(color.range).size).toBe(8);
    expect(new Set(shape.range).size).toBe(8);
  });

  it('the legend draws vanilla LSH as the dashed line its panels draw, the curves as their markers: one merged legend', async () => {
    const spec = fig2Spec('big', bigGrid(), 10) as unknown as Spec;
    const { shape } = scales(spec);
    const i = shape.domain.indexOf('lsh');
    expect(shape.range[i]).toBe(BASELINE_SYMBOL);
    expect(shape.range.filter((s) => s === BASELINE_SYMBOL)).toHaveLength(1);
    // the rule of the panels and the legend sample take their dash from one scale
    const rule = spec.spec.layer.find((l) => (l as unknown as { mark: { type: string } }).mark.type === 'rule' && l.encoding.strokeDash)!;
    const dash = rule.encoding.strokeDash.scale as unknown as { domain: string[]; range: number[][] };
    expect(dash.range[dash.domain.indexOf('lsh')]).toEqual(BASELINE_DASH);
    expect(dash.range.filter((_, j) => j !== dash.domain.indexOf('lsh')).every((d) => d[0] === 1 && d[1] === 0)).toBe(true);
    const legends = (compile(spec as never).spec as { legends?: Record<string, unknown>[] }).legends!;
    expect(legends).toHaveLength(1);
    expect(legends[0]).toMatchObject({ fill: 'color', stroke: 'color', shape: 'shape', strokeDash: 'strokeDash' });
    // in the drawing: lsh's sample is a dashed horizontal line in lsh's colour, lshrr's a solid square
    const svg = await renderSvg(spec as never);
    const samples = [...svg.matchAll(/role-legend-symbol[^>]*><path ([^>]*)\/>/g)].map((m) => m[1]);
    expect(samples).toHaveLength(BIG_LABELS.length);
    expect(samples[0]).toMatch(/d="M-[\d.]+,0L[\d.]+,0"/);
    expect(samples[0]).toContain('stroke-dasharray="6,3"');
    expect(samples[0]).toContain(`stroke="${PALETTE[0]}"`);
    expect(samples[1]).toContain('stroke-dasharray="1,0"');
    expect(samples[1]).toMatch(/d="M-[\d.]+,-[\d.]+h[\d.]+v[\d.]+h-[\d.]+Z"/);
  });

  it("the dash-legend patch gives dash-only legends a visible stroke and leaves Fig. 2's merged legend its colours", () => {
    const vg = (legend: Record<string, unknown>) => patchDashLegends({ legends: [legend] }).legends[0] as { encode?: { symbols?: { update?: Record<string, unknown> } } };
    expect(vg({ strokeDash: 'strokeDash', stroke: 'color' }).encode?.symbols?.update?.stroke).toEqual({ value: '#333' });
    expect(vg({ strokeDash: 'strokeDash', stroke: 'color', shape: 'shape' }).encode).toBeUndefined();
    expect(vg({ fill: 'color' }).encode).toBeUndefined();
  });

  it('renders to SVG with the paper-term axis titles, panel labels and legend in DejaVu Sans', async () => {
    const svg = await renderSvg(fig2Spec('fsq-nyc', res.utility!, 10));
    expect(svg.startsWith('<svg')).toBe(true);
    for (const text of ['total privacy budget ξ', 'utility loss', 'κ = 10, n = 100', 'κ = 20, n = 100', 'lshrr-exact', 'laplsh', 'lsh (dashed line)']) {
      expect(svg).toContain(text);
    }
    expect(svg).toContain('font-family="DejaVu Sans"');
    expect(svg).toMatch(/class="mark-line role-mark/);
    expect(svg).toMatch(/class="mark-symbol role-mark/);
  });

  it('rendering is deterministic: same spec, byte-identical SVG and PNG', async () => {
    const spec = fig1Spec('fsq-nyc', res.nnDistances!);
    const [a, b] = [await renderSvg(spec), await renderSvg(spec)];
    expect(a).toBe(b);
    const [p, q] = [svgToPng(a), svgToPng(b)];
    expect(Buffer.from(p).equals(Buffer.from(q))).toBe(true);
    expect(Buffer.from(p).subarray(1, 4).toString()).toBe('PNG');
  });
});

describe('the distance of the run in the figures', () => {
  it('names the angular distance by default and the Jaccard distance for metric: jaccard', () => {
    const angular = figureEntries(res).find((f) => f.id.startsWith('fig1-'))!;
    expect(angular.caption).toMatch(/true 1-NN angular distance .* d_θ = /);
    expect(JSON.stringify(angular.spec)).toContain('true 1-NN angular distance d_θ');
    const jaccard = { ...res, manifest: { ...(res.manifest ?? {}), config: { metric: 'jaccard' } } };
    const figs = figureEntries(jaccard);
    const fig1 = figs.find((f) => f.id.startsWith('fig1-'))!;
    expect(fig1.caption).toMatch(/true 1-NN Jaccard distance .* d_J = /);
    expect(JSON.stringify(fig1.spec)).toContain('true 1-NN Jaccard distance d_J');
    expect(JSON.stringify(fig1.spec)).not.toContain('angular');
    const fig2 = figs.find((f) => f.id.startsWith('fig2-'))!;
    expect(fig2.caption).toContain('extended DP at d_J = ');
    expect(JSON.stringify(fig2.spec)).toContain('mean Jaccard distance to the k answers');
  });
});
