/**
 * The layers of src/ (docs/ARCHITECTURE.md) as `npm run lint` checks them with dependency-cruiser
 * and .dependency-cruiser.cjs: the real tree passes, and a tree that breaks a rule on purpose fails
 * with the rule named, for a static import that climbs, a type-only one, a dynamic one, and a circle.
 */
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ROOT } from './helpers/cli.js';

const DEPCRUISE = join(ROOT, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');

function cruise(cwd: string): { status: number | null; out: string } {
  const r = spawnSync(process.execPath, [DEPCRUISE, 'src', '--config', '.dependency-cruiser.cjs', '--output-type', 'err'], { cwd, encoding: 'utf8' });
  return { status: r.status, out: r.stdout + r.stderr };
}

describe('import layers (dependency-cruiser)', () => {
  it('src/ keeps every layer rule and has no import circle', () => {
    const r = cruise(ROOT);
    expect(r.out).toContain('no dependency violations found');
    expect(r.status).toBe(0);
  });

  it('a tree that imports upward or in a circle fails, naming the rule', () => {
    const dir = mkdtempSync(join(tmpdir(), 'lshdp-layers-'));
    try {
      copyFileSync(join(ROOT, '.dependency-cruiser.cjs'), join(dir, '.dependency-cruiser.cjs'));
      writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true } }));
      const files: Record<string, string> = {
        // a static import that climbs (util is the bottom layer, cli the top)
        'src/util/a.ts': "import { b } from '../cli/b.js';\nexport const a = b;\n",
        'src/cli/b.ts': 'export const b = 1;\n',
        // a type-only import that climbs (lsh below mechanisms)
        'src/lsh/c.ts': "import type { M } from '../mechanisms/m.js';\nexport type C = M;\n",
        'src/mechanisms/m.ts': 'export interface M { x: number }\n',
        // a dynamic import that climbs (data below report)
        'src/data/d.ts': "export async function d() { return (await import('../report/r.js')).r; }\n",
        'src/report/r.ts': 'export const r = 2;\n',
        // the science importing the machinery (a folder beside it, one layer up: no exception)
        'src/experiment/s.ts': "import { t } from '../machinery/t.js';\nexport const s = t;\n",
        'src/machinery/t.ts': 'export const t = 3;\n',
        // privacy importing lsh (privacy sits beside data, below knn and lsh)
        'src/privacy/e.ts': "import { f } from '../lsh/f.js';\nexport const e = f;\n",
        'src/lsh/f.ts': 'export const f = 4;\n',
        // a circle inside one layer
        'src/knn/p.ts': "import { q } from './q.js';\nexport const p = () => q;\n",
        'src/knn/q.ts': "import { p } from './p.js';\nexport const q = () => p;\n",
      };
      for (const [f, text] of Object.entries(files)) {
        mkdirSync(dirname(join(dir, f)), { recursive: true });
        writeFileSync(join(dir, f), text);
      }
      const r = cruise(dir);
      expect(r.status).not.toBe(0);
      expect(r.out).toMatch(/layer-util: src\/util\/a\.ts → src\/cli\/b\.ts/);
      expect(r.out).toMatch(/layer-lsh: src\/lsh\/c\.ts → src\/mechanisms\/m\.ts/);
      expect(r.out).toMatch(/layer-data: src\/data\/d\.ts → src\/report\/r\.ts/);
      expect(r.out).toMatch(/layer-experiment: src\/experiment\/s\.ts → src\/machinery\/t\.ts/);
      expect(r.out).toMatch(/layer-privacy: src\/privacy\/e\.ts → src\/lsh\/f\.ts/);
      expect(r.out).toMatch(/no-circular: src\/knn\/(p|q)\.ts/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
