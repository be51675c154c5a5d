/**
 * The report's Claims section (src/report/claims.ts): built from claims.json alone, escaped, badges
 * linking to the data set's figure or the budget table, one-line errors for a malformed file.
 */
import { describe, it, expect } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { claimsSectionBody, readClaimsJson } from '../../src/report/claims.js';
import { claimsJson } from '../../src/claims/format.js';
import { evaluateClaims } from '../../src/claims/evaluate.js';
import type { FigureEntry } from '../../src/report/markup.js';
import { matchedFigureTitle } from '../../src/report/matchedFigure.js';
import type { ResultsFolder } from '../../src/report/read.js';
import { UserError } from '../../src/util/errors.js';
import { inputOf } from '../helpers/claims.js';

const EVIL = '<img src=x onerror=alert(1)>';

function folder(claims?: string): ResultsFolder {
  const dir = mkdtempSync(join(tmpdir(), 'lshdp-claims-report-'));
  if (claims !== undefined) writeFileSync(join(dir, 'claims.json'), claims);
  return { dir, name: 't', utility: null, nnDistances: null, budgets: null, datasets: null, manifest: null } as unknown as ResultsFolder;
}

const fig = (id: string, title: string): FigureEntry => ({ id, title, caption: '', spec: {}, svgPath: `figures/${id}.svg` });

