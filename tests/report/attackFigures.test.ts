/**
 * The linkage attack's presentation end to end from a results folder: tests/fixtures/results/small
 * with the hand-made attack.csv (and recommend.csv) of tests/fixtures/results/attack: the folder
 * is read, the two figures are built (valid Vega-Lite, rendered to SVG and PNG), the frontier's
 * axes follow the rules (known 0.5, k 10, NDCG@10 with recommend.csv, the nearest otherwise, said
 * in the caption), and the report has its attack section only when attack.csv is there.
 */
import { describe, it, expect } from 'vitest';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dirname } from 'node:path';
import AjvModule from 'ajv';
import { ROOT } from '../helpers/cli.js';
import { readResultsFolder, type AttackRow } from '../../src/report/read.js';
import { figureEntries } from '../../src/report/index.js';
import { renderSvg, svgToPng } from '../../src/report/render.js';
import { frontierAxes, frontierRows, type FrontierRow } from '../../src/report/frontierFigure.js';
import { reidRows, type ReidRow } from '../../src/report/reidFigure.js';
import { buildHtml } from '../../src/report/html.js';

const SMALL = join(ROOT, 'tests/fixtures/results/small');
const ATTACK = join(ROOT, 'tests/fixtures/results/attack');

/** small/ in a scratch folder, with attack.csv and, when asked, recommend.csv. */
function folder(opts: { attack?: boolean; recommend?: boolean } = {}): string {
  const dir = mkdtempSync(join(tmpdir(), 'lshdp-attack-report-'));
  cpSync(SMALL, dir, { recursive: true });
  if (opts.attack !== false) cpSync(join(ATTACK, 'attack.csv'), join(dir, 'attack.csv'));
  if (opts.recommend) cpSync(join(ATTACK, 'recommend.csv'), join(dir, 'recommend.csv'));
  return dir;
}

const schemaPath = join(dirname(fileURLToPath(import.meta.resolve('vega-lite'))), 'vega-lite-schema.json');
const Ajv = AjvModule.default ?? AjvModule;
const ajv = new Ajv({ strict: false, allowUnionTypes: true, formats: { 'color-hex': /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, uri: true, 'uri-reference': true } });
const validate = ajv.compile(JSON.parse(readFileSync(schemaPath, 'utf8')));

type Data<T> = { data: { values: T[] } };

describe('reading attack.csv and recommend.csv', () => {
  it('reads every column, an empty ξ as null; a folder without them has neither', () => {
    const res = readResultsFolder(folder({ recommend: true }));
    expect(res.attack).toHaveLength(192);
    expect(res.attack![0]).toEqual({
      dataset: 'ml-small',
      n: 50,
      kappa: 10,
      mechanism: 'lsh',
      base: 'lsh',
      accountant: null,
      xi: null,
      known: 0.5,
      reid1_mean: 0.400923,
      reid1_se: 0.0105243,
      reid10_mean: 0.8,
      reid10_se: 0.0163276,
      trials: 5,
      users: 40,
      targets: 40,
    } satisfies AttackRow);
    expect(res.recommend!.find((r) => r.mechanism === 'pop')).toMatchObject({ kappa: null, k: null, xi: null, top: 10 });
    const plain = readResultsFolder(SMALL);
    expect(plain.attack ?? undefined).toBeUndefined();
    expect(plain.recommend ?? undefined).toBeUndefined();
  });

  it('a malformed attack.csv is a one-line error naming the file, line and column', () => {
    const dir = folder();
    const lines = readFileSync(join(dir, 'attack.csv'), 'utf8').split('\n');
    lines[3] = lines[3].replace(/,0\.5,/, ',half,');
    writeFileSync(join(dir, 'attack.csv'), lines.join('\n'));
    expect(() => readResultsFolder(dir)).toThrow(/attack\.csv:4: column known: "half" is not a number/);
    writeFileSync(join(dir, 'attack.csv'), 'dataset,n\nx,1\n');
    expect(() => readResultsFolder(dir)).toThrow(/attack\.csv:1: missing column\(s\) kappa, mechanism/);
  });
});

