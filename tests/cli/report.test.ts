import { describe, it, expect, beforeAll } from 'vitest';
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { lshdpIn } from '../helpers/inproc.js';
import { evilResultsFolder, EVIL } from '../report/xss-fixture.js';

describe('lshdp report', () => {
  let dir: string;
  let html: string;
  let status: number | null;

  beforeAll(async () => {
    dir = evilResultsFolder();
    const r = await lshdpIn(['report', dir, '--no-png', '--quiet']);
    status = r.status;
    if (r.status !== 0) console.log(r.stderr);
    html = readFileSync(join(dir, 'index.html'), 'utf8');
  });

  it('writes index.html, tables, figures and the local vega builds', async () => {
    expect(status).toBe(0);
    expect(readdirSync(join(dir, 'assets')).sort()).toEqual(['vega-embed.min.js', 'vega-lite.min.js', 'vega.min.js']);
    expect(readdirSync(join(dir, 'tables')).sort()).toEqual(['budgets.md', 'budgets.tex', 'utility-table.csv', 'utility.md', 'utility.tex']);
    expect(existsSync(join(dir, 'figures', 'fig2-fsq-nyc.svg'))).toBe(true);
    expect(readdirSync(join(dir, 'figures')).some((f) => f.endsWith('.png'))).toBe(false); // --no-png
    // offline and light: no script loaded from anywhere, the figures are the SVGs of figures/
    expect([...html.matchAll(/<script[^>]*src="([^"]+)"/g)]).toEqual([]);
    const imgs = [...html.matchAll(/<img src="([^"]+)"/g)].map((m) => m[1]);
    expect(imgs).toHaveLength(6);
    for (const src of imgs) expect(existsSync(join(dir, src)), src).toBe(true);
    expect(html).not.toMatch(/https?:\/\//);
  });

  it('HTML-escapes every string from data and config', async () => {
    expect(html).not.toContain(EVIL);
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    // our own two script elements (the tables' script, the utility table's rows) and no others
    expect(html.match(/<script/g)).toHaveLength(2);
    // the embedded rows keep the name, with '<' escaped so it cannot end the script element
    expect(html).toContain('\\u003cscript\\u003ealert(1)\\u003c/script\\u003e');
  });

  it('shows the metadata, tables and data set summaries', async () => {
    for (const s of ['<h2>Run</h2>', 'fixture', 'utility loss (mean ± se)', 'ε_LDP = κε', 'ε_bit (LSHRR)', 'ε_Lap (LapLSH)', 'users kept', 'fsq-nyc', 'foursquare-tsmc']) {
      expect(html).toContain(s);
    }
    expect(html.match(/class="vega-figure"/g)).toHaveLength(6);
  });

  it("cites the paper in the footer and writes tables/utility-table.csv in utility.csv's names", async () => {
    expect(html).toMatch(/<footer>[\s\S]*Fernandes, Yusuke Kawamoto, Takao Murakami\. &quot;Locality Sensitive Hashing with Extended Differential Privacy&quot;\. ESORICS 2021[\s\S]*<\/footer>/);
    const header = readFileSync(join(dir, 'tables', 'utility-table.csv'), 'utf8').split('\n')[0];
    expect(header).toBe(
      'dataset,n,kappa,k,mechanism,base,accountant,xi,epsilon_bit,epsilon_lap,epsilon_ldp,fallback,trials,queries,utility_loss_mean,utility_loss_se,recall_mean,recall_se,utility_loss,recall',
    );
  });

  it('--single-file: the specs, escaped, and the vega builds inline; no file of the folder referenced', async () => {
    const single = evilResultsFolder();
    const r = await lshdpIn(['report', single, '--no-png', '--quiet', '--single-file']);
    expect(r.status).toBe(0);
    const page = readFileSync(join(single, 'index.html'), 'utf8');
    expect(page).not.toContain('figures/');
    expect(page).not.toContain(EVIL);
    expect(page).toContain('<script id="lshdp-specs" type="application/json">');
    expect(page).toContain('\\u003cscript\\u003ealert(1)\\u003c/script\\u003e');
    expect(page.match(/class="vega-figure"/g)).toHaveLength(6);
    expect(page).toContain(readFileSync(join(single, 'assets', 'vega-embed.min.js'), 'utf8').slice(0, 1000));
    // the default page stays the small one
    expect(page.length).toBeGreaterThan(5 * html.length);
  });

  it('report --help offers --single-file', async () => {
    const r = await lshdpIn(['report', '--help']);
    expect(r.stdout).toMatch(/--single-file\s+one self-contained index\.html/);
  });

  it('the utility table is interactive without any library: drop-downs, search, sortable headers', async () => {
    expect(html).toContain('<table id="utility-table" class="interactive">');
    expect(html).toMatch(
      /<select data-col="4"><option value="">all<\/option><option value="exact">exact<\/option><option value="lsh">lsh<\/option><option value="lshrr">lshrr<\/option><option value="lshrr-exact">lshrr-exact<\/option>/,
    );
    expect(html.match(/<th data-type="num" aria-sort="none"><button/g)!.length).toBeGreaterThan(5);
  });
});
