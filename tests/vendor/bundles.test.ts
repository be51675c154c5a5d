import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as yamlPackage from 'yaml';
import { ROOT } from '../helpers/cli.js';
import { smallGrid } from '../helpers/experiment.js';
import { runExperiment } from '../../src/pipeline/run.js';
import { betaQuantile, binomialCdf, chisquareCdf, chisquareLogpdf, chisquareQuantile, erfcinv, normalCdf, normalLogcdf, STDLIB_PACKAGES, tCdf, tQuantile } from '../../src/vendor/stdlib.js';
import * as yaml from '../../src/vendor/yaml.js';

/**
 * The build's one-file bundles of YAML and the @stdlib functions (scripts/bundle.mjs) are the
 * packages' own code: every value they give is the packages' to the bit, on arguments across each
 * function's range, tails included. (src/vendor/ loads the packages where there is no bundle, as
 * under these tests; the CLI runs on dist/, with them.)
 */
const require = createRequire(import.meta.url);
const DIST = join(ROOT, 'dist', 'vendor');
const built = existsSync(join(DIST, 'bundled-stdlib.cjs')) && existsSync(join(DIST, 'bundled-yaml.cjs'));

/** Arguments for each function: probabilities, quantiles and parameters from the centre to the far tails. */
const P = [1e-300, 1e-12, 1e-6, 0.001, 0.025, 0.05, 0.3, 0.5, 0.7, 0.95, 0.975, 0.999, 1 - 1e-9, 0, 1];
const X = [-40, -8.5, -3, -1, -0.2, 0, 0.2, 1, 1.96, 3, 8.5, 40, 1e3];
const DF = [0.5, 1, 2.5, 7, 30, 250, 1e5];
const ARGS: Record<keyof typeof STDLIB_PACKAGES, number[][]> = {
  betaQuantile: P.flatMap((p) => [0.5, 1, 3, 40, 2e3].flatMap((a) => [0.5, 2, 17, 900].map((b) => [p, a, b]))),
  binomialCdf: [0, 1, 3, 10, 49, 50, 499, 1000].flatMap((x) => [1, 10, 50, 1000].flatMap((n) => [0, 1e-6, 0.01, 0.3, 0.5, 0.99, 1].map((p) => [x, n, p]))),
  chisquareCdf: [0, 1e-8, 0.1, 1, 3.8, 20, 200, 5e3].flatMap((x) => DF.map((k) => [x, k])),
  chisquareLogpdf: [0, 1e-8, 0.1, 1, 3.8, 20, 200, 5e3].flatMap((x) => DF.map((k) => [x, k])),
  chisquareQuantile: P.flatMap((p) => DF.map((k) => [p, k])),
  erfcinv: [0, 1e-300, 1e-20, 1e-5, 0.02, 0.5, 1, 1.3, 1.99, 2].map((x) => [x]),
  normalCdf: X.flatMap((x) => [
    [x, 0, 1],
    [x, 1.5, 0.3],
  ]),
  normalLogcdf: X.flatMap((x) => [
    [x, 0, 1],
    [x, -2, 4],
  ]),
  tCdf: X.flatMap((x) => DF.map((v) => [x, v])),
  tQuantile: P.flatMap((p) => DF.map((v) => [p, v])),
};

/** The wrappers of src/vendor/stdlib.ts, by the name of their package entry. */
const WRAPPERS: Record<keyof typeof STDLIB_PACKAGES, (...a: number[]) => number> = {
  betaQuantile: (p, a, b) => betaQuantile(p!, a!, b!),
  binomialCdf: (x, n, p) => binomialCdf(x!, n!, p!),
  chisquareCdf: (x, k) => chisquareCdf(x!, k!),
  chisquareLogpdf: (x, k) => chisquareLogpdf(x!, k!),
  chisquareQuantile: (p, k) => chisquareQuantile(p!, k!),
  erfcinv: (x) => erfcinv(x!),
  normalCdf: (x, m, s) => normalCdf(x!, m!, s!),
  normalLogcdf: (x, m, s) => normalLogcdf(x!, m!, s!),
  tCdf: (x, v) => tCdf(x!, v!),
  tQuantile: (p, v) => tQuantile(p!, v!),
};

describe('src/vendor: the @stdlib functions', () => {
  it.each(Object.keys(STDLIB_PACKAGES) as (keyof typeof STDLIB_PACKAGES)[])('%s: the wrapper gives the package’s values', (name) => {
    const own = require(STDLIB_PACKAGES[name]) as (...a: number[]) => number;
    for (const a of ARGS[name]) expect(Object.is(WRAPPERS[name](...a), own(...a)), `${name}(${a.join(', ')})`).toBe(true);
  });

  it.skipIf(!built)('the bundle gives every function the package’s values, to the bit (the build made it)', () => {
    const bundle = require(join(DIST, 'bundled-stdlib.cjs')) as Record<string, (...a: number[]) => number>;
    expect(Object.keys(bundle).sort()).toEqual(Object.keys(STDLIB_PACKAGES).sort());
    let compared = 0;
    for (const [name, pkg] of Object.entries(STDLIB_PACKAGES)) {
      const own = require(pkg) as (...a: number[]) => number;
      for (const a of ARGS[name as keyof typeof STDLIB_PACKAGES]) {
        const [b, o] = [bundle[name]!(...a), own(...a)];
        expect(Object.is(b, o), `${name}(${a.join(', ')}): ${b} against ${o}`).toBe(true);
        compared++;
      }
    }
    expect(compared).toBe(Object.values(ARGS).reduce((s, a) => s + a.length, 0));
  });
});

