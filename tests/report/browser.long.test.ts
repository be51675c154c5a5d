/**
 * End-to-end: the HTML report opened from disk in headless Chromium (Debian's `chromium`, driven by
 * playwright-core). The default page shows the SVGs of figures/; a single-file page draws its
 * inline specs with its inline vega builds; both with no console errors and no network, and the
 * `<script>` data set name must not execute. Nothing is wider than a 1280-px window. Skipped when
 * chromium is absent (`apt-get install -y chromium`); see docs/REPORT.md.
 */
import { describe, it, expect, beforeAll, afterAll } from 'vitest';
import { cpSync, existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { buildOutputs } from '../../src/report/index.js';
import { evilResultsFolder, EVIL } from './xss-fixture.js';
import { bigResultsFolder } from './bigGrid.js';
import { evaluateClaims, claimsJson } from '../../src/claims/index.js';
import { inputOf } from '../helpers/claims.js';

const CHROMIUM = process.env.LSHDP_CHROMIUM ?? '/usr/bin/chromium';
const HAVE_CHROMIUM = existsSync(CHROMIUM);
if (!HAVE_CHROMIUM) console.log(`skipping the browser test of the HTML report: no chromium at ${CHROMIUM} (apt-get install -y chromium)`);

describe.skipIf(!HAVE_CHROMIUM)('HTML report in headless Chromium', () => {
  let browser: Browser;
  let dir: string;
  let single: string;
  let big: string;
  let bigSingle: string;

  beforeAll(async () => {
    dir = evilResultsFolder();
    await buildOutputs(dir, { png: false, quiet: true });
    single = evilResultsFolder();
    await buildOutputs(single, { png: false, quiet: true, singleFile: true });
    big = bigResultsFolder();
    await buildOutputs(big, { png: false, quiet: true });
    bigSingle = `${big}-single`;
    cpSync(big, bigSingle, { recursive: true });
    await buildOutputs(bigSingle, { png: false, quiet: true, singleFile: true });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    });
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('a single-file page renders every chart offline from its inline builds, without console errors, and runs no injected script', async () => {
    const page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
    const problems: string[] = [];
    const remote: string[] = [];
    const dialogs: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('dialog', async (d) => {
      dialogs.push(d.message());
      await d.dismiss();
    });
    page.on('request', (req) => {
      if (!req.url().startsWith('file:')) remote.push(req.url());
    });

    await page.goto(pathToFileURL(join(single, 'index.html')).href, { waitUntil: 'load' });
    // vega-embed renders asynchronously: wait for the marks of every figure
    await page.waitForFunction(
      () => {
        const figs = [...document.querySelectorAll('.vega-figure')];
        return figs.length > 0 && figs.every((f) => f.querySelector('svg .mark-line path, svg .mark-symbol path'));
      },
      undefined,
      { timeout: 30_000 },
    );

    const stats = await page.evaluate(() =>
      [...document.querySelectorAll('.vega-figure')].map((f) => ({
        id: f.id,
        lines: f.querySelectorAll('svg .mark-line path').length,
        rules: f.querySelectorAll('svg .mark-rule line').length,
        text: f.querySelector('svg')?.textContent ?? '',
      })),
    );
    expect(stats).toHaveLength(6); // Fig. 1 and Fig. 2 of two data sets, and the two accounting figures
    for (const s of stats) expect(s.lines, s.id).toBeGreaterThan(0);
    const fig2 = stats.find((s) => s.id.startsWith('fig2-fsq'))!;
    expect(fig2.text).toContain('total privacy budget ξ');
    expect(fig2.rules).toBeGreaterThan(0); // error bars and LSH baselines
    // the data set name appears as text in the page, never as markup
    expect(await page.locator('h1').textContent()).toBe('lshdp report: <script>alert(1)</script>');

    const shot = join(mkdtempSync(join(tmpdir(), 'lshdp-shot-')), 'report.png');
    await page.screenshot({ path: shot, fullPage: true });
    console.log(`report screenshot: ${shot}`);
    expect(existsSync(shot)).toBe(true);

    expect(problems).toEqual([]);
    expect(dialogs).toEqual([]);
    expect(remote).toEqual([]);
    await page.close();
  });

  it('the default page shows every figure from figures/, offline, without console errors', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const problems: string[] = [];
    const loaded: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console: ${m.text()}`);
    });
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('dialog', async (d) => {
      problems.push(`dialog: ${d.message()}`);
      await d.dismiss();
    });
    page.on('request', (req) => loaded.push(req.url().replace(pathToFileURL(dir).href + '/', '')));
    await page.goto(pathToFileURL(join(dir, 'index.html')).href, { waitUntil: 'load' });
    const imgs = await page.evaluate(() =>
      [...document.querySelectorAll('.vega-figure img')].map((i) => ({ src: i.getAttribute('src'), ok: (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth > 0 })),
    );
    expect(imgs).toHaveLength(6);
    expect(imgs.every((i) => i.ok)).toBe(true);
    // the page and its figures' SVGs, nothing else (no script library for the default page)
    expect(loaded.sort()).toEqual(['index.html', ...imgs.map((i) => i.src!)].sort());
    expect(await page.locator('h1').textContent()).toBe('lshdp report: <script>alert(1)</script>');
    expect(problems).toEqual([]);
    await page.close();
  });

  for (const mode of ['default', 'single-file'] as const) {
    it(`fits a 1280-px window (${mode} page): no sideways scroll, every figure, its menu and every opened table within the width`, async () => {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      const problems: string[] = [];
      page.on('pageerror', (e) => problems.push(e.message));
      await page.goto(pathToFileURL(join(mode === 'default' ? big : bigSingle, 'index.html')).href, { waitUntil: 'load' });
      await page.waitForFunction(() => [...document.querySelectorAll('.vega-figure')].every((f) => f.querySelector('svg .mark-symbol path, img')), undefined, { timeout: 60_000 });
      const measure = () =>
        page.evaluate(() => ({
          scrollWidth: document.scrollingElement!.scrollWidth,
          figures: [...document.querySelectorAll('.vega-figure')].map((f) => ({
            id: f.id,
            right: f.getBoundingClientRect().right,
            inner: Math.max(...[...f.querySelectorAll('img, svg, details')].map((e) => e.getBoundingClientRect().right)),
          })),
          // where a figure's right edge would be at its natural width
          natural: Math.max(
            ...[...document.querySelectorAll('.vega-figure img, .vega-figure svg.marks')].map(
              (e) => e.getBoundingClientRect().left + (e instanceof HTMLImageElement ? e.naturalWidth : Number(e.getAttribute('width'))),
            ),
          ),
        }));
      const before = await measure();
      // not vacuous: at its natural size Fig. 2 of the big grid would reach beyond the window
      expect(before.natural).toBeGreaterThan(1280);
      expect(before.figures).toHaveLength(15);
      expect(before.scrollWidth).toBeLessThanOrEqual(1280);
      for (const f of before.figures) {
        expect(f.right, f.id).toBeLessThanOrEqual(1280);
        expect(f.inner, f.id).toBeLessThanOrEqual(1280);
      }
      // every long table opened: still no sideways scroll (a wide table scrolls in its own box)
      for (const s of await page.locator('details.long-table > summary').all()) await s.click();
      // rows are built on the details' 'toggle' event, which fires after the click returns
      await expect.poll(() => page.locator('#utility-table tbody tr').count()).toBeGreaterThan(1000);
      expect((await measure()).scrollWidth).toBeLessThanOrEqual(1280);
      // a figure of the contents list is one click away
      await page.locator('#contents a[href="#frontier-ml-small"]').click();
      const top = await page.evaluate(() => document.getElementById('frontier-ml-small')!.getBoundingClientRect().top);
      expect(Math.abs(top)).toBeLessThan(800);
      expect(problems).toEqual([]);
      await page.close();
    });
  }

  it('the utility table filters by drop-down and search and sorts by column, offline', async () => {
    const page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(`console: ${m.text()}`);
    });
    await page.goto(pathToFileURL(join(dir, 'index.html')).href, { waitUntil: 'load' });
    const table = page.locator('#utility-table');
    // a long table starts collapsed, its rows built when opened
    expect(await table.locator('tbody tr').count()).toBe(0);
    await page.locator('#utility-table-details > summary').click();
    const visible = () => table.locator('tbody tr:not([hidden])');
    // rows are built on the details' 'toggle' event, which fires after the click returns
    await expect.poll(() => table.locator('tbody tr').count()).toBe(99); // the fixture's utility.csv rows
    const total = await table.locator('tbody tr').count();
    const tools = page.locator('#utility-table-tools');
    await expect.poll(() => tools.locator('.count').textContent()).toBe(`${total} of ${total} rows`);

    // drop-downs combine: one mechanism label, one κ, one data set
    await tools.locator('select[data-col="4"]').selectOption('lshrr-exact');
    await tools.locator('select[data-col="2"]').selectOption('20');
    await tools.locator('select[data-col="0"]').selectOption('fsq-nyc');
    expect(await visible().count()).toBe(5); // ξ 0, 1, 5, 10, 20
    const cells = await visible().evaluateAll((trs) => trs.map((tr) => [...(tr as HTMLTableRowElement).cells].map((c) => c.textContent)));
    expect(cells.every((c) => c[0] === 'fsq-nyc' && c[2] === '20' && c[4] === 'lshrr-exact')).toBe(true);
    expect(await tools.locator('.count').textContent()).toBe(`5 of ${total} rows`);

    // sort by utility loss: ascending, then descending on a second click; ξ = 0 (random bits) is the worst
    const header = page.locator('#utility-table th', { hasText: 'utility loss' });
    const losses = () => visible().evaluateAll((trs) => trs.map((tr) => Number((tr as HTMLTableRowElement).cells[11].getAttribute('data-v'))));
    await header.locator('button').click();
    const up = await losses();
    expect(up).toEqual([...up].sort((a, b) => a - b));
    expect(await header.getAttribute('aria-sort')).toBe('ascending');
    await header.locator('button').click();
    const down = await losses();
    expect(down).toEqual([...up].reverse());
    const xiOfWorst = await visible()
      .first()
      .evaluate((tr) => (tr as HTMLTableRowElement).cells[6].textContent);
    expect(xiOfWorst).toBe('0');

    // the search box narrows further; clearing the filters shows every row again
    await tools.locator('select[data-col="0"]').selectOption('');
    await tools.locator('select[data-col="2"]').selectOption('');
    await tools.locator('input[type=search]').fill('FSQ');
    expect(await visible().count()).toBe(2 * 5); // lshrr-exact on fsq-nyc: κ 10/20 × 5 ξ (case-insensitive)
    await tools.locator('input[type=search]').fill('');
    await tools.locator('select[data-col="4"]').selectOption('');
    expect(await visible().count()).toBe(total);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('shows the Claims section first, one verdict badge per claim linking to an existing figure or section', async () => {
    const claimsDir = evilResultsFolder();
    // claims for both fixture data sets: synthetic LSHRR/LapLSH values for fsq-nyc, nothing for the evil one
    const input = inputOf({
      dataset: 'fsq-nyc',
      dims: [100],
      kappa: [10],
      k: [1],
      xi: [0, 2],
      trials: 5,
      entries: [
        { label: 'lshrr', base: 'lshrr', level: () => 0.1 },
        { label: 'laplsh', base: 'laplsh', level: () => 0.12 },
      ],
    });
    input.config.datasets = [EVIL, 'fsq-nyc'];
    const results = evaluateClaims(input);
    writeFileSync(join(claimsDir, 'claims.json'), claimsJson(results));
    await buildOutputs(claimsDir, { png: false, quiet: true });
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('dialog', async (d) => {
      problems.push(`dialog: ${d.message()}`);
      await d.dismiss();
    });
    await page.goto(pathToFileURL(join(claimsDir, 'index.html')).href, { waitUntil: 'load' });
    const info = await page.evaluate(() => {
      const sections = [...document.querySelectorAll('section')].map((s) => s.id);
      const badges = [...document.querySelectorAll('#claims .claim-badge')].map((b) => ({
        verdict: b.getAttribute('data-verdict'),
        text: b.textContent,
        href: b.getAttribute('href'),
        visible: (b as HTMLElement).offsetWidth > 0,
      }));
      const targetsExist = badges.filter((b) => b.href).every((b) => document.getElementById(b.href!.slice(1)) !== null);
      const firstCell = document.querySelector('#claims tr.claim td')?.textContent;
      return { sections, badges, targetsExist, firstCell };
    });
    expect(info.sections[0]).toBe('claims');
    expect(info.badges).toHaveLength(results.length);
    expect(info.badges.map((b) => b.text)).toEqual(results.map((r) => r.verdict));
    expect(info.badges.every((b) => b.visible)).toBe(true);
    expect(info.badges.filter((b) => b.href).length).toBeGreaterThan(0);
    expect(info.targetsExist).toBe(true);
    expect(info.badges.map((b) => b.verdict)).toContain('supported');
    // the data set name is text, never markup
    expect(info.firstCell).toBe(EVIL);
    expect(problems).toEqual([]);
    await page.close();
  });
});