describe('re-identification against ξ', () => {
  const res = readResultsFolder(folder());

  it('one line per mechanism with ξ, the clean-LSH level as a baseline and chance 1/N per panel', () => {
    const rows = reidRows('ml-small', res.attack!, 0.5);
    // 2 n × 2 κ panels: lsh 1 + 3 entries × 5 ξ = 16 rows each, plus one chance row
    expect(rows).toHaveLength(4 * 17);
    const panel = rows.filter((r) => r.panel === 'κ = 10, n = 50');
    expect(panel.filter((r) => r.kind === 'baseline').map((r) => r.mechanism)).toEqual(['lsh']);
    expect(panel.find((r) => r.kind === 'chance')!.value).toBe(1 / 40);
    const lsh = panel.find((r) => r.kind === 'baseline')!;
    expect([lsh.lo, lsh.hi]).toEqual([0.400923 - 0.0105243, 0.400923 + 0.0105243]);
  });

  it('one figure per data set, valid Vega-Lite, at known = 0.5, said in the title', () => {
    const figs = figureEntries(res).filter((f) => f.id.startsWith('reid-'));
    expect(figs.map((f) => f.id)).toEqual(['reid-ml-small', 'reid-fsq-nyc']);
    for (const f of figs) expect(validate(f.spec)).toBe(true);
    expect((figs[0].spec.title as { text: string }).text).toBe('ml-small: re-identification against ξ (known = 0.5)');
    expect((figs[0].spec as Data<ReidRow>).data.values.every((r) => r.known === 0.5)).toBe(true);
  });

  it("without known = 0.5 it takes the grid's nearest and says so", () => {
    const only1 = { ...res, attack: res.attack!.filter((r) => r.known === 1) };
    const f = figureEntries(only1).find((x) => x.id === 'reid-ml-small')!;
    expect((f.spec.title as { text: string }).text).toContain("known = 1 (the grid's nearest to 0.5)");
    expect(f.caption).toContain("a share 1 of each target's non-zero entries (the grid's nearest to 0.5)");
  });

  it('keeps the colour each mechanism has in Fig. 2', () => {
    const figs = figureEntries(res);
    const colours = (id: string) => {
      const layer = (figs.find((f) => f.id === id)!.spec as { spec: { layer: { encoding: { color?: { scale?: { domain: string[]; range: string[] } } } }[] } }).spec.layer.find(
        (l) => l.encoding.color?.scale,
      )!;
      const s = layer.encoding.color!.scale!;
      return Object.fromEntries(s.domain.map((m, i) => [m, s.range[i]]));
    };
    expect(colours('reid-ml-small')).toEqual(colours('fig2-ml-small'));
  });
});

describe('the privacy–utility frontier', () => {
  it('one point per (mechanism, ξ): reid@1 at known 0.5 against the loss at k = 10, joined in ξ order', () => {
    const res = readResultsFolder(folder());
    const axes = frontierAxes('ml-small', res.attack!, res.utility!, res.recommend)!;
    expect(axes).toEqual({ known: 0.5, metric: 'loss', k: 10, top: null });
    const { rows, missing } = frontierRows('ml-small', res.attack!, res.utility!, res.recommend, axes);
    expect(missing).toBe(0);
    const points = rows.filter((r) => r.kind === 'point');
    expect(points).toHaveLength(4 * 16);
    const p = points.find((r) => r.panel === 'κ = 20, n = 100' && r.mechanism === 'laplsh' && r.xi === 5)!;
    const a = res.attack!.find((r) => r.dataset === 'ml-small' && r.n === 100 && r.kappa === 20 && r.mechanism === 'laplsh' && r.xi === 5 && r.known === 0.5)!;
    const u = res.utility!.find((r) => r.dataset === 'ml-small' && r.n === 100 && r.kappa === 20 && r.mechanism === 'laplsh' && r.xi === 5 && r.k === 10)!;
    expect([p.x, p.y, p.xse, p.yse]).toEqual([a.reid1_mean, u.utility_loss_mean, a.reid1_se, u.utility_loss_se]);
    expect(rows.filter((r) => r.kind === 'chance').map((r) => r.x)).toEqual([1 / 40, 1 / 40, 1 / 40, 1 / 40]);
    const f = figureEntries(res).find((x) => x.id === 'frontier-ml-small')!;
    expect(validate(f.spec)).toBe(true);
    const line = (f.spec as { spec: { layer: { mark: { type: string }; encoding: { order?: { field: string } } }[] } }).spec.layer.find((l) => l.mark.type === 'line')!;
    expect(line.encoding.order).toEqual({ field: 'order', type: 'quantitative' });
    expect(f.caption).toContain('y = utility loss (k = 10)');
    expect(f.caption).not.toContain('nearest');
  });

  it('with recommend.csv, NDCG@10 at k = 10 on the y axis', () => {
    const res = readResultsFolder(folder({ recommend: true }));
    const f = figureEntries(res).find((x) => x.id === 'frontier-fsq-nyc')!;
    expect(f.caption).toContain('y = NDCG@10 (k = 10) from recommend.csv');
    const p = (f.spec as Data<FrontierRow>).data.values.find((r) => r.kind === 'point' && r.mechanism === 'lshrr' && r.xi === 20 && r.panel === 'κ = 10, n = 100')!;
    const rec = res.recommend!.find((r) => r.dataset === 'fsq-nyc' && r.kappa === 10 && r.mechanism === 'lshrr' && r.xi === 20 && r.top === 10)!;
    expect(p.y).toBe(rec.ndcg_mean);
    expect((f.spec as { title: { subtitle: string[] } }).title.subtitle[1]).toContain('up and to the left is better');
  });

  it("without k = 10 it takes the grid's nearest k, and names points it leaves out", () => {
    const res = readResultsFolder(folder());
    const utility = res.utility!.map((r) => ({ ...r, k: 5 })).filter((r) => !(r.mechanism === 'laplsh' && r.xi === 20));
    const f = figureEntries({ ...res, utility }).find((x) => x.id === 'frontier-ml-small')!;
    expect(f.caption).toContain("k = 5 is the grid's nearest to 10");
    // laplsh ξ = 20 at 2 n × 2 κ
    expect(f.caption).toContain('4 attacked points without a utility value left out');
  });
});