describe('src/vendor: YAML', () => {
  const configs = ['quickstart.yaml', 'audit.yaml', 'shared-movielens-small-rivals.yaml'].map((f) => readFileSync(join(ROOT, 'configs', f), 'utf8'));

  it('the wrapper parses and writes as the package does', () => {
    for (const text of configs) {
      expect(yaml.parse(text)).toEqual(yamlPackage.parse(text));
      expect(yaml.stringify(yaml.parse(text))).toBe(yamlPackage.stringify(yamlPackage.parse(text)));
      expect(String(yaml.parseDocument(text))).toBe(String(yamlPackage.parseDocument(text)));
    }
  });

  it.skipIf(!built)('the bundle parses and writes as the package does, errors and their positions included', () => {
    const bundle = require(join(DIST, 'bundled-yaml.cjs')) as typeof yamlPackage;
    for (const text of [...configs, 'a: [1, 2\nb: {c: 1', 'k: 1\nk: 2\n', '- &a x\n- y: *a\n']) {
      const [d1, d2] = [bundle.parseDocument(text), yamlPackage.parseDocument(text)];
      expect(d1.toJS({ maxAliasCount: -1 })).toEqual(d2.toJS({ maxAliasCount: -1 }));
      expect(d1.errors.map((e) => [e.code, e.message, e.linePos])).toEqual(d2.errors.map((e) => [e.code, e.message, e.linePos]));
      expect(bundle.stringify(d1.toJS())).toBe(yamlPackage.stringify(d2.toJS()));
    }
  });
});

describe('src/vendor: vega and vega-lite', () => {
  const bundle = join(DIST, 'bundled-vega.mjs');
  type Render = typeof import('../../src/report/render.js');
  type VegaVendor = typeof import('../../src/vendor/vega.js');
  const line = (title: string, values: number[], clip = false) => ({
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    title,
    data: { values: values.map((y, x) => ({ x, y })) },
    mark: { type: 'line', ...(clip ? { clip: true } : {}) },
    encoding: { x: { field: 'x', type: 'quantitative' }, y: { field: 'y', type: 'quantitative', ...(clip ? { scale: { domain: [0, 1] } } : {}) } },
  });

  it.skipIf(!existsSync(bundle))('the bundle is what the built renderer loads, with the packages’ exports, and renders their SVGs byte for byte (the build made it)', async () => {
    const vendor = (await import(pathToFileURL(join(ROOT, 'dist', 'vendor', 'vega.js')).href)) as VegaVendor;
    expect(vendor.vegaBundleUrl()?.href).toBe(pathToFileURL(bundle).href);
    // the sources (these tests) have no bundle beside them: the packages
    expect((await import('../../src/vendor/vega.js')).vegaBundleUrl()).toBeNull();
    const [bundled, vega, vl] = await Promise.all([vendor.importRenderers(), import('vega'), import('vega-lite')]);
    expect(Object.keys(bundled.vega).sort()).toEqual(Object.keys(vega).sort());
    expect(bundled.compile).not.toBe(vl.compile);
    const specs = [
      // first, in both: vega numbers clip paths from the first in its process
      line('clipped', [0.5, 2, -1], true),
      line('ξ = 0.5', [4, 4, 5, 1]),
      JSON.parse(readFileSync(join(ROOT, 'tests', 'fixtures', 'results', 'attack', 'frontier-ml-small.vl.json'), 'utf8')),
    ];
    const built = (await import(pathToFileURL(join(ROOT, 'dist', 'report', 'render.js')).href)) as Render;
    const { renderSvg } = await import('../../src/report/render.js');
    for (const s of specs) {
      const svg = await built.renderSvg(s);
      expect(svg).toMatch(/^<svg/);
      expect(svg).toBe(await renderSvg(s));
    }
  });
});

describe('the worker thread’s bundle', () => {
  const bundle = join(ROOT, 'dist', 'machinery', 'worker.bundle.cjs');

  it.skipIf(!existsSync(bundle))('is the worker a run starts (the build made it), and imports no config schema, YAML, statistics package or renderer', async () => {
    const { defaultWorkerUrl } = (await import(pathToFileURL(join(ROOT, 'dist', 'machinery', 'executor.js')).href)) as typeof import('../../src/machinery/executor.js');
    expect(defaultWorkerUrl()?.href).toBe(pathToFileURL(bundle).href);
    const imported = [...readFileSync(bundle, 'utf8').matchAll(/\brequire\("([^"]+)"\)/g)].map((m) => m[1]!);
    expect(imported.length).toBeGreaterThan(3);
    expect(imported.filter((m) => /^(zod|yaml|@stdlib|vega|@resvg)/.test(m))).toEqual([]);
  });

  it.skipIf(!existsSync(bundle))('computes a grid on two threads to the bytes of the unbundled worker (a plugin importing lshdp included)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lshdp-bundle-'));
    const config = join(dir, 'grid.yaml');
    const plugin = join(ROOT, 'tests', 'fixtures', 'plugins', 'rr-from-lshdp.mjs');
    writeFileSync(config, `${smallGrid('bundle', 3, ['exact', 'lsh', 'lshrr', 'laplsh', `{module: ${JSON.stringify(plugin)}}`])([1, 4])}`);
    const run = (out: string, worker: string) =>
      runExperiment({ config, out: join(dir, out), report: false, quiet: true, cacheDir: null, threads: 2, workerUrl: pathToFileURL(worker), log: () => undefined });
    await run('bundled', bundle);
    await run('plain', join(ROOT, 'dist', 'machinery', 'worker.js'));
    for (const file of ['utility.csv', 'claims.json', 'budgets.csv']) expect(readFileSync(join(dir, 'bundled', file), 'utf8'), file).toBe(readFileSync(join(dir, 'plain', file), 'utf8'));
    expect(readFileSync(join(dir, 'bundled', 'utility.csv'), 'utf8')).toContain('rr-from-lshdp');
  });
});
