/**
 * The layers of src/ (docs/ARCHITECTURE.md) as `npm run lint` checks them with dependency-cruiser
 * and .dependency-cruiser.cjs: the real tree passes, and a tree that breaks a rule on purpose fails
 * with the rule named, for a static import that climbs, a type-only one, a dynamic one, and a circle.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ROOT } from './helpers/cli.js';

const DEPCRUISE = join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');

function cruise(cwd: string): { status: number | null; out: string } {
  const r = spawnSync(process.execPath, [DEPCRUISE, 'src', '--config', '.dependency-cruiser.cjs', '--output-type', 'err'], { cwd, encoding: 'utf8' });
  return { status: r.status, out: r.stdout + r.stderr };
}

// Violations planted beside a copy of the real src/, under names no real module has (`zz-*`), so
// one cruise checks both: every planted rule is reported, and nothing else is (the real tree clean).
const PLANTED: Record<string, string> = {
  // a static import that climbs (util is the bottom layer, cli the top)
  'src/util/zz-a.ts': "import { b } from '../cli/zz-b.js';\nexport const a = b;\n",
  'src/cli/zz-b.ts': 'export const b = 1;\n',
  // a type-only import that climbs (lsh below mechanisms)
  'src/lsh/zz-c.ts': "import type { M } from '../mechanisms/zz-m.js';\nexport type C = M;\n",
  'src/mechanisms/zz-m.ts': 'export interface M { x: number }\n',
  // a dynamic import that climbs (data below report)
  'src/data/zz-d.ts': "export async function d() { return (await import('../report/zz-r.js')).r; }\n",
  'src/report/zz-r.ts': 'export const r = 2;\n',
  // the science importing the machinery (a folder beside it, one layer up: no exception)
  'src/experiment/zz-s.ts': "import { t } from '../machinery/zz-t.js';\nexport const s = t;\n",
  'src/machinery/zz-t.ts': 'export const t = 3;\n',
  // privacy importing lsh (privacy sits beside data, below knn and lsh)
  'src/privacy/zz-e.ts': "import { f } from '../lsh/zz-f.js';\nexport const e = f;\n",
  'src/lsh/zz-f.ts': 'export const f = 4;\n',
  // a circle inside one layer
  'src/knn/zz-p.ts': "import { q } from './zz-q.js';\nexport const p = () => q;\n",
  'src/knn/zz-q.ts': "import { p } from './zz-p.js';\nexport const q = () => p;\n",
};

describe('import layers (dependency-cruiser)', () => {
  let dir = '';
  let r: { status: number | null; out: string } = { status: null, out: '' };
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'lshdp-layers-'));
    cpSync(join(ROOT, 'src'), join(dir, 'src'), { recursive: true });
    for (const f of ['.dependency-cruiser.cjs', 'tsconfig.json', 'package.json']) copyFileSync(join(ROOT, f), join(dir, f));
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
    for (const [f, text] of Object.entries(PLANTED)) {
      if (existsSync(join(dir, f))) throw new Error(`${f} exists in src/: pick another planted name`);
      mkdirSync(dirname(join(dir, f)), { recursive: true });
      writeFileSync(join(dir, f), text);
    }
    r = cruise(dir);
  }, 60_000);
  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('src/ keeps every layer rule and has no import circle (no violation outside the planted files)', () => {
    // every line that names a module in src/ (a violation's from and to) names only planted ones
    const named = r.out.match(/src\/[\w./-]+\.ts/g) ?? [];
    expect(named.length).toBeGreaterThan(0);
    expect(named.filter((m) => !Object.hasOwn(PLANTED, m))).toEqual([]);
    expect(r.out).toMatch(/\b6 dependency violations \(6 errors, 0 warnings\)/);
  });

  it('a tree that imports upward or in a circle fails, naming the rule', () => {
    expect(r.status).not.toBe(0);
    expect(r.out).toMatch(/layer-util: src\/util\/zz-a\.ts → src\/cli\/zz-b\.ts/);
    expect(r.out).toMatch(/layer-lsh: src\/lsh\/zz-c\.ts → src\/mechanisms\/zz-m\.ts/);
    expect(r.out).toMatch(/layer-data: src\/data\/zz-d\.ts → src\/report\/zz-r\.ts/);
    expect(r.out).toMatch(/layer-experiment: src\/experiment\/zz-s\.ts → src\/machinery\/zz-t\.ts/);
    expect(r.out).toMatch(/layer-privacy: src\/privacy\/zz-e\.ts → src\/lsh\/zz-f\.ts/);
    expect(r.out).toMatch(/no-circular: src\/knn\/zz-(p|q)\.ts/);
  });
});