describe('rendering and the report section', () => {
  const res = readResultsFolder(folder({ recommend: true }));
  const figs = figureEntries(res);

  it('both figures render to SVG and PNG', async () => {
    for (const id of ['reid-fsq-nyc', 'frontier-fsq-nyc']) {
      const svg = await renderSvg(figs.find((f) => f.id === id)!.spec);
      expect(svg.startsWith('<svg')).toBe(true);
      if (id.startsWith('frontier')) {
        expect(svg).toContain('privacy–utility frontier');
        expect(svgToPng(svg, 1).subarray(1, 4).toString()).toBe('PNG');
      } else expect(svg).toContain('re-identification against ξ');
    }
  });

  it('the report has a linkage-attack section with its figures and table; the figures section leaves them out', () => {
    const html = buildHtml(res, figs);
    const part = (id: string) => html.slice(html.indexOf(`<section id="${id}">`), html.indexOf('</section>', html.indexOf(`<section id="${id}">`)));
    const attack = part('attack');
    expect(attack).toContain('<h2>Linkage attack</h2>');
    expect(attack).toContain('id="reid-ml-small"');
    expect(attack).toContain('id="frontier-fsq-nyc"');
    expect(attack).toContain('id="attack-table"');
    expect(attack).toContain('a lower bound on what an adversary can do');
    expect(part('figures')).toContain('id="fig2-ml-small"');
    expect(part('figures')).not.toContain('id="reid-ml-small"');
  });

  it('a folder without attack.csv has no attack section and no attack figure', () => {
    const plain = readResultsFolder(folder({ attack: false }));
    const figs = figureEntries(plain);
    expect(figs.some((f) => /^(reid|frontier)-/.test(f.id))).toBe(false);
    expect(buildHtml(plain, figs)).not.toContain('id="attack"');
  });
});

