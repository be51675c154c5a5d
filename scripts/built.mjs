#!/usr/bin/env node
// Whether dist/ is current, so that `npm ci && npm test` builds once: `prepare` builds, and
// `pretest` (then `pretest:full`) find dist/ newer than everything the build reads and skip it.
//   node scripts/built.mjs           exit 0 when dist/ is current (says so), 1 when a build is due
//   node scripts/built.mjs --stamp   record a finished build (`npm run build`'s last step)
// Current: the stamp dist/.built is newer than every file under src/ and than the build's other
// inputs (tsconfig.json, package.json, package-lock.json, the build's scripts), and the files the
// CLI starts from are there. A file edited, a branch switched, dependencies changed: a build.
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const STAMP = join(ROOT, 'dist', '.built');
const INPUTS = ['tsconfig.json', 'package.json', 'package-lock.json', 'scripts/bundle.mjs', 'scripts/built.mjs'];
const OUTPUTS = ['dist/cli/main.js', 'dist/index.js', 'dist/machinery/worker.bundle.cjs', 'dist/bundle/main.js', 'dist/bundle/index.js'];

/** The newest modification time under `dir` (files only), or 0. */
function newest(dir) {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

if (process.argv.includes('--stamp')) {
  writeFileSync(STAMP, `${new Date().toISOString()}\n`);
  process.exit(0);
}
const missing = OUTPUTS.filter((f) => !existsSync(join(ROOT, f)));
const built = existsSync(STAMP) ? statSync(STAMP).mtimeMs : 0;
const inputs = Math.max(newest(join(ROOT, 'src')), ...INPUTS.map((f) => (existsSync(join(ROOT, f)) ? statSync(join(ROOT, f)).mtimeMs : 0)));
if (built > inputs && missing.length === 0) {
  console.log('build: dist/ is current (newer than src/ and the build inputs); skipped');
  process.exit(0);
}
console.log(built === 0 ? 'build: no finished build in dist/' : missing.length ? `build: ${missing.join(', ')} missing` : 'build: src/ or a build input changed since the last build');
process.exit(1);
