#!/usr/bin/env node
// Bundles the CommonJS libraries a run loads into one file each (dist/vendor/bundled-*.cjs), after
// tsc: YAML (72 files) and the @stdlib special functions (about 330 files, 80 ms of a run's main
// thread, loaded while the workers compute on the same cores). One file loads in a fraction of the
// time: Node's module resolution (a stat, a package.json read and a realpath per file) is most of
// the cost. The code is the libraries' own, unchanged, so every double is the same;
// src/vendor/*.ts load the packages themselves where the bundle is absent (the tests run on src/).
// `npm run build` runs it; tests/vendor/bundles.test.ts compares the bundled functions with the
// packages'.
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
};`,
};

mkdirSync(OUT, { recursive: true });
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