describe('one look per label in every figure', () => {
  /** Every (label → colour|shape) a spec's mechanism scales give, anywhere in it. */
  function looks(spec: unknown): Map<string, string> {
    const out = new Map<string, string>();
    const colors = new Map<string, string>();
    const shapes = new Map<string, string>();
    const visit = (o: unknown): void => {
      if (Array.isArray(o)) {
        for (const v of o) visit(v);
        return;
      }
      if (o === null || typeof o !== 'object') return;
      const e = o as { field?: unknown; scale?: { domain?: unknown[]; range?: unknown[] } };
      if (e.field === 'mechanism' && Array.isArray(e.scale?.domain) && Array.isArray(e.scale?.range)) {
        e.scale.domain.forEach((m, i) => {
          const v = e.scale!.range![i];
          if (typeof v === 'string' && v.startsWith('#')) colors.set(String(m), v);
          else if (typeof v === 'string' && !v.startsWith('M')) shapes.set(String(m), v);
        });
      }
      for (const v of Object.values(o)) visit(v);
    };
    visit(spec);
    // a mechanism drawn as a rule (vanilla LSH) has a line for its legend sample, not a marker: its colour is what it keeps
    for (const [m, c] of colors) out.set(m, shapes.has(m) ? `${c}|${shapes.get(m)}` : c);
    return out;
  }

  it('Fig. 2, NDCG, re-identification and frontier give each mechanism label the same colour, whatever else a run holds', () => {
    const seen = new Map<string, Set<string>>();
    // a run with recommendations, one without, and one without an entry (lshrr-exact): as a run writes them
    const without = folder({ recommend: true });
    for (const file of ['utility.csv', 'attack.csv', 'recommend.csv']) {
      const lines = readFileSync(join(without, file), 'utf8').split('\n');
      writeFileSync(join(without, file), lines.filter((l) => !l.includes(',lshrr-exact,')).join('\n'));
    }
    for (const dir of [folder({ recommend: true }), folder({ recommend: false }), without]) {
      for (const f of figureEntries(readResultsFolder(dir))) {
        for (const [m, look] of looks(f.spec)) seen.set(m, (seen.get(m) ?? new Set()).add(look));
      }
    }
    expect([...seen.keys()]).toEqual(expect.arrayContaining(['lsh', 'lshrr', 'laplsh', 'exact', 'pop']));
    for (const [m, set] of seen) {
      expect(new Set([...set].map((l) => l.split('|')[0])).size, `${m}: ${[...set].join(', ')}`).toBe(1);
      expect(new Set([...set].filter((l) => l.includes('|'))).size, `${m}: ${[...set].join(', ')}`).toBeLessThanOrEqual(1);
    }
    // the colours of the labels drawn together are all different
    const colours = [...seen.values()].map((s) => [...s][0]!.split('|')[0]);
    expect(new Set(colours).size).toBe(colours.length);
  });
});

describe('the frontier, readable', () => {
  it('x logarithmic from chance, y fitted to the points, every point labelled with its ξ; the slice chosen by known and N', () => {
    const res = readResultsFolder(folder({ recommend: true }));
    const figs = figureEntries(res);
    const spec = figs.find((f) => f.id === 'frontier-ml-small')!.spec as {
      spec: { layer: { mark: { type: string }; transform?: unknown[]; encoding: Record<string, { field?: string; scale?: Record<string, unknown> }> }[] };
    } & Data<FrontierRow>;
    const layers = spec.spec.layer;
    const points = layers.find((l) => l.mark.type === 'point')!;
    const chance = Math.min(...spec.data.values.filter((r) => r.kind === 'chance').map((r) => r.x));
    expect(points.encoding.x!.scale).toMatchObject({ type: 'symlog', constant: chance, zero: false });
    expect(points.encoding.y!.scale).toMatchObject({ zero: false });
    // the points' ξ labels (the other text layer labels the reference lines)
    const labels = layers.find((l) => l.mark.type === 'text' && JSON.stringify(l.transform).includes("datum.kind === 'point'"))!;
    expect(labels.encoding.text!.field).toBe('label');
    expect(JSON.stringify(labels.transform)).toContain("'ξ ' + datum.xi");
    // the slice: the grid's known shares and list lengths, each chosen by the caller (lshdp plot --known --top)
    const knowns = [...new Set(res.attack!.map((r) => r.known))].sort((a, b) => a - b);
    const chosen = frontierAxes('ml-small', res.attack!, res.utility!, res.recommend, { known: knowns[knowns.length - 1], top: 5 })!;
    expect(chosen.known).toBe(knowns[knowns.length - 1]);
    const tops = [...new Set(res.recommend!.map((r) => r.top))];
    expect(chosen.top).toBe(tops.reduce((b, t) => (Math.abs(t - 5) < Math.abs(b - 5) ? t : b)));
    const other = figureEntries(res, { slice: { known: knowns[knowns.length - 1] } }).find((f) => f.id === 'frontier-ml-small')!;
    expect(other.caption).toContain(`known = ${knowns[knowns.length - 1]}`);
  });
});
