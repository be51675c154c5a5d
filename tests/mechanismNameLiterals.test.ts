/**
 * A mechanism is one unit (src/mechanisms/): the code outside asks the unit for its facts, never
 * tests its name. Measured here: the string literals in src/ code outside src/mechanisms/ (not
 * comments; single, double or backtick quotes without substitutions) equal to a built-in
 * mechanism's name. A prefix test such as startsWith('rappor') counts, since its argument is such a
 * literal. `exact` is not counted: it is also an accountant's name. The count stays at most 10 and
 * every file that still holds one is listed, with why, in docs/ARCHITECTURE.md ("Mechanisms").
 * Literals are found with the TypeScript compiler's own parser.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { ROOT } from './helpers/cli.js';
import { nameLiterals, tsSources } from './helpers/literals.js';
import { BUILT_IN_FACTS } from '../src/mechanisms/catalog.js';

const CAP = 10;
/** The names counted: every built-in but the reference `exact` (also an accountant). */
const NAMES = new Set(BUILT_IN_FACTS.filter((m) => m.kind === 'code').map((m) => m.name));

/** The literals of src/ outside src/mechanisms/. */
function outsideMechanisms(): string[] {
  const found: string[] = [];
  for (const file of tsSources(join(ROOT, 'src'))) {
    const rel = relative(ROOT, file).split(sep).join('/');
    if (rel.startsWith('src/mechanisms/')) continue;
    found.push(...nameLiterals(rel, readFileSync(file, 'utf8'), NAMES));
  }
  return found;
}

/** docs/ARCHITECTURE.md's "Mechanisms" section (up to the next level-2 heading). */
function mechanismsSection(): string {
  const doc = readFileSync(join(ROOT, 'docs', 'ARCHITECTURE.md'), 'utf8');
  const start = doc.indexOf('\n## Mechanisms\n');
  expect(start, 'docs/ARCHITECTURE.md has a "## Mechanisms" section').toBeGreaterThanOrEqual(0);
  const end = doc.indexOf('\n## ', start + 1);
  return doc.slice(start, end < 0 ? undefined : end);
}

describe('mechanism names in code outside src/mechanisms/', () => {
  it('counts the built-in names', () => {
    expect([...NAMES].sort()).toEqual(['jl-gaussian', 'laplsh', 'lsh', 'lshrr', 'minhash-bucket', 'minhash-noisy', 'purkayastha', 'rappor', 'rappor-vector', 'vmf']);
  });

  it(`are at most ${CAP}, each file listed in docs/ARCHITECTURE.md with why`, () => {
    const found = outsideMechanisms();
    expect(found.length, found.join('\n')).toBeLessThanOrEqual(CAP);
    const section = mechanismsSection();
    const unlisted = [...new Set(found.map((f) => f.replace(/:\d+ .*$/, '')))].filter((file) => !section.includes(`${file}`));
    expect(unlisted).toEqual([]);
  });

  it('finds literals in every quote and in a prefix test, not in comments or names (the count can fail)', () => {
    const text = [
      "// 'lshrr' in a comment",
      '/* "vmf" in a block comment */',
      "const a = 'lshrr';",
      'const b = "rappor-vector";',
      'const c = `purkayastha`;',
      "const d = (s: string) => s.startsWith('rappor');",
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the planted source holds a template with a substitution
      'const e = `${a}-lsh`;',
      "const f = 'exact';",
      'const lsh = 1;',
      "const g = { laplsh: 'lsh ' };",
    ].join('\n');
    expect(nameLiterals('x.ts', text, NAMES)).toEqual(["x.ts:3 'lshrr'", "x.ts:4 'rappor-vector'", "x.ts:5 'purkayastha'", "x.ts:6 'rappor'"]);
  });
});
