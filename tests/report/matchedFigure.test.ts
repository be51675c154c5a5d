/**
 * The figure "utility retained at matched attack success": on a small real run with a decide:
 * block, matched_curve.csv's rows at the block's target are matched.csv's (choose's u*, ξ* and
 * retained, same cell and seed) and every band holds its point; the spec has one y scale for every
 * panel of both rows, a log x for reid@1 and a linear one from 0 for the auc advantage, the targets
 * as rules; the report shows it in the decision section, before the claims; a config without
 * decide: has neither the file nor the figure (and a rerun without the block removes them).
 */
import { createHash } from 'node:crypto';
import { MATCHED_CAVEAT } from '../../src/decide/choose.js';
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Papa from 'papaparse';
import { runQuiet, scratchConfig } from '../helpers/pipeline.js';
import { figureEntries, readResultsFolder } from '../../src/report/index.js';
import { buildHtml } from '../../src/report/html.js';
import { DECISION_SECTION_ID } from '../../src/report/decisionSection.js';
import { MATCHED_CLAIM_IDS } from '../../src/claims/types.js';
import { CURVE_COLUMNS, readCurve } from '../../src/report/matchedCurve.js';
import { matchedSpec, sharedY, Y_LIMITS } from '../../src/report/matchedFigure.js';
import type { CurveRow } from '../../src/decide/curveRows.js';
import { chooseTables } from '../../src/decide/choose.js';
import { matchedTables } from '../../src/report/matchedTable.js';

const GRID = `name: curve
seed: 7
datasets:
  - { name: a, format: synthetic, preset: small }
dims: [30]
queries: 20
k: [1, 5]
kappa: [8, 16]
trials: 3
privacy: { d: 0.1, delta: 0.01, xi: [0, 2, 5, 20] }
mechanisms: [exact, lsh, lshrr, laplsh]
attack: { known: [0.5], targets: 40 }
infer: { aux: [0.5], targets: 40 }
`;

type Csv = Record<string, string>[];
const csv = (file: string): Csv => Papa.parse<Record<string, string>>(readFileSync(file, 'utf8'), { header: true, skipEmptyLines: 'greedy' }).data;
const n = (s: string | undefined) => (s === undefined || s === '' ? null : Number(s));

