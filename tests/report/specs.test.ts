import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dirname } from 'node:path';
import Ajv from 'ajv';
import { ROOT } from '../helpers/cli.js';
import { readResultsFolder, type UtilityRow } from '../../src/report/read.js';
import { fig1Spec, fig2Spec, fig2Rows, nnHistogram, shareBelow } from '../../src/report/specs.js';
import { renderSvg, svgToPng } from '../../src/report/render.js';

const FIXTURE = join(ROOT, 'tests/fixtures/results/small');
const res = readResultsFolder(FIXTURE);

// the schema vega-lite ships with the installed version (found through its own entry point)
const schemaPath = join(dirname(fileURLToPath(import.meta.resolve('vega-lite'))), 'vega-lite-schema.json');
// the schema uses union types and non-standard keywords (strict mode refuses it) and formats
// ajv does not know without ajv-formats (declared here: hex colours checked, URIs accepted)
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

describe('Vega-Lite specs', () => {
  it('Fig. 1 and Fig. 2 validate against the Vega-Lite JSON schema', () => {
    expectValid(fig1Spec('ml-small', res.nnDistances!));
    expectValid(fig2Spec('ml-small', res.utility!));
    // several k (row panels), RAPPOR without κ, a fallback row
    const extra: UtilityRow[] = res.utility!.filter((r) => r.dataset === 'ml-small').flatMap((r) => [r, { ...r, k: 20 }]);
    extra.push({ ...extra[3], mechanism: 'rappor', kappa: null, fallback: null }, { ...extra[4], fallback: true });
    expectValid(fig2Spec('ml-small', extra));
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

  it('Fig. 2 data: LSH as baselines, mechanisms with ξ as curves, ±1 se bounds, exact dropped', () => {
    const rows = fig2Rows('ml-small', res.utility!);
    const src = res.utility!.filter((r) => r.dataset === 'ml-small' && r.mechanism !== 'exact');
    expect(rows).toHaveLength(src.length);
    expect(rows.every((r) => (r.mechanism === 'LSH') === (r.kind === 'baseline'))).toBe(true);
    rows.forEach((r, i) => {
      expect(r.loss).toBe(src[i].lossMean);
      expect(r.hi - r.lo).toBeCloseTo(2 * (src[i].lossSe ?? 0), 12);
    });
    expect(rows.some((r) => r.xi === 0 && r.mechanism === 'LSHRR')).toBe(true);
  });

  it('renders to SVG with the paper-term axis titles in DejaVu Sans', async () => {
    const svg = await renderSvg(fig2Spec('fsq-nyc', res.utility!));
    expect(svg.startsWith('<svg')).toBe(true);
    for (const text of ['total privacy budget ξ', 'utility loss (Δ mean d_θ)', 'κ (hash bits)', 'LSHRR', 'LapLSH', 'n = 100']) {
      expect(svg).toContain(text);
    }
    expect(svg).toContain('font-family="DejaVu Sans"');
    expect(svg).toMatch(/class="mark-line role-mark/);
    // the mechanism legend's line samples are visible (vega-lite alone leaves them transparent)
    expect(svg).toMatch(/role-legend-symbol[^>]*><path[^>]*stroke="#333"[^>]*stroke-dasharray="7,3"/);
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