describe('Claims section', () => {
  const input = inputOf({
    dataset: EVIL,
    dims: [100],
    kappa: [10],
    k: [1],
    xi: [0, 2],
    trials: 4,
    entries: [
      { label: 'lshrr', base: 'lshrr', level: () => 0.1 },
      { label: 'laplsh', base: 'laplsh', level: () => 0.12 },
    ],
  });
  const results = evaluateClaims(input);

  it('escapes data set names and links each badge to its figure (Fig. 1 for nn-share, Fig. 2 with a k suffix) or the budgets', () => {
    const html = claimsSectionBody(folder(claimsJson(results)), [fig('fig1-x', `Fig. 1: ${EVIL}`), fig('fig2-x-k1', `Fig. 2: ${EVIL}, k = 1`)]);
    expect(html).not.toContain(EVIL);
    expect(html).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect((html.match(/class="claim-badge"/g) ?? []).length).toBe(results.length);
    expect(html).toMatch(/<a class="claim-badge" data-verdict="[^"]+"[^>]*href="#fig1-x">/);
    expect(html).toMatch(/<a class="claim-badge" data-verdict="supported"[^>]*href="#fig2-x-k1">supported<\/a>/);
    expect(html).toMatch(/href="#budgets">supported<\/a>/);
  });

  it("links the linkage attack's claims to its figures", () => {
    const base = { dataset: 'ml', verdict: 'supported', statement: 's', cells_tested: 2, cells_for: 1, cells_against: 0, detail: 'd' };
    const claims = ['clean-lsh-reidentifies', 'reid-rises-with-xi', 'lshrr-frontier-dominates-laplsh'].map((id) => ({ ...base, id }));
    const html = claimsSectionBody(folder(JSON.stringify({ claims })), [fig('fig2-ml', 'Fig. 2: ml'), fig('reid-ml', 'Re-identification: ml'), fig('frontier-ml', 'Privacy–utility frontier: ml')]);
    expect(html.match(/href="#reid-ml"/g)).toHaveLength(2);
    expect(html.match(/href="#frontier-ml"/g)).toHaveLength(1);
    expect(html).not.toContain('href="#fig2-ml"');
  });

  it('links the matched claims to the decision section, with their figure beside the share; no link without the section', () => {
    const base = { dataset: 'ml', verdict: 'supported', statement: 's', cells_tested: 2, cells_for: 1, cells_against: 0, detail: 'd' };
    const claims = ['lshrr-beats-laplsh-at-matched-reid', 'lshrr-beats-laplsh-at-matched-auc', 'lshrr-beats-laplsh'].map((id) => ({ ...base, id }));
    const figs = [fig('fig2-ml', 'Fig. 2: ml'), fig('matched-ml', matchedFigureTitle('ml')), fig('matched-other', matchedFigureTitle('other'))];
    const res = folder(JSON.stringify({ claims }));
    // without matched.csv (no decide: block) there is no decision section to link to
    const bare = claimsSectionBody(res, figs);
    expect(bare.match(/href="#fig2-ml"/g)).toHaveLength(1);
    expect(bare).not.toContain('#decision');
    expect(bare.match(/<span class="claim-badge"/g)).toHaveLength(2);
    writeFileSync(join(res.dir, 'matched.csv'), 'dataset\n');
    const html = claimsSectionBody(res, figs);
    const row = (id: string) => html.split('<tr class="claim"').find((r) => r.includes(`data-claim="${id}"`))!;
    for (const id of claims.slice(0, 2).map((c) => c.id)) {
      expect(row(id)).toMatch(
        /<a class="claim-badge" data-verdict="supported"[^>]*href="#decision">supported<\/a> <span class="claim-share">\([^)]*\)<\/span> <a class="claim-figure" href="#matched-ml">figure<\/a>/,
      );
      expect(row(id)).not.toContain('#fig2-ml');
    }
    // the equal-ξ twin still links to Fig. 2, and has no second link
    expect(row('lshrr-beats-laplsh')).toContain('href="#fig2-ml"');
    expect(row('lshrr-beats-laplsh')).not.toContain('claim-figure');
    // without the data set's figure: the badge alone
    expect(claimsSectionBody(res, [fig('matched-other', matchedFigureTitle('other'))])).not.toContain('claim-figure');
  });

  it("links the attribute inference's claims to its section", () => {
    const base = { dataset: 'ml', verdict: 'supported', statement: 's', cells_tested: 2, cells_for: 1, cells_against: 0, detail: 'd' };
    const claims = ['clean-lsh-leaks-items', 'inference-rises-with-xi'].map((id) => ({ ...base, id }));
    const html = claimsSectionBody(folder(JSON.stringify({ claims })), [fig('fig2-ml', 'Fig. 2: ml')]);
    expect(html.match(/href="#infer"/g)).toHaveLength(2);
    expect(html).not.toContain('href="#fig2-ml"');
  });

  it("prints the share of cells beside every badge, from claims.json's counts", () => {
    const one = { id: 'lshrr-beats-random-at-xi-2', dataset: 'x', verdict: 'supported', statement: 's', cells_tested: 36, cells_for: 1, cells_against: 0, detail: 'd' };
    const html = claimsSectionBody(
      folder(
        JSON.stringify({
          claims: [
            one,
            { ...one, id: 'nn-share', verdict: 'not-tested', cells_tested: 0, cells_for: 0 },
            { ...one, id: 'exact-accountant-gain', cells_tested: 1 },
            { ...one, id: 'lshrr-beats-laplsh', verdict: 'contradicted', cells_for: 2, cells_against: 3 },
          ],
        }),
      ),
      [],
    );
    expect(html).toMatch(/data-verdict="supported"[^>]*>supported<\/span> <span class="claim-share">\(1 of 36 cells for, none against\)<\/span>/);
    expect(html).toContain('>not-tested</span> <span class="claim-share">(no cell tested)</span>');
    expect(html).toContain('>supported</span> <span class="claim-share">(1 of 1 cell for, none against)</span>');
    expect(html).toContain('>contradicted</span> <span class="claim-share">(2 of 36 cells for, 3 against)</span>');
    expect((html.match(/class="claim-share"/g) ?? []).length).toBe(4);
  });

  it('without a matching figure, the badge is not a link', () => {
    const html = claimsSectionBody(folder(claimsJson(results)), []);
    expect(html).not.toContain('href="#fig');
    expect(html).toContain('<span class="claim-badge"');
  });

  it('says so when the folder has no claims.json', () => {
    expect(claimsSectionBody(folder(), [])).toContain('No claims.json in this folder');
  });

  it('fails with one line naming the file when claims.json is malformed', () => {
    for (const bad of ['{', '{"claims": 3}', '{"claims": [{"id": "x"}]}']) {
      const f = folder(bad);
      let err: unknown;
      try {
        readClaimsJson(f.dir);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(UserError);
      expect((err as Error).message).toMatch(/claims\.json: /);
      expect((err as Error).message).not.toContain('\n');
    }
  });
});