describe('the figure of retained against the target, on a run', () => {
  it('at the target: the values of matched.csv; bands around the points; in the decision section; gone without decide:', async () => {
    const { dir, config } = scratchConfig(`${GRID}decide: { reid1: [0.1], k: 5 }\n`, 'curve.yaml');
    const out = join(dir, 'out');
    await runQuiet(config, out);
    const matched = csv(join(out, 'matched.csv'));
    const curveText = readFileSync(join(out, 'matched_curve.csv'), 'utf8');
    expect(curveText.split('\n')[0].split(',')).toEqual([...CURVE_COLUMNS]);
    // byte for byte the file written before the two target kinds of a cell shared one draw of the
    // resamples and mean losses (commit 0552396: this run's sha256); the values are checked the
    // slow way in tests/decide/curve.test.ts and against matched.csv below
    expect(createHash('sha256').update(curveText).digest('hex')).toBe('59d7e62a1bfcb3827c600c81610472c93595f61cd0026aa84f0df4a79e71b564');
    const curve = readCurve(out)!;
    expect(curve.length).toBeGreaterThan(0);
    // both rows: reid@1 (the block's target) and the auc advantage (infer runs)
    expect(new Set(curve.map((r) => r.target_kind))).toEqual(new Set(['reid1', 'auc_adv']));
    expect(new Set(curve.map((r) => `${r.kappa}`))).toEqual(new Set(['8', '16']));
    let compared = 0;
    let withRetained = 0;
    for (const m of matched) {
      const at = curve.filter((r) => r.target_kind === 'reid1' && r.config_target && r.kappa === Number(m.kappa) && r.mechanism === m.mechanism);
      expect(at.length, `${m.kappa} ${m.mechanism}`).toBe(1);
      const r = at[0];
      expect(r.target).toBe(0.1);
      expect(r.flag).toBe(m.flag);
      expect(r.xi).toBe(n(m.xi));
      expect(r.utility_loss).toBe(n(m.utility_loss_mean));
      expect(r.retained).toBe(n(m.retained));
      expect(r.k).toBe(5);
      compared++;
      if (r.retained !== null) withRetained++;
    }
    expect(compared).toBe(4);
    expect(withRetained).toBeGreaterThan(0);
    for (const r of curve) {
      if (r.retained === null || r.retained_low === null || r.retained_high === null) continue;
      expect(r.retained_low).toBeLessThanOrEqual(r.retained + 1e-12);
      expect(r.retained_high).toBeGreaterThanOrEqual(r.retained - 1e-12);
    }
    // the reid@1 sweep runs from chance 1/N up, log-spaced
    const attack = csv(join(out, 'attack.csv'));
    const reid = curve.filter((r) => r.target_kind === 'reid1' && r.kappa === 8 && r.mechanism === 'lshrr');
    expect(reid[0].target).toBeCloseTo(1 / Number(attack[0].users), 12);
    const auc = curve.filter((r) => r.target_kind === 'auc_adv' && r.kappa === 8 && r.mechanism === 'lshrr');
    expect(auc[0].target).toBe(0);
    expect(reid.length).toBeGreaterThanOrEqual(30);

    const res = readResultsFolder(out);
    const figs = figureEntries(res);
    const fig = figs.find((f) => f.id === 'matched-a')!;
    expect(fig).toBeDefined();
    const html = buildHtml(res, figs);
    const at = (s: string) => html.indexOf(s);
    expect(at('<section id="decision">')).toBeGreaterThan(0);
    expect(at('id="matched-a"')).toBeGreaterThan(at('<section id="decision">'));
    expect(at('id="matched-a"')).toBeLessThan(at('<section id="claims">'));
    // once only: not again among the other figures
    expect(html.split('id="matched-a" class="vega-figure"').length).toBe(2);
    // the matched claims' badges link to the section (by the id it has) and their figure beside them
    expect(at(`<section id="${DECISION_SECTION_ID}">`)).toBeGreaterThan(0);
    const claimRows = html.split('<tr class="claim"').filter((r) => MATCHED_CLAIM_IDS.some((id) => r.includes(`data-claim="${id}"`)));
    expect(claimRows.length).toBe(MATCHED_CLAIM_IDS.length);
    for (const r of claimRows) {
      expect(r).toMatch(/class="claim-badge"[^>]*href="#decision"/);
      expect(r).toContain('<a class="claim-figure" href="#matched-a">figure</a>');
    }

    // both kinds in the block: the tables take the curve's read of the folder, and are the tables of a read of their own
    writeFileSync(config, `${GRID}decide: { reid1: [0.1], auc_adv: [0.02], k: 5 }\n`);
    await runQuiet(config, out);
    const own = matchedTables(chooseTables(out, { reid1: 0.1, aucAdv: 0.02, known: 0.5, aux: 0.5, k: 5 }, 0.05), 'csv');
    expect(readFileSync(join(out, 'matched.csv'), 'utf8')).toBe(own);
    expect(
      readCurve(out)!
        .filter((r) => r.config_target)
        .map((r) => `${r.target_kind} ${r.target}`),
    ).toContain('auc_adv 0.02');

    writeFileSync(config, GRID);
    await runQuiet(config, out);
    expect(existsSync(join(out, 'matched_curve.csv'))).toBe(false);
    expect(figureEntries(readResultsFolder(out)).some((f) => f.id.startsWith('matched-'))).toBe(false);
  }, 120_000);
});

