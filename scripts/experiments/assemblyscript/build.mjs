#!/usr/bin/env node
// Rebuilds infer.wasm from infer.ts (AssemblyScript) beside this file: `node
// scripts/experiments/assemblyscript/build.mjs [--out FILE]`. The issue 53 experiment, not part of
// the build: AssemblyScript is not a dependency of lshdp (its compiler and binaryen are about
// 100 MB), so install it where you want to rebuild, e.g. `npm install --no-save
// assemblyscript@0.28.20`, or point ASC_PACKAGE at an installed assemblyscript package folder.
// Other versions may emit other bytes: the committed module is 0.28.20's.
// tests/kernels/inferAssemblyScript.test.ts rebuilds it and compares bytes where the compiler is
// installed, and says it skipped where it is not.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const HERE = dirname(fileURLToPath(import.meta.url));
export const ASC_VERSION = '0.28.20';
/** asc's options: optimized, no garbage collector or allocator (the code only loads and stores), no abort import. */
export const ASC_FLAGS = ['-O3', '--runtime', 'stub', '--noAssert', '--use', 'abort=', '--initialMemory', '1'];

/** The installed assemblyscript package folder and its version, or null. */
export function findAsc() {
  let dir = process.env.ASC_PACKAGE;
  if (!dir) {
    try {
      dir = dirname(createRequire(join(HERE, '..', '..', '..', 'package.json')).resolve('assemblyscript/package.json'));
    } catch {
      return null;
    }
  }
  const pkg = join(dir, 'package.json');
  if (!existsSync(pkg)) return null;
  return { dir, version: JSON.parse(readFileSync(pkg, 'utf8')).version };
}

/** Compiles infer.ts into `out`; throws with asc's output when it fails. */
export function buildInfer(asc, out) {
  const r = spawnSync(process.execPath, [join(asc.dir, 'bin', 'asc.js'), join(HERE, 'infer.ts'), '-o', out, ...ASC_FLAGS], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`asc failed (${r.status}): ${r.stderr}${r.stdout}`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const asc = findAsc();
  if (!asc) {
    process.stderr.write(`assemblyscript is not installed: npm install --no-save assemblyscript@${ASC_VERSION} (or set ASC_PACKAGE)\n`);
    process.exit(2);
  }
  if (asc.version !== ASC_VERSION) process.stderr.write(`note: assemblyscript ${asc.version}; infer.wasm was built with ${ASC_VERSION}\n`);
  const i = process.argv.indexOf('--out');
  const out = i >= 0 ? process.argv[i + 1] : join(HERE, 'infer.wasm');
  buildInfer(asc, out);
  process.stdout.write(`wrote ${out}\n`);
}
