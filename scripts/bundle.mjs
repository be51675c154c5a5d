#!/usr/bin/env node
// After tsc (`npm run build`), two kinds of one-file bundles, because Node's module loading (a stat,
// a package.json and a realpath per file, then the module's compilation) is a visible part of a
// small run:
//
// The worker thread's entry (dist/machinery/worker.bundle.cjs, from dist/machinery/worker.js and
// the lshdp modules it imports, about 100; packages stay outside): each of a run's workers loads
// it before its first cell, on the cores the main thread is using to load the run, and a grid grown
// by one ξ waits for that. src/machinery/executor.ts starts workers from it where it exists.
// Everything a worker computes is the same code, so every result is the same; a plugin that imports
// `lshdp` in a worker gets the package's entry (the CLI's bundle below) beside the worker's bundle
// (the functions it imports keep no state between calls, so their results are too).
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
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
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

// CommonJS, not an ES module: a worker that starts from an ES module first loads and runs Node's
// ES module loader and resolves the package imports through it, about 20 CPU-ms more per worker
// than the same code through require (a worker measured alone: 60–73 against 40–51 CPU-ms from
// its creation to its code run, an empty worker 23–25). The code is the same modules in the same
// order, strict as ES modules are; import.meta.url is the file's own URL, so every path a module
// finds from it ('../kernels/…', '../vendor/…') is the same; a plugin engine still loads by import().
rmSync(join(ROOT, 'dist', 'machinery', 'worker.bundle.js'), { force: true }); // the ES module bundle of earlier builds
await build({
  entryPoints: [join(ROOT, 'dist', 'machinery', 'worker.js')],
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  packages: 'external',
  outfile: join(ROOT, 'dist', 'machinery', 'worker.bundle.cjs'),
  banner: { js: `"use strict";\nvar __importMetaUrl = require("node:url").pathToFileURL(__filename).href;` },
  define: { 'import.meta.url': '__importMetaUrl' },
  logLevel: 'warning',
});

// The main thread's own modules (dist/bundle/, from dist/cli/main.js and dist/index.js, about 280
// files; packages stay imports): a run loaded each of them (a stat, a realpath and a compilation
// per file) before its first cell. Two entries split into shared chunks, so that the CLI
// (bin/lshdp runs dist/bundle/main.js) and the package's entry (package.json "exports" →
// dist/bundle/index.js, what a plugin's `import … from 'lshdp'` loads) share each module, and so
// one instance of the registries a plugin registers into. The commands' modules, which main.js
// imports only when their command runs, stay chunks of their own: a light command loads none of
// them. The chunks are one folder below dist/ like the modules they hold, so that a path a
// module finds from its own URL ('../vendor/…', '../../package.json') is the same from either.
// The packages stay imports but zod (95 ES modules, the config schema's): every module that
// builds a schema with it (the config's, the evaluations' blocks, the formats' keys) is lshdp's own
// and in this bundle, so the schema is of one zod, as before; a plugin hands over no zod schema.
rmSync(join(ROOT, 'dist', 'bundle'), { recursive: true, force: true }); // no chunk of an earlier build left
const cli = await build({
  absWorkingDir: ROOT,
  entryPoints: { main: 'dist/cli/main.js', index: 'dist/index.js' },
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  external: Object.keys(PACKAGE.dependencies).filter((name) => name !== 'zod'),
  outdir: 'dist/bundle',
  chunkNames: 'chunk-[hash]',
  metafile: true,
  logLevel: 'warning',
});
// which modules each file of the bundle holds (dist/bundle/modules.json): tests/cli/startup.test.ts
// checks what a light command loads module by module, through the bundle as a user runs it
const held = Object.fromEntries(
  Object.entries(cli.metafile.outputs)
    .filter(([file]) => file.endsWith('.js'))
    .map(([file, o]) => [file, Object.keys(o.inputs).sort()]),
);
writeFileSync(join(ROOT, 'dist', 'bundle', 'modules.json'), `${JSON.stringify(held, null, 1)}\n`);

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