/** The parts of a row of panels the tests read. */
interface Layer {
  mark: { type: string };
  transform?: { filter?: string }[];
  encoding: Record<string, { scale: Record<string, unknown>; axis: Record<string, unknown> }>;
}
interface Block {
  data: { values: CurveRow[] };
  facet: { sort: string[] };
  resolve: { scale: { y: string } };
  spec: { layer: Layer[] };
}

const row = (over: Partial<CurveRow>): CurveRow => ({
  dataset: 'd',
  n: 100,
  kappa: 20,
  k: 10,
  known: 0.5,
  aux: 0.5,
  target_kind: 'reid1',
  target: 0.01,
  config_target: false,
  mechanism: 'lshrr',
  flag: 'interior',
  xi: 2,
  utility_loss: 0.1,
  retained: 0.2,
  retained_low: 0.1,
  retained_high: 0.3,
  retained_note: '',
  trials: 10,
  ...over,
});

describe('matchedSpec', () => {
  const rows = [
    row({}),
    row({ target: 0.02, retained: 0.5, retained_low: 0.3, retained_high: 1.4 }),
    row({ n: 1000, target: 0.003, config_target: true, retained: -0.2, retained_low: -3, retained_high: 0 }),
    row({ target_kind: 'auc_adv', target: 0, retained: 0 }),
    row({
      target_kind: 'auc_adv',
      target: 0.01,
      config_target: true,
      kappa: 50,
      mechanism: 'laplsh',
      retained: null,
      retained_low: null,
      retained_high: null,
      retained_note: 'n/a (clean LSH ≈ random)',
    }),
  ];
  const spec = matchedSpec('d', rows, ['lshrr', 'laplsh']) as unknown as { vconcat: Block[] };

  it('one y scale for every panel of both rows, from the drawn values with 0% and 100% in, cut to its limits', () => {
    expect(sharedY(rows)).toEqual([-1, 1.4]);
    expect(Y_LIMITS).toEqual([-1, 2]);
    expect(spec.vconcat).toHaveLength(2);
    const ys = spec.vconcat.map((b) => b.spec.layer[1].encoding.y);
    for (const b of spec.vconcat) expect(b.resolve.scale.y).toBe('shared');
    expect(ys[0]).toEqual(ys[1]);
    expect(ys[0].scale).toMatchObject({ domain: [-1, 1.4], clamp: true });
    expect(ys[0].axis.format).toBe('.0%');
    expect(sharedY([row({ retained: 0.5, retained_low: 0.4, retained_high: 0.6 })])).toEqual([0, 1]);
  });

  it('x: log for reid@1, linear from 0 for the auc advantage; the targets as rules; a note where no line', () => {
    const [reid, auc] = spec.vconcat;
    expect(reid.spec.layer[1].encoding.x.scale.type).toBe('log');
    expect(auc.spec.layer[1].encoding.x.scale).toMatchObject({ zero: true });
    expect(auc.spec.layer[1].encoding.x.scale.type).toBeUndefined();
    expect(reid.data.values.every((r: CurveRow) => r.target_kind === 'reid1')).toBe(true);
    const rule = reid.spec.layer.find((l) => l.mark.type === 'rule')!;
    expect(rule.transform![0].filter).toBe('datum.config_target');
    expect(JSON.stringify(auc.spec.layer)).toContain('retained_note');
    expect(reid.facet.sort).toEqual(['κ = 20, n = 100', 'κ = 20, n = 1000', 'κ = 50, n = 100', 'κ = 50, n = 1000']);
  });

  it('the subtitle carries the caveat line whole', () => {
    const subtitle = (spec as unknown as { title: { subtitle: string[] } }).title.subtitle;
    expect(subtitle.join(' ')).toContain(MATCHED_CAVEAT);
  });

  it('one row without the inference', () => {
    const one = matchedSpec(
      'd',
      rows.filter((r) => r.target_kind === 'reid1'),
      ['lshrr'],
    ) as { vconcat: unknown[] };
    expect(one.vconcat).toHaveLength(1);
  });
});
