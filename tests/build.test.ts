/**
 * `npm ci && npm test` builds once (scripts/built.mjs): after a build, `prepare`'s and `pretest`'s
 * `build:if-stale` find dist/ current and skip it; a file changed under src/ or a build input, or a
 * start file missing, makes it build again. Run on a scratch copy of the layout, not this checkout.
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './helpers/cli.js';

function project(): string {
  const dir = mkdtempSync(join(tmpdir(), 'lshdp-built-'));
  for (const d of ['scripts', 'src/cli', 'dist/cli', 'dist/machinery', 'dist/bundle']) mkdirSync(join(dir, d), { recursive: true });
  copyFileSync(join(ROOT, 'scripts', 'built.mjs'), join(dir, 'scripts', 'built.mjs'));
  for (const f of ['tsconfig.json', 'package.json', 'package-lock.json', 'scripts/bundle.mjs', 'src/cli/main.ts']) writeFileSync(join(dir, f), '{}\n');
  for (const f of ['dist/cli/main.js', 'dist/index.js', 'dist/machinery/worker.bundle.cjs', 'dist/bundle/main.js', 'dist/bundle/index.js']) writeFileSync(join(dir, f), '\n');
  // every input a minute old: a build now is newer
  const old = new Date(Date.now() - 60_000);
  for (const f of ['tsconfig.json', 'package.json', 'package-lock.json', 'scripts/bundle.mjs', 'scripts/built.mjs', 'src/cli/main.ts']) utimesSync(join(dir, f), old, old);
  return dir;
}
const check = (dir: string) => spawnSync(process.execPath, [join(dir, 'scripts', 'built.mjs')], { encoding: 'utf8' });
const stamp = (dir: string) => spawnSync(process.execPath, [join(dir, 'scripts', 'built.mjs'), '--stamp']).status;

describe('build once when nothing changed', () => {
  it('no build yet: due; after one: current and skipped; a source or input edited, or an output gone: due again', () => {
    const dir = project();
    expect(check(dir)).toMatchObject({ status: 1, stdout: 'build: no finished build in dist/\n' });
    expect(stamp(dir)).toBe(0);
    expect(check(dir)).toMatchObject({ status: 0, stdout: 'build: dist/ is current (newer than src/ and the build inputs); skipped\n' });
    const later = new Date(Date.now() + 5_000);
    utimesSync(join(dir, 'src', 'cli', 'main.ts'), later, later);
    expect(check(dir)).toMatchObject({ status: 1, stdout: 'build: src/ or a build input changed since the last build\n' });
    expect(stamp(dir)).toBe(0);
    utimesSync(join(dir, 'src', 'cli', 'main.ts'), new Date(0), new Date(0));
    utimesSync(join(dir, 'package-lock.json'), new Date(Date.now() + 10_000), new Date(Date.now() + 10_000));
    expect(check(dir).status).toBe(1);
    utimesSync(join(dir, 'package-lock.json'), new Date(0), new Date(0));
    expect(check(dir).status).toBe(0);
    rmSync(join(dir, 'dist', 'machinery', 'worker.bundle.cjs'));
    expect(check(dir)).toMatchObject({ status: 1, stdout: 'build: dist/machinery/worker.bundle.cjs missing\n' });
    writeFileSync(join(dir, 'dist', 'machinery', 'worker.bundle.cjs'), '\n');
    rmSync(join(dir, 'dist', 'bundle', 'index.js'));
    expect(check(dir)).toMatchObject({ status: 1, stdout: 'build: dist/bundle/index.js missing\n' });
  });

  it('package.json: prepare and pretest build only when stale; build records the stamp', () => {
    const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
    expect(scripts['build:if-stale']).toBe('node scripts/built.mjs || npm run build');
    expect(scripts.build).toMatch(/ && node scripts\/built\.mjs --stamp$/);
    for (const s of ['prepare', 'pretest', 'pretest:full']) expect(scripts[s]).toMatch(/^npm run build:if-stale\b/);
  });
});
