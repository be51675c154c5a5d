#!/usr/bin/env node
// After tsc (`npm run build`), two kinds of one-file bundles, because Node's module loading (a stat,
// a package.json and a realpath per file, then the module's compilation) is a visible part of a
// small run:
//
// The worker thread's entry (dist/machinery/worker.bundle.js, from dist/machinery/worker.js and
// the lshdp modules it imports, about 100; packages stay imports): each of a run's workers loads
// it before its first cell, on the cores the main thread is using to load the run, and a grid grown
// by one ξ waits for that. src/machinery/executor.ts starts workers from it where it exists.
// Everything a worker computes is the same code, so every result is the same; a plugin that imports
// `lshdp` gets the package's own modules beside the bundle's (the functions it imports keep no
// state between calls, so their results are too).
//
// The CommonJS libraries a run loads, one file each (dist/vendor/bundled-*.cjs): YAML (72 files) and the @stdlib special functions (about 330 files, 80 ms of a run's main
// thread, loaded while the workers compute on the same cores). One file loads in a fraction of the
// time: Node's module resolution (a stat, a package.json read and a realpath per file) is most of
// the cost. The code is the libraries' own, unchanged, so every double is the same;
// src/vendor/*.ts load the packages themselves where the bundle is absent (the tests run on src/).
// tests/vendor/bundles.test.ts compares the bundled functions with the packages' and the bundled
// worker's results with the unbundled one's.
//
// vega and vega-lite's compile, one ES module (dist/vendor/bundled-vega.mjs; vega-canvas's
// top-level await keeps it ESM): about 250 files (d3-geo-projection alone 109) that every run with
// a report loads before its first figure, 0.2 CPU-s of a grid grown by one ξ; the bundle takes
// about a third. Their code unchanged (the optional `canvas` stays an import, absent as before), so
// every SVG is the same: tests/vendor/bundles.test.ts renders figures both ways.
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(ROOT, 'dist', 'vendor');

/** Each bundle: its file name and the CommonJS module that is its entry (what src/vendor/<name>.ts exports). */
export const BUNDLES = {
  yaml: "module.exports = require('yaml');",
  stdlib: `module.exports = {
  betaQuantile: require('@stdlib/stats-base-dists-beta-quantile'),
  binomialCdf: require('@stdlib/stats-base-dists-binomial-cdf'),
  chisquareCdf: require('@stdlib/stats-base-dists-chisquare-cdf'),
  chisquareLogpdf: require('@stdlib/stats-base-dists-chisquare-logpdf'),
  chisquareQuantile: require('@stdlib/stats-base-dists-chisquare-quantile'),
  erfcinv: require('@stdlib/math-base-special-erfcinv'),
  normalCdf: require('@stdlib/stats-base-dists-normal-cdf'),
  normalLogcdf: require('@stdlib/stats-base-dists-normal-logcdf'),
  tCdf: require('@stdlib/stats-base-dists-t-cdf'),
  tQuantile: require('@stdlib/stats-base-dists-t-quantile'),
};`,
};

await build({
  entryPoints: [join(ROOT, 'dist', 'machinery', 'worker.js')],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  packages: 'external',
  outfile: join(ROOT, 'dist', 'machinery', 'worker.bundle.js'),
  logLevel: 'warning',
});

mkdirSync(OUT, { recursive: true });
await build({
  stdin: { contents: "export * as vega from 'vega';\nexport { compile } from 'vega-lite';\n", resolveDir: ROOT, sourcefile: 'vendor-vega.mjs', loader: 'js' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: ['canvas'],
  outfile: join(OUT, 'bundled-vega.mjs'),
  legalComments: 'eof',
  logLevel: 'warning',
});
for (const [name, contents] of Object.entries(BUNDLES)) {
  await build({
    stdin: { contents, resolveDir: ROOT, sourcefile: `vendor-${name}.cjs`, loader: 'js' },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outfile: join(OUT, `bundled-${name}.cjs`),
    legalComments: 'eof',
    logLevel: 'warning',
  });
}
