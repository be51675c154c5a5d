import { describe, expect, it } from 'vitest';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { ROOT } from './helpers/cli.js';

/** Every .mjs under a folder (the scripts run against the built dist/, which tsc does not check). */
function scripts(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? scripts(join(dir, e.name)) : e.name.endsWith('.mjs') ? [join(dir, e.name)] : []));
}

describe('plain-JavaScript scripts and examples', () => {
  it('import only dist/ modules that exist (a moved source file must not break npm run bench)', async () => {
    const files = ['scripts', 'tests', 'examples'].flatMap((d) => scripts(join(ROOT, d)));
    expect(files.length).toBeGreaterThan(3);
    for (const f of files) {
      for (const m of readFileSync(f, 'utf8').matchAll(/from '(\.[^']*\/dist\/[^']+)'/g)) {
        const target = resolve(dirname(f), m[1]!);
        expect(existsSync(target), `${f.slice(ROOT.length + 1)} imports ${m[1]}`).toBe(true);
        // and the names it takes are exported there
        const names = /import \{([^}]*)\} from/.exec(
          readFileSync(f, 'utf8')
            .slice(0, m.index! + m[0].length)
            .split('\n')
            .pop()!,
        )?.[1];
        if (names) {
          const mod = (await import(target)) as Record<string, unknown>;
          for (const n of names
            .split(',')
            .map((x) => x.trim().split(/\s+as\s+/)[0]!)
            .filter(Boolean))
            expect(mod[n], `${f.slice(ROOT.length + 1)}: ${n} from ${m[1]}`).toBeDefined();
        }
      }
    }
  });
});
