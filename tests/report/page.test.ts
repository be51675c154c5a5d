/**
 * The report's page fits a screen and stays small (issue 44, item 3): a contents list at the top
 * links every section and figure; long tables start collapsed behind a summary line, their rows
 * one click away and their files linked; the figures are the SVGs of figures/, not inline specs,
 * so the page of a run with recommend and attack is a fraction of what its specs and table markup
 * weigh; `singleFile` carries everything inline instead. (Widths: tests/report/browser.long.test.ts.)
 */
import { describe, it, expect, beforeAll } from 'vitest';
import { cpSync, existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { buildOutputs, figureEntries, readResultsFolder } from '../../src/report/index.js';
import { LONG_TABLE_ROWS, numCell, tableRowsJson, type Cell, type Column } from '../../src/report/htmlTables.js';
import { bigResultsFolder } from './bigGrid.js';

/** The ids a page's `<section>`s and figures carry, in page order. */
const sectionIds = (html: string) => [...html.matchAll(/<section id="([^"]+)">/g)].map((m) => m[1]);
const figureIds = (html: string) => [...html.matchAll(/<div id="([^"]+)" class="vega-figure"/g)].map((m) => m[1]);

describe('index.html of a run with recommend and attack', () => {
  let dir: string;
  let single: string;
  let html: string;
  let singleHtml: string;

  beforeAll(async () => {
    dir = bigResultsFolder();
    await buildOutputs(dir, { png: false, quiet: true });
    html = readFileSync(join(dir, 'index.html'), 'utf8');
    single = `${dir}-single`;
    cpSync(dir, single, { recursive: true });
    await buildOutputs(single, { png: false, quiet: true, singleFile: true });
    singleHtml = readFileSync(join(single, 'index.html'), 'utf8');
  }, 120_000);

  it('opens with a contents list that links every section and every figure, under its section', () => {
    const nav = /<nav id="contents"[^>]*>([\s\S]*?)<\/nav>/.exec(html);
    expect(nav).not.toBeNull();
    // before the first section
    expect(html.indexOf('<nav id="contents"')).toBeLessThan(html.indexOf('<section '));
    const links = [...nav![1].matchAll(/<a href="#([^"]+)">/g)].map((m) => m[1]);
    const figures = figureEntries(readResultsFolder(dir)).map((f) => f.id);
    expect(figures.length).toBe(15); // Fig. 1 ×2, Fig. 2 ×2 and big's ×3 (k 1, 5, 10), NDCG ×2, privacy ×2, reid and frontier ×2
    expect(new Set(links)).toEqual(new Set([...sectionIds(html), ...figures]));
    expect(links).toHaveLength(new Set(links).size);
    // every figure is listed right under the section that shows it (the attack's under the attack)
    const attack = /<li><a href="#attack">[^<]*<\/a>\n<ul>(.*?)<\/ul><\/li>/.exec(nav![1]);
    expect([...attack![1].matchAll(/href="#([^"]+)"/g)].map((m) => m[1])).toEqual(figures.filter((f) => /^(reid|frontier)-/.test(f)));
    expect(figureIds(html).sort()).toEqual([...figures].sort());
  });

  it('collapses every long table: a summary line first, the rows one click away, its files linked', () => {
    const utility = readResultsFolder(dir).utility!.length;
    expect(utility).toBeGreaterThan(1000);
    for (const [id, rows, file] of [
      ['utility-table', utility, 'utility.csv'],
      ['recommend-table', 204, 'recommend.csv'],
      ['attack-table', 192, 'attack.csv'],
    ] as const) {
      expect(rows).toBeGreaterThan(LONG_TABLE_ROWS);
      // the summary line: rows and the values the drop-downs offer, with the files in full
      expect(html).toMatch(new RegExp(`<p class="table-summary">${rows.toLocaleString('en-US')} rows over data set \\(\\d+\\), [^<]*\\(in full: <a href="${file}">`));
      // collapsed (no open attribute); the table's body empty until opened, its rows as JSON
      expect(html).toContain(`<details class="long-table" id="${id}-details"><summary>Show all ${rows.toLocaleString('en-US')} rows`);
      expect(html).toMatch(new RegExp(`<table id="${id}" class="interactive"><thead>.*?</thead><tbody></tbody></table>`));
      const json = new RegExp(`<script type="application/json" id="${id}-rows">(.*?)</script>`, 's').exec(html);
      expect(JSON.parse(json![1]).rows).toHaveLength(rows);
    }
    for (const href of [...html.matchAll(/\(in full: (.*?)\)<\/p>/g)].flatMap((m) => [...m[1].matchAll(/href="([^"]+)"/g)].map((h) => h[1]))) expect(existsSync(join(dir, href)), href).toBe(true);
    // the manifest's per-cell grid is cut, not printed whole
    expect(html).not.toMatch(/<pre>[^<]{20000,}<\/pre>/);
  });

  it("a long table's JSON gives back every cell's text and the value it filters and sorts by", () => {
    const columns: Column[] = [
      { title: 'mechanism', type: 'text', choice: true },
      { title: 'ξ', type: 'num', choice: true },
      { title: 'loss', type: 'num' },
    ];
    const cells: Cell[][] = [
      [{ text: 'lshrr *', v: 'lshrr' }, numCell(0.5, '0.5'), { text: '0.1235 ± 0.0010', v: 0.123456789 }],
      [{ text: 'lsh' }, numCell(null, '–'), numCell(0.25)],
      [{ text: 'lshrr *', v: 'lshrr' }, numCell(1 / 3, String(1 / 3)), { text: '–', v: '' }],
    ];
    const json = tableRowsJson(columns, cells);
    const decoded = json.rows.map((r) => r.map((c, i) => (json.values[i] ? json.values[i]![c as number] : c)));
    const text = (c: unknown) => (Array.isArray(c) ? c[0] : c);
    const value = (c: unknown) => String(Array.isArray(c) ? c[1] : c);
    expect(decoded.map((r) => r.map(text))).toEqual(cells.map((r) => r.map((c) => c.text)));
    // drop-down columns keep their exact values (the options'), the others 6 significant digits
    expect(decoded.map((r) => r.map(value))).toEqual([
      ['lshrr', '0.5', '0.123457'],
      ['lsh', '', '0.25'],
      ['lshrr', String(1 / 3), ''],
    ]);
    expect(json.values[0]).toEqual([['lshrr *', 'lshrr'], 'lsh']);
  });

  it('shows the SVGs of figures/ at their size, scaled down to the page, with links to their files', () => {
    for (const id of figureIds(html)) {
      const svg = readFileSync(join(dir, 'figures', `${id}.svg`), 'utf8');
      const [, w, h] = /<svg[^>]*? width="(\d+)" height="(\d+)"/.exec(svg)!;
      expect(html).toContain(`<div id="${id}" class="vega-figure"><img src="figures/${id}.svg" alt="`);
      expect(html).toMatch(new RegExp(`<img src="figures/${id}\\.svg" alt="[^"]*" width="${w}" height="${h}">`));
      expect(html).toContain(`<a href="figures/${id}.vl.json">Vega-Lite spec</a>`);
    }
    expect(html).toMatch(/\.vega-figure img, \.vega-figure svg \{ max-width: 100%; height: auto;/);
    // no spec and no library inline: no script but the tables'
    expect(html).not.toContain('lshdp-specs');
    expect(html).not.toContain('vegaEmbed');
    expect(html).not.toMatch(/<script[^>]* src=/);
  });

  it('stays small: under 400 kB, where the specs alone weigh more than the page', () => {
    const bytes = statSync(join(dir, 'index.html')).size;
    const specs = figureEntries(readResultsFolder(dir)).reduce((a, f) => a + JSON.stringify(f.spec).length, 0);
    expect(bytes).toBeLessThan(400_000);
    expect(specs).toBeGreaterThan(bytes);
  });

  it('--single-file: one self-contained page, the specs and the vega builds inline, nothing of figures/', () => {
    expect(singleHtml).not.toContain('figures/');
    // the markup outside the inline scripts loads nothing and links no file of the folder
    const markup = singleHtml.replace(/<script>[\s\S]*?<\/script>/g, '<script></script>');
    expect(markup).not.toMatch(/<(?:script|img)[^>]* src=/);
    expect([...markup.matchAll(/ href="([^"]*)"/g)].map((m) => m[1]).filter((h) => !h.startsWith('#'))).toEqual([]);
    expect(markup.match(/<script/g)).toHaveLength(9); // the tables', 3 row sets, 3 vega builds, the specs, the embedding
    const specs = JSON.parse(/<script id="lshdp-specs" type="application\/json">(.*?)<\/script>/s.exec(singleHtml)![1]);
    const figures = figureEntries(readResultsFolder(single));
    expect(Object.keys(specs)).toEqual(figures.map((f) => f.id));
    for (const f of figures) expect(specs[f.id]).toEqual(JSON.parse(JSON.stringify(f.spec)));
    for (const lib of ['vega.min.js', 'vega-lite.min.js', 'vega-embed.min.js']) expect(singleHtml).toContain(readFileSync(join(single, 'assets', lib), 'utf8').slice(0, 2000));
    // the same contents and collapsed tables as the default page
    expect(/<nav id="contents"[^>]*>[\s\S]*?<\/nav>/.exec(singleHtml)![0]).toBe(/<nav id="contents"[^>]*>[\s\S]*?<\/nav>/.exec(html)![0]);
    expect(singleHtml).toContain('<details class="long-table" id="utility-table-details">');
  });

  it('the other outputs are the same bytes whichever page is written', () => {
    for (const f of ['figures/fig2-big-k5.vl.json', 'figures/fig2-big-k5.svg', 'figures/reid-ml-small.svg', 'tables/utility-table.csv', 'tables/attack.md', 'tables/recommend.md']) {
      expect(readFileSync(join(single, f)), f).toEqual(readFileSync(join(dir, f)));
    }
  });
});
